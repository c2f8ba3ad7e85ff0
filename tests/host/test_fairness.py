"""公平洗牌: the commitment shown at the deal is the hash of the seed the settlement reveals, and a
stored hand re-deals from its seed to the same cards; a changed seed fails."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re

from bot.__main__ import main
from bot.host.fairness import commitment, verify
from bot.host.model import PLAYING
from bot.host.tables import TableManager
from bot.render.text import cards, result_lines, table_text
from storage import history

CH = 555
GUILD = 77


async def play_out(manager: TableManager) -> None:
    """Every person takes the hint until the hand is settled."""
    for _ in range(500):
        table = manager.tables.get(CH)
        if table is None or table.status != PLAYING:
            return
        assert table.game is not None
        uid = table.seats[table.game.to_act()[0]].uid
        assert uid is not None
        await manager.act(CH, uid, manager.hint(CH, uid))
    raise AssertionError("hand did not end")


async def three_at_a_table(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "novice", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")


def shown_digest(text: str) -> str:
    found = re.search(r"\b([0-9a-f]{64})\b", text)
    assert found, text
    return found[1]


async def test_the_commitment_before_play_is_the_hash_of_the_seed_revealed_after(
    manager: TableManager,
) -> None:
    await three_at_a_table(manager)
    table = await manager.start(CH, 1)
    before = table_text(manager, table, "en-US")
    promised = shown_digest(before.footer)
    # the seed itself is nowhere on the table while the hand runs
    seed = table.game.setup.seed  # type: ignore[union-attr]
    public = " ".join([before.title, before.status, before.footer, *before.lines,
                       *(s.detail for s in before.seats)])
    assert str(seed) not in public.replace(promised, "")
    await play_out(manager)
    settled = result_lines(manager.get(CH).last_result, "en-US")
    revealed = next(line for line in settled if "seed" in line.lower())
    shown_seed = re.search(r"`(\d+)`", revealed)
    assert shown_seed
    assert hashlib.sha256(shown_seed[1].encode()).hexdigest() == promised


async def test_a_stored_hand_re_deals_the_same_cards_and_a_tampered_seed_fails(
    manager: TableManager,
) -> None:
    await three_at_a_table(manager)
    table = await manager.start(CH, 1)
    assert table.game is not None
    dealt = [table.game.view(s).hand for s in range(3)]
    promised = commitment(table.game.setup.seed)
    hand_id = table.hand_id
    await play_out(manager)
    hand = await history.get_hand(manager.db, hand_id)
    assert hand is not None
    spec = manager.specs[hand.game]
    good = verify(spec, hand.record, promised)
    assert good.ok and good.matches and good.replayed
    assert list(good.dealt) == dealt
    record = json.loads(hand.record)
    record["setup"]["seed"] += 1
    bad = verify(spec, record, promised)
    assert bad.matches is False and not bad.ok
    assert list(bad.dealt) != dealt
    assert not bad.replayed, "the recorded plays are not legal with other cards"


async def test_gamehall_verify_checks_a_hand_from_the_command_line(
    manager: TableManager, settings, capsys, monkeypatch
) -> None:
    await three_at_a_table(manager)
    table = await manager.start(CH, 1)
    assert table.game is not None
    promised = commitment(table.game.setup.seed)
    first = table.game.view(0).hand
    await play_out(manager)
    code = manager.get(CH).last_result["code"]
    monkeypatch.setenv("GAMEHALL_DB", str(settings.database))

    async def gamehall(*argv: str) -> int:
        return await asyncio.to_thread(main, ["verify", *argv])

    assert await gamehall(code.upper(), "--commitment", promised.upper()) == 0
    out = capsys.readouterr().out
    assert promised in out and "uid 1 起手" in out
    assert f"uid 1 起手：{cards(first)}" in out, (first, out)
    assert await gamehall(code, "--commitment", "0" * 64) == 1
    assert "不一致" in capsys.readouterr().out
    assert await gamehall(code, "--commitment", "nonsense") == 2
    assert "不是承诺" in capsys.readouterr().out
    assert await gamehall("zzzzzzzzzz") == 2
