"""Hand codes: every hand has a random public code (what /replay takes), unique, that cannot be
guessed from the hand's id, and that finds the hand with its server and players."""

from __future__ import annotations

import asyncio

import pytest

from storage import history
from storage.errors import HandStateError
from storage.history import CODE_ALPHABET, CODE_LENGTH, read_code
from storage.wallet import SeatResult, Wallet


async def test_every_hand_gets_a_unique_random_code(wallet: Wallet) -> None:
    hands = await asyncio.gather(*(wallet.new_hand("g", "r", 1, 2) for _ in range(300)))
    codes = [await history.hand_code(wallet.db, h) for h in hands]
    assert len(set(codes)) == len(codes)
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    # random in every position, not a counter: each position shows most of the 32 symbols
    # across 300 codes (a counter's leading symbols would not move)
    assert all(len({c[i] for c in codes}) > 20 for i in range(CODE_LENGTH))


async def test_a_code_finds_its_hand_with_server_and_players(wallet: Wallet) -> None:
    a = wallet.scoped(555)
    hand = await a.new_hand("ddz", "novice", 555, 9, seats=[1, None, 2])
    await a.hold(hand, [(1, 100), (2, 100)])
    await a.settle(hand, "ddz", [SeatResult(1, 2), SeatResult(None, -1), SeatResult(2, -1)], 10, 0)
    code = await history.hand_code(wallet.db, hand)
    found = await history.hand_by_code(wallet.db, code)
    assert found is not None
    assert (found.hand_id, found.code, found.guild_id, found.economy) == (hand, code, 555, 555)
    assert found.seats == (1, None, 2) and found.status == "settled"
    assert found == await history.get_hand(wallet.db, hand)


async def test_typed_codes_are_forgiving_and_wrong_ones_find_nothing(wallet: Wallet) -> None:
    hand = await wallet.new_hand("g", "r", 1, 2)
    code = await history.hand_code(wallet.db, hand)
    typed = f"  {code[:5].upper()}-{code[5:]} "
    found = await history.hand_by_code(wallet.db, typed)
    assert found is not None and found.hand_id == hand
    other = ("1" if code[0] != "1" else "2") + code[1:]
    for wrong in (other, str(hand), code[:-1], code + "x", "", "x" * 5_000, "ü" * 10):
        assert await history.hand_by_code(wallet.db, wrong) is None
    with pytest.raises(HandStateError, match="no such hand"):
        await history.hand_code(wallet.db, hand + 1)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("7hq2km0abc", "7hq2km0abc"),
        ("7HQ2 KM0A BC", "7hq2km0abc"),
        ("7hq2-km0a-bc", "7hq2km0abc"),
        ("7hq2kmOabc", "7hq2km0abc"),  # the letter O reads as zero
        ("iLq2km0abc", "11q2km0abc"),  # i and l read as one
        ("7hq2km0abu", None),  # u is not in the alphabet
        ("7hq2km0ab", None),
    ],
)
def test_read_code(typed: str, expected: str | None) -> None:
    assert read_code(typed) == expected
