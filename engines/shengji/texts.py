"""文本: the message catalogue of 升级 and 欢乐升级 (zh-CN and en-US). Seat numbers are 1-based;
suit symbols appear only here, in texts the bot renders. The texts 打滚子 shares (phases, suits,
trump and level lines, the card-reading error) are the trick family's (``engines.trick.texts``)."""

from __future__ import annotations

from engines.trick.texts import TRICK_TEXTS

NOTATION_ERRORS = frozenset({
    "err.shengji.declare_now", "err.shengji.counter_now", "err.shengji.weak_declaration",
    "err.shengji.bury_first", "err.shengji.bury_count", "err.shengji.play_now",
})
"""Refusals of how a declaration, a burial or a play was written (``Game.notation_errors``):
the bot follows them with a pointer to the notation help, as in every family."""

ZH: dict[str, str] = {
    **TRICK_TEXTS["zh-CN"],
    "shengji.role.zhuang": "庄家",
    "shengji.role.xian": "闲家",
    "shengji.kind.titanic": "泰坦尼克",
    "shengji.kind.tractor": "拖拉机",
    "shengji.kind.triple": "三同张",
    "shengji.kind.pair": "对子",
    "shengji.kind.single": "单张",
    "shengji.note.failed": "甩牌失败：{tried} → {played}",
    "shengji.line.happy_now": "反主 {fanzhu} 次，反底 {fandi} 次",
    "shengji.line.happy": "反主 {fanzhu} 次、反底 {fandi} 次：积分 ×{mult}",
    "shengji.line.result_zhuang": "闲家得 {points} 分：庄家方升 {n} 级",
    "shengji.line.result_xian": "闲家得 {points} 分：闲家上台，升 {n} 级",
    "shengji.line.kitty_bonus": "闲家抠底 ×{mult}：底分加 {bonus}",
    "shengji.line.kitty": "底牌：{cards}",
    "shengji.line.match": "{team}队打过 A，赢得整局！",
    "shengji.choice.declare": "亮 {cards}",
    "shengji.choice.counter": "反底 {cards}",
    "shengji.choice.pass": "不亮",
    "err.shengji.no_cards": "看不懂“{typed}”：没有写牌。",
    "err.shengji.not_held": "你没有这些牌：{cards}",
    "err.shengji.carry": "上一副牌传下来的级别或庄家无效。",
    "err.shengji.option_decks": "房间选项“decks”（几副牌）只能是 1、2 或 3。",
    "err.shengji.option_sweep": "房间选项“sweep”（大光积分）要在 0～100 之间。",
    "err.shengji.option_fixed_two": "房间选项“fixed_two”（2 为常主）应为开关（true/false）。",
    "err.shengji.declare_now": "现在只能亮主（declare 加牌）或不亮（pass）。",
    "err.shengji.counter_now": "现在只能反底或不反（pass）。",
    "err.shengji.weak_declaration": "{cards} 不能亮：要用级牌 {level} 或对王，并且比现在亮的更大。",
    "err.shengji.bury_first": "请先扣底：bury 加 {n} 张牌。",
    "err.shengji.bury_count": "扣底要扣 {n} 张牌，你选了 {got} 张。",
    "err.shengji.play_now": "现在请出牌。",
    "err.shengji.lead_one_suit": "首家出牌必须是同一门花色（或全是主牌）。",
    "err.shengji.follow_count": "要出 {n} 张牌，和首家一样多（你出了 {got} 张）。",
    "err.shengji.follow_suit": "你还有 {held} 张{suit}，必须先跟出这门牌。",
    "err.shengji.follow_structure": "你还有{suit}的{kind}；首家出的是{led}，必须跟出{kind}。",
}

