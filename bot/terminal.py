"""The offline terminal table: the same host, rules and wallet file, no Discord needed."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult, TableManager
from bot.i18n import DEFAULT, render, t, typed
from bot.render.text import error_text, game_name, own_view, result_lines, table_text
from bot.settings import Settings
from engines import registry
from engines.base import ESCAPE, NORMAL, Game, Text
from engines.errors import GameError
from storage import levels
from storage.conduct import CLEAN_PER_STRIKE, Conduct
from storage.db import Storage, open_database
from storage.errors import UnknownPlayer
from storage.wallet import Account, Wallet, economies_of

TERMINAL_GUILD = 0
TERMINAL_TABLE = 1


QUIT_WORDS = frozenset({"quit", "exit", "退出"})
HINT_WORDS = frozenset({"hint", "提示"})
TRUSTEE_WORDS = frozenset({"trustee", "托管"})
HELP_WORDS = frozenset({"help", "帮助", "?", "？"})
LISTED = 12
"""The most legal actions listed one by one where the game offers no choices or picker."""
YES = frozenset({"y", "yes", "是", "确定", "对"})
NO = frozenset({"n", "no", "q", "quit", "exit", "不", "否", "退出"})


def read_command(line: str) -> tuple[str, str]:
    """What a line typed at the terminal table asks for, as (command, action): ``("play",
    action)``, ``("hint", "")``, ``("trustee", "")``, ``("help", "")``, ``("quit", "")``, or
    ``("", "")`` for an empty line. The Discord commands are accepted as written there
    (``/play 33``, ``/hint``), and Traditional characters read as Simplified.

    >>> read_command("/play JJ"), read_command("33"), read_command(" /hint "), read_command("託管")
    (('play', 'JJ'), ('play', '33'), ('hint', ''), ('trustee', ''))
    >>> read_command("/play"), read_command("help")
    (('play', ''), ('help', ''))
    """
    text = typed(line).strip()
    slash = text.startswith("/")
    if slash:
        text = text[1:].strip()
    word, _, rest = text.partition(" ")
    if slash and word.lower() == "play":
        return "play", rest.strip()
    for command, words in (("hint", HINT_WORDS), ("trustee", TRUSTEE_WORDS),
                           ("help", HELP_WORDS), ("quit", QUIT_WORDS)):
        if text.lower() in words:
            return command, ""
    return ("play", text) if text else ("", "")


class TerminalNotifier:
    """Prints, in one language: each play since the last redraw, the table, the player's own
    hand with what they may type, and the settlement."""

    def __init__(self, uid: int, locale: str, out: Callable[[str], None] = print,
                 *, timers: bool = True) -> None:
        self.uid, self.locale, self.out, self.timers = uid, locale, out, timers
        self.manager: TableManager | None = None
        self.finished = asyncio.Event()
        self.hand_no = 0  # hands dealt at this terminal's table
        self.game: Game | None = None  # the running hand, kept to print its last plays
        self._shadow: Game | None = None  # the same hand, replayed as far as printed
        self._names: list[str] = []

    async def table_changed(self, table: Table) -> None:
        if table.status != PLAYING or table.game is None:
            return
        assert self.manager is not None
        self._follow(table)
        self._plays()
        self.out("")
        text = table_text(self.manager, table, self.locale)
        status = render(table.game.view(None).phase, self.locale)
        if self.timers and table.deadline is not None and table.game.to_act():
            left = max(0, int(table.deadline - time.time()))
            status += " · " + t("terminal.deadline", self.locale, seconds=left)
        self.out(f"== {text.title} · " + t("terminal.hand_no", self.locale, n=self.hand_no)
                 + f" — {status}")
        for seat in text.seats:
            self.out(f"  {seat.name}: {seat.detail}")
        if text.view is not None and text.view.board is not None:
            from bot.render.board import render_board_text

            self.out(render_board_text(text.view.board))
        seat = table.seat_of(self.uid)
        if seat is not None and not table.seats[seat].escaped:
            for line in private_lines(table, seat, self.locale):
                self.out("  " + line.replace("**", ""))
        else:
            for line in text.lines:
                self.out(f"  {line}")

    async def hand_started(self, table: Table) -> None:
        self.finished.clear()
        self.hand_no += 1
        self.game = self._shadow = None
        self._follow(table)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """The terminal shows your cards with every redraw."""

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        self._plays()  # the game object is the finished hand's, with its last plays
        self.out("")
        data = {**result.to_json(), "hand_id": self.hand_no, "code": None}
        for line in result_lines(data, self.locale):
            self.out(line)
        if result.code:
            self.out(t("terminal.verify", self.locale, code=result.code))
        self.game = self._shadow = None
        self.finished.set()

    async def table_closed(self, table: Table, reason: Text) -> None:
        self.out(t("table.closed", self.locale, reason=render(reason, self.locale)))
        self.finished.set()

    def _follow(self, table: Table) -> None:
        """Keep the running hand, and a copy of it at the start, to replay the plays from."""
        if table.game is None or table.game is self.game:
            return
        self.game = table.game
        self._shadow = type(table.game)(table.game.setup)
        self._names = [s.name for s in table.seats]

    def _plays(self) -> None:
        """Print every action since the last print as the table shows it: the acting seat's
        public status right after it (``view(None)``), so nothing hidden is told. An action
        taken in a private window (a claim nobody may see) is printed only if the table
        shows something of it."""
        game, shadow = self.game, self._shadow
        if game is None or shadow is None:
            return
        for seat, action in game.log[len(shadow.log):]:
            before = shadow.view(None)
            public = seat in shadow.public_to_act()
            if action == ESCAPE:
                shadow.escape(seat)
            else:
                shadow.apply(seat, action)
            after = shadow.view(None)
            if seat >= len(after.seats) or seat >= len(self._names):
                continue
            now = after.seats[seat]
            changed = seat >= len(before.seats) or before.seats[seat] != now
            if now.status is not None and (public or changed):
                self.out("  · " + t("terminal.played", self.locale, name=self._names[seat],
                                    action=render(now.status, self.locale)))


def private_lines(table: Table, seat: int, locale: str) -> list[str]:
    """The player's own picture at the terminal: their cards, what the table shows them, and
    on their turn exactly what they may type (the choices, the tiles to discard, an example
    of a play) with the terminal's own commands."""
    game = table.game
    if game is None:
        return [t("hand.none", locale)]
    view = game.view(seat)
    # the plays between turns are printed as they come (``_plays``): no round line here
    spec = registry.specs().get(table.game_key)  # a host may seat a game of its own
    out = own_view(table, view, seat, locale, spec.spell if spec else None, rounds=False)
    offers = game.open_offers(seat)
    if offers:
        out.append(t("terminal.offers", locale, actions=", ".join(
            f"`{c.action}` ({render(c.label, locale)})" for c in offers)))
    if seat not in game.to_act():
        out.append(t("hand.wait", locale, phase=render(view.phase, locale)))
        return out
    out.append(t("hand.your_turn", locale, phase=render(view.phase, locale)))
    choices = game.choices(seat)
    named = {c.action for c in choices}
    picker = game.picker(seat)
    if picker is not None and picker.tokens and picker.max_values == 1:
        picks = list(dict.fromkeys(picker.action([token]) for token in picker.tokens))
        out.append(t("terminal.pick_one", locale, actions=" ".join(picks)))
    elif picker is not None and picker.tokens:
        example = next((a for a in game.legal_actions(seat) if a not in named), None)
        out.append(t("terminal.type_cards", locale, example=f"`{example}`") if example
                   else t("terminal.type_cards_plain", locale))
    if choices:
        out.append(t("terminal.choices", locale, actions=", ".join(
            f"`{c.action}` ({render(c.label, locale)})"
            if render(c.label, locale) != c.action else f"`{c.action}`" for c in choices)))
    elif picker is None:
        legal = game.legal_actions(seat)
        if len(legal) > LISTED:  # a board's points: say how, not all of them
            out.append(t("terminal.type_move", locale, n=len(legal), example=f"`{legal[0]}`"))
        elif legal:
            out.append(t("terminal.choices", locale,
                         actions=", ".join(f"`{a}`" for a in legal)))
    out.append(t("terminal.commands_short", locale))
    return out


