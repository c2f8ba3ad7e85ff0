"""道具 bought with beans during a mahjong hand reach the wallet as a bean sink: the buyer pays
the house the prop's price (Outcome.fees), ledgered apart from the hand's payments."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.host.model import WAITING
from bot.host.tables import TableManager
from bot.settings import load_settings
from bot.terminal import TerminalNotifier
from engines import registry
from storage.db import open_database
from storage.wallet import Wallet

CH, GUILD = 880, 91


async def test_a_prop_bought_in_a_hand_is_paid_to_the_house(tmp_path: Path) -> None:
    config = tmp_path / "props.toml"
    config.write_text("[rooms.novice.options.xuezhan]\nprops = true\n", encoding="utf-8")
    settings = load_settings(
        environ={"GAMEHALL_DB": str(tmp_path / "hall.db"), "GAMEHALL_CONFIG": str(config)},
        known_games=registry.specs(),
    )
    db = await open_database(settings.database)
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda line: None)
    seeds = itertools.count(7)
    manager = TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                           clock=lambda: 1_700_000_000.0, seed_source=lambda: next(seeds))
    notifier.manager = manager
    try:
        wallet = manager.wallet_for(GUILD)
        table = await manager.create(GUILD, CH, "xuezhan", "novice", 1, "ann")
        for uid, name in ((2, "bob"), (3, "cat"), (4, "dan")):
            await manager.join(CH, uid, name)
        before = {u: (await wallet.account(u)).balance for u in (1, 2, 3, 4)}
        house = await wallet.house_balance()
        await manager.start(CH, 1)
        game = table.game
        assert game is not None
        bought = None
        for _ in range(400):  # everyone follows the hint; the first seat on its turn buys 顺风耳
            if table.status == WAITING:
                break
            seat = game.to_act()[0]
            uid = table.seats[seat].uid
            assert uid is not None
            if bought is None and "prop shunfeng" in game.legal_actions(seat):
                await manager.act(CH, uid, "prop shunfeng")
                bought = uid
                continue
            await manager.act(CH, uid, manager.hint(CH, uid))
        assert bought is not None and table.status == WAITING
        price = settings.rooms["novice"].options["xuezhan"].get("price_shunfeng", 500)
        rows = await wallet.ledger(bought, 20)
        assert [r.delta for r in rows if r.reason == "hand:fee"] == [-price]
        after = {u: (await wallet.account(u)).balance for u in (1, 2, 3, 4)}
        took = await wallet.house_balance() - house
        assert sum(after.values()) - sum(before.values()) + took == 0, "no bean created or lost"
        assert took == price + 4 * settings.rooms["novice"].rake
    finally:
        await manager.shutdown()
        await db.close()
