"""A cheap key of a waiting private hand (issue 24, host cost): ``Game.private_face(seat)``
changes exactly when what the seat's DM shows while it waits changes (``dm_view``), and an
engine's cheap override changes exactly when the base default (read from ``view``) does.

Bug it guards: after every action the host built every human seat's whole ``view``, its repr
and a blake2b digest to learn whether a DM needed an edit (the mix benchmark fell from 0.7× to
0.5× of 斗地主 alone). A cheap key that missed a change would leave a DM stale; one that
changed without the DM would spend an edit (an unchanged DM is never edited)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.host.model import dm_view, private_digest
from engines import registry
from engines.base import Game, Setup, Text
from tests.engines.walking import walk

SEEDS = (1, 2)


def waiting_dm(game: Game, seat: int) -> str:
    """What a waiting DM shows, as text (its phase is never named)."""
    return repr(replace(dm_view(game, seat, acting=False), phase=Text("dm.wait")))


def self_play(key: str, seed: int) -> int:
    """Walk the game (tests/engines/walking.py); after every step compare, seat by seat, what
    changed. Returns how many changes were seen."""
    changes = 0
    before: list[tuple[Any, Any, str]] | None = None
    for game, hand, step in walk(key, seed):
        now = [(game.private_face(s), Game.private_face(game, s), waiting_dm(game, s))
               for s in range(game.setup.seats)]
        if before is not None and step > 0:  # a new hand is no step of the last one
            for seat, (was, is_) in enumerate(zip(before, now)):
                face, default, shown = (a != b for a, b in zip(was, is_))
                where = f"{key} seed {seed} hand {hand} step {step} seat {seat} ({game.phase()})"
                assert default == shown, f"{where}: default key {default}, DM {shown}"
                assert face == default, f"{where}: override {face}, default {default}"
                changes += shown
        before = now
    return changes


@pytest.mark.parametrize("key", list(registry.specs()))
def test_private_face_changes_exactly_when_the_waiting_dm_does(key: str) -> None:
    assert sum(self_play(key, seed) for seed in SEEDS) > 0  # the walk saw DMs change


# the families of the mix benchmark, whose cheap key replaces building the view
OVERRIDES = ("doudizhu", "doudizhu_happy", "doudizhu_2p", "shengji", "shengji_happy", "gouji",
             "gouji_new", "sichuan", "xuezhan")


@pytest.mark.parametrize("key", OVERRIDES)
def test_private_face_is_overridden(key: str) -> None:
    spec = registry.get(key)
    game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=1,
                          options=spec.validate({})))
    assert type(game).private_face is not Game.private_face


def turn_dm(game: Game, seat: int) -> str:
    """Everything an acting seat's DM shows and offers, as text: its whole ``dm_view``, its
    open offers, its choices and its card picker."""
    return repr((dm_view(game, seat, acting=True), game.open_offers(seat), game.choices(seat),
                 game.picker(seat)))


@pytest.mark.parametrize("key", list(registry.specs()))
def test_an_acting_seats_digest_changes_whenever_its_dm_does(key: str) -> None:
    """On its turn a seat's digest is built from a few cheap parts on an ordinary turn (issue
    24: the host no longer draws the whole DM after every action to compare it); whenever the
    DM it stands for differs from what it showed at the seat's last turn of the hand (the step
    before, or before others played), the digest does too, or the DM would keep showing the
    last turn's cards, lines or buttons."""
    turns = 0
    for seed in SEEDS:
        last: dict[int, tuple[str, int]] = {}  # seat → its DM and digest at its last turn
        for game, hand, step in walk(key, seed):
            if step == 0:
                last = {}
            for seat in game.to_act():
                shown, digest = turn_dm(game, seat), private_digest(game, seat)
                if seat in last and last[seat][0] != shown:
                    where = f"{key} seed {seed} hand {hand} step {step} seat {seat}"
                    assert digest != last[seat][1], f"{where} ({game.phase()}): DM changed"
                last[seat] = shown, digest
                turns += 1
    assert turns > 0  # the walk met seats on their turn
