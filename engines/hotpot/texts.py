"""文本: 吃火锅's message catalogue (zh-CN and en-US). Seat numbers are 1-based."""

from __future__ import annotations

from engines.cards import CARD_TEXTS

ZH: dict[str, str] = {
    "hotpot.phase.play": "{seat}号玩家：放弃还是添菜",
    "hotpot.phase.done": "本盘结束",
    "hotpot.status.net": "{net:+d}",
    "hotpot.line.pot": "火锅：{pot}",
    "hotpot.line.turn": "第 {turn}/{turns} 手（第 {round} 轮）",
    "hotpot.line.rules": "底料 {ante}，最小添菜 {min_bet}",
    "hotpot.line.open": "{seat}号的牌：{cards}",
    "hotpot.line.hint": "第三张 {win} 赢；{lose} 输；{post} 是牛角尖（×{factor}）",
    "hotpot.line.hint_pair": "对子：只能添最小数 {min_bet}；"
    "第三张是 {rank} 赢走整锅，否则输 {min_bet}",
    "hotpot.line.limits": "可添菜 {low}～{high}",
    "hotpot.line.end_empty": "{seat}号吃光了火锅",
    "hotpot.line.end_turns": "{turns} 手已满，锅里剩 {leftover}，由在座玩家平分（每人 {share}）",
    "hotpot.turn.pass": "{seat}号 {cards}：放弃",
    "hotpot.turn.consecutive": "{seat}号 {cards}：连张，自动放弃",
    "hotpot.turn.nobet": "{seat}号 {cards}：无法添菜，自动放弃",
    "hotpot.turn.between": "{seat}号 {cards} 添菜 {bet}，第三张 {third} 在中间：赢 {amount}",
    "hotpot.turn.outside": "{seat}号 {cards} 添菜 {bet}，第三张 {third} 在外面：输 {amount}",
    "hotpot.turn.post": "{seat}号 {cards} 添菜 {bet}，第三张 {third} 牛角尖 ×{factor}：输 {amount}",
    "hotpot.turn.triple": "{seat}号 {cards} 添菜 {bet}，第三张 {third} 三张！赢走整锅 {amount}",
    "hotpot.turn.pair_miss": "{seat}号 {cards} 添菜 {bet}，第三张 {third} 不成三张：输 {amount}",
    "hotpot.choice.pass": "放弃",
    "hotpot.choice.bet": "添菜 {amount}",
    "hotpot.none": "无",
    "err.hotpot.action": "看不懂“{typed}”：请写 放弃，或者 添菜 加数目，例如 添菜 200。",
    "err.hotpot.no_bet": "现在不能添菜，只能放弃。",
    "err.hotpot.pair_min": "对子只能添最小数 {low}。",
    "err.hotpot.bet_range": "添菜数目要在 {low}～{high} 之间。",
    "err.hotpot.option_max_bet": "房间选项“max_bet”（添菜上限）不能小于 min_bet（最小添菜数）。",
    "err.hotpot.option_loss_cap": "房间选项“loss_cap”（每次输的上限）不能小于 max_bet（添菜上限）。",
    "err.hotpot.option_range": "房间选项“{option}”必须是 1～{max} 之间的整数。",
}

EN: dict[str, str] = {
    "hotpot.phase.play": "Seat {seat}: pass or bet",
    "hotpot.phase.done": "The pot is settled",
    "hotpot.status.net": "{net:+d}",
    "hotpot.line.pot": "Pot: {pot}",
    "hotpot.line.turn": "Turn {turn}/{turns} (round {round})",
    "hotpot.line.rules": "Ante {ante}, minimum bet {min_bet}",
    "hotpot.line.open": "Seat {seat} shows {cards}",
    "hotpot.line.hint": "A third card of {win} wins; {lose} loses; {post} hits the post "
    "(×{factor})",
    "hotpot.line.hint_pair": "A pair: bet only the minimum {min_bet}; a third {rank} takes the "
    "whole pot, anything else costs {min_bet}",
    "hotpot.line.limits": "You may bet {low} to {high}",
    "hotpot.line.end_empty": "Seat {seat} took the whole pot",
    "hotpot.line.end_turns": "{turns} turns played; the {leftover} left in the pot is shared "
    "by the players at the table ({share} each)",
    "hotpot.turn.pass": "Seat {seat} {cards}: pass",
    "hotpot.turn.consecutive": "Seat {seat} {cards}: consecutive cards, passed automatically",
    "hotpot.turn.nobet": "Seat {seat} {cards}: no bet possible, passed automatically",
    "hotpot.turn.between": "Seat {seat} {cards} bets {bet}, third card {third} is between: "
    "wins {amount}",
    "hotpot.turn.outside": "Seat {seat} {cards} bets {bet}, third card {third} is outside: "
    "loses {amount}",
    "hotpot.turn.post": "Seat {seat} {cards} bets {bet}, third card {third} hits the post "
    "×{factor}: loses {amount}",
    "hotpot.turn.triple": "Seat {seat} {cards} bets {bet}, third card {third} makes three of a "
    "kind: takes the whole pot, {amount}",
    "hotpot.turn.pair_miss": "Seat {seat} {cards} bets {bet}, third card {third} misses the "
    "pair: loses {amount}",
    "hotpot.choice.pass": "Pass",
    "hotpot.choice.bet": "Bet {amount}",
    "hotpot.none": "none",
    "err.hotpot.action": "Cannot read '{typed}': pass or bet an amount, e.g. bet 200.",
    "err.hotpot.no_bet": "You cannot bet now; pass.",
    "err.hotpot.pair_min": "With a pair you may only bet the minimum, {low}.",
    "err.hotpot.bet_range": "A bet must be {low} to {high}.",
    "err.hotpot.option_max_bet": "Option 'max_bet': must be at least min_bet.",
    "err.hotpot.option_loss_cap": "Option 'loss_cap': must be at least max_bet.",
    "err.hotpot.option_range": "Option '{option}': must be a whole number from 1 to {max}.",
}

