"""Decision windows and the trustee, once in base (issue 24, items 1 and 3).

A private window (a claim on a discard, 够级's 烧, 升级's 反主, 打滚子's joker window) asks some
seats privately; while it is open the table shows its phase and countdown only. Every registered
game declares its windows (``Game.decision``) and base derives the hooks the host reads, so one
test drives every game's windows: each privately asked seat answers every way it may, and
whatever leaves the window open must look the same to the table and to every other seat (the
public view, the other seats' views, ``public_to_act``, ``window``) as declining does. Windows
where nobody or only one seat may claim are compared per family, on constructed tables
(tests/engines/mahjong/test_privacy.py, paohuzi/test_hidden.py, gouji/test_hidden.py,
doudizhu/test_five_hidden.py, the ``who_could`` tests of 升级 and 打滚子). The phase the table
shows while a private window is open is built by base (``Game.window_phase``) in one form for
every family, from the window's opening to its close. Once closed, a window shows only what
was taken: every window met is closed every way its answers allow (declines in either order, a
seat's take before or after the others declined), the table and the seats not asked must see
the same in each pair, the decliners' seat lines nothing of their answers, and the record of
the take (base's ``Window.took``) must name the taker alone. And for every private window kind
met (``TWINS``), twin tables where more or fewer seats could answer must look the same once it
closed, by declines or by timeouts.

Bug it found: in 打滚子's joker window the kitty line showed a joker as soon as a seat buried it,
while the others were still answering, so the table learnt who held one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from bot.i18n import render
from engines import registry
from engines.base import Game, SeatView, Setup
from engines.errors import IllegalActionError
from engines.gouji.state import TWO
from engines.shengji import SHENGJI_HAPPY
from engines.trick.cards import NCARDS, parse_ids
from tests.engines.dagunzi import test_dagunzi as dagunzi_game
from tests.engines.gouji import test_hidden as gouji_hidden
from tests.engines.mahjong import mj_support as mj
from tests.engines.paohuzi import test_hidden as phz_hidden
from tests.engines.shengji import test_game as shengji_game

SEEDS = range(6)
MAX_STEPS = 700
WINDOWS = 12  # private windows checked per game
WITH_PRIVATE_WINDOWS = ("sichuan", "xuezhan", "wuhan", "yongzhou", "paohuzi", "gouji",
                        "gouji_new", "shengji", "shengji_happy", "dagunzi")
"""Games whose windows the table names nobody in (claims, 宣点, 烧, 反主, 亮大王, 扣王)."""


def private_seats(game: Game) -> tuple[int, ...]:
    """Seats asked to answer now that the table does not name."""
    shown = set(game.public_to_act())
    return tuple(s for s in game.to_act() if s not in shown)


def seen(game: Game, but: int) -> list[Any]:
    """Everything the table and every seat other than ``but`` can see or the host tells."""
    views = [game.view(v).to_json() for v in range(game.setup.seats) if v != but]
    return [game.view(None).to_json(), views, game.public_to_act(), game.window()]


def decline(game: Game, seat: int) -> str:
    """The answer of a seat that lets the window pass: its timeout answer, no miss."""
    timeout = game.timeout_action(seat)
    assert not timeout.miss, f"letting a private window pass counts as a miss for {seat + 1}"
    return timeout.action


def walked(key: str, seeds: Iterable[int]) -> Iterator[tuple[int, Game]]:
    """Each position of hands of ``key`` the trustee plays from ``seeds`` (up to
    ``MAX_STEPS`` actions a hand), with the seat that acted last (-1 before the first action);
    the game goes on from the position as it is after the caller is done with it."""
    spec = registry.get(key)
    for seed in seeds:
        game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                              options=spec.validate({})))
        last = -1
        for _ in range(MAX_STEPS):
            if game.is_over():
                break
            yield last, game
            if game.is_over():  # (the caller's own answer may have ended it)
                break
            last = game.to_act()[0]
            game.apply(last, game.trustee(last))


def copy(game: Game) -> Game:
    return type(game).from_record(game.to_record())


def check_answers(key: str, game: Game) -> int:
    """Each privately asked seat, in turn, answers every way it may: whatever leaves the window
    open must look the same to the table and to every other seat (phase and countdown only);
    then it declines and the next seat answers. Returns how many answers were compared."""
    game = copy(game)
    opened = game.window()
    compared = 0
    while private := private_seats(game):
        seat = private[0]
        no = decline(game, seat)
        looks: dict[str, list[Any]] = {}
        for action in game.legal_actions(seat)[:8]:
            other = copy(game)
            other.apply(seat, action)
            if other.window() == opened and other.phase() == game.phase() and not other.is_over():
                looks[action] = seen(other, seat)
        if no in looks:
            for action, look in looks.items():
                assert look == looks[no], f"{key}: seat {seat + 1}'s {action!r} shows"
                compared += 1
        game.apply(seat, no)
        if game.window() != opened:
            break
    return compared


@pytest.mark.parametrize("key", list(registry.specs()))
def test_a_private_answer_tells_nobody_anything_while_the_window_is_open(key: str) -> None:
    windows = compared = 0
    for _, game in walked(key, SEEDS):
        if compared >= WINDOWS:
            break
        if len(private_seats(game)) >= 2:  # an answer may leave the window open
            windows += 1
            compared += check_answers(key, game)
    # a game with windows asking two seats or more must have had answers to compare
    assert compared or not windows, f"{key}: no window kept open by an answer"


PRIVATE_FORM = {"zh-CN": "（私下应答的座位不公开，到时未答视为放弃）",
                "en-US": " (who may answer privately is not shown; no answer in time lets it pass)"}


@pytest.mark.parametrize("key", list(registry.specs()))
def test_an_open_private_window_reads_alike_in_every_family(key: str) -> None:
    """While a private window is open every viewer's phase is base's one form
    (``Game.window_phase``): the family's words for the phase, then that who may answer
    privately is not shown and that no answer in time lets it pass; the host adds the
    countdown. Once the window closes, the family's own phase again."""
    opened = 0
    for _, game in walked(key, SEEDS[:3]):
        window = game.decision()
        # the whole window, to its close: a form that changed once only the seats the table
        # names were left (够级's 对头) would tell that the private answers were in
        private = window is not None and window.private
        for viewer in (None, *range(game.setup.seats)):
            phase = game.view(viewer).phase
            assert (phase.key == "base.window.private") == private, (
                f"{key} ({game.phase()}): {phase.key} for {viewer}, private {private}")
            if private:
                for locale, form in PRIVATE_FORM.items():
                    assert render(phase, locale).endswith(form), (key, locale)
                    assert render(phase, locale) != form  # the family's words come first
        opened += private
    if key in WITH_PRIVATE_WINDOWS:
        assert opened, f"{key}: no private window met"


