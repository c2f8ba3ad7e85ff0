"""文本: the bull games' message catalogue (zh-CN and en-US). Seat numbers are 1-based."""

from __future__ import annotations

from engines.cards import CARD_TEXTS

_KIND_ZH = [
    "没牛",
    "牛丁",
    "牛二",
    "牛三",
    "牛四",
    "牛五",
    "牛六",
    "牛七",
    "牛八",
    "牛九",
    "牛牛",
    "四炸",
    "五花牛",
]
_KIND_EN = [
    "No bull",
    "Bull 1",
    "Bull 2",
    "Bull 3",
    "Bull 4",
    "Bull 5",
    "Bull 6",
    "Bull 7",
    "Bull 8",
    "Bull 9",
    "Bull-bull",
    "Four of a kind",
    "Five faces",
]
_KIND_KEYS = (
    ["no_bull"] + [f"bull_{i}" for i in range(1, 10)] + ["bull_bull", "four_bomb", "five_flower"]
)

ZH: dict[str, str] = {
    "niuniu.phase.grab": "抢庄：{seat}号玩家是否当庄",
    "niuniu.phase.bet": "下注：闲家选择注额",
    "niuniu.phase.split": "拼牛：把五张牌分成 3 + 2，三张凑成 10 的倍数",
    "niuniu.phase.done": "开牌",
    "niuniu.role.banker": "庄家",
    "niuniu.role.player": "闲家",
    "niuniu.status.offered": "考虑当庄",
    "niuniu.status.declined": "不抢",
    "niuniu.status.stake": "注 {stake}",
    "niuniu.status.with_stake": "注 {stake} · {status}",
    "niuniu.status.waiting": "拼牛中",
    "niuniu.status.ready": "已拼好",
    "niuniu.status.mine": "已拼：{kind}",
    "niuniu.status.shown": "{kind} {points:+d}",
    "niuniu.line.banker": "庄家：{seat}号",
    "niuniu.line.rule_douniu": "斗牛：赢家牌型定倍数，底分 {base} × 1～5（牛八/牛九 ×2，牛牛 ×3，"
    "四炸 ×4，五花牛 ×5）；出现牛九则牛九玩家下盘坐庄",
    "niuniu.line.rule_happy": "欢乐斗牛：其他 5 分，牛八/牛九 10 分，牛牛 15 分，四炸 20 分，"
    "五花牛 25 分；每盘随机选庄",
    "niuniu.line.rule_niuniu": "牛牛：注额 × 倍数（牛八/牛九 ×2，牛牛 ×3，四炸 ×4，五花牛 ×5）",
    "niuniu.line.presets": "可选注额：{stakes}",
    "niuniu.line.best": "你的最佳拼法：{split}（{kind}）",
    "niuniu.line.no_best": "你的牌凑不出牛（{kind}）",
    "niuniu.line.versus": "{player}号 {hand} 对 庄家 {banker_hand}：{result} {amount}",
    "niuniu.line.escape": "{seat}号逃跑，扣 {points} 分",
    "niuniu.line.regroup": "无人当庄，重新自动分组，本局不计分",
    "niuniu.line.next_nine": "出现牛九：{seat}号下盘坐庄",
    "niuniu.line.next_stays": "没有牛九：{seat}号继续坐庄",
    "niuniu.line.next_random": "下盘重新随机选庄",
    "niuniu.result.player": "闲家赢",
    "niuniu.result.banker": "庄家赢",
    "niuniu.choice.bank": "抢庄",
    "niuniu.choice.decline": "不抢",
    "niuniu.choice.bet": "下注 {stake}",
    "niuniu.choice.best": "最佳拼法",
    "niuniu.choice.nobull": "没牛",
    "err.niuniu.grab": "看不懂“{typed}”：请回答 抢庄 或 不抢。",
    "err.niuniu.bet": "看不懂“{typed}”：请选择注额，例如 下注 10。",
    "err.niuniu.split": "看不懂“{typed}”：请写出凑成牛的三张牌（如 拼牛 KQ5），"
    "或者写 最佳 / 没牛。",
    "err.niuniu.split_empty": "看不懂“{typed}”：请写出凑成牛的三张牌，例如 拼牛 KQ5。",
    "err.niuniu.split_count": "看不懂“{typed}”：请写凑成牛的三张牌，或者全部五张。",
    "err.niuniu.split_twice": "看不懂“{typed}”：有一张牌写了两次。",
    "err.niuniu.not_held": "你手里没有 {cards}（你的牌：{hand}）。",
    "err.niuniu.rank_not_held": "你手里没有更多的 {rank} 了（你的牌：{hand}）。",
    "err.niuniu.no_stakes": "这个玩法不用下注。",
    "err.niuniu.banker_chosen": "庄家已经定了。",
    "err.niuniu.stake_offer": "只能从这些注额里选：{stakes}",
    "err.niuniu.option_stakes": "房间选项“stakes”必须是 1～20 个 1～{max} 之间的整数组成的列表。",
    "err.niuniu.option_range": "房间选项“{option}”必须是 {min}～{max} 之间的整数。",
    "niuniu.reason.versus": "比牌：{kind}",
    "niuniu.reason.escape": "逃跑罚分",
}