async def _read(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


async def play(settings: Settings, game: str, room: str, uid: int, seed: int | None,
               *, timers: bool = True, locale: str = DEFAULT, level: str = NORMAL) -> int:
    """Seat the player against trustee seats (bots at trustee ``level``) and play hands until
    they quit."""
    db = await open_database(settings.database, synchronous=settings.synchronous)
    wallet = Wallet.from_settings(db, settings)
    notifier = TerminalNotifier(uid, locale, timers=timers)
    seeds = iter(range(seed, seed + 10**6)) if seed is not None else None
    manager = TableManager(
        settings, db, wallet, notifier, clock=time.time,
        seed_source=(lambda: next(seeds)) if seeds is not None else None,
        owns=lambda guild_id: guild_id == TERMINAL_GUILD,  # never a Discord server's tables
    )
    notifier.manager = manager
    if not timers:
        manager.settings = _no_timers(settings)
    you = t("terminal.you", locale)
    try:
        # a table left by a terminal that was killed is closed, its hand aborted and its beans
        # given back: a new terminal starts a new table (``TableManager.abandon``)
        await manager.abandon()
        await manager.create(TERMINAL_GUILD, TERMINAL_TABLE, game, room, uid, you, locale)
        spec = manager.spec(manager.get(TERMINAL_TABLE))
        print(t("terminal.welcome", locale, game=game_name(manager, game, locale)))
        print(t("terminal.help", locale))
        while True:
            if TERMINAL_TABLE not in manager.tables:  # stood up after a hand away (托管)
                await manager.create(TERMINAL_GUILD, TERMINAL_TABLE, game, room, uid, you,
                                     locale)
            while len(manager.get(TERMINAL_TABLE).seats) < spec.min_seats:
                number = sum(1 for s in manager.get(TERMINAL_TABLE).seats if s.is_bot) + 1
                await manager.add_bot(TERMINAL_TABLE, uid, t("terminal.bot", locale, n=number),
                                      level=level)
            start = await _start_choice(manager, locale)
            if start is None:
                return 0
            await manager.start(TERMINAL_TABLE, uid, start or None)
            if not await _play_hand(manager, notifier, uid):
                return 0
            answer = await _read(t("terminal.again", locale) + " ")
            if answer is None or typed(answer).strip().lower() in NO:
                table = manager.tables.get(TERMINAL_TABLE)
                if table is not None and table.seat_of(uid) is not None:
                    await manager.leave(TERMINAL_TABLE, uid)
                return 0
    except (HostError, GameError) as exc:
        print(f"gamehall: {error_text(exc, locale)}", file=sys.stderr)
        return 1
    finally:
        await manager.shutdown()
        await db.close()


async def _start_choice(manager: TableManager, locale: str) -> str | None:
    """开局选择 before the deal, as the Start buttons offer them (明牌开始 ×5): "" to deal
    plainly, the chosen action, or None if input ended. Games without one ask nothing."""
    offers = manager.start_offers(manager.get(TERMINAL_TABLE))
    if not offers:
        return ""
    listed = " / ".join(f"`{c.action}` ({render(c.label, locale)})" for c in offers)
    while True:
        line = await _read(t("terminal.start_choices", locale, choices=listed) + " > ")
        if line is None:
            return None
        answer = line.strip()
        if not answer or any(answer == c.action for c in offers):
            return answer
        command, _ = read_command(answer)
        if command == "quit":  # no hand yet: nothing to confirm
            return None
        if command == "help":
            print(t("terminal.help", locale))
            continue
        print(t("terminal.not_a_start", locale, text=answer, choices=listed))


async def _play_hand(manager: TableManager, notifier: TerminalNotifier, uid: int) -> bool:
    """Read commands until the hand is settled; False if the player left the table (quit,
    confirmed: an escape). When input ends mid-hand the trustee plays the hand out."""
    locale = notifier.locale
    while not notifier.finished.is_set():
        line = await _read("> ")
        if notifier.finished.is_set():
            return line is not None
        if line is None:  # input ended: no escape, the trustee finishes the hand
            print(t("terminal.input_ended", locale))
            await _trustee_to_the_end(manager, notifier, uid)
            return False
        command, action = read_command(line)
        try:
            if command == "help":
                print(t("terminal.help", locale))
            elif command == "quit":
                if await _confirm_quit(manager, uid, locale):
                    if TERMINAL_TABLE in manager.tables:
                        await manager.leave(TERMINAL_TABLE, uid)  # an escape: the trustee ends it
                    return False
                print(t("terminal.quit_cancelled", locale))
            elif command == "hint":
                print(t("terminal.hint", locale, action=manager.hint(TERMINAL_TABLE, uid)))
            elif command == "trustee":
                await manager.set_trustee(TERMINAL_TABLE, uid, True)
            elif command == "play" and not action:
                print("❌ " + t("terminal.play_what", locale))
            elif command == "play":
                await manager.act(TERMINAL_TABLE, uid, action)
        except (HostError, GameError) as exc:
            print(error_text(exc, locale))
    return True


async def _trustee_to_the_end(manager: TableManager, notifier: TerminalNotifier,
                              uid: int) -> None:
    table = manager.tables.get(TERMINAL_TABLE)
    if table is None or table.status != PLAYING or table.seat_of(uid) is None:
        return
    await manager.set_trustee(TERMINAL_TABLE, uid, True)
    await notifier.finished.wait()
    table = manager.tables.get(TERMINAL_TABLE)
    if table is not None and table.seat_of(uid) is not None and table.status != PLAYING:
        await manager.leave(TERMINAL_TABLE, uid)


async def _confirm_quit(manager: TableManager, uid: int, locale: str) -> bool:
    """Leaving mid-hand is an escape (逃跑): say what the game's escape rule costs now
    (``Game.escape_cost``) and ask; only yes leaves. Between hands nothing is asked."""
    table = manager.tables.get(TERMINAL_TABLE)
    seat = table.seat_of(uid) if table is not None else None
    if table is None or seat is None or table.status != PLAYING or table.game is None:
        return True
    cost = table.game.escape_cost(seat)
    if cost is None:
        question = t("terminal.quit_rule", locale)
    elif cost == 0:
        question = t("terminal.quit_free", locale)
    else:  # in points: the beans it moves depend on what each seat carries (GAMES.md §1.3)
        question = t("terminal.quit_cost", locale, points=cost)
    answer = await _read(question + " ")
    return answer is not None and typed(answer).strip().lower() in YES


def _no_timers(settings: Settings) -> Settings:
    from dataclasses import replace

    return replace(settings, timers={k: 10**7 for k in settings.timers} | {"default": 10**7})


async def show_wallet(settings: Settings, uid: int, lines: int, server: int | None = None
                      ) -> int:
    """gamehall wallet USER_ID [--server ID]: what /beans shows in that server's economy
    (balance, held beans, frozen, the leaver record and cool-down, each game's level score and
    title), then the last ledger lines. With no server: the one economy where the player has a
    wallet, or, if several, a list of them to choose from. 1 if the player has none there."""
    db = await open_database(settings.database, synchronous=settings.synchronous)
    try:
        if server is None:
            found = await economies_of(db, uid)
            if len(found) > 1:
                print(_economy_list(uid, found))
                return 0
            # the only economy they play in; the terminal table's (global) one if none
            economy = found[0][0] if found else settings.economy(TERMINAL_GUILD)
            where = f" in server {economy}" if economy else ""
        else:
            economy = settings.economy(server)
            where = f" in server {server}"
        try:
            account = await Wallet.from_settings(db, settings).scoped(economy).account(uid)
        except UnknownPlayer:
            print(f"gamehall: no player {uid}{where} in {db.path}", file=sys.stderr)  # no password
            return 1
        for line in await _wallet_lines(settings, db, account, economy, where, lines):
            print(line)
        return 0
    finally:
        await db.close()


def _economy_list(uid: int, found: list[tuple[int, Account]]) -> str:
    kind = "servers" if all(economy for economy, _ in found) else "economies"
    rows = [f"player {uid} has wallets in {len(found)} {kind}; show one with --server ID:"]
    for economy, account in found:
        name = f"--server {economy}" if economy else "--server 0 (the global economy)"
        rows.append(f"  {name:32} balance {account.balance}, held {account.held}"
                    + (" (frozen)" if account.frozen else ""))
    return "\n".join(rows)


async def _wallet_lines(settings: Settings, db: Storage, account: Account, economy: int,
                        where: str, lines: int) -> list[str]:
    """The wallet in ``economy`` as /beans shows it, in plain text (``where`` names the
    server on the first line), then its last ``lines`` ledger rows."""
    uid = account.uid
    out = [f"player {uid}{where}: balance {account.balance}, held {account.held}, "
           f"free {account.free}" + (" (frozen)" if account.frozen else "")]
    record = await Conduct(db).record(uid, economy=economy)
    if record.incidents:
        out.append(f"  leaver record: {record.strikes} strike(s) (escapes {record.escapes}, "
                   f"hands left to the trustee {record.absences}, full tables abandoned "
                   f"{record.abandons}); {record.clean}/{CLEAN_PER_STRIKE} clean hands toward "
                   "taking one off")
        left = record.seconds_left(time.time())
        if left > 0:
            out.append(f"  cool-down: no bean rooms for {max(1, int(-(-left // 60)))} more "
                       "minute(s)")
    scores = await levels.scores(db, uid, economy=economy)
    for key, spec in registry.specs().items():
        ladder = settings.levels.get(spec.level_table, ())
        score = scores.get(key, 0)
        out.append(f"  {key:16} score {score:>8}  {levels.title(ladder, score) if ladder else '-'}")
    for row in await Wallet.from_settings(db, settings).scoped(economy).ledger(uid, lines):
        ref = f"hand {row.hand_id}" if row.hand_id else (
            f"moderator {row.moderator_id}" if row.moderator_id else "")
        out.append(f"  #{row.id:<6} {row.delta:+10} -> {row.balance_after:<10} {row.reason} {ref}")
    return out
