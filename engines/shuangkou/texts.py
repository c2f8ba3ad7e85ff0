"""文本: the message catalogue of 百变双扣 (zh-CN and en-US). Seat numbers are 1-based."""

from __future__ import annotations

from engines.shuangkou.notation import CLIMB_TEXTS

ZH: dict[str, str] = {
    **CLIMB_TEXTS["zh-CN"],
    "shuangkou.phase.lead": "{seat}号出牌（首出）",
    "shuangkou.phase.follow": "轮到{seat}号：压过或不出",
    "shuangkou.phase.done": "本局结束，各家余牌亮明",
    "shuangkou.role.team": "{team}队",
    "shuangkou.status.pass": "不出",
    "shuangkou.status.played": "{cards}（{kind}）",
    "shuangkou.status.out": "第{place}名出完（{cards}）",
    "shuangkou.kind.single": "单张",
    "shuangkou.kind.pair": "对子",
    "shuangkou.kind.triple": "三张",
    "shuangkou.kind.straight": "顺子",
    "shuangkou.kind.pairs": "连对",
    "shuangkou.kind.triples": "连三张",
    "shuangkou.kind.bomb": "炸弹",
    "shuangkou.kind.chain": "连炸",
    "shuangkou.kind.three_kings": "三王炸弹",
    "shuangkou.kind.four_kings": "天王炸弹",
    "shuangkou.line.table": "桌面：{seat}号 {cards}（{kind}）",
    "shuangkou.line.jiefeng": "接风：{seat}号接着出牌",
    "shuangkou.line.order": "出完顺序：{seats}",
    "shuangkou.line.stars": "星级（座位:星）：{stars}",
    "shuangkou.line.result": "{team}队胜：{kind}，各得 {base} 个基础分",
    "shuangkou.line.doubled": "胜方有 {stars} 星：×{mult}，每人 {points} 分",
    "shuangkou.line.contribution": "{seat}号有 {stars} 星：其他三家各贡献 {points} 分",
    "shuangkou.result.double": "双扣",
    "shuangkou.result.single": "单扣",
    "shuangkou.result.even": "平扣",
    "shuangkou.reason.stars": "{stars} 星贡献",
    "shuangkou.choice.pass": "不出",
    "err.shuangkou.option_base": "房间选项“base”（底注分）必须是 1～{max} 的整数。",
    "err.shuangkou.must_lead": "这一轮由你首出，不能不出。",
    "err.shuangkou.no_pattern": "{cards} 不是百变双扣的牌型（单张、对子、三张、顺子、连对、连三张、炸弹、连炸）。",
    "err.shuangkou.reading": "{cards} 不能当作 {reading}：大王只能代替一张牌，其余的牌要对上。",
    "err.shuangkou.shape": "{cards} 和桌上的 {table} 牌型不同：要出 {n} 张的{kind}，或者炸弹。",
    "err.shuangkou.no_beat": "{cards} 压不过桌上的 {table}。",
}

EN: dict[str, str] = {
    **CLIMB_TEXTS["en-US"],
    "shuangkou.phase.lead": "Seat {seat} leads",
    "shuangkou.phase.follow": "Seat {seat}: beat it or pass",
    "shuangkou.phase.done": "The hand is over; every hand is shown",
    "shuangkou.role.team": "team {team}",
    "shuangkou.status.pass": "pass",
    "shuangkou.status.played": "{cards} ({kind})",
    "shuangkou.status.out": "out in place {place} ({cards})",
    "shuangkou.kind.single": "single",
    "shuangkou.kind.pair": "pair",
    "shuangkou.kind.triple": "triple",
    "shuangkou.kind.straight": "straight",
    "shuangkou.kind.pairs": "pair run",
    "shuangkou.kind.triples": "triple run",
    "shuangkou.kind.bomb": "bomb",
    "shuangkou.kind.chain": "bomb chain",
    "shuangkou.kind.three_kings": "three-joker bomb",
    "shuangkou.kind.four_kings": "four-joker bomb",
    "shuangkou.line.table": "On the table: seat {seat} {cards} ({kind})",
    "shuangkou.line.jiefeng": "Wind passes (接风): seat {seat} leads",
    "shuangkou.line.order": "Out in order: {seats}",
    "shuangkou.line.stars": "Stars (seat:stars): {stars}",
    "shuangkou.line.result": "Team {team} wins: {kind}, {base} base each",
    "shuangkou.line.doubled": "The winners hold {stars} stars: ×{mult}, {points} points each",
    "shuangkou.line.contribution": "Seat {seat} holds {stars} stars: each other seat pays "
    "{points}",
    "shuangkou.result.double": "double win (双扣)",
    "shuangkou.result.single": "single win (单扣)",
    "shuangkou.result.even": "even win (平扣)",
    "shuangkou.reason.stars": "{stars}-star contribution",
    "shuangkou.choice.pass": "Pass",
    "err.shuangkou.option_base": "Option 'base': must be a whole number from 1 to {max}.",
    "err.shuangkou.must_lead": "You lead this round: play some cards.",
    "err.shuangkou.no_pattern": "{cards} is no pattern of Shuangkou (single, pair, triple, "
    "straight, pair run, triple run, bomb, bomb chain).",
    "err.shuangkou.reading": "{cards} cannot be read as {reading}: each big joker stands for "
    "one card and the other cards must match.",
    "err.shuangkou.shape": "{cards} is not the pattern of {table} on the table: play a {kind} "
    "of {n} cards, or a bomb.",
    "err.shuangkou.no_beat": "{cards} does not beat {table}.",
}

TEXTS: dict[str, dict[str, str]] = {"zh-CN": ZH, "en-US": EN}
