"""斗地主 trustee (托管) strength: win rates over seeded hands.

Matchups (the same seeds for each; seat 0 bids first):

1. trustee landlord vs two random farmers (target: >= 90 % landlord wins);
2. trustee landlord vs two trustee farmers (the trustee farmers' rate is the complement);
3. trustee farmers vs a random landlord;
4. all trustee seats with their own bidding (the landlord is whoever the trustee makes it).

In 1-3 the landlord is forced: seat 0 bids 3 on a random deal. "Random" picks uniformly from
``legal_actions``. Also reports the trustee's mean and worst decision time.

Then matchup 1 for every other registered variant (欢乐, 二人 ...): seat 0 takes the landlord
(the first "yes" of the selection: 叫地主, 抢地主 ...; every other step declined). In 五人 the
明牌 card picks the landlords: the 明地主 and the 暗地主 are trustees (their own 亮出身份 and
加倍), the farmers random (加倍 too).

Last, 五人's 亮出身份/加倍 steps: all-trustee deals played three ways — every step declined,
the landlords' steps the trustee's (farmers decline), the farmers' steps the trustee's
(landlords decline) — and each side's mean points per deal (底分 1): the trustee's steps
should raise its own side's.

Usage: python benchmarks/ddz_ai.py [--hands 1000] (measures the checkout it sits in).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Measure this checkout's engine, not whichever copy of the project is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.base import Game, Setup
from engines.doudizhu import SPECS, DoudizhuGame, FiveGame

SPEC = SPECS[0]
_DECLINE = ("nobid", "nocall", "nograb", "noshow", "nodouble", "look", "nodao", "nola", "nolei",
            "nowo")


class Clock:
    def __init__(self) -> None:
        self.total = 0.0
        self.worst = 0.0
        self.count = 0

    def trustee(self, game: Game, seat: int) -> str:
        start = time.perf_counter()
        action = game.trustee(seat)
        spent = time.perf_counter() - start
        self.total += spent
        self.worst = max(self.worst, spent)
        self.count += 1
        return action


def play(seed: int, landlord: str, farmers: str, clock: Clock, rng: random.Random) -> bool:
    """One hand; True if the landlord won. ``landlord``/``farmers``: "trustee" or "random"."""
    game = SPEC.new(Setup(seats=3, seed=seed, carry={"first": 0}))
    assert isinstance(game, DoudizhuGame)
    if landlord != "natural":
        game.apply(0, "bid 3")
    while not game.is_over():
        seat = game.to_act()[0]
        policy = landlord if seat == game.landlord else farmers
        if game.landlord is None or policy in ("trustee", "natural"):
            action = clock.trustee(game, seat)
        else:
            actions = game.legal_actions(seat)
            action = actions[rng.randrange(len(actions))]
        game.apply(seat, action)
    return game.winner is not None and game.winner == game.landlord


def take_landlord(game: DoudizhuGame, seat: int) -> None:
    """Make ``seat`` the landlord: it says yes to the first offer that is not a refusal (the
    highest bid), every other seat declines; then every 加倍/明牌 step is declined."""
    while game.landlord is None and not game.is_over():
        acting = game.to_act()
        who = seat if seat in acting else acting[0]
        legal = game.legal_actions(who)
        if who == seat:
            yes = [a for a in legal if a not in _DECLINE]
            game.apply(who, yes[-1] if yes else legal[-1])
        else:
            game.apply(who, next(a for a in legal if a in _DECLINE))
    while not game.is_over() and game.phase() != "play":
        who = game.to_act()[0]
        game.apply(who, next(a for a in game.legal_actions(who) if a in _DECLINE))


def variant_rate(key: str, hands: int, clock: Clock) -> float:
    """Matchup 1 for one variant: the trustee landlord (seat 0) vs random farmers."""
    spec = next(s for s in SPECS if s.key == key)
    rng = random.Random(2024)
    wins = 0
    for i in range(hands):
        game = spec.new(Setup(seats=spec.seats_default, seed=10_000 + i, carry={"first": 0}))
        if isinstance(game, FiveGame):
            while game.phase() != "play":
                if take_offer(game, game.landlords, clock):
                    continue
                who = game.to_act()[0]
                if who in game.landlords:
                    game.apply(who, clock.trustee(game, who))
                else:
                    actions = game.legal_actions(who)
                    game.apply(who, actions[rng.randrange(len(actions))])
        else:
            assert isinstance(game, DoudizhuGame)
            take_landlord(game, 0)
        side = game.landlords if isinstance(game, FiveGame) else (game.landlord,)
        while not game.is_over():
            seat = game.to_act()[0]
            if seat in side:
                action = clock.trustee(game, seat)
            else:
                actions = game.legal_actions(seat)
                action = actions[rng.randrange(len(actions))]
            game.apply(seat, action)
        wins += game.winner is not None and game.winner in side
    return wins / hands


def take_offer(game: FiveGame, seats: tuple[int, ...], clock: Clock) -> bool:
    """The trustee of ``seats`` takes an offer (五人's 暗地主 亮出身份: ``Game.trustee_offer``)
    if it would, as the host lets it before each step; whether one was taken."""
    for seat in seats:
        start = time.perf_counter()
        offer = game.trustee_offer(seat)
        clock.total += time.perf_counter() - start
        if offer is not None:
            clock.count += 1
            game.apply(seat, offer)
            return True
    return False


def five_steps(hands: int, clock: Clock) -> dict[str, float]:
    """五人: the landlords' mean points per deal (底分 1) with all-trustee play, when every
    亮出身份/加倍 is declined (``none``), when the landlords' are the trustee's
    (``landlords``), when the farmers' are (``farmers``)."""
    spec = next(s for s in SPECS if s.key == "doudizhu_five")
    out: dict[str, float] = {}
    for mode in ("none", "landlords", "farmers"):
        total = 0
        for i in range(hands):
            game = spec.new(Setup(seats=5, seed=90_000 + i))
            assert isinstance(game, FiveGame)
            lands = game.landlords
            while not game.is_over():
                if mode == "landlords" and take_offer(game, lands, clock):
                    continue  # the 暗地主's reveal, its trustee's
                seat = game.to_act()[0]
                own = (seat in lands) == (mode == "landlords")
                if game.phase() != "play" and (mode == "none" or not own):
                    action = "no" + game.phase()
                else:
                    action = clock.trustee(game, seat)
                game.apply(seat, action)
            points = game.outcome().points
            total += sum(points[s] for s in lands)
        out[mode] = total / hands
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    matchups = [
        ("trustee landlord vs 2 random farmers", "trustee", "random"),
        ("trustee landlord vs 2 trustee farmers", "trustee", "trustee"),
        ("random landlord vs 2 trustee farmers", "random", "trustee"),
        ("all trustee, natural bidding", "natural", "natural"),
    ]
    clock = Clock()
    rates: dict[str, float] = {}
    began = time.perf_counter()
    for title, landlord, farmers in matchups:
        rng = random.Random(2024)
        start = time.perf_counter()
        wins = 0
        voids = 0
        for i in range(args.hands):
            seed = 10_000 + i
            if landlord == "natural":
                game = SPEC.new(Setup(seats=3, seed=seed, carry={"first": i % 3}))
                assert isinstance(game, DoudizhuGame)
                while not game.is_over():
                    seat = game.to_act()[0]
                    game.apply(seat, clock.trustee(game, seat))
                voids += game.void
                wins += not game.void and game.winner == game.landlord
            else:
                wins += play(seed, landlord, farmers, clock, rng)
        played = args.hands - voids
        rate = wins / played
        rates[title] = rate
        extra = f", {voids} void" if voids else ""
        print(
            f"{title:<40} {args.hands} hands: landlord wins {rate:6.1%}, "
            f"farmers win {1 - rate:6.1%}{extra}  ({time.perf_counter() - start:.1f} s)"
        )
    for spec in SPECS[1:]:
        start = time.perf_counter()
        rate = variant_rate(spec.key, args.hands, clock)
        print(
            f"{spec.key + ': trustee landlord vs random':<40} {args.hands} hands: "
            f"landlord wins {rate:6.1%}  ({time.perf_counter() - start:.1f} s)"
        )
    start = time.perf_counter()
    steps = five_steps(args.hands, clock)
    print(
        f"{'doudizhu_five 亮出身份/加倍':<40} {args.hands} deals, landlords' points per deal: "
        f"all declined {steps['none']:+.3f}, landlords' steps {steps['landlords']:+.3f}, "
        f"farmers' steps {steps['farmers']:+.3f}  ({time.perf_counter() - start:.1f} s)"
    )
    print(
        f"trustee decisions: {clock.count}, mean {clock.total / clock.count * 1e3:.3f} ms, "
        f"worst {clock.worst * 1e3:.2f} ms; total {time.perf_counter() - began:.0f} s"
    )
    main_rate = rates["trustee landlord vs 2 random farmers"]
    print(f"ddz_trustee_landlord_vs_random: {main_rate * 100:.1f} %")


if __name__ == "__main__":
    main()
