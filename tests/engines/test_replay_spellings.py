"""Records that replay, however an action was typed (issue 23).

A player may type an action in any spelling the game's notation accepts — cards in another
order, another case, extra spaces, the Chinese names — and the log keeps its canonical form.
That form must rebuild exactly the hand that was played: ``/replay``, ``/verify`` and a
restart replay it. Bug that started this: 二人麻将 logged ``swap 9m7m`` as ``swap 79m`` but
swapped in the typed order, so the replay drew other tiles.

Every registered game is played from seeded deals; at each step a legal action (or an open
offer) is chosen and typed in an alternative spelling the game accepts for the same action
(the same logged form). The state must equal the one the canonical spelling gives, and at
checkpoints and at the end the record must rebuild it: every seat's view, the public view,
the legal actions and offers, who acts, the log and the outcome.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from typing import Any

import pytest

from engines import registry
from engines.base import Game, GameSpec, Setup
from engines.errors import GameError

SPECS = registry.specs()

SEEDS = 2
CHECK_EVERY = 20
MAX_STEPS = 400
ATTEMPTS = 4
"""Spellings tried per step before the canonical one is typed instead."""
PICKS = 0.5
"""How often an action is made with the card picker (when there is one)."""
OPENINGS = 20
OPENING_STEPS = 8
"""More deals played only for their first actions, where the choices of many cards at once
(换牌, 扣底, 亮主) come, each rebuilt from its record."""
ORDERS = frozenset({"picker", "order", "order+names"})
"""The spellings that reorder cards, tried first: order is what a log must not lose."""

WORD_ALIASES: dict[str, tuple[str, ...]] = {
    "pass": ("不出", "过", "guo", "skip", "不要", "p", "不亮", "放弃", "fold"),
    "hu": ("胡", "和", "win", "自摸", "胡牌"),
    "peng": ("碰", "pong"),
    "gang": ("杠", "kong"),
    "chi": ("吃", "chow", "eat", "上"),
    "que": ("缺", "dingque", "定缺"),
    "pao": ("下炮", "炮子", "跑", "run", "paozi"),
    "swap": ("换牌",),
    "ting": ("报听",),
    "cuo": ("搓牌",),
    "nobid": ("不叫", "bid 0", "no bid", "0"),
    "call": ("叫地主", "叫"),
    "nocall": ("不叫", "no call"),
    "grab": ("抢地主", "抢"),
    "nograb": ("不抢", "no grab"),
    "double": ("加倍",),
    "nodouble": ("不加倍", "no double"),
    "blind": ("闷抓",),
    "look": ("看牌",),
    "dao": ("倒",),
    "nodao": ("不倒",),
    "la": ("拉",),
    "nola": ("不拉",),
    "mendao": ("闷倒",),
    "show": ("明牌",),
    "peek": ("黄金眼",),
    "bet": ("下注", "stake", "添菜", "add", "押"),
    "bank": ("抢庄", "grab"),
    "decline": ("不抢", "放弃"),
    "nobull": ("没牛", "no bull", "无牛"),
    "resign": ("认输",),
    "declare": ("亮", "亮主"),
    "bury": ("扣底", "扣"),
}
"""Typed names the notations document, by canonical word; a game refuses those it lacks."""

_TILE_WORD = re.compile(r"(?:[1-9]+[mpsz])+")
_TILE = re.compile(r"([1-9]+)([mpsz])")
_PHZ_TILE = re.compile(r"[xd](?:10|[1-9])|W")
_SUITED = re.compile(r"(?:10|[2-9TJQKA])[shcd]|[BR]")
_POINT = re.compile(r"[A-O](?:1[0-5]|[1-9])")
_RANKS = set("3456789TJQKA2BR")
_MJ_SUITS = {"m": ("万", "w"), "p": ("筒", "饼", "b"), "s": ("条", "索"), "z": ("字",)}
_NUMERALS = "一二三四五六七八九"
_MJ_HONOURS = (("东风", "东", "East"), ("南风", "南", "south"), ("西风", "西", "West wind"),
               ("北风", "北", "NORTH"), ("红中", "中", "red dragon"), ("发财", "发", "Green"),
               ("白板", "白", "white"))
"""The honours by name (1z–7z): 红中 and 中 are 5z."""
_PHZ_SMALL, _PHZ_BIG = "一二三四五六七八九十", "壹贰叁肆伍陆柒捌玖拾"


def card_tokens(word: str) -> list[str] | None:
    """The cards or tiles one word of an action names, one token each; None if it names none."""
    if not word:
        return None
    if _TILE_WORD.fullmatch(word):
        return [d + s for digits, s in _TILE.findall(word) for d in digits]
    if "".join(_PHZ_TILE.findall(word)) == word and word:
        return _PHZ_TILE.findall(word)
    if _SUITED.fullmatch(word) or _POINT.fullmatch(word):
        return [word]
    if set(word) <= _RANKS:
        return list(word)
    return None


def card_aliases(token: str) -> list[str]:
    """Other names of one card or tile: 10 for T, 小王/大王, 五万, 红中, 小六/壹."""
    out = []
    if _TILE_WORD.fullmatch(token):
        rank, suit = token[0], token[1]
        out += [rank + word for word in _MJ_SUITS[suit]]
        if suit != "z":
            out += [_NUMERALS[int(rank) - 1] + word for word in _MJ_SUITS[suit][:1]]
        else:
            out += list(_MJ_HONOURS[int(rank) - 1])
    elif _PHZ_TILE.fullmatch(token) and token != "W":
        n, small = int(token[1:]), token[0] == "x"
        out += [(_PHZ_SMALL if small else _PHZ_BIG)[n - 1], ("小" if small else "大") + str(n)]
    else:
        out += [token.replace("T", "10"), token.replace("T", "0")]
        out += {"B": ["小王", "BJ"], "R": ["大王", "RJ"]}.get(token, [])
    return [o for o in out if o != token]


def respell_word(word: str, rng: random.Random, *, order: bool, names: bool, spaced: bool) -> str:
    """One word of cards written another way: shuffled, other names, spaces between cards."""
    if word.count("=") == 1:  # 癞子: the cards played = what they stand for
        left, right = word.split("=")
        return "=".join(respell_word(w, rng, order=order, names=names, spaced=spaced)
                        for w in (left, right))
    tokens = card_tokens(word)
    if tokens is None:
        return word
    if order:
        tokens = rng.sample(tokens, len(tokens))
    if names:
        tokens = [rng.choice(card_aliases(t) or [t]) for t in tokens]
    return (" " if spaced else "").join(tokens)


def spellings(action: str, rng: random.Random) -> list[tuple[str, str]]:
    """Alternative spellings of the canonical ``action`` as (kind, text): some the game
    accepts for the same action, some it refuses or reads as another action."""
    words = action.split(" ")
    head = words[0]
    verb = head in WORD_ALIASES or (len(words) > 1 and head.isalpha() and not card_tokens(head))
    cards = words[1:] if verb else words
    out = [("case", action.upper()), ("case", action.lower()), ("case", action.swapcase()),
           ("spaces", f"  {'   '.join(words)} ")]
    numbers = verb and any(w.isdigit() for w in cards)  # bet 12, bid 2, peek 13: not cards
    for kind, order, names, spaced in (("order", True, False, False),
                                       ("names", False, True, False),
                                       ("spaced cards", False, False, True),
                                       ("order+names", True, True, True)):
        if numbers or not any(card_tokens(w) for w in cards):
            break
        respelt = [respell_word(w, rng, order=order, names=names, spaced=spaced) for w in cards]
        if order and len(respelt) > 1 and all(card_tokens(w) for w in cards):
            respelt = rng.sample(respelt, len(respelt))  # 9c 8c → 8c 9c, groups swapped
        out.append((kind, " ".join(([head] if verb else []) + respelt)))
    if verb:
        for alias in WORD_ALIASES.get(head, ()):
            out.append(("word", " ".join([alias, *words[1:]])))
            out.append(("word", "".join([alias, *words[1:]])))
    elif len(words) == 1 and card_tokens(action):
        out += [("word", f"打 {action}"), ("word", f"discard {action}"), ("word", f"出{action}")]
    if m := re.fullmatch(r"bid (\d)", action):
        out += [("word", f"{m[1]}分"), ("word", f"叫{m[1]}分"), ("word", f"bid{m[1]}")]
    seen = {action}
    return [(k, t) for k, t in out if not (t in seen or seen.add(t))]


def views(game: Game) -> list[dict[str, Any]]:
    """What each seat and the public see."""
    return [game.view(s).to_json() for s in (None, *range(game.setup.seats))]


def picture(game: Game) -> dict[str, Any]:
    """Everything anyone can see or do at this moment."""
    seats = range(game.setup.seats)
    over = game.is_over()
    return {
        "views": views(game),
        "legal": [game.legal_actions(s) for s in seats],
        "offers": [[c.action for c in game.open_offers(s)] for s in seats],
        "to_act": game.to_act(),
        "log": list(game.log),
        "outcome": game.outcome().to_json() if over else None,
        "carry": game.next_carry() if over else None,
    }


def picked(game: Game, seat: int, rng: random.Random) -> tuple[str, str] | None:
    """An action made with the seat's card picker, the tokens in the order clicked, and its
    logged form; None when there is no picker or the pick is refused."""
    picker = game.picker(seat)
    if picker is None or not picker.tokens:
        return None
    high = min(picker.max_values, len(picker.tokens))
    tokens = rng.sample(picker.tokens, rng.randint(min(picker.min_values, high), high))
    typed = picker.action(tokens)
    try:
        return typed, copy.deepcopy(game).apply(seat, typed)
    except GameError:
        return None


def step(game: Game, rng: random.Random, used: Counter[str]) -> Game:
    """One action, typed in another spelling where the game takes one for the same action;
    returns the game (the live one, or its twin that took the canonical spelling)."""
    offered = [(s, c.action) for s in range(game.setup.seats) for c in game.open_offers(s)]
    seat = rng.choice(game.to_act())
    pick = picked(game, seat, rng) if rng.random() < PICKS else None
    if offered and rng.random() < 0.2:
        seat, action = rng.choice(offered)
        candidates = spellings(action, rng)
    elif pick is not None:  # the picker's order: the tokens as clicked
        action = pick[1]
        candidates = [("picker", pick[0]), *spellings(action, rng)]
    else:
        legal = game.legal_actions(seat)
        longest = sorted(legal, key=len)[len(legal) * 3 // 4 :]
        action = rng.choice(
            [game.trustee(seat)] if rng.random() < 0.5 else longest if rng.random() < 0.3 else legal
        )
        candidates = spellings(action, rng)
    twin = copy.deepcopy(game)
    logged = twin.apply(seat, action)
    assert logged == action, f"{action!r} is logged as {logged!r}"  # canonical: a fixed point
    first = candidates[:1] if pick is not None and action == pick[1] else []
    tries = sorted(rng.sample(candidates, len(candidates)), key=lambda c: c[0] not in ORDERS)
    for kind, typed in first + tries[:ATTEMPTS]:
        try:
            got = game.apply(seat, typed)
        except GameError:
            continue  # a spelling this game does not take; it must change nothing
        if got != logged:
            used["other meaning"] += 1
            return twin  # the typed text named another action: go on with the canonical one
        used[kind] += 1
        assert views(game) == views(twin), (action, typed, logged)
        return game
    return twin


def played(spec: GameSpec, seed: int, steps: int = MAX_STEPS) -> tuple[Game, Counter[str]]:
    """A hand of ``spec`` dealt from ``seed``, played for ``steps`` actions or to its end."""
    rng = random.Random(seed)
    seats = rng.randint(spec.min_seats, spec.max_seats)
    game = spec.new(Setup(seats=seats, seed=seed, options=spec.validate({})))
    used: Counter[str] = Counter()
    for n in range(steps):
        if game.is_over():
            break
        game = step(game, rng, used)
        if n % CHECK_EVERY == CHECK_EVERY - 1:
            assert picture(spec.from_record(game.to_record())) == picture(game), (seed, n)
    return game, used


@pytest.mark.parametrize("key", list(SPECS))
def test_every_accepted_spelling_logs_a_form_that_replays(key: str) -> None:
    spec = SPECS[key]
    total: Counter[str] = Counter()
    for seed in range(SEEDS):
        game, used = played(spec, 100 + seed)
        total += used
        rebuilt = spec.from_record(game.to_record())
        assert picture(rebuilt) == picture(game), seed
        assert spec.from_record(rebuilt.to_record()).to_text() == game.to_text()
    for seed in range(OPENINGS):
        game, used = played(spec, 1000 + seed, OPENING_STEPS)
        total += used
        assert picture(spec.from_record(game.to_record())) == picture(game), seed
    # the test typed real alternative spellings, beyond case and spaces where there are cards
    assert sum(total.values()) - total["other meaning"] >= 5, total
