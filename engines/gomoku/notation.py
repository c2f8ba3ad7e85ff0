"""记谱: points ("H8") and actions of 五子棋 in text, python-chess style.

Points are ints ``0 … 224``: ``row * 15 + col`` with column ``A`` = 0 … ``O`` = 14 and row
``1`` = 0 (the bottom line) … ``15`` = 14, like ``chess.E4``. ``H8`` is the centre (天元).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from engines.base import T
from engines.errors import NotationError

SIZE = 15
"""棋盘: the board is 15 × 15."""

POINTS = SIZE * SIZE
COLUMNS = "ABCDEFGHIJKLMNO"
CENTER = 7 * SIZE + 7
"""天元: H8."""


def point(col: int, row: int) -> int:
    """The point at ``col`` (0 = A) and ``row`` (0 = line 1)."""
    return row * SIZE + col


def point_col(p: int) -> int:
    return p % SIZE


def point_row(p: int) -> int:
    return p // SIZE


def point_name(p: int) -> str:
    """坐标: the canonical name of a point.

    >>> point_name(CENTER)
    'H8'
    >>> point_name(0), point_name(224)
    ('A1', 'O15')
    """
    return f"{COLUMNS[p % SIZE]}{p // SIZE + 1}"


_POINT_RE = re.compile(r"([A-Z])\s*0*(\d{1,2})")


def _normalize(text: str) -> str:
    # Full-width letters and digits from a Chinese IME ("Ｈ８") read as "H8".
    return unicodedata.normalize("NFKC", text).strip()


def parse_point(text: str) -> int:
    """坐标: read a point such as ``H8``; forgiving of case, spaces and full-width forms.

    >>> point_name(parse_point(" h 8 "))
    'H8'
    >>> point_name(parse_point("Ｏ１５"))
    'O15'

    Raises NotationError when the text is not a point on the board.
    """
    raw = _normalize(text).upper()
    m = _POINT_RE.fullmatch(raw)
    if m is None:
        raise NotationError(
            text,
            "a point is a column A–O and a row 1–15, e.g. H8",
            text=T("err.gomoku.point", typed=text),
        )
    col = COLUMNS.find(m.group(1))
    row = int(m.group(2))
    if col < 0:
        raise NotationError(
            text, "columns run from A to O", text=T("err.gomoku.column", typed=text)
        )
    if not 1 <= row <= SIZE:
        raise NotationError(text, "rows run from 1 to 15", text=T("err.gomoku.row", typed=text))
    return point(col, row - 1)


class Kind(Enum):
    """The kinds of action: a stone, the colour swap decision, the 5th-move offer and choice."""

    MOVE = "move"
    SWAP = "swap"
    KEEP = "keep"
    OFFER = "offer"
    CHOOSE = "choose"
    RESIGN = "resign"


_WORDS: dict[str, Kind] = {
    "swap": Kind.SWAP,
    "交换": Kind.SWAP,
    "換": Kind.SWAP,
    "换": Kind.SWAP,
    "交換": Kind.SWAP,
    "keep": Kind.KEEP,
    "noswap": Kind.KEEP,
    "不交换": Kind.KEEP,
    "不换": Kind.KEEP,
    "不交換": Kind.KEEP,
    "不換": Kind.KEEP,
    "resign": Kind.RESIGN,
    "认输": Kind.RESIGN,
    "認輸": Kind.RESIGN,
    "投降": Kind.RESIGN,
}

_KEYWORDS: dict[str, Kind] = {
    "offer": Kind.OFFER,
    "两打": Kind.OFFER,
    "兩打": Kind.OFFER,
    "打": Kind.OFFER,
    "choose": Kind.CHOOSE,
    "pick": Kind.CHOOSE,
    "选": Kind.CHOOSE,
    "选择": Kind.CHOOSE,
    "選": Kind.CHOOSE,
    "選擇": Kind.CHOOSE,
    "play": Kind.MOVE,
    "move": Kind.MOVE,
    "下": Kind.MOVE,
}

_ARITY = {Kind.MOVE: 1, Kind.OFFER: 2, Kind.CHOOSE: 1}
_ARITY_KEYS = {
    Kind.MOVE: "err.gomoku.arity_move",
    Kind.OFFER: "err.gomoku.arity_offer",
    Kind.CHOOSE: "err.gomoku.arity_choose",
}


@dataclass(frozen=True)
class Action:
    """One action in notation; ``points`` are sorted for an offer.

    Canonical forms: ``H8``, ``swap``, ``keep``, ``offer H8 J9``, ``choose H8``, ``resign``.
    """

    kind: Kind
    points: tuple[int, ...] = ()

    def __str__(self) -> str:
        names = " ".join(point_name(p) for p in self.points)
        if self.kind is Kind.MOVE:
            return names
        return f"{self.kind.value} {names}" if names else self.kind.value

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action; words and points may be separated by spaces or commas.

        Two bare points read as an offer (``H8 J9`` = ``offer H8 J9``).

        >>> str(Action.parse("h8"))
        'H8'
        >>> str(Action.parse("offer j9, h 8"))
        'offer H8 J9'
        >>> str(Action.parse("选 H8")), str(Action.parse("不交换")), str(Action.parse("认输"))
        ('choose H8', 'keep', 'resign')

        Raises NotationError for anything else.
        """
        raw = _normalize(text)
        if not raw:
            raise NotationError(text, "empty action", text=T("err.gomoku.empty", typed=text))
        low = re.sub(r"\s+", "", raw.lower())
        if low in _WORDS:
            return cls(_WORDS[low])
        kind = Kind.MOVE
        rest = raw
        head = re.match(r"([a-zA-Z]{2,}|[\u4e00-\u9fff]+)\s*[:：]?\s*", raw)
        if head and head.group(1).lower() in _KEYWORDS:
            kind = _KEYWORDS[head.group(1).lower()]
            rest = raw[head.end() :]
        elif head and not _POINT_RE.match(raw.upper()):
            raise NotationError(
                text,
                "expected a point like H8, or swap / keep / offer / choose / resign",
                text=T("err.gomoku.action", typed=text),
            )
        tokens = _split_points(rest, text)
        if kind is Kind.MOVE and len(tokens) == 2:
            kind = Kind.OFFER
        if len(tokens) != _ARITY[kind]:
            want = _ARITY[kind]
            raise NotationError(
                text,
                f"{kind.value} takes {want} point{'s' if want > 1 else ''}",
                text=T(_ARITY_KEYS[kind], typed=text),
            )
        if kind is Kind.OFFER:
            if tokens[0] == tokens[1]:
                raise NotationError(
                    text,
                    "the two offered points must differ",
                    text=T("err.gomoku.offer_same", typed=text),
                )
            tokens = sorted(tokens, key=_sort_key)
        return cls(kind, tuple(tokens))


def _sort_key(p: int) -> tuple[int, int]:
    return (point_col(p), point_row(p))


def _split_points(rest: str, text: str) -> list[int]:
    # "H8J9", "H8 J9", "h 8, j 9": each point is a letter followed by its digits.
    flat = re.sub(r"[\s,，、;；/]+", "", rest.upper())
    if not flat:
        return []
    found = re.findall(r"[A-Z]\d{1,2}", flat)
    if "".join(found) != flat:
        raise NotationError(
            text,
            "a point is a column A–O and a row 1–15, e.g. H8",
            text=T("err.gomoku.point", typed=text),
        )
    return [parse_point(tok) for tok in found]
