"""出牌与吃碰杠胡: a discard and the claim window it opens (碰/杠/胡, 吃 where a preset has
it), the 抢杠 window of a 补杠, and how a closed window resolves (胡 beats 杠/碰).
"""

from __future__ import annotations

from engines.base import T
from engines.errors import IllegalActionError
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.names import group_text, tile_status, tile_text
from engines.mahjong.notation import chi_action, parse_action
from engines.mahjong.state import CLAIM, DISCARD, Claim
from engines.mahjong.tiles import parse_tiles, tile_name
from engines.mahjong.turns import MahjongTurns


class MahjongClaims(MahjongTurns):
    """Discards and claims: who may claim a tile, the window, the answers and the resolution."""

    def _discard(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        self.rivers[seat].append(tile)
        self.discarded[seat] = True
        gold = self.shop is not None and seat in self.shop.gold
        self.status[seat] = tile_status(
            "mj.status.discard_gold" if gold else "mj.status.discard", tile
        )
        if self.shop is not None:
            self.shop.turns[seat] += 1
        self.last_discard = (seat, tile)
        after_kong = self.turn_kong
        self.drawn = None
        self.turn_kong = None
        options: dict[int, list[str]] = {}
        forced: list[int] = []
        for k in range(1, self.N):
            s = (seat + k) % self.N
            if s in self.winners():
                continue
            opts = []
            if self.can_win_with(s, tile, discard=True):
                if self.last_four():
                    forced.append(s)
                    continue
                opts.append("hu")
            if self._claimable(s, tile):
                if self.hands[s][tile] == 3 and not self.exhausted():
                    opts.append(f"gang {tile_name(tile)}")
                if self.hands[s][tile] >= 2:
                    opts.append("peng")
                if k == 1:
                    opts += self._chi_options(s, tile)
            if opts:
                options[s] = [*opts, "pass"]
        if forced:
            self._ron(forced, tile, seat, robbed=False, after_kong=after_kong)
        elif options:
            self._open_claim(Claim("discard", tile, seat, options, after_kong=after_kong))
        else:
            self._next_draw(seat)

    def _claimable(self, seat: int, tile: int) -> bool:
        """May ``seat`` 碰/杠 (吃) ``tile`` at all? Not a tile of its 定缺 suit (缺一门 without
        定缺 refuses no claim: the seeds do not)."""
        return tile // 9 != self.que[seat]

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        """吃 open to the seat after the discarder (none in the Sichuan presets)."""
        return []

    def chi_runs(self, seat: int, tile: int, barred: tuple[int, ...] = ()) -> list[str]:
        """The 吃 of ``tile`` the seat's hand allows: runs whose other two tiles it holds
        (none of them a ``barred`` kind)."""
        if tile >= 27:
            return []
        hand = self.hands[seat]
        out = []
        for start in range(max(tile - 2, tile - tile % 9), min(tile, tile - tile % 9 + 6) + 1):
            others = [t for t in (start, start + 1, start + 2) if t != tile]
            if all(hand[t] and t not in barred for t in others):
                out.append(chi_action(start))
        return out

    def _open_claim(self, claim: Claim) -> None:
        self.claim = claim
        self._phase = CLAIM
        self._open_window()

    def _answer(self, seat: int, kind: str, value: int | None, text: str) -> str:
        claim = self.claim
        assert claim is not None
        options = claim.options[seat]
        action = kind
        if kind == "gang":
            action = f"gang {tile_name(claim.tile)}"
            if value is not None and value != claim.tile:
                action = "?"
        elif kind == "chi":
            chis = [o for o in options if o.startswith("chi")]
            action = (
                chi_action(value) if value is not None else (chis[0] if len(chis) == 1 else "?")
            )
        if action not in options:
            raise IllegalActionError(
                f"you may now: {', '.join(options)}",
                seat=seat,
                action=text,
                text=T("err.mj.claim_options", options=", ".join(options)),
            )
        claim.answers[seat] = action
        if len(claim.answers) == len(claim.options):
            self._resolve(claim)
        return action

    def _resolve(self, claim: Claim) -> None:
        self.claim = None
        order = sorted(claim.options, key=lambda s: (s - claim.source) % self.N)
        hus = [s for s in order if claim.answers[s] == "hu"]
        for s in order:
            # a declined 胡 is private: only an eligible seat could pass, so the table keeps
            # the seat's last public action (issue 23); 过手 is noted for the rules alone
            if "hu" in claim.options[s] and claim.answers[s] != "hu":
                self._passed_win(s, claim.tile)
        if claim.kind == "rob":
            if hus:
                self._ron(hus, claim.tile, claim.source, robbed=True, after_kong=None)
            else:
                self._complete_bugang(claim.source, claim.tile)
            return
        if hus:
            self._ron(hus, claim.tile, claim.source, robbed=False, after_kong=claim.after_kong)
            return
        for s in order:
            answer = claim.answers[s]
            if answer.startswith("gang"):
                self._zhigang(s, claim.tile, claim.source)
                return
            if answer == "peng":
                self._peng(s, claim.tile, claim.source)
                return
        for s in order:
            answer = claim.answers[s]
            if answer.startswith("chi"):
                self._chi(s, claim.tile, claim.source, answer)
                return
        self._next_draw(claim.source)

    def _passed_win(self, seat: int, tile: int) -> None:
        """The seat declined a 胡 on ``tile``: 002's 过手 blocks it until it draws."""
        if self.rules.guoshou:
            self.blocked.add(seat)

    def _peng(self, seat: int, tile: int, source: int) -> None:
        self._take_discard(source, tile)
        self.hands[seat][tile] -= 2
        self.melds[seat].append(Meld(MeldKind.PENG, tile, source))
        self.claimed = True
        self.turn, self.drawn, self.turn_kong = seat, None, None
        self._phase = DISCARD
        self.status[seat] = T("mj.status.peng", tile=tile_text(tile))

    def _chi(self, seat: int, tile: int, source: int, action: str) -> None:
        """吃 (上): the run ``action`` names, the discard with two tiles of the hand."""
        self._take_discard(source, tile)
        start = parse_action(action)[1]
        assert start is not None
        for t in (start, start + 1, start + 2):
            if t != tile:
                self.hands[seat][t] -= 1
        self.melds[seat].append(Meld(MeldKind.CHI, start, source, tile))
        self.claimed = True
        self.turn, self.drawn, self.turn_kong = seat, None, None
        self._phase = DISCARD
        self.status[seat] = T("mj.status.chi", tiles=group_text(parse_tiles(action[4:])))

    def _kong(self, seat: int, tile: int) -> None:
        """A kong on the seat's own turn: 暗杠 of four in hand, else 补杠 onto its 碰."""
        if self.hands[seat][tile] == 4:
            self._angang(seat, tile)
        else:
            self._bugang(seat, tile)

    def _bugang(self, seat: int, tile: int) -> None:
        """面下杠: others may rob it (抢杠胡) first; the tile stays in hand until it stands."""
        self.drawn = None
        self.status[seat] = T("mj.status.bugang", tile=tile_text(tile))
        robbers = [
            (seat + k) % self.N
            for k in range(1, self.N)
            if self.can_win_with((seat + k) % self.N, tile, discard=True)
        ]
        if robbers and self.last_four():
            self._ron(robbers, tile, seat, robbed=True, after_kong=None)
        elif robbers:
            self._open_claim(Claim("rob", tile, seat, {s: ["hu", "pass"] for s in robbers}))
        else:
            self._complete_bugang(seat, tile)
