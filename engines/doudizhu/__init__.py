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

from engines.base import GameSpec
from engines.faces import card_faces
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

PHASES_CLASSIC = ("bid", "double", "play")
PHASES_HAPPY = ("show", "bid", "grab", "double", "play")
PHASES_HOT = ("show", "bid", "grab", "play")

SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        key="doudizhu",
        name_zh="斗地主",
        name_en="Dou Dizhu",
        min_seats=3,
        max_seats=3,
        level_table="doudizhu",
        game=ClassicGame,
        faces=card_faces,
        options=dict(CLASSIC_OPTIONS),
        phases=PHASES_CLASSIC,
        texts=TEXTS,
        seats_default=3,
    ),
    GameSpec(
        key="doudizhu_happy",
        name_zh="欢乐斗地主",
        name_en="Happy Dou Dizhu",
        min_seats=3,
        max_seats=3,
        # 004 十三: its own ladder (短工 below 100 … 帝王 100,000,000), made for its 底分 4.
        level_table="mianduimian",
        game=HappyGame,
        faces=card_faces,
        options=dict(HAPPY_OPTIONS),
        phases=PHASES_HAPPY,
        texts=TEXTS,
        seats_default=3,
    ),
    GameSpec(
        key="doudizhu_2p",
        name_zh="二人斗地主",
        name_en="Two-player Dou Dizhu",
        min_seats=2,
        max_seats=2,
        level_table="mianduimian",  # 004 十三, the 22 titles of 面对面
        game=TwoPlayerGame,
        faces=card_faces,
        options=dict(HAPPY_OPTIONS),
        phases=PHASES_HAPPY,
        texts=TEXTS,
        seats_default=2,
    ),
    GameSpec(
        key="doudizhu_hot",
        name_zh="火拼斗地主",
        name_en="Showdown Dou Dizhu",
        min_seats=3,
        max_seats=3,
        level_table="doudizhu",  # 001 gives 火拼 no ladder of its own
        game=HotGame,
        faces=card_faces,
        options=dict(HOT_OPTIONS),
        phases=PHASES_HOT,
        texts=TEXTS,
        seats_default=3,
    ),
    GameSpec(
        key="doudizhu_four",
        name_zh="四人斗地主",
        name_en="Four-player Dou Dizhu",
        min_seats=4,
        max_seats=4,
        level_table="doudizhu",  # 001 gives 四人 no ladder of its own
        game=FourGame,
        faces=card_faces,
        options=dict(FOUR_OPTIONS),
        phases=("bid", "play"),
        texts=TEXTS,
        seats_default=4,
    ),
    GameSpec(
        key="doudizhu_wild",
        name_zh="癞子斗地主",
        name_en="Wild-card Dou Dizhu",
        min_seats=3,
        max_seats=3,
        level_table="mianduimian",  # 004 十三
        game=WildGame,
        faces=card_faces,
        options=dict(HAPPY_OPTIONS),
        phases=PHASES_HAPPY,
        texts=TEXTS,
        seats_default=3,
    ),
    GameSpec(
        key="doudizhu_mala",
        name_zh="麻辣斗地主",
        name_en="Spicy Dou Dizhu",
        min_seats=3,
        max_seats=3,
        level_table="doudizhu",  # 001 gives 麻辣 no ladder of its own
        game=MalaGame,
        faces=card_faces,
        options=dict(MALA_OPTIONS),
        phases=("blind", "bid", "dao", "play"),
        texts=TEXTS,
        seats_default=3,
    ),
    GameSpec(
        key="doudizhu_five",
        name_zh="五人斗地主",
        name_en="Five-player Dou Dizhu",
        min_seats=5,
        max_seats=5,
        level_table="doudizhu",  # 001 gives 五人 no ladder of its own
        game=FiveGame,
        faces=card_faces,
        options=dict(FIVE_OPTIONS),
        phases=("reveal", "double", "play"),
        texts=TEXTS,
        seats_default=5,
    ),
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
