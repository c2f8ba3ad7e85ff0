"""文本: 打滚子's message catalogue (zh-CN and en-US), on top of 升级's shared card texts."""

from __future__ import annotations

from engines.shengji.texts import EN as SHENGJI_EN
from engines.shengji.texts import TEXTS as SHENGJI_TEXTS
from engines.shengji.texts import ZH as SHENGJI_ZH

_SHARED = ("shengji.phase.", "shengji.suit.", "shengji.status.", "shengji.trump.",
           "shengji.line.levels", "shengji.line.declared", "shengji.line.points",
           "shengji.line.trick", "shengji.line.last", "err.shengji.card")

ZH: dict[str, str] = {k: v for k, v in SHENGJI_ZH.items() if k.startswith(_SHARED)}
EN: dict[str, str] = {k: v for k, v in SHENGJI_EN.items() if k.startswith(_SHARED)}

ZH.update({
    "dagunzi.phase.return": "{seat}号还贡：选 {n} 张不带分的副牌",
    "dagunzi.phase.jokers": "其他玩家可以往底牌里扣王",
    "dagunzi.role.zhuang": "庄家",
    "dagunzi.role.xian": "抓分方",
    "dagunzi.side.zhuang": "庄家方",
    "dagunzi.side.xian": "抓分方",
    "dagunzi.line.mode_dead": "死棒打法",
    "dagunzi.line.mode_live": "活棒打法",
    "dagunzi.line.tribute": "{payer}号向{receiver}号进贡 {n} 张",
    "dagunzi.line.tribute_flipped": "进贡方有 3 个大王：改由对方进贡",
    "dagunzi.line.tribute_none": "进贡方的对家有 3 个大王：不进贡",
    "dagunzi.line.kitty": "底牌：{cards}",
    "dagunzi.line.dry": "干锅：底牌中的王不追加升级",
    "dagunzi.line.result_xian": "抓分方得 {points} 分：上台，升 {n} 级",
    "dagunzi.line.result_zhuang": "抓分方得 {points} 分：庄家方保底，升 {n} 级",
    "dagunzi.line.result_none": "抓分方得 {points} 分：双方都不升级",
    "dagunzi.line.special": "特殊计分：{side}各得 {points} 分",
    "dagunzi.line.match_over": "本轮结束，双方从 2 开始新的一轮",
    "dagunzi.choice.action": "{action}",
    "err.dagunzi.no_cards": "看不懂“{typed}”：没有写牌。",
    "err.dagunzi.not_held": "你没有这些牌：{cards}",
    "err.dagunzi.carry": "上一副牌传下来的级别、庄家或分数无效。",
    "err.dagunzi.option_mode": "房间选项“mode”只能是 dead（死棒）或 live（活棒）。",
    "err.dagunzi.declare_now": "现在只能亮主或不亮（pass）。",
    "err.dagunzi.weak_declaration": "{cards} 不能亮：要用级牌 {level} 或三张相同的王（再写一个花色），"
    "并且比现在亮的更大。",
    "err.dagunzi.return_first": "请先还贡：return 加牌。",
    "err.dagunzi.return_cards": "还贡要还 {n} 张牌：尽量用不带分的副牌。",
    "err.dagunzi.bury_first": "请先扣底：bury 加 {n} 张牌。",
    "err.dagunzi.bury_count": "扣底要扣 {n} 张牌，你选了 {got} 张。",
    "err.dagunzi.big_first": "有大王时必须先扣大王，才能扣小王。",
    "err.dagunzi.jokers_only": "这里只能扣王（先大王后小王），底牌里要有同样多不带分的牌可捡。",
    "err.dagunzi.jokers_now": "现在只能扣王或不扣（pass）。",
    "err.dagunzi.play_now": "现在请出牌。",
    "err.dagunzi.lead_pattern": "首家只能出单张、棒子（两张相同）或滚子（三张相同）。",
    "err.dagunzi.follow_count": "要出 {n} 张牌，和首家一样多。",
    "err.dagunzi.follow_suit": "你还有{suit}，必须先跟这门牌。",
    "err.dagunzi.follow_bang": "死棒：你还有{suit}的棒子，必须跟棒子。",
    "err.dagunzi.follow_gun": "死棒：你还有{suit}的滚子，必须跟滚子。",
})
EN.update({
    "dagunzi.phase.return": "Seat {seat} returns {n} side cards without points",
    "dagunzi.phase.jokers": "The others may bury jokers in the kitty",
    "dagunzi.role.zhuang": "declarers",
    "dagunzi.role.xian": "scorers",
    "dagunzi.side.zhuang": "the declarers",
    "dagunzi.side.xian": "the scorers",
    "dagunzi.line.mode_dead": "死棒: pairs and triples must be followed",
    "dagunzi.line.mode_live": "活棒: pairs and triples need not be followed",
    "dagunzi.line.tribute": "Seat {payer} paid seat {receiver} a tribute of {n} card(s)",
    "dagunzi.line.tribute_flipped": "The tribute payer holds three big jokers: the tribute turns "
    "round",
    "dagunzi.line.tribute_none": "The payer's partner holds three big jokers: no tribute",
    "dagunzi.line.kitty": "Kitty: {cards}",
    "dagunzi.line.dry": "干锅: the kitty's jokers add no levels",
    "dagunzi.line.result_xian": "Scorers took {points}: they take the deal and go up {n}",
    "dagunzi.line.result_zhuang": "Scorers took {points}: the declarers keep the bottom and go "
    "up {n}",
    "dagunzi.line.result_none": "Scorers took {points}: nobody goes up",
    "dagunzi.line.special": "Special score: {side} get {points} each",
    "dagunzi.line.match_over": "The round is over; both sides start again at 2",
    "dagunzi.choice.action": "{action}",
    "err.dagunzi.no_cards": "Cannot read '{typed}': no cards given.",
    "err.dagunzi.not_held": "You do not hold {cards}.",
    "err.dagunzi.carry": "The levels, dealer or score carried from the last hand are invalid.",
    "err.dagunzi.option_mode": "Option 'mode': must be dead (死棒) or live (活棒).",
    "err.dagunzi.declare_now": "Now declare trump or pass.",
    "err.dagunzi.weak_declaration": "{cards} cannot be declared: use level cards ({level}) or "
    "three identical jokers and a suit, stronger than the current declaration.",
    "err.dagunzi.return_first": "Return the tribute first: return and the cards.",
    "err.dagunzi.return_cards": "Return {n} cards: side cards without points as far as you can.",
    "err.dagunzi.bury_first": "Bury the kitty first: bury and {n} cards.",
    "err.dagunzi.bury_count": "Bury exactly {n} cards, not {got}.",
    "err.dagunzi.big_first": "Bury your big jokers before any small joker.",
    "err.dagunzi.jokers_only": "Bury jokers only (big before small), with as many low cards "
    "without points left in the kitty to take back.",
    "err.dagunzi.jokers_now": "Now bury jokers or pass.",
    "err.dagunzi.play_now": "Play cards now.",
    "err.dagunzi.lead_pattern": "Lead a single, a pair (棒子, two identical cards) or a triple "
    "(滚子, three identical cards).",
    "err.dagunzi.follow_count": "Play {n} cards, as many as the lead.",
    "err.dagunzi.follow_suit": "You still hold {suit}: follow suit first.",
    "err.dagunzi.follow_bang": "死棒: you still hold a pair (棒子) of {suit}; play it.",
    "err.dagunzi.follow_gun": "死棒: you still hold a triple (滚子) of {suit}; play it.",
})

