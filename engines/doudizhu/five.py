"""五人斗地主 (001 《五人斗地主》, GAMES.md §2.8): two decks, five seats, 明地主 and 暗地主.

Cards: two decks (108, notation as in ``four``); 21 each, kitty 3. Patterns (``classify``):
四人's, except that a pair of jokers is a bomb, not a pair (对子: "除王外"):

- 双王炸弹 ``BB`` or ``RR``; 三王炸弹 any three jokers (``BBR``, ``BRR``); 天王炸弹 ``BBRR``.
- Bomb ladder (ascending): 4-bomb < 双王 < 5-bomb < 6-bomb < 三王 < 7-bomb < 8-bomb < 天王;
  the same step compares by rank (``RR`` over ``BB``, ``BRR`` over ``BBR``).
- 倍数 per bomb played: 5-, 6-, 7-, 8-bomb, 三王 and 天王 ×2; a 4-bomb and 双王 nothing.

>>> classify(four.parse("BB")).pattern.name
'ROCKET'
>>> classify(four.parse("BR")) is None
True
>>> beats(classify(four.parse("BB")), classify(four.parse("AAAA")))
True
>>> beats(classify(four.parse("33333")), classify(four.parse("RR")))
True
>>> [p.text for p in plays(four.parse("BBR"))]
['B', 'R', 'BB', 'BBR']
"""

from __future__ import annotations

from engines.base import T
from engines.doudizhu import four
from engines.doudizhu.five_patterns import (
    _NO,
    _YES,
    FIVE_OPTIONS,
    SEATS,
    beats,
    bomb_factor,
    classify,
    plays,
    read,
    tier,
)
from engines.doudizhu.five_views import FiveViews
from engines.doudizhu.notation import BIG_JOKER, PASS_WORDS, SMALL_JOKER, Counts
from engines.doudizhu.patterns import Play
from engines.doudizhu.texts import NOTATION_ERRORS
from engines.errors import IllegalActionError


class FiveGame(FiveViews):
    """五人斗地主: 明地主 by a random card, the hidden 暗地主 holding its twin, 2 (or 1) vs 3.

    Its jobs live in modules of their own: the patterns (``five_patterns``), the hand's state,
    steps and offers (``five_state``), the settlement (``five_settlement``) and the views
    (``five_views``). This class reads the actions, plays them, and adds the trustee.
    """

    notation_errors = NOTATION_ERRORS

    def _apply(self, seat: int, text: str) -> str:
        low = " ".join(text.strip().lower().split())
        if self._phase in ("reveal", "double"):
            yes = "reveal" if self._phase == "reveal" else "double"
            no = "no" + yes
            if _YES.get(low) == yes or low == yes:
                return self._step(seat, True)
            if low == no or _NO.get(low) in (no, "decline"):
                return self._step(seat, False)
            raise IllegalActionError(
                f"now: {yes} or {no}",
                seat=seat,
                action=text,
                text=T("err.ddz.wrong_phase", actions=f"{yes} / {no}"),
            )
        if low in PASS_WORDS:
            if self.last is None:
                raise IllegalActionError(
                    "you lead: play any pattern",
                    seat=seat,
                    action=text,
                    text=T("err.ddz.must_lead"),
                )
            return self._pass(seat)
        return self._play(seat, read(text))

    def _step(self, seat: int, yes: bool) -> str:
        word = ("" if yes else "no") + ("reveal" if self._phase == "reveal" else "double")
        self.pending.remove(seat)
        self.status[seat] = word
        if self._phase == "reveal":
            self.revealed[seat] = yes
            if yes:
                self.known = True
        else:
            self.doubled[seat] = yes
        if not self.pending:
            if self._phase == "reveal":
                self._phase = "double"
                self.pending = [(self.landlord + i) % SEATS for i in range(SEATS)]
            else:
                self._phase = "play"
                self.turn = self.landlord
        return word

    def _pass(self, seat: int) -> str:
        self.status[seat] = "pass"
        self.rounds.pass_(seat)
        nxt = (seat + 1) % SEATS
        if nxt == self.last_seat:
            self.last = None  # everyone passed: the last player leads
            self.rounds.close(nxt)
            self.round_plays = {}
        self.turn = nxt
        return "pass"

    def _play(self, seat: int, play: Play) -> str:
        hand = self.hands[seat]
        if any(c > hand[r] for r, c in play.parts):
            raise IllegalActionError(
                "you do not hold these cards",
                seat=seat,
                action=play.text,
                text=T("err.ddz.not_held", cards=play.text),
            )
        if self.last is not None and not beats(play, self.last):
            raise IllegalActionError(
                f"does not beat {self.last.text}",
                seat=seat,
                action=play.text,
                text=T(
                    "err.ddz.not_beat",
                    cards=play.text,
                    last=self.last.text,
                    pattern=T("ddz.pattern." + self.last.pattern.name.lower()),
                ),
            )
        for r, c in play.parts:
            hand[r] -= c
        # 001: both declined, the 暗地主 is known when it plays the 明牌's twin; suits do not
        # matter in play, so its first card of that rank is the twin.
        if seat == self.partner and play.cards[self.marker[0]]:
            self.known = True
        self.played[seat] += 1
        if play.is_bomb:
            self.bomb_factors.append(bomb_factor(play))
        self.last = play
        self.last_seat = seat
        self.rounds.play(seat, play.text)
        self.round_plays[seat] = play
        self.status[seat] = play.text
        if not any(hand):
            self.winner = seat
            self.known = True
        else:
            self.turn = (seat + 1) % SEATS
        return play.text

    # --- trustee ------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: 亮出身份 (the 明地主's step; the 暗地主's offer: ``trustee_offer``) and 加倍 by
        the hand's ``power`` against the thresholds of the seat's role as the seat knows it
        (``trustee_role``), except that a 暗地主 still hidden doubles at a farmer's step (a
        lower one would make doubling a public hint of who it is); in play 四人's policy with
        what the seat knows of the sides."""
        if self._phase in ("reveal", "double"):
            table = REVEAL_AT if self._phase == "reveal" else DOUBLE_AT
            role = trustee_role(self, seat)
            if self._phase == "double" and role == "an" and not self.known:
                role = "farmer"  # 加倍 is public: a hidden 暗地主 doubles as a farmer would
            yes = power(self.hands[seat]) >= table[role]
            return ("" if yes else "no") + self._phase
        return choose(self, seat)

    def trustee_offer(self, seat: int) -> str | None:
        """托管 of a hidden 暗地主: it reveals by the same strength rule as a landlord's step
        (``REVEAL_AT["an"]``), at the first moment it is asked while the offer is open — in
        the 亮出身份 step, as the host asks after every action (``Game.trustee_offer``)."""
        if self.open_offers(seat) and power(self.hands[seat]) >= REVEAL_AT["an"]:
            return "reveal"
        return None


def power(hand: list[int] | Counts) -> int:
    """牌力 of a 五人 hand for 亮出身份 and 加倍: jokers (大王 5, 小王 3), 2s, half the As and 4
    per bomb count for; the plays the hand needs (``four.units``) and every bomb card beyond
    four (a long bomb spends cards a short one keeps) against. The weights are a logistic
    fit of the side's wins on the hand in 3,000 seeded all-trustee hands."""
    bombs = sum(1 for r in range(13) if hand[r] >= 4)
    extra = sum(hand[r] - 4 for r in range(13) if hand[r] > 4)
    top = 5 * hand[BIG_JOKER] + 3 * hand[SMALL_JOKER] + hand[12] + hand[11] // 2
    return top + 4 * bombs - 2 * extra - four.units(hand)


