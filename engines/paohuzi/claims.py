"""跑胡子's claims: reading a claimant's answer, and resolving a closed window (胡 beats 跑,
跑 beats 碰, 碰 beats 吃; 臭牌 and 忍碰 for chances passed up).
"""

from __future__ import annotations

from typing import Any

from engines.base import T, Text, Window
from engines.errors import IllegalActionError
from engines.paohuzi.groups import Group, Kind
from engines.paohuzi.state import SEATS, Claim
from engines.paohuzi.tiles import format_group, parse_tiles, tile_zh
from engines.paohuzi.turns import PaohuziTurns


class PaohuziClaims(PaohuziTurns):
    """Answers to a tile on offer and the window's resolution: 胡, 跑, 碰, 吃 or the river."""

    def _claim_action(self, seat: int, kind: str, value: list[Any], text: str) -> str:
        claim = self.claim
        assert claim is not None
        options = claim.options[seat]
        action = kind
        if kind == "chi":
            chis = [o for o in options if o.startswith("chi")]
            typed = [list(g) for g in value]
            if typed and len(typed[0]) == 2:
                typed[0].append(claim.tile)
            wanted = sorted(format_group(g) for g in typed)
            action = " ".join(["chi", *wanted])
            if not typed and len(chis) == 1:
                action = chis[0]
            elif len(wanted) == 1 and action not in chis:
                found = [o for o in chis if wanted[0] in o.split()[1:]]
                if len(found) == 1:
                    action = found[0]
        elif kind == "discard":
            action = "?"
        if action not in options:
            raise IllegalActionError(
                f"you may now: {', '.join(options)}",
                seat=seat,
                action=text,
                text=T("err.phz.options", options=", ".join(options)),
            )
        return action

    def _resolve(self, claim: Claim) -> None:
        self.claim = None
        order = sorted(claim.options, key=lambda s: (s - claim.source) % SEATS)
        t = claim.tile
        taken = False
        for s in order:
            if claim.answers[s] == "hu":
                how = "own" if s == claim.source else claim.kind
                win = self.win_check(s, t, how)
                assert win is not None
                source = None if s == claim.source else claim.source
                self._win(win, source)
                return
        # Declined chances: 臭牌 for a 吃/碰 passed up, 忍碰 for a 碰 passed up.
        for s in order:
            opts, answer = claim.options[s], claim.answers[s]
            if answer == "pass":
                if any(o == "peng" or o.startswith("chi") for o in opts):
                    self.chou[s].add(t)
                if "peng" in opts:
                    self.renpeng[s].add(t)
                # no "passed" on the seat line: only a seat that could claim can pass, so the
                # table would learn who held a pair of the tile (issue 23)
        for wanted in ("pao", "peng", "chi"):
            for s in order:
                if claim.answers[s].startswith(wanted):
                    if wanted == "pao":
                        self._pao(s, t)
                    elif wanted == "peng":
                        self._peng(s, t)
                    else:
                        self._chi(s, t, claim.answers[s])
                    taken = True
                    break
            if taken:
                return
        self._to_river(claim.source, t)
        self._next_draw(claim.source)

    def _took(self, seat: int, what: Text) -> None:
        """What the closed window took: ``what`` on the taker's seat line, and the table's
        last event in base's one form (``Window.took``)."""
        self.status[seat] = what
        self.last_event = Window.took(seat, what)

    def _pao(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        i = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI, Kind.PENG)
        if hand[tile] == 3:
            hand[tile] = 0
            self.groups[seat].append(Group(Kind.PAO, (tile,) * 4))
        else:
            assert i is not None
            self.groups[seat][i] = Group(Kind.PAO, (tile,) * 4)
        self._took(seat, T("phz.status.pao", tile=tile_zh(tile)))
        again = self.paos[seat] > 0
        self.paos[seat] += 1
        self._turn_start(seat, discard=not again, self_draw=False)  # 重跑: no discard

    def _peng(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 2
        self.groups[seat].append(Group(Kind.PENG, (tile,) * 3))
        self._took(seat, T("phz.status.peng", tile=tile_zh(tile)))
        self._turn_start(seat, discard=True, self_draw=False)

    def _chi(self, seat: int, tile: int, action: str) -> None:
        hand = self.hands[seat]
        hand[tile] += 1  # the claimed tile joins, then every group goes down
        names = []
        for word in action.split()[1:]:
            group = tuple(parse_tiles(word))
            for u in group:
                hand[u] -= 1
            self.groups[seat].append(Group(Kind.CHI, group))
            names.append("".join(tile_zh(u) for u in group))
        self._took(seat, T("phz.status.chi", groups=" ".join(names)))
        self._turn_start(seat, discard=True, self_draw=False)
