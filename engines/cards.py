"""扑克牌: the suited 52-card deck shared by the banker and pot games (斗牛, 吃火锅 ...).

Notation: ``<rank><suit>``, ranks ``A23456789TJQK`` (A low, K high), suits ``s h c d``
(♠ 黑桃, ♥ 红桃, ♣ 梅花, ♦ 方片, strongest first). A list of cards is written with single
spaces, sorted canonically: rank high to low, then suit strong to weak.

>>> Card.parse("10h")
Card(rank=10, suit=<Suit.HEARTS: 'h'>)
>>> str(Card.parse("as"))
'As'
>>> format_cards(parse_cards("9h, as Td"))
'Td 9h As'
>>> parse_cards("♠A 10d")
(Card(rank=1, suit=<Suit.SPADES: 's'>), Card(rank=10, suit=<Suit.DIAMONDS: 'd'>))
>>> parse_ranks("KQ10")
(13, 12, 10)

The card games' actions also carry amounts (下注 10, 添菜 1,000): ``parse_amount`` reads them
and bounds them where they enter (``MAX_AMOUNT``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from engines.base import T
from engines.errors import NotationError

RANKS = "A23456789TJQK"
"""Rank characters in order; a rank's number is its position + 1 (A = 1 ... K = 13)."""

CARD_TEXTS: dict[str, dict[str, str]] = {
    "zh-CN": {
        "err.cards.one_card": "看不懂“{typed}”：这里只能写一张牌，例如 As。",
        "err.cards.not_rank": "看不懂“{typed}”：“{char}”不是点数"
        "（可用 A23456789TJQK，10 也可写 T）。",
        "err.cards.suit_needs_rank": "看不懂“{typed}”：花色后面要跟点数，例如 ♠A。",
        "err.cards.needs_suit": "看不懂“{typed}”：{rank} 缺少花色"
        "（s 黑桃、h 红桃、c 梅花、d 方片）。",
        "err.cards.twice": "看不懂“{typed}”：{card} 写了两次。",
        "err.cards.amount": "看不懂“{typed}”：数目太大了，最多 {max}。",
    },
    "en-US": {
        "err.cards.one_card": "Cannot read '{typed}': expected exactly one card, e.g. As.",
        "err.cards.not_rank": "Cannot read '{typed}': '{char}' is not a rank (use A23456789TJQK).",
        "err.cards.suit_needs_rank": "Cannot read '{typed}': a suit needs a rank, e.g. ♠A.",
        "err.cards.needs_suit": "Cannot read '{typed}': {rank} needs a suit (s h c d).",
        "err.cards.twice": "Cannot read '{typed}': {card} appears twice.",
        "err.cards.amount": "Cannot read '{typed}': the amount is too large (at most {max}).",
    },
}
"""Texts of the card-reading errors; merged into the catalogue of every game using cards."""

CARD_TEXTS["zh-TW"] = {
    "err.cards.one_card": "看不懂「{typed}」：這裡只能寫一張牌，例如 As。",
    "err.cards.not_rank": "看不懂「{typed}」：「{char}」不是點數（可用 A23456789TJQK，10 也可寫 T）。",
    "err.cards.suit_needs_rank": "看不懂「{typed}」：花色後面要跟點數，例如 ♠A。",
    "err.cards.needs_suit": "看不懂「{typed}」：{rank} 缺少花色（s 黑桃、h 紅桃、c 梅花、d 方片）。",
    "err.cards.twice": "看不懂「{typed}」：{card} 寫了兩次。",
    "err.cards.amount": "看不懂「{typed}」：數目太大了，最多 {max}。",
}
"""繁體中文 (Taiwan): kept complete by ``python -m bot.i18n.tw --fill``."""

MAX_AMOUNT = 10**12
"""The largest amount (stake, bet, option) a card game reads: far above any real stake, far
below what settlement can hold (2^63 beans) even times a room coefficient."""

ECHO = 40
"""How many characters of a player's input an amount error repeats."""

_RANK_ALIASES = {"1": 1, "0": 10}
_SEPARATORS = set(" \t\n,;|/+、，；")


class Suit(Enum):
    """花色, strongest first: 黑桃 ♠ > 红桃 ♥ > 梅花 ♣ > 方片 ♦."""

    SPADES = "s"
    HEARTS = "h"
    CLUBS = "c"
    DIAMONDS = "d"

    @property
    def strength(self) -> int:
        """3 for ♠ down to 0 for ♦ (the seeds' order 黑桃、红桃、梅花、方片)."""
        return _SUIT_STRENGTH[self]


_SUIT_STRENGTH = {Suit.SPADES: 3, Suit.HEARTS: 2, Suit.CLUBS: 1, Suit.DIAMONDS: 0}
_SUIT_WORDS = {
    "s": Suit.SPADES,
    "h": Suit.HEARTS,
    "c": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "黑桃": Suit.SPADES,
    "红桃": Suit.HEARTS,
    "紅桃": Suit.HEARTS,
    "梅花": Suit.CLUBS,
    "草花": Suit.CLUBS,
    "方片": Suit.DIAMONDS,
    "方块": Suit.DIAMONDS,
    "方塊": Suit.DIAMONDS,
}
# Symbols and Chinese names may come before the rank ("♠A", "黑桃A"); letters only after it.
_PREFIX_SUITS = sorted((w for w in _SUIT_WORDS if not w.isascii()), key=len, reverse=True)


def rank_char(rank: int) -> str:
    """The notation character of rank 1..13 (``T`` for 10)."""
    return RANKS[rank - 1]