@pytest.mark.parametrize("key", list(registry.specs()))
def test_a_window_answered_inside_keeps_one_deadline(key: str) -> None:
    """``window`` stays the same while a private window is answered seat by seat, and the host
    clock keeps one deadline for it."""
    for _, game in walked(key, SEEDS):
        private = private_seats(game)
        if len(private) >= 2:
            opened = game.window()
            game.apply(private[0], decline(game, private[0]))
            if private_seats(game):
                assert game.window() == opened


@pytest.mark.parametrize("key", list(registry.specs()))
def test_windows_and_the_trustee_check_live_in_base(key: str) -> None:
    """Games declare windows (``decision``) and choose for the trustee (``_trustee``); the
    hooks the host reads are base's alone."""
    game = registry.get(key).game
    for hook in ("to_act", "public_to_act", "window", "timeout_action", "trustee"):
        assert getattr(game, hook) is getattr(Game, hook), f"{key} overrides {hook}"


@pytest.mark.parametrize("key", list(registry.specs()))
def test_the_trustee_refuses_a_seat_that_does_not_act(key: str) -> None:
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=3,
                          options=spec.validate({})))
    for _ in range(MAX_STEPS):
        if game.is_over():
            break
        idle = [s for s in range(game.setup.seats) if s not in game.to_act()]
        for s in idle:
            with pytest.raises(IllegalActionError) as refused:
                game.trustee(s)
            assert refused.value.text is not None
            assert refused.value.text.key == "err.base.not_seat_turn"
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    for s in range(game.setup.seats):
        with pytest.raises(IllegalActionError):
            game.trustee(s)  # the hand is over


