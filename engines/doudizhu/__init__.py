"""斗地主 (Dou Dizhu): notation, patterns, legal plays, the hand state machine, scoring and
the trustee (托管). Rules: GAMES.md §2.0–2.4; decisions: docs/games/doudizhu.md.

The registered rule sets:

- ``doudizhu``: classic 叫分 (000/001), option ``doubling`` for 002's 加倍/不加倍 step;
- ``doudizhu_happy``: 欢乐斗地主 (003/004), 叫/抢地主, 明牌 ×5/×4/×3/×2 and 加倍 gated by
  ``double_threshold`` (points; 0 = anyone may double), settled pairwise;
- ``doudizhu_2p``: 二人斗地主 / 面对面 for two (004): the happy steps, 11 cards out, 20 each;
- ``doudizhu_hot``: 火拼斗地主 (001): 叫/抢/明牌 without 加倍, 黄金眼 (option ``golden_eye``),
  its escape table, settled per pair;
- ``doudizhu_four``: 四人斗地主 (001): two decks, 25 each, kitty 8, 叫分, bombs of 4–8 cards
  and 天王炸弹, 三带二 and planes with pairs only (``engines.doudizhu.four``);
- ``doudizhu_wild``: 癞子斗地主 (004 癞子场): the happy rules with a 癞子 rank turned up after
  the deal (``engines.doudizhu.wild``);
- ``doudizhu_five``: 五人斗地主 (001): two decks, 21 each, kitty 3, 明地主 by a random card and
  the hidden 暗地主 holding its twin, 亮出身份, 加倍, 双王/三王/天王 (``engines.doudizhu.five``);
- ``doudizhu_mala``: 麻辣斗地主 (001): the 明牌 card, 闷抓/看牌, 叫地主, 倒拉垒沃 per pair,
  attachments singles only.

>>> legal_plays("3334", "2225")
[]
>>> legal_plays("3334")
['3', '4', '33', '333', '3334']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Game, GameSpec
from engines.doudizhu.five import FIVE_OPTIONS, FiveGame
from engines.doudizhu.game import (
    ClassicGame,
    DoudizhuGame,
    FourGame,
    HappyGame,
    HotGame,
    MalaGame,
    TwoPlayerGame,
    WildGame,
)
from engines.doudizhu.moves import follow_plays, lead_plays, legal_plays
from engines.doudizhu.notation import RANKS, format_cards, parse_cards
from engines.doudizhu.patterns import (
    Pattern,
    PatternRules,
    Play,
    beats,
    classify,
    format_play,
    parse_play,
)
from engines.doudizhu.rules import (
    CLASSIC_OPTIONS,
    FOUR_OPTIONS,
    HAPPY_OPTIONS,
    HOT_OPTIONS,
    MALA_OPTIONS,
    Bidding,
    Rules,
)
from engines.doudizhu.texts import TEXTS
from engines.faces import card_faces

PHASES_CLASSIC = ("bid", "double", "play")
PHASES_HAPPY = ("bid", "grab", "double", "play")
PHASES_HOT = ("bid", "grab", "play")


def _variant(key: str, name_zh: str, name_en: str, seats: int, level_table: str,
             game: type[Game], options: Mapping[str, Any],
             phases: tuple[str, ...]) -> GameSpec:
    """One 斗地主 key: a fixed number of seats, card pictures and the shared texts."""
    return GameSpec(key=key, name_zh=name_zh, name_en=name_en, min_seats=seats,
                    max_seats=seats, level_table=level_table, game=game, faces=card_faces,
                    options=dict(options), phases=phases, texts=TEXTS, seats_default=seats)


# 欢乐, 二人 and 癞子 climb 004 十三's ladder ("mianduimian": 短工 below 100 … 帝王
# 100,000,000, made for its 底分 4); 001 gives 火拼, 四人, 麻辣 and 五人 no ladder of their own
SPECS: tuple[GameSpec, ...] = (
    _variant("doudizhu", "斗地主", "Dou Dizhu", 3, "doudizhu", ClassicGame, CLASSIC_OPTIONS,
             PHASES_CLASSIC),
    _variant("doudizhu_happy", "欢乐斗地主", "Happy Dou Dizhu", 3, "mianduimian", HappyGame,
             HAPPY_OPTIONS, PHASES_HAPPY),
    _variant("doudizhu_2p", "二人斗地主", "Two-player Dou Dizhu", 2, "mianduimian",
             TwoPlayerGame, HAPPY_OPTIONS, PHASES_HAPPY),
    _variant("doudizhu_hot", "火拼斗地主", "Showdown Dou Dizhu", 3, "doudizhu", HotGame,
             HOT_OPTIONS, PHASES_HOT),
    _variant("doudizhu_four", "四人斗地主", "Four-player Dou Dizhu", 4, "doudizhu", FourGame,
             FOUR_OPTIONS, ("bid", "play")),
    _variant("doudizhu_wild", "癞子斗地主", "Wild-card Dou Dizhu", 3, "mianduimian", WildGame,
             HAPPY_OPTIONS, PHASES_HAPPY),
    _variant("doudizhu_mala", "麻辣斗地主", "Spicy Dou Dizhu", 3, "doudizhu", MalaGame,
             MALA_OPTIONS, ("blind", "bid", "dao", "play")),
    _variant("doudizhu_five", "五人斗地主", "Five-player Dou Dizhu", 5, "doudizhu", FiveGame,
             FIVE_OPTIONS, ("reveal", "double", "play")),
)

__all__ = [
    "RANKS",
    "SPECS",
    "Bidding",
    "ClassicGame",
    "DoudizhuGame",
    "FiveGame",
    "FourGame",
    "HappyGame",
    "HotGame",
    "MalaGame",
    "Pattern",
    "PatternRules",
    "Play",
    "Rules",
    "TwoPlayerGame",
    "WildGame",
    "beats",
    "classify",
    "follow_plays",
    "format_cards",
    "format_play",
    "lead_plays",
    "legal_plays",
    "parse_cards",
    "parse_play",
]