@dataclass(frozen=True)
class Card:
    """一张牌: ``rank`` 1 (A) .. 13 (K) and ``suit``."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be 1..13, not {self.rank}")

    def __str__(self) -> str:
        return rank_char(self.rank) + self.suit.value

    @property
    def order(self) -> tuple[int, int]:
        """Sort key: rank (A low, K high), then suit strength (♠ highest)."""
        return (self.rank, self.suit.strength)

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card: ``As``, ``td``, ``10h``, ``♠A``, ``黑桃A``.

        Raises NotationError if ``text`` is not exactly one card.
        """
        cards = parse_cards(text)
        if len(cards) != 1:
            raise NotationError(
                text, "expected exactly one card", text=T("err.cards.one_card", typed=text)
            )
        return cards[0]


def deck() -> list[Card]:
    """The 52 cards (no jokers), in canonical order (K♠ first, A♦ last)."""
    return sort_cards(Card(rank, suit) for rank in range(1, 14) for suit in Suit)


def shuffled(rng: random.Random) -> list[Card]:
    """A fresh 52-card deck shuffled by ``rng`` (never the global random)."""
    cards = deck()
    rng.shuffle(cards)
    return cards


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical order: rank high to low, then suit ♠ ♥ ♣ ♦."""
    return sorted(cards, key=lambda c: c.order, reverse=True)


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Cards in canonical order and notation, e.g. ``"Ks Qd 5h"`` (``sep`` between cards)."""
    return sep.join(str(c) for c in sort_cards(cards))


def _read_rank(text: str, i: int, whole: str) -> tuple[int, int]:
    ch = text[i].upper()
    if ch == "1" and i + 1 < len(text) and text[i + 1] == "0":
        return 10, i + 2
    if ch in RANKS:
        return RANKS.index(ch) + 1, i + 1
    if ch in _RANK_ALIASES:
        return _RANK_ALIASES[ch], i + 1
    raise NotationError(
        whole,
        f"{text[i]!r} is not a rank (use A23456789TJQK)",
        text=T("err.cards.not_rank", typed=whole, char=text[i]),
    )


def _read_prefix_suit(text: str, i: int) -> tuple[Suit | None, int]:
    for word in _PREFIX_SUITS:
        if text.startswith(word, i):
            return _SUIT_WORDS[word], i + len(word)
    return None, i


def parse_cards(text: str, *, unique: bool = True) -> tuple[Card, ...]:
    """Cards in the order typed; forgiving of spaces, commas, case, ``10`` and suit symbols.

    ``unique``: reject a card typed twice. Raises NotationError.

    >>> format_cards(parse_cards("KsQD 5h"))
    'Ks Qd 5h'
    """
    cards: list[Card] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in _SEPARATORS:
            i += 1
            continue
        suit, i = _read_prefix_suit(text, i)
        if i >= n:
            raise NotationError(
                text, "a suit needs a rank", text=T("err.cards.suit_needs_rank", typed=text)
            )
        rank, i = _read_rank(text, i, text)
        if suit is None:
            if i < n and text[i].lower() in _SUIT_WORDS:
                suit, i = _SUIT_WORDS[text[i].lower()], i + 1
            else:
                suit, i = _read_prefix_suit(text, i)
            if suit is None:
                raise NotationError(
                    text,
                    f"{rank_char(rank)} needs a suit (s h c d)",
                    text=T("err.cards.needs_suit", typed=text, rank=rank_char(rank)),
                )
        card = Card(rank, suit)
        if unique and card in cards:
            raise NotationError(
                text, f"{card} appears twice", text=T("err.cards.twice", typed=text, card=str(card))
            )
        cards.append(card)
    return tuple(cards)


def parse_ranks(text: str) -> tuple[int, ...]:
    """Ranks only, e.g. ``"KQ5"`` or ``"10 J q"`` → (13, 12, 5) style numbers.

    Raises NotationError.
    """
    ranks: list[int] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in _SEPARATORS:
            i += 1
            continue
        rank, i = _read_rank(text, i, text)
        ranks.append(rank)
    return tuple(ranks)


def echo(text: str) -> str:
    """What an error message repeats of ``text``: at most ``ECHO`` characters, ``…`` at a cut.

    >>> echo("bet 12"), echo("bet " + "9" * 100)[-3:], len(echo("bet " + "9" * 100))
    ('bet 12', '99…', 40)
    """
    return text if len(text) <= ECHO else text[: ECHO - 1] + "…"


def parse_amount(digits: str, typed: str) -> int:
    """数目: a whole amount written with digits and ``,`` or ``_`` separators (``1,000``),
    at most ``MAX_AMOUNT``; ``typed`` is the whole action, for the message.

    Raises NotationError for anything larger (before converting, so a number of thousands
    of digits costs nothing and never reaches ``int``'s own limit).

    >>> parse_amount("1,000", "bet 1,000"), parse_amount("007", "bet 007")
    (1000, 7)
    """
    plain = digits.replace(",", "").replace("_", "").lstrip("0") or "0"
    width = len(str(MAX_AMOUNT))
    # Leading zeros and separators count too, so that no error repeats a huge input.
    if len(digits) > 2 * width or len(plain) > width or int(plain) > MAX_AMOUNT:
        shown = echo(typed)
        raise NotationError(
            shown,
            f"the amount is too large (at most {MAX_AMOUNT:,})",
            text=T("err.cards.amount", typed=shown, max=f"{MAX_AMOUNT:,}"),
        )
    return int(plain)