# --- a closed window: only what was taken --------------------------------------------------
TAKES = 6  # taking answers tried per privately asked seat
CLOSED = 10  # windows closed per game and seed


def is_open(game: Game, key: int | None) -> bool:
    window = None if game.is_over() else game.decision()
    return window is not None and window.private and window.key == key


def close(game: Game, order: list[int], takes: dict[int, str]) -> Game | None:
    """Answer the open private window until it closes: the privately asked seats in ``order``,
    each its answer in ``takes`` or else letting it pass; a seat the table names (够级's
    beaters) passes, in public, the same in every world. None if one of those cannot pass."""
    key = game.decision().key  # type: ignore[union-attr]
    while is_open(game, key):
        asked = private_seats(game)
        if not asked:
            seat = game.to_act()[0]
            if "pass" not in game.legal_actions(seat):
                return None
            game.apply(seat, "pass")
            continue
        seat = next((s for s in order if s in asked), asked[0])
        game.apply(seat, takes.get(seat, decline(game, seat)))
    return game


def public(game: Game, bystanders: tuple[int, ...]) -> list[Any]:
    """What the table shows (the public view, which the table text and the spectator page are
    drawn from, its lines the public record; who it names as acting; the deadline) and what
    the seats not asked see."""
    return [game.view(None).to_json(), [game.view(s).to_json() for s in bystanders],
            game.public_to_act(), game.window(), game.phase(), game.is_over()]


def records(game: Game) -> list[Any]:
    """The public records of closed windows (``Window.took``) the table shows."""
    return [line for line in game.view(None).lines if line.key == "base.window.took"]


def unchanged(before: SeatView, after: SeatView) -> bool:
    """A seat's line as the table shows it is what it was (a round's end may clear every
    status)."""
    return (after.status in (None, before.status) and after.melds == before.melds
            and after.discards == before.discards)


def check_closures(key: str, game: Game, opener: int) -> int:
    """Close the window just opened in every way its answers allow and compare what the table
    sees after: declines in any order look alike, a seat that takes after the others declined
    looks like one that took before they did, the record names the taker alone, and the
    decliners' seat lines show nothing of their answers (``opener``: the seat whose action
    opened the window, whose line its own action set). Returns how many closures were
    compared."""
    asked = private_seats(game)
    bystanders = tuple(s for s in range(game.setup.seats) if s not in game.to_act())
    before, lines = records(game), game.view(None).seats
    compared = 0
    worlds = [close(copy(game), list(order), {}) for order in (asked, asked[::-1])]
    if worlds[0] is not None and worlds[1] is not None:
        assert public(worlds[0], bystanders) == public(worlds[1], bystanders), (
            f"{key} ({game.phase()}): the order of the declines shows")
        new = [r for r in records(worlds[0]) if r not in before]
        assert not any(r.args["seat"] - 1 in asked for r in new), (
            f"{key}: a window everyone declined recorded {new}")
        compared += 1
    for seat in asked:
        others = [s for s in asked if s != seat]
        for action in [a for a in game.legal_actions(seat) if a != decline(game, seat)][:TAKES]:
            first = close(copy(game), [seat, *others], {seat: action})
            last = close(copy(game), [*others, seat], {seat: action})
            if first is None or last is None:
                continue
            assert public(first, bystanders) == public(last, bystanders), (
                f"{key} ({game.phase()}): seat {seat + 1}'s {action!r} shows who declined")
            new = [r for r in records(first) if r not in before]
            assert all(r.args["seat"] == seat + 1 for r in new), (
                f"{key}: seat {seat + 1}'s {action!r} recorded {new}")
            shown = game.view(None).lines
            named = {t.args.get("seat") for t in first.view(None).lines if t not in shown}
            for other in others:  # the decliners, idle while the taker goes on
                if other not in first.to_act() and other != opener:
                    assert unchanged(lines[other], first.view(None).seats[other]), (
                        f"{key}: seat {other + 1}'s line shows it declined while seat {seat + 1} "
                        f"took {action!r}")
                    assert other + 1 not in named, (
                        f"{key}: a line names seat {other + 1}, which declined {action!r}")
            compared += 1
    return compared