EN: dict[str, str] = {
    "niuniu.phase.grab": "Bank offer: seat {seat} may take the bank",
    "niuniu.phase.bet": "Stakes: each player picks a stake",
    "niuniu.phase.split": "Split: arrange your five cards 3 + 2, the three summing to tens",
    "niuniu.phase.done": "Showdown",
    "niuniu.role.banker": "Banker",
    "niuniu.role.player": "Player",
    "niuniu.status.offered": "deciding on the bank",
    "niuniu.status.declined": "declined the bank",
    "niuniu.status.stake": "stake {stake}",
    "niuniu.status.with_stake": "stake {stake} · {status}",
    "niuniu.status.waiting": "arranging",
    "niuniu.status.ready": "ready",
    "niuniu.status.mine": "your split: {kind}",
    "niuniu.status.shown": "{kind} {points:+d}",
    "niuniu.line.banker": "Banker: seat {seat}",
    "niuniu.line.rule_douniu": "Bull Fight: the winner's hand sets the multiplier on base "
    "{base} (Bull 8/9 ×2, bull-bull ×3, four of a kind ×4, five faces ×5); a Bull 9 takes "
    "the bank next hand",
    "niuniu.line.rule_happy": "Happy Bull: 5 points, Bull 8/9 10, bull-bull 15, four of a "
    "kind 20, five faces 25; a random banker every hand",
    "niuniu.line.rule_niuniu": "Niu Niu: stake × multiplier (Bull 8/9 ×2, bull-bull ×3, four "
    "of a kind ×4, five faces ×5)",
    "niuniu.line.presets": "Stakes on offer: {stakes}",
    "niuniu.line.best": "Your best split: {split} ({kind})",
    "niuniu.line.no_best": "Your cards make no bull ({kind})",
    "niuniu.line.versus": "Seat {player} {hand} vs banker {banker_hand}: {result} {amount}",
    "niuniu.line.escape": "Seat {seat} escaped and pays {points} points",
    "niuniu.line.regroup": "Nobody took the bank: the table regroups, no points this hand",
    "niuniu.line.next_nine": "A Bull 9 appeared: seat {seat} is banker next hand",
    "niuniu.line.next_stays": "No Bull 9: seat {seat} stays banker",
    "niuniu.line.next_random": "The next banker is drawn at random",
    "niuniu.result.player": "player wins",
    "niuniu.result.banker": "banker wins",
    "niuniu.choice.bank": "Take the bank",
    "niuniu.choice.decline": "Decline",
    "niuniu.choice.bet": "Stake {stake}",
    "niuniu.choice.best": "Best split",
    "niuniu.choice.nobull": "No bull",
    "err.niuniu.grab": "Cannot read '{typed}': answer bank or decline.",
    "err.niuniu.bet": "Cannot read '{typed}': pick a stake, e.g. bet 10.",
    "err.niuniu.split": "Cannot read '{typed}': split with the three bull cards (split KQ5), "
    "best, or nobull.",
    "err.niuniu.split_empty": "Cannot read '{typed}': name the three cards that make the bull, "
    "e.g. split KQ5.",
    "err.niuniu.split_count": "Cannot read '{typed}': name three cards (the bull) or all five.",
    "err.niuniu.split_twice": "Cannot read '{typed}': a card appears twice.",
    "err.niuniu.not_held": "{cards} not in your hand {hand}.",
    "err.niuniu.rank_not_held": "No more cards of rank {rank} in your hand {hand}.",
    "err.niuniu.no_stakes": "This game has no stakes to pick.",
    "err.niuniu.banker_chosen": "The banker is already chosen.",
    "err.niuniu.stake_offer": "Stakes on offer are {stakes}.",
    "err.niuniu.option_stakes": "Option 'stakes': must be a list of 1 to 20 whole numbers "
    "from 1 to {max}.",
    "err.niuniu.option_range": "Option '{option}': must be a whole number from {min} to {max}.",
    "niuniu.reason.versus": "showdown: {kind}",
    "niuniu.reason.escape": "escape penalty",
}

for _key, _zh, _en in zip(_KIND_KEYS, _KIND_ZH, _KIND_EN, strict=True):
    ZH["niuniu.kind." + _key] = _zh
    EN["niuniu.kind." + _key] = _en

ZH.update(CARD_TEXTS["zh-CN"])
EN.update(CARD_TEXTS["en-US"])

TEXTS: dict[str, dict[str, str]] = {"zh-CN": ZH, "en-US": EN}
