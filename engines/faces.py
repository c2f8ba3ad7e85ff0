"""牌面 of playing cards: the notation of every card game read as faces for pictures.

One reader serves the card families (斗地主 and its variants, 斗牛/牛牛, 吃火锅, 升级, 打滚子,
双扣, 够级): ranks ``3456789TJQKA2`` (``10`` for ``T``), optionally followed by a suit letter
``s h c d`` (or preceded by ♠ ♥ ♣ ♦), a copy tag ``#2`` of a several-deck token ignored, and
the jokers ``B`` / ``R`` (``BJ`` / ``RJ``, 小王 / 大王). Text that is anything else (a bid, a
trick list with seat numbers) is no cards: None, so the picture draws nothing for it.

>>> [f.label for f in card_faces("33TB")]
['3', '3', '10', '小王']
>>> [(f.label, f.suit, f.red) for f in card_faces("Th 2c")]
[('10', 'h', True), ('2', 'c', False)]
>>> card_faces("bid 2") is None
True
"""

from __future__ import annotations

from engines.base import Face, FaceKind

RANK_LABELS = {"T": "10", **{c: c for c in "A23456789JQK"}}
"""Notation rank letter → what the card shows."""

SMALL_JOKER = Face(FaceKind.JOKER, "小王")
BIG_JOKER = Face(FaceKind.JOKER, "大王", red=True)

_JOKER_WORDS = (("小王", SMALL_JOKER), ("大王", BIG_JOKER), ("BJ", SMALL_JOKER),
                ("RJ", BIG_JOKER), ("B", SMALL_JOKER), ("R", BIG_JOKER))
_SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}
_SEPARATORS = frozenset(" \t\n,，、")


def card(rank: str, suit: str = "") -> Face:
    """The face of one card: rank letter (``T`` for 10) and suit letter or ""."""
    return Face(FaceKind.CARD, RANK_LABELS[rank], suit, red=suit in ("h", "d"))


def card_faces(notation: str) -> tuple[Face, ...] | None:
    """The faces of a card string in any card game's notation, in the order written; None if
    the text is not only cards (or holds no card)."""
    out: list[Face] = []
    text, i = notation.strip(), 0
    while i < len(text):
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        joker = next((face for word, face in _JOKER_WORDS if text.startswith(word, i)), None)
        if joker is not None:
            out.append(joker)
            i += len(next(w for w, f in _JOKER_WORDS if text.startswith(w, i)))
            continue
        suit = _SUIT_SYMBOLS.get(ch, "")
        if suit:
            i += 1
        if text.startswith("10", i):
            rank, i = "T", i + 2
        elif i < len(text) and text[i].upper() in RANK_LABELS:
            rank, i = text[i].upper(), i + 1
        else:
            return None
        if not suit and i < len(text) and text[i] in "shcd":
            suit, i = text[i], i + 1
        if text.startswith("#", i):
            i += 1
            while i < len(text) and text[i].isdigit():
                i += 1
        out.append(card(rank, suit))
    return tuple(out) or None