TEXTS: dict[str, dict[str, str]] = {"zh-CN": ZH, "en-US": EN}

# 繁體中文 (Taiwan): kept complete by `python -m bot.i18n.tw --fill`
TEXTS["zh-TW"] = {
    **{k: v for k, v in SHENGJI_TEXTS["zh-TW"].items() if k.startswith(_SHARED)},
    "dagunzi.phase.return": "{seat}號還貢：選 {n} 張不帶分的副牌",
    "dagunzi.phase.jokers": "其他玩家可以往底牌里扣王",
    "dagunzi.role.zhuang": "莊家",
    "dagunzi.role.xian": "抓分方",
    "dagunzi.side.zhuang": "莊家方",
    "dagunzi.side.xian": "抓分方",
    "dagunzi.line.mode_dead": "死棒打法",
    "dagunzi.line.mode_live": "活棒打法",
    "dagunzi.line.tribute": "{payer}號向{receiver}號進貢 {n} 張",
    "dagunzi.line.tribute_flipped": "進貢方有 3 個大王：改由對方進貢",
    "dagunzi.line.tribute_none": "進貢方的對家有 3 個大王：不進貢",
    "dagunzi.line.kitty": "底牌：{cards}",
    "dagunzi.line.dry": "乾鍋：底牌中的王不追加升級",
    "dagunzi.line.result_xian": "抓分方得 {points} 分：上臺，升 {n} 級",
    "dagunzi.line.result_zhuang": "抓分方得 {points} 分：莊家方保底，升 {n} 級",
    "dagunzi.line.result_none": "抓分方得 {points} 分：雙方都不升級",
    "dagunzi.line.special": "特殊計分：{side}各得 {points} 分",
    "dagunzi.line.match_over": "本輪結束，雙方從 2 開始新的一輪",
    "dagunzi.choice.action": "{action}",
    "err.dagunzi.no_cards": "看不懂「{typed}」：沒有寫牌。",
    "err.dagunzi.not_held": "你沒有這些牌：{cards}",
    "err.dagunzi.carry": "上一副牌傳下來的級別、莊家或分數無效。",
    "err.dagunzi.option_mode": "房間選項「mode」只能是 dead（死棒）或 live（活棒）。",
    "err.dagunzi.declare_now": "現在只能亮主或不亮（pass）。",
    "err.dagunzi.weak_declaration": "{cards} 不能亮：要用級牌 {level} 或三張相同的王（再寫一個花色），並且比現在亮的更大。",
    "err.dagunzi.return_first": "請先還貢：return 加牌。",
    "err.dagunzi.return_cards": "還貢要還 {n} 張牌：儘量用不帶分的副牌。",
    "err.dagunzi.bury_first": "請先扣底：bury 加 {n} 張牌。",
    "err.dagunzi.bury_count": "扣底要扣 {n} 張牌，你選了 {got} 張。",
    "err.dagunzi.big_first": "有大王時必須先扣大王，才能扣小王。",
    "err.dagunzi.jokers_only": "這裡只能扣王（先大王后小王），底牌裡要有同樣多不帶分的牌可撿。",
    "err.dagunzi.jokers_now": "現在只能扣王或不扣（pass）。",
    "err.dagunzi.play_now": "現在請出牌。",
    "err.dagunzi.lead_pattern": "首家只能出單張、棒子（兩張相同）或滾子（三張相同）。",
    "err.dagunzi.follow_count": "要出 {n} 張牌，和首家一樣多。",
    "err.dagunzi.follow_suit": "你還有{suit}，必須先跟這門牌。",
    "err.dagunzi.follow_bang": "死棒：你還有{suit}的棒子，必須跟棒子。",
    "err.dagunzi.follow_gun": "死棒：你還有{suit}的滾子，必須跟滾子。",
}