@pytest.mark.parametrize("key", list(registry.specs()))
def test_a_closed_window_shows_only_what_was_taken(key: str) -> None:
    """Every private window met, closed every way: by declines in either order, or by one
    seat's take before or after the others declined. The table (public view, its lines, who
    acts, the deadline) and the seats not asked see the same in each pair, and the record of
    what was taken (base's ``Window.took``) names the seat that took and nobody else asked."""
    compared, closed, last = 0, Counter[int](), None
    for opener, game in walked(key, SEEDS[:4]):
        window = game.decision()
        if window is not None and window.private and window.key != last \
                and private_seats(game) and closed[game.setup.seed] < CLOSED:
            closed[game.setup.seed] += 1  # a window just opened: nobody answered yet
            compared += check_closures(key, game, opener)
        last = None if window is None else window.key
    if key in WITH_PRIVATE_WINDOWS:
        assert compared, f"{key}: no private window closed"


# --- a closed window whoever could have answered ----------------------------------------
# Twin tables: the same public point, but one table has a seat more that may answer the window,
# or one offered more (宣点's 革命), or one that may where the other opens no window at all; a
# family's tests build some of them (issue 23), the others are built here.
def _mahjong(may: bool) -> Game:
    """血战's seed 1001 case (tests/engines/mahjong/test_privacy.py): seat 3 throws 2m, which
    seat 2 may 胡 in one table only."""
    hand = "2m345m678m234p567p" if may else "1m345m678m234p567p"
    game = mj.stacked("", "9s9p2m", hands=[mj.SEAT0, hand, mj.SEAT2, mj.SEAT3], ques=None)
    mj.play(game, "0:9s", "1:9p")
    return game


def _gouji_declare(may: bool) -> Game:
    """宣点 at the deal: seat ``r`` holds no 2 and no 花 (it may 革命) in one table; in the other
    it holds a 2 of seat ``t``'s in the place of one of its cards (the same counts)."""
    spec = registry.get("gouji")
    for seed in range(100):
        game = spec.new(Setup(seats=6, seed=seed, options=spec.validate({})))
        hands = game.hands  # type: ignore[attr-defined]
        rebels = [s for s in range(6) if game.may_revolt(s)]  # type: ignore[attr-defined]
        if game.phase() != "declare" or len(rebels) != 1 or rebels[0] == 0:
            continue
        r = rebels[0]
        t = next((s for s in range(1, 6) if s != r and hands[s][TWO] >= 2), None)
        if t is not None:
            break
    else:
        raise AssertionError("no seed deals one seat that may 革命")
    if not may:
        low = next(i for i, n in enumerate(hands[r]) if n)
        for seat, gives, gets in ((r, low, TWO), (t, TWO, low)):
            hand = list(hands[seat])
            hand[gives] -= 1
            hand[gets] += 1
            hands[seat] = tuple(hand)
    return game


def _held(game: Game, hands: list[str]) -> Game:
    """The trick families' hands replaced by ``hands`` (a few cards each, in notation)."""
    game.hands = [[0] * NCARDS for _ in hands]  # type: ignore[attr-defined]
    for seat, cards in enumerate(hands):
        for card in parse_ids(cards):
            game.hands[seat][card] += 1  # type: ignore[attr-defined]
    game._claims = None  # type: ignore[attr-defined]  # who may claim is asked again
    return game


