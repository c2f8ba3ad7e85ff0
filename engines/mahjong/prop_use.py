"""道具的使用: buying and using the props (engines.mahjong.props) at a mahjong table — when a
prop is refused, what it does to the hand and the wall, and the lines it leaves.
"""

from __future__ import annotations

from engines.base import T, Text
from engines.errors import IllegalActionError
from engines.mahjong.names import tile_text
from engines.mahjong.props import PROPS, Shop
from engines.mahjong.state import DINGQUE, DISCARD, MahjongState
from engines.mahjong.tiles import tile_name


class PropUse(MahjongState):
    """道具: the props a seat may use now, their effects, and the table's lines about them."""

    def _prop_turn_open(self, seat: int) -> bool:
        """Is it ``seat``'s own turn to discard, where the turn props may be used?"""
        return not self.ended and self._phase == DISCARD and seat == self.turn

    def _prop_refusal(self, seat: int, prop: str, tiles: tuple[int, ...]) -> Text | None:
        """Why ``seat`` may not use ``prop`` with ``tiles`` now (None: it may)."""
        shop = self.shop
        if shop is None:
            return T("err.mj.prop_off")
        name = T(f"mj.prop.{prop}")
        price = shop.prices[prop]
        if not price:
            return T("err.mj.prop_not_sold", prop=name)
        if self.setup.coefficient <= 0:
            return T("err.mj.prop_score_only")
        stake = self.setup.stakes[seat] if seat < len(self.setup.stakes) else None
        left = 0 if stake is None else stake * self.setup.coefficient - shop.spent[seat]
        if price > left:
            return T("err.mj.prop_stake", prop=name, price=price, left=max(left, 0))
        if shop.once(seat, prop) in shop.used:
            return T("err.mj.prop_used", prop=name)
        if prop == "qiankun":
            first = not self.discarded[seat] and not self.melds[seat] and not self.ended
            if not first or not (
                (self._phase == DINGQUE and self.que[seat] is None)
                or self._prop_turn_open(seat)
            ):
                return T("err.mj.prop_not_now", prop=name)
            return None
        if not self._prop_turn_open(seat):
            return T("err.mj.prop_not_now", prop=name)
        for t in tiles:
            if t >= self.KINDS:
                return T("err.mj.prop_no_tile", tile=tile_text(t))
        wall = self.wall[self.pos :]
        if prop in ("toutian", "yihua"):
            if not self.hands[seat][tiles[0]]:
                return T("err.mj.not_held", tile=tile_text(tiles[0]))
            if not wall:
                return T("err.mj.prop_wall_empty", prop=name)
        if prop == "toutian":
            if tiles[1] == tiles[0]:
                return T("err.mj.prop_same", tile=tile_text(tiles[0]))
            if tiles[1] not in wall:
                return T("err.mj.prop_not_in_wall", tile=tile_text(tiles[1]))
        if prop == "shunfeng" and not wall:
            return T("err.mj.prop_wall_empty", prop=name)
        return None

    def prop_actions(self, seat: int) -> list[str]:
        """The prop actions ``seat`` may take now (none without a shop, or refused)."""
        if self.shop is None or seat not in self.to_act():
            return []
        out = []
        held = [t for t in range(self.KINDS) if self.hands[seat][t]]
        wall = sorted(set(self.wall[self.pos :]))
        for prop in PROPS:
            combos: list[tuple[int, ...]]
            if prop == "toutian":
                combos = [(g, t) for g in held for t in wall if t != g]
            elif prop == "yihua":
                combos = [(g,) for g in held]
            elif prop == "qianliyan":
                combos = [(t,) for t in range(self.KINDS)]
            else:
                combos = [()]
            for tiles in combos:
                if self._prop_refusal(seat, prop, tiles) is None:
                    out.append(" ".join(["prop", prop, *(tile_name(t) for t in tiles)]))
                else:
                    break  # a refusal that is not about the tiles refuses them all
        return out

    def _use_prop(self, seat: int, prop: str, tiles: tuple[int, ...], text: str) -> str:
        refusal = self._prop_refusal(seat, prop, tiles)
        if refusal is not None:
            raise IllegalActionError(
                f"{prop} refused: {refusal.key}", seat=seat, action=text, text=refusal
            )
        shop = self.shop
        assert shop is not None
        shop.buy(seat, prop)
        getattr(self, f"_prop_{prop}")(seat, shop, *tiles)
        self.status[seat] = T("mj.status.prop", prop=T(f"mj.prop.{prop}"))
        return " ".join(["prop", prop, *(tile_name(t) for t in tiles)])

    def _swap_with_wall(self, seat: int, give: int, at: int) -> int:
        """The tile at wall index ``at`` goes to the seat's hand, ``give`` takes its place."""
        take = self.wall[at]
        self.wall[at] = give
        self.hands[seat][give] -= 1
        self.hands[seat][take] += 1
        if self.drawn == give and seat == self.turn:
            self.drawn = take  # the tile just drawn was the one given away
        return take

    def _prop_qiankun(self, seat: int, shop: Shop) -> None:
        """乾坤大挪移: the seat's concealed tiles go back into the wall, which is shuffled; it
        is dealt as many again, all but two of one suit (not its 缺) as far as the wall has
        them."""
        hand = self.hands[seat]
        n = sum(hand)
        pool = [t for t in range(self.KINDS) for _ in range(hand[t])] + self.wall[self.pos :]
        shop.rng.shuffle(pool)
        suit = shop.rng.choice([s for s in range(3) if s != self.que[seat]])
        suited = [i for i, t in enumerate(pool) if t // 9 == suit][: n - 2]
        rest = [i for i in range(len(pool)) if i not in set(suited)]
        dealt_at = suited + rest[: n - len(suited)]
        dealt = [pool[i] for i in dealt_at]
        taken = set(dealt_at)
        self.wall[self.pos :] = [t for i, t in enumerate(pool) if i not in taken]
        self.hands[seat] = [0] * 34
        for t in dealt:
            self.hands[seat][t] += 1
        if self.drawn is not None and seat == self.turn:
            self.drawn = dealt[-1]
        shop.note(seat, T("mj.line.prop_qiankun", suit=T(f"mj.suit.{'mps'[suit]}")))

    def _prop_toutian(self, seat: int, shop: Shop, give: int, want: int) -> None:
        """偷天换日: a copy of ``want`` (one of those in the wall, at random) for ``give``."""
        at = shop.rng.choice([i for i in range(self.pos, len(self.wall)) if self.wall[i] == want])
        self._swap_with_wall(seat, give, at)
        shop.note(seat, T("mj.line.prop_swap", prop=T("mj.prop.toutian"),
                          give=tile_text(give), take=tile_text(want)))

    def _prop_yihua(self, seat: int, shop: Shop, give: int) -> None:
        """移花接木: a random tile of the wall for ``give``."""
        take = self._swap_with_wall(seat, give, shop.rng.randrange(self.pos, len(self.wall)))
        shop.note(seat, T("mj.line.prop_swap", prop=T("mj.prop.yihua"),
                          give=tile_text(give), take=tile_text(take)))

    def _prop_qianliyan(self, seat: int, shop: Shop, tile: int) -> None:
        """千里眼: which quarter of the wall left (1 = drawn soonest) holds the next ``tile``."""
        wall = self.wall[self.pos :]
        if tile not in wall:
            shop.note(seat, T("mj.line.prop_qianliyan_none", tile=tile_text(tile)))
            return
        quarter = wall.index(tile) * 4 // len(wall) + 1
        shop.note(seat, T("mj.line.prop_qianliyan", tile=tile_text(tile), n=len(wall),
                          q=quarter))

    def _prop_shunfeng(self, seat: int, shop: Shop) -> None:
        """顺风耳: the next tile of the wall (as it stands now)."""
        shop.note(seat, T("mj.line.prop_shunfeng", tile=tile_text(self.wall[self.pos]),
                          n=self.wall_left()))

    def _prop_jinshouzhi(self, seat: int, shop: Shop) -> None:
        """金手指: the seat's discards carry the golden finger for the rest of the hand."""
        shop.gold.add(seat)

    def _prop_lines(self, seat: int | None) -> list[Text]:
        """The last prop used (its name only, for everyone), the golden fingers, and the
        viewer's own prop notes."""
        shop = self.shop
        if shop is None:
            return []
        lines = [T("mj.line.prop_gold", seat=s + 1) for s in sorted(shop.gold)]
        if shop.bought:
            s, prop, _ = shop.bought[-1]
            lines.append(T("mj.line.prop_used", seat=s + 1, prop=T(f"mj.prop.{prop}")))
        if seat is not None:
            lines += shop.notes[seat]
        return lines