ZH.update(CARD_TEXTS["zh-CN"])
EN.update(CARD_TEXTS["en-US"])

TEXTS: dict[str, dict[str, str]] = {"zh-CN": ZH, "en-US": EN}

# 繁體中文 (Taiwan): kept complete by `python -m bot.i18n.tw --fill`
TEXTS["zh-TW"] = {
    **CARD_TEXTS["zh-TW"],
    "hotpot.phase.play": "{seat}號玩家：放棄還是添菜",
    "hotpot.phase.done": "本盤結束",
    "hotpot.status.net": "{net:+d}",
    "hotpot.line.pot": "火鍋：{pot}",
    "hotpot.line.turn": "第 {turn}/{turns} 手（第 {round} 輪）",
    "hotpot.line.rules": "底料 {ante}，最小添菜 {min_bet}",
    "hotpot.line.open": "{seat}號的牌：{cards}",
    "hotpot.line.hint": "第三張 {win} 贏；{lose} 輸；{post} 是牛角尖（×{factor}）",
    "hotpot.line.hint_pair": "對子：只能添最小數 {min_bet}；第三張是 {rank} 贏走整鍋，否則輸 {min_bet}",
    "hotpot.line.limits": "可添菜 {low}～{high}",
    "hotpot.line.end_empty": "{seat}號吃光了火鍋",
    "hotpot.line.end_turns": "{turns} 手已滿，鍋裡剩 {leftover}，由在座玩家平分（每人 {share}）",
    "hotpot.turn.pass": "{seat}號 {cards}：放棄",
    "hotpot.turn.consecutive": "{seat}號 {cards}：連張，自動放棄",
    "hotpot.turn.nobet": "{seat}號 {cards}：無法添菜，自動放棄",
    "hotpot.turn.between": "{seat}號 {cards} 添菜 {bet}，第三張 {third} 在中間：贏 {amount}",
    "hotpot.turn.outside": "{seat}號 {cards} 添菜 {bet}，第三張 {third} 在外面：輸 {amount}",
    "hotpot.turn.post": "{seat}號 {cards} 添菜 {bet}，第三張 {third} 牛角尖 ×{factor}：輸 {amount}",
    "hotpot.turn.triple": "{seat}號 {cards} 添菜 {bet}，第三張 {third} 三張！贏走整鍋 {amount}",
    "hotpot.turn.pair_miss": "{seat}號 {cards} 添菜 {bet}，第三張 {third} 不成三張：輸 {amount}",
    "hotpot.choice.pass": "放棄",
    "hotpot.choice.bet": "添菜 {amount}",
    "hotpot.none": "無",
    "err.hotpot.action": "看不懂「{typed}」：請寫 放棄，或者 添菜 加數目，例如 添菜 200。",
    "err.hotpot.no_bet": "現在不能添菜，只能放棄。",
    "err.hotpot.pair_min": "對子只能添最小數 {low}。",
    "err.hotpot.bet_range": "添菜數目要在 {low}～{high} 之間。",
    "err.hotpot.option_max_bet": "房間選項「max_bet」（添菜上限）不能小於 min_bet（最小添菜數）。",
    "err.hotpot.option_loss_cap": "房間選項「loss_cap」（每次輸的上限）不能小於 max_bet（添菜上限）。",
    "err.hotpot.option_range": "房間選項「{option}」必須是 1～{max} 之間的整數。",
}