EN: dict[str, str] = {
    **TRICK_TEXTS["en-US"],
    "shengji.role.zhuang": "declarers",
    "shengji.role.xian": "defenders",
    "shengji.kind.titanic": "titanic (two adjacent triples)",
    "shengji.kind.tractor": "tractor",
    "shengji.kind.triple": "triple",
    "shengji.kind.pair": "pair",
    "shengji.kind.single": "single",
    "shengji.note.failed": "failed throw: {tried} could be beaten → {played}",
    "shengji.line.happy_now": "Counters: {fanzhu} trump, {fandi} kitty",
    "shengji.line.happy": "{fanzhu} trump counter(s), {fandi} kitty counter(s): stake ×{mult}",
    "shengji.line.result_zhuang": "Defenders took {points}: the declarers go up {n} level(s)",
    "shengji.line.result_xian": "Defenders took {points}: they take the deal and go up {n} "
    "level(s)",
    "shengji.line.kitty_bonus": "Defenders won the last trick: kitty ×{mult}, +{bonus}",
    "shengji.line.kitty": "Kitty: {cards}",
    "shengji.line.match": "Team {team} passed A and wins the match!",
    "shengji.choice.declare": "Declare {cards}",
    "shengji.choice.counter": "Counter {cards}",
    "shengji.choice.pass": "Pass",
    "err.shengji.no_cards": "Cannot read '{typed}': no cards given.",
    "err.shengji.not_held": "You do not hold {cards}.",
    "err.shengji.carry": "The levels or dealer carried from the last hand are invalid.",
    "err.shengji.option_decks": "Option 'decks': must be 1, 2 or 3.",
    "err.shengji.option_sweep": "Option 'sweep': must be 0 to 100.",
    "err.shengji.option_fixed_two": "Option 'fixed_two': must be true or false.",
    "err.shengji.declare_now": "You can only declare trump (`declare` and the cards) or pass "
    "now.",
    "err.shengji.counter_now": "You can only counter the kitty (`counter` and the cards) or pass "
    "now.",
    "err.shengji.weak_declaration": "{cards} cannot be declared: use level cards ({level}) or "
    "a joker pair, stronger than the current declaration.",
    "err.shengji.bury_first": "Bury the kitty first: type `bury` and {n} cards.",
    "err.shengji.bury_count": "Bury exactly {n} cards, not {got}.",
    "err.shengji.play_now": "Play cards now.",
    "err.shengji.lead_one_suit": "A lead must be all of one suit, or all trumps.",
    "err.shengji.follow_count": "Play {n} cards, as many as the lead (not {got}).",
    "err.shengji.follow_suit": "You still hold {held} card(s) of {suit}: follow suit first.",
    "err.shengji.follow_structure": "You still hold a {kind} of {suit}; a {led} was led, so "
    "play your {kind}.",
}

TEXTS: dict[str, dict[str, str]] = {"zh-CN": ZH, "en-US": EN}

# 繁體中文 (Taiwan): kept complete by `python -m bot.i18n.tw --fill`
TEXTS["zh-TW"] = {
    **TRICK_TEXTS["zh-TW"],
    "shengji.role.zhuang": "莊家",
    "shengji.role.xian": "閒家",
    "shengji.kind.titanic": "泰坦尼克",
    "shengji.kind.tractor": "拖拉機",
    "shengji.kind.triple": "三同張",
    "shengji.kind.pair": "對子",
    "shengji.kind.single": "單張",
    "shengji.note.failed": "甩牌失敗：{tried} → {played}",
    "shengji.line.happy_now": "反主 {fanzhu} 次，反底 {fandi} 次",
    "shengji.line.happy": "反主 {fanzhu} 次、反底 {fandi} 次：積分 ×{mult}",
    "shengji.line.result_zhuang": "閒家得 {points} 分：莊家方升 {n} 級",
    "shengji.line.result_xian": "閒家得 {points} 分：閒家上臺，升 {n} 級",
    "shengji.line.kitty_bonus": "閒家摳底 ×{mult}：底分加 {bonus}",
    "shengji.line.kitty": "底牌：{cards}",
    "shengji.line.match": "{team}隊打過 A，贏得整局！",
    "shengji.choice.declare": "亮 {cards}",
    "shengji.choice.counter": "反底 {cards}",
    "shengji.choice.pass": "不亮",
    "err.shengji.no_cards": "看不懂「{typed}」：沒有寫牌。",
    "err.shengji.not_held": "你沒有這些牌：{cards}",
    "err.shengji.carry": "上一副牌傳下來的級別或莊家無效。",
    "err.shengji.option_decks": "房間選項「decks」（幾副牌）只能是 1、2 或 3。",
    "err.shengji.option_sweep": "房間選項「sweep」（大光積分）要在 0～100 之間。",
    "err.shengji.option_fixed_two": "房間選項「fixed_two」（2 為常主）應為開關（true/false）。",
    "err.shengji.declare_now": "現在只能亮主（declare 加牌）或不亮（pass）。",
    "err.shengji.counter_now": "現在只能反底或不反（pass）。",
    "err.shengji.weak_declaration": "{cards} 不能亮：要用級牌 {level} 或對王，並且比現在亮的更大。",
    "err.shengji.bury_first": "請先扣底：bury 加 {n} 張牌。",
    "err.shengji.bury_count": "扣底要扣 {n} 張牌，你選了 {got} 張。",
    "err.shengji.play_now": "現在請出牌。",
    "err.shengji.lead_one_suit": "首家出牌必須是同一門花色（或全是主牌）。",
    "err.shengji.follow_count": "要出 {n} 張牌，和首家一樣多（你出了 {got} 張）。",
    "err.shengji.follow_suit": "你還有 {held} 張{suit}，必須先跟出這門牌。",
    "err.shengji.follow_structure": "你還有{suit}的{kind}；首家出的是{led}，必須跟出{kind}。",
}
