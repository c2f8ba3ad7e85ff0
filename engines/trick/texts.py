"""文本: the texts the trick family (升级, 打滚子) shares: the phases, suits, trump and level lines
and the card-reading error of ``engines.trick.cards`` (zh-CN, en-US, zh-TW), merged into each
trick game's catalogue. They keep the ``shengji.`` keys 升级 first gave them, so the texts a
table shows are unchanged."""

from __future__ import annotations

TRICK_TEXTS: dict[str, dict[str, str]] = {
    "zh-CN": {
        "shengji.phase.declare": "发牌中（第 {packet}/{packets} 手牌）：可以亮主",
        "shengji.phase.counter": "可以反底",
        "shengji.phase.bury": "{seat}号扣底：选 {n} 张牌扣下（`bury` 加牌）",
        "shengji.phase.play": "第 {trick} 轮：{seat}号出牌",
        "shengji.phase.done": "本副牌结束",
        "shengji.status.played": "{cards}",
        "shengji.status.declared": "亮 {cards}",
        "shengji.suit.s": "黑桃♠",
        "shengji.suit.h": "红桃♥",
        "shengji.suit.c": "梅花♣",
        "shengji.suit.d": "方片♦",
        "shengji.suit.trump": "主牌",
        "shengji.trump.none_yet": "打 {level}，还没有人亮主",
        "shengji.trump.notrump": "打 {level}，无主",
        "shengji.trump.suit": "打 {level}，主牌 {suit}",
        "shengji.line.levels": "级别：1、3号 打{a}；2、4号 打{b}",
        "shengji.line.points": "闲家得分：{points}",
        "err.shengji.card": "看不懂“{typed}”：“{part}”不是一张牌（例如 Ah、10d、B 小王、R 大王）。",
    },
    "en-US": {
        "shengji.phase.declare": "Dealing (packet {packet}/{packets}): you may declare trump",
        "shengji.phase.counter": "Counter the kitty (反底) or pass",
        "shengji.phase.bury": "Seat {seat} buries {n} cards (`bury` and the cards)",
        "shengji.phase.play": "Trick {trick}: seat {seat} to play",
        "shengji.phase.done": "The hand is over",
        "shengji.status.played": "{cards}",
        "shengji.status.declared": "declared {cards}",
        "shengji.suit.s": "♠",
        "shengji.suit.h": "♥",
        "shengji.suit.c": "♣",
        "shengji.suit.d": "♦",
        "shengji.suit.trump": "trumps",
        "shengji.trump.none_yet": "Level {level}; no trump declared yet",
        "shengji.trump.notrump": "Level {level}; no trump",
        "shengji.trump.suit": "Level {level}; trump {suit}",
        "shengji.line.levels": "Levels: seats 1 & 3 at {a}; seats 2 & 4 at {b}",
        "shengji.line.points": "Defenders' points: {points}",
        "err.shengji.card": "Cannot read '{typed}': '{part}' is not a card (e.g. Ah, 10d, B small "
        "joker, R big joker).",
    },
}
"""The shared entries by locale; each trick game merges them into its own catalogue."""

# 繁體中文 (Taiwan): kept complete by `python -m bot.i18n.tw --fill`
TRICK_TEXTS["zh-TW"] = {
    "shengji.phase.declare": "發牌中（第 {packet}/{packets} 手牌）：可以亮主",
    "shengji.phase.counter": "可以反底",
    "shengji.phase.bury": "{seat}號扣底：選 {n} 張牌扣下（`bury` 加牌）",
    "shengji.phase.play": "第 {trick} 輪：{seat}號出牌",
    "shengji.phase.done": "本副牌結束",
    "shengji.status.played": "{cards}",
    "shengji.status.declared": "亮 {cards}",
    "shengji.suit.s": "黑桃♠",
    "shengji.suit.h": "紅桃♥",
    "shengji.suit.c": "梅花♣",
    "shengji.suit.d": "方片♦",
    "shengji.suit.trump": "主牌",
    "shengji.trump.none_yet": "打 {level}，還沒有人亮主",
    "shengji.trump.notrump": "打 {level}，無主",
    "shengji.trump.suit": "打 {level}，主牌 {suit}",
    "shengji.line.levels": "級別：1、3號 打{a}；2、4號 打{b}",
    "shengji.line.points": "閒家得分：{points}",
    "err.shengji.card": "看不懂「{typed}」：「{part}」不是一張牌（例如 Ah、10d、B 小王、R 大王）。",
}
