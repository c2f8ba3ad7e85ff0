"""记法: 吃火锅 actions.

=================  ==============================================================
canonical          also accepted
=================  ==============================================================
``pass``           放弃 放棄 不添 不要 p fold
``bet 200``        添菜 200, add 200, 200, bet min / 最小, bet max / 最大 / pot
=================  ==============================================================

>>> parse_action("添菜 1,000"), parse_action("放弃"), parse_action("bet max")
(1000, None, 'max')

Amounts above ``engines.cards.MAX_AMOUNT`` are refused as notation (``err.cards.amount``).
"""

from __future__ import annotations

import re

from engines.base import T
from engines.cards import echo, parse_amount
from engines.errors import NotationError

PASS_WORDS = frozenset({"pass", "放弃", "放棄", "不添", "不要", "p", "fold"})
_BET = re.compile(r"^(?:bet|add|添菜|添|加)?\s*(\d[\d,_]*|min|max|pot|最小|最大)$")


def parse_action(text: str) -> int | str | None:
    """None for 放弃, an amount, or ``"min"``/``"max"`` for a bet. Raises NotationError
    (also for an amount above ``MAX_AMOUNT``)."""
    word = " ".join(text.strip().lower().split())
    if word in PASS_WORDS:
        return None
    m = _BET.match(word)
    if not m:
        shown = echo(text)
        raise NotationError(
            shown,
            "pass (放弃) or bet an amount, e.g. bet 200 (添菜 200)",
            text=T("err.hotpot.action", typed=shown),
        )
    amount = m.group(1)
    if amount in ("min", "最小"):
        return "min"
    if amount in ("max", "最大", "pot"):
        return "max"
    return parse_amount(amount, text)