def _shengji_counter(may: bool) -> Game:
    """欢乐升级 at level 5: seat 1 declared 5h and buries; seat 3 may 反底 with 5s 5s in one
    table, holds 6s 6d in their place in the other (no 反底 window opens there)."""
    game = _held(SHENGJI_HAPPY.new(Setup(seats=4, seed=1, carry={"levels": [5, 5],
                                                                  "dealer": 0})),
                 ["5h 3c 4c", "6h 7c 8c", "6s 6d 9c", "3d 6c Jc"])
    game.packet = 3  # type: ignore[attr-defined]  # the deal is done
    game.apply(0, "declare 5h")
    if may:  # (given once 亮主 is over, or seat 3 could 反主 there)
        game.hands[2][parse_ids("6s")[0]] -= 1  # type: ignore[attr-defined]
        game.hands[2][parse_ids("6d")[0]] -= 1  # type: ignore[attr-defined]
        game.hands[2][parse_ids("5s")[0]] += 2  # type: ignore[attr-defined]
    return game


def _dagunzi_declare(may: bool) -> Game:
    """打滚子's 亮主 at level 5, the last packet dealt: seat 1 may declare 5h, seat 2 5s in one
    table, holds 6s in its place in the other."""
    game = _held(dagunzi_game._later(1), ["5h 3c 4c", "5s 7c 8c" if may else "6s 7c 8c",
                                          "4d 8d 9d", "3d 6c Jc"])
    game.packet, game._phase = 3, "declare"  # type: ignore[attr-defined]
    return game


Twin = tuple[Callable[[bool], Game], tuple[tuple[int, str], ...], int]
TWINS: dict[tuple[str, str], Twin] = {
    # (family, window phase): twin tables, the action that opens the window, a seat not asked
    ("mahjong", "claim"): (_mahjong, ((2, "2m"),), 0),
    ("paohuzi", "claim"): (phz_hidden.table, ((0, "x5"),), 0),
    ("gouji", "burn"): (gouji_hidden.table, ((0, "AA"),), 4),
    ("gouji", "declare"): (_gouji_declare, (), 0),
    ("shengji", "declare"): (shengji_game._declaring, (), 2),
    ("shengji", "counter"): (_shengji_counter, ((0, "bury 4h Js Ts 8c 4c 3c Jd 6d"),), 1),
    ("dagunzi", "declare"): (_dagunzi_declare, (), 2),
    ("dagunzi", "jokers"): (dagunzi_game._joker_window, (), 2),
    ("dagunzi", "show"): (dagunzi_game._show_window, (), 1),
}



def family(game: Game) -> str:
    return type(game).__module__.split(".")[1]


def test_every_private_window_kind_has_twin_tables() -> None:
    met = set()
    for key in registry.specs():
        for _, game in walked(key, [0]):
            window = game.decision()
            if window is not None and window.private:
                met.add((family(game), game.phase()))
    assert met <= set(TWINS), f"private windows without twin tables: {met - set(TWINS)}"


@pytest.mark.parametrize("answer", ["decline", "timeout"])
@pytest.mark.parametrize("kind", list(TWINS), ids="/".join)
def test_who_could_answer_a_window_never_shows_once_it_closed(
        kind: tuple[str, str], answer: str) -> None:
    build, opening, watcher = TWINS[kind]
    more, fewer = build(True), build(False)
    for game in (more, fewer):
        for seat, action in opening:
            game.apply(seat, action)
    # the difference is private: a seat more is asked, or offered more (宣点's 革命)
    assert set(private_seats(fewer)) < set(private_seats(more)) or (
        [fewer.legal_actions(s) for s in private_seats(fewer)]
        != [more.legal_actions(s) for s in private_seats(more)])

    opened = bool(private_seats(fewer))

    def table(game: Game) -> list[Any]:
        seen = public(game, (watcher,))
        # that a window was open shows (its phase, a deadline of its own), who it asked not
        return seen if opened else seen[:3] + seen[4:]

    if opened:
        assert table(more) == table(fewer)
    for game in (more, fewer):
        window = game.decision()
        if window is not None and window.private:  # (some seats the table names, 够级's 对头)
            takes = {} if answer == "timeout" else {s: "pass" for s in game.to_act()}
            close(game, [], takes)
    assert table(more) == table(fewer)
