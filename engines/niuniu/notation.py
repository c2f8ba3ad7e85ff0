"""记法: the bull games' actions, typed in notation with Chinese aliases.

=============  ===================================  ==========================================
phase          canonical                            also accepted
=============  ===================================  ==========================================
grab (抢庄)    ``bank``                             抢庄 抢 当庄 坐庄 grab yes y
grab           ``decline``                          不抢 不当庄 放弃 pass no n
bet (下注)     ``bet 10``                           下注 10, stake 10, 10, bet min, bet max
split (拼牛)   ``split KsQd5h 7c3d``                split KQ5, 拼牛 KsQd5h, KsQd5h, best/最佳
split          ``nobull``                           没牛 无牛 no bull
=============  ===================================  ==========================================

>>> parse_grab("抢庄"), parse_grab("Decline")
(True, False)
>>> parse_bet("下注 20"), parse_bet("bet max")
(20, 'max')

Amounts above ``engines.cards.MAX_AMOUNT`` are refused as notation (``err.cards.amount``).
"""

from __future__ import annotations

import re

from engines.base import T
from engines.cards import echo, parse_amount
from engines.errors import NotationError

BANK_WORDS = frozenset(
    {"bank", "抢庄", "搶莊", "抢", "搶", "当庄", "當莊", "坐庄", "坐莊", "grab", "yes", "y"}
)
DECLINE_WORDS = frozenset(
    {"decline", "不抢", "不搶", "不当庄", "不當莊", "放弃", "放棄", "pass", "no", "n"}
)
BEST_WORDS = frozenset({"best", "最佳", "最佳拼法", "auto", "自动", "自動"})
NOBULL_WORDS = frozenset({"nobull", "no bull", "no-bull", "没牛", "沒牛", "无牛", "無牛"})
_BET = re.compile(r"^(?:bet|stake|下注|押)?\s*(\d[\d,_]*|min|max|最小|最大)$")


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


def parse_grab(text: str) -> bool:
    """抢庄 (True) or 不抢 (False). Raises NotationError."""
    word = _norm(text)
    if word in BANK_WORDS:
        return True
    if word in DECLINE_WORDS:
        return False
    shown = echo(text)
    raise NotationError(
        shown, "answer bank (抢庄) or decline (不抢)", text=T("err.niuniu.grab", typed=shown)
    )


def parse_bet(text: str) -> int | str:
    """A stake: an amount, or ``"min"``/``"max"`` of the presets. Raises NotationError
    (also for an amount above ``MAX_AMOUNT``)."""
    m = _BET.match(_norm(text))
    if not m:
        shown = echo(text)
        raise NotationError(
            shown, "pick a stake, e.g. bet 10 (下注 10)", text=T("err.niuniu.bet", typed=shown)
        )
    word = m.group(1)
    if word in ("min", "最小"):
        return "min"
    if word in ("max", "最大"):
        return "max"
    return parse_amount(word, text)


def split_word(text: str) -> str | None:
    """``"best"`` or ``"nobull"`` if ``text`` is one of their aliases, else None."""
    word = _norm(text)
    if word in BEST_WORDS:
        return "best"
    if word in NOBULL_WORDS:
        return "nobull"
    return None
