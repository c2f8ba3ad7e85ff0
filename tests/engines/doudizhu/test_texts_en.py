"""The en-US texts of 斗地主 read as a native speaker writes them (issue 26).

Each refusal a newcomer meets first is made at the table and rendered through the bot's
translator, and the sentence the player reads is checked whole: once it said "Now is
Bidding: you can only bid 1, …" and "Cards are played later; now: …".
"""

from __future__ import annotations

import pytest
from ddz_support import new, rig

from bot.i18n import render
from engines.doudizhu import DoudizhuGame
from engines.doudizhu.texts import TEXTS
from engines.errors import GameError


def refused(game: DoudizhuGame, seat: int, text: str) -> str:
    before = game.to_text()
    with pytest.raises(GameError) as err:
        game.apply(seat, text)
    assert game.to_text() == before
    assert err.value.text is not None
    return render(err.value.text, "en-US")


def bidding() -> DoudizhuGame:
    return new(seed=5, carry={"first": 0})


def in_play() -> DoudizhuGame:
    game = new(seed=5, carry={"first": 0})
    rig(game, ["3333456789TJJQQQA", "44455566677788899", ""], "KA2")
    game.apply(0, "bid 3")
    return game


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("bid 5", "You can't do that now (current phase: Bidding). You can: bid 1, bid 2, "
         "bid 3, nobid"),
        ("33344", "It's not time to play cards yet. You can: bid 1, bid 2, bid 3, nobid"),
        ("grab", "You can't do that now. You can: bid 1, bid 2, bid 3, nobid"),
    ],
)
def test_bidding_refusals_in_english(text: str, shown: str) -> None:
    assert refused(bidding(), 0, text) == shown


def test_play_refusals_in_english() -> None:
    game = in_play()
    assert refused(game, 0, "pass") == "It's your lead, so you can't pass: play any pattern."
    assert refused(game, 0, "44") == "You don't have these cards: 44"
    assert refused(game, 0, "33X") == (
        "I can't read '33X': 'X' isn't a card. The cards are 3-9, T (or 10), J, Q, K, A, 2, "
        "B (small joker) and R (big joker)."
    )
    assert refused(game, 0, "bid 2") == (
        "It's time to play cards: play some (e.g. 33344) or pass."
    )
    game.apply(0, "9")
    assert refused(game, 1, "7") == (
        "7 doesn't beat 9 (single). Play the same pattern with the same number of cards but "
        "higher, a bomb, or pass."
    )


def test_no_stilted_english_left() -> None:
    for key, template in TEXTS["en-US"].items():
        for stilted in ("Now is ", "; now:", "Not in this phase", "Cards are played later"):
            assert stilted not in template, (key, template)
