"""Private hands (DMs) of the ``TableManager``: when each person's hand is shown again.

A part of ``TableManager`` (bot/host/tables.py), which inherits it; it uses the manager's
tables, locks, notifier, referee and timers.
"""

from __future__ import annotations

from typing import Any

from bot.host.model import Table, private_digest


class PrivateHands:
    """私有手牌: each person's private hand (their DM), shown once they hold one and redrawn
    whenever what it shows changes (``private_digest``); its message id kept.

    ``faces``: (table, seat) → the waiting face (``Game.private_face`` and the open offers)
    last digested there, with its digest; one entry per seat of a channel ever played."""

    faces: dict[tuple[int, int], tuple[Any, int]]

    async def save_dm(self, table: Table, seat: int, message_id: int) -> None:
        """Remember the DM that shows ``seat`` its hand, so the next update edits it.

        May be called from ``Notifier.hand_dealt`` (the table's lock is then held by the host,
        which saves the table right after; a change made while another call holds the lock is
        saved with the table's next change); otherwise the table is saved here."""
        table.dms[str(seat)] = message_id
        if self.tables.get(table.id) is not table or self.lock(table.id).locked():
            return
        async with self.lock(table.id):
            if self.tables.get(table.id) is table:
                await self._save(table)

    async def _deal_private(self, table: Table) -> None:
        """Show each person their hand the first time they can see one (at the deal in most
        games, after a phase in others), and again whenever what it shows changed
        (``private_digest``), whoever or whatever changed it; never when it did not."""
        game = table.game
        assert game is not None
        acting = self.private_acting(table)
        faces = self.faces
        for index, seat in enumerate(table.seats):
            if seat.uid is None or seat.escaped or seat.kicked:
                continue
            key = str(index)
            was = table.sent.get(key)
            if was is None and not game.view(index).hand:
                continue  # not shown yet: only once the seat holds a hand
            face = None
            if index not in acting:
                # a waiting seat's digest follows from its face and offers alone: the same
                # face that last gave the digest it was sent needs neither repr nor digest
                face = (game.private_face(index), game.open_offers(index))
                last = faces.get((table.id, index))
                if last is not None and last[1] == was and last[0] == face:
                    continue
            digest = private_digest(game, index, acting)
            if face is not None:
                faces[(table.id, index)] = (face, digest)
            if was == digest:
                continue
            table.sent[key] = digest
            await self.notifier.hand_dealt(table, index)

    def private_acting(self, table: Table) -> tuple[int, ...]:
        """The seats whose private hand shows a turn: those the game waits for, but a seat
        whose only answer is the pass the host makes for it (要不起, auto-pass on), which has
        nothing to decide: its DM keeps waiting, and the pass comes after the same delay as
        anyone's (``Referee.only_action``)."""
        game = table.game
        if game is None:
            return ()
        timer = self.timer(table, game.phase())
        return tuple(s for s in game.to_act()
                     if self.referee.only_action(table, game, s, timer) is None)