def trustee_role(game: FiveGame, seat: int) -> str:
    """The seat's side as it knows it: ``ming`` / ``an`` (the two landlords), ``alone`` (a
    明地主 who holds or sees the twin: in its hand or the kitty), ``farmer2`` / ``farmer1``
    (a farmer once the sides are public: against two landlords or one), ``farmer`` (a farmer
    who does not know yet whether there is a 暗地主)."""
    if seat == game.landlord:
        return "alone" if game.partner is None else "ming"
    if seat == game.partner:
        return "an"
    if game.known:
        return "farmer1" if game.partner is None else "farmer2"
    return "farmer"


REVEAL_AT = {"ming": 4, "an": 2, "alone": 12}
"""``power`` at which the trustee reveals (亮出身份), by role. Revealing doubles every pair
and tells the farmers who the 暗地主 is: in 951 seeded all-trustee deals with a 暗地主, each
played both ways, the landlords won 52.8 % when both declined and 50.3 % when the 明地主
revealed, so it pays from about 55 % to win; a 明地主 at power 4 or more won 69 %, a 暗地主
at 2 or more 62 %. A lone 明地主 (1 against 4) wins 37 % overall and 55 % at its best
hands: it reveals only a hand that all but wins alone."""
DOUBLE_AT = {"ming": 4, "an": 2, "alone": 6, "farmer2": 6, "farmer1": 2, "farmer": 4}
"""``power`` at which the trustee doubles (加倍: its own pairs ×2), by role: where the side
won about 60 % or more in the same hands (farmers: 64 % at 6 against two landlords, 67 % at
2 against one; not knowing which, 4). Over 1,000 other seeded all-trustee deals (底分 1)
the landlords' points per deal went from −0.15 to +0.06 with these steps against farmers
who always decline, and the farmers' from +0.15 to +0.19 the other way round."""


def choose(game: FiveGame, seat: int) -> str:
    """Play like 四人's trustee: fewest plays left, bombs kept whole; a known partner's
    play stands; a bomb only against an opponent close to going out, or to go out."""
    hand = game.hands[seat]
    options = plays(tuple(hand), game.last)
    size = sum(hand)
    for p in options:
        if p.size == size:
            return p.text
    lands = game.knows_landlords(seat)
    mine = seat in lands
    opponents = [s for s in range(SEATS) if s != seat and (s in lands) != mine]
    if not mine and len(lands) < len(game.landlords):
        opponents = list(lands)  # a farmer who does not know the 暗地主 yet
    danger = min((sum(game.hands[o]) for o in opponents), default=99)
    plain = [p for p in options if not p.is_bomb]
    whole = [p for p in plain if not four._breaks(hand, p)]

    def score(p: Play) -> tuple[int, int]:
        key = -p.key if danger <= p.size else p.key
        return four.units(four._rest(hand, p)), key

    if game.last is None:
        pool = whole or plain or options
        return min(pool, key=score).text
    ally = game.last_seat is not None and game.last_seat not in opponents
    if ally and (mine or len(lands) == len(game.landlords)):
        return "pass"
    if whole:
        return min(whole, key=score).text
    if options and (danger <= 6 or plain):
        pool = plain or options
        return min(pool, key=lambda p: (tier(p) if p.is_bomb else -1, p.size, p.key)).text
    return "pass"


__all__ = [
    "DOUBLE_AT",
    "FIVE_OPTIONS",
    "REVEAL_AT",
    "FiveGame",
    "beats",
    "bomb_factor",
    "choose",
    "classify",
    "plays",
    "power",
    "read",
    "trustee_role",
]

