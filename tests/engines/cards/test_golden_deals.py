"""Same seed ⇒ same deal: every registered game deals exactly what it dealt when the golden
file was written.

Saved tables, replays and ``/verify`` re-deal a hand from its seed, so a change to how any
game shuffles or cuts its cards (or draws the next value from the same stream) must never
change what a seed deals. ``golden_deals.json`` holds, for several seeds and seat counts of
every game, its complete deal: each seat's hand, the kitty (底牌) or wall, and the values
drawn from the same stream right after the deal (癞子, 明牌, 暗地主 card, first bidder …);
for 斗地主 also the redeal after everybody declines.

Regenerate it only when a deal is meant to change (never for a refactor):
``python tests/engines/cards/test_golden_deals.py``.
"""

from __future__ import annotations

import json
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.base import Game, Setup

GOLDEN = Path(__file__).with_name("golden_deals.json")
SEEDS = (0, 1, 2, 7, 2024, 987_654_321, 2**40 + 3)
DEAL_ATTRS = (
    "dealt", "hands", "kitty", "kitty_cards", "cards", "decks", "wall", "stock",
    "marker", "landlord", "partner", "wild", "open_rank", "open_seat", "fallback_dealer",
    "dealer", "banker", "first", "leader", "stars", "dice", "shen_tile",
)  # fmt: skip
"""The attributes holding a game's deal (and the draws after it), where a game has them."""
DECLINE = ("nobid", "noshow", "nocall", "nograb", "blind", "pass", "decline")
"""Answers that decline the landlord, tried in this order while the first deal lasts."""


def plain(value: Any) -> Any:
    """A JSON form of a deal attribute: cards, tiles and enums by their notation."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    text = str(value)
    assert " at 0x" not in text, f"no stable text form for {value!r}"
    return text


def snapshot(game: Game) -> dict[str, Any]:
    """The deal-related attributes of ``game`` in JSON form."""
    state = vars(game)
    return {name: plain(state[name]) for name in DEAL_ATTRS if name in state}


def redeal(game: Game) -> dict[str, Any] | None:
    """斗地主 and the like: everybody declines until the next deal; its snapshot (None if the
    game has no such step)."""
    if "deal_no" not in vars(game):
        return None
    for _ in range(40):
        if vars(game)["deal_no"] != 0 or game.is_over():
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        answer = next((a for a in DECLINE if a in legal), None)
        if answer is None:
            return None
        game.apply(seat, answer)
    if vars(game)["deal_no"] != 1 or game.is_over():
        return None
    return snapshot(game)


def cases() -> list[tuple[str, int, int]]:
    out = []
    for key, spec in registry.specs().items():
        counts = sorted({spec.seats_default or spec.min_seats, spec.min_seats, spec.max_seats})
        out += [(key, seats, seed) for seats in counts for seed in SEEDS]
    return out


def deal_of(key: str, seats: int, seed: int) -> dict[str, Any]:
    spec = registry.get(key)
    game = spec.new(Setup(seats=seats, seed=seed, options=dict(spec.options)))
    record: dict[str, Any] = {"deal": snapshot(game)}
    again = redeal(game)
    if again is not None:
        record["redeal"] = again
    return record


def case_id(key: str, seats: int, seed: int) -> str:
    return f"{key}/{seats}/{seed}"


@cache
def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("key", "seats", "seed"), cases(), ids=lambda v: str(v))
def test_same_seed_same_deal(key: str, seats: int, seed: int) -> None:
    golden = load()
    cid = case_id(key, seats, seed)
    assert cid in golden, f"{cid} has no golden deal: a new game? regenerate the file"
    assert deal_of(key, seats, seed) == golden[cid]


def test_golden_file_covers_every_card_game_with_a_redeal() -> None:
    golden = load()
    assert len(golden) == len(cases())
    for key in ("doudizhu", "doudizhu_four", "doudizhu_wild", "doudizhu_2p"):
        assert any(
            "redeal" in golden[case_id(key, s, seed)] for k, s, seed in cases() if k == key
        ), key
    # Every deal holds real cards: hands differ between seeds.
    for key in ("doudizhu", "doudizhu_five", "shengji", "shuangkou", "gouji", "dagunzi"):
        spec = registry.get(key)
        seats = spec.seats_default or spec.min_seats
        deals = {json.dumps(golden[case_id(key, seats, s)]["deal"]) for s in SEEDS}
        assert len(deals) == len(SEEDS), key


if __name__ == "__main__":
    table = {case_id(*c): deal_of(*c) for c in cases()}
    lines = (f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in table.items())
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")  # a deal a line
    print(f"wrote {len(table)} deals to {GOLDEN}")
