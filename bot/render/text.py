"""Platform-neutral text rendering of tables, hands and results (Discord and the terminal)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.host.fairness import commitment
from bot.host.model import PLAYING, HostError, Table, final_view
from bot.host.tables import TableManager
from bot.i18n import pick_name, render, t
from bot.render.limits import clip, echo
from engines.base import Play, SeatView, T, Text, Trick, View
from engines.errors import GameError

LEVEL_KEYS = {"easy": "seat.level.easy", "normal": "seat.level.normal", "hard": "seat.level.hard"}
"""The catalogue key naming each trustee level (``engines.base.LEVELS``) on a bot's seat."""


@dataclass(frozen=True)
class SeatLine:
    name: str
    detail: str


@dataclass(frozen=True)
class TableText:
    """What a table message shows, in one locale."""

    title: str
    status: str
    seats: tuple[SeatLine, ...]
    lines: tuple[str, ...]
    result: tuple[str, ...]
    notes: tuple[str, ...]
    footer: str
    view: View | None


def game_name(manager: TableManager, key: str, locale: str) -> str:
    spec = manager.specs.get(key)
    if spec is None:
        return key
    return pick_name(spec.name_zh, spec.name_en, locale)


def room_name(manager: TableManager, key: str, locale: str) -> str:
    room = manager.settings.rooms.get(key)
    if room is None:
        return key
    return room.name(locale)


def cards(text: str | None) -> str:
    """Cards or tiles as shown to people, in the game's notation: a compact run of one-character
    ranks (``33344``) is spaced for reading; notation with suit letters (``123m45p``, ``AsKh``)
    and text that already has spaces are shown as written.

    >>> cards("33344"), cards("123m45p 6p"), cards("123m456p")
    ('3 3 3 4 4', '123m45p 6p', '123m456p')
    """
    if not text:
        return "—"
    if " " in text or any(ch.islower() for ch in text):
        return text
    return " ".join(text)


Spell = Callable[[str], Text | None]
"""``GameSpec.spell``: how a seat's melds or discards read in texts (None: as written)."""


def spelled(notation: str, locale: str, spell: Spell | None) -> str:
    """Melds or discards as the game reads them (麻将: 红中, 九筒), else as written."""
    text = spell(notation) if spell is not None else None
    return render(text, locale) if text is not None else notation


def table_text(manager: TableManager, table: Table, locale: str) -> TableText:
    """The public picture of a table: no seat's hidden cards."""
    title = t(
        "table.title", locale, game=game_name(manager, table.game_key, locale),
        room=room_name(manager, table.room, locale),
    )
    view = table.game.view(None) if table.game is not None else None
    live = table.game is not None and not table.game.is_over()
    # ▶ marks only the seats the game shows publicly: during a private claim window the table
    # shows the phase and the countdown, never who may claim
    acting = set(table.game.public_to_act()) if live else set()
    deciding = bool(table.game.to_act()) if live else False
    spell = manager.spec(table).spell if table.game_key in manager.specs else None
    seats = []
    for i, seat in enumerate(table.seats):
        tags = []
        if seat.is_bot:
            tags += [t("seat.bot", locale), t(LEVEL_KEYS[seat.level], locale)]
        if seat.escaped:
            tags.append(t("seat.escaped", locale))
        elif seat.kicked:
            tags.append(t("seat.kicked", locale))
        elif seat.trustee:
            tags.append(t("seat.trustee", locale))
        parts = seat_detail(view.seats[i], locale, spell) if view is not None and i < len(
            view.seats) else []
        marker = "▶ " if i in acting else ""
        name = f"{marker}{i + 1}. {seat.name}" + (f" ({', '.join(tags)})" if tags else "")
        seats.append(SeatLine(name=name, detail=" · ".join(parts) or "—"))
    if table.status == PLAYING and view is not None:
        status = render(view.phase, locale)
        if table.deadline is not None and deciding:
            status += " · " + t("table.deadline", locale, ts=int(table.deadline))
    else:
        status = t("table.waiting", locale, n=len(table.seats),
                   need=manager.spec(table).min_seats, most=manager.spec(table).max_seats)
    names = seat_names(table)
    lines = (tuple(render(x, locale) for x in view.lines) + round_lines(view, names, locale)
             if view is not None else ())
    final = table.final_view()
    result = result_lines(table.last_result, locale, spell, final) if table.last_result else ()
    if view is None and final is not None:
        view = final  # the last hand's final board
    notes = tuple(render(Text.from_json(n), locale) for n in table.notes)
    footer = t("table.footer_hand", locale, hand=table.hand_id) if table.hand_id else t(
        "table.footer", locale)
    if live and table.game is not None:
        footer += " · " + t("fair.commitment", locale, digest=commitment(table.game.setup.seed))
    return TableText(title, status, tuple(seats), lines, result, notes, footer, view)


def seat_names(table: Table) -> list[str]:
    """Each seat as the table message names it: ``2. Bob``."""
    return [f"{i + 1}. {seat.name}" for i, seat in enumerate(table.seats)]


def play_cards(text: str) -> str:
    """A play's cards as shown (``cards``), each side of a wild reading on its own.

    >>> play_cards("345B=34567")
    '3 4 5 B = 3 4 5 6 7'
    """
    if "=" in text:
        return " = ".join(cards(part.strip()) for part in text.split("="))
    return cards(text)


def play_text(play: Play, names: list[str], locale: str) -> str:
    """One seat's turn in a round: its name and cards (or 不出), and the note (甩牌失败 …)."""
    name = _name(names, play.seat)
    what = t("round.pass", locale) if play.cards is None else play_cards(play.cards)
    text = t("round.play", locale, name=name, cards=what)
    if play.note is not None:
        text = t("round.noted", locale, play=text, note=render(play.note, locale))
    return text


def trick_text(trick: Trick, names: list[str], locale: str) -> str:
    """上一轮: a finished trick or round on one line, with who took it."""
    plays = t("round.sep", locale).join(play_text(p, names, locale) for p in trick.plays)
    if trick.winner is None:
        return t("round.last_plain", locale, plays=plays)
    return t("round.last", locale, plays=plays, winner=_name(names, trick.winner))


def round_lines(view: View, names: list[str], locale: str) -> tuple[str, ...]:
    """本轮: the round so far, each seat's play or pass in order; before anything is played
    in a new one, the round just finished (so the play that closed it is seen)."""
    if view.round:
        sep = t("round.sep", locale)
        return (t("round.now", locale, plays=sep.join(
            play_text(p, names, locale) for p in view.round)),)
    if view.last_round is not None and view.last_round.plays:
        return (trick_text(view.last_round, names, locale),)
    return ()


def last_round_text(table: Table, locale: str) -> str:
    """``/table last``: the previous trick or round, from the public view only (the hand in
    play, else the last hand's final view)."""
    view = table.game.view(None) if table.game is not None else None
    if view is None:
        view = table.final_view()
    if view is None or view.last_round is None or not view.last_round.plays:
        return t("round.no_last", locale)
    return trick_text(view.last_round, seat_names(table), locale)


def seat_detail(sv: SeatView, locale: str, spell: Spell | None = None) -> list[str]:
    """What the table shows of one seat: role, cards left, open cards, last action, melds
    (副露) and discards (牌河)."""
    parts = []
    if sv.role is not None:
        parts.append(render(sv.role, locale))
    if sv.count is not None:
        parts.append(t("seat.count", locale, n=sv.count))
    if sv.cards:
        parts.append(t("seat.shown", locale, cards=cards(sv.cards)))
    if sv.status is not None:
        parts.append(render(sv.status, locale))
    if sv.melds:
        parts.append(t("seat.melds", locale, melds=spelled(sv.melds, locale, spell)))
    if sv.discards:
        parts.append(t("seat.discards", locale, discards=spelled(sv.discards, locale, spell)))
    return parts


def result_lines(result: dict, locale: str, spell: Spell | None = None,
                 final: View | None = None) -> tuple[str, ...]:
    """The settlement: points, beans won or lost, balance and new titles, what each seat still
    held (亮牌, from the final public view), the payments between seats, the hand's code.

    Every seat is named one way, its number with its name ("4号位（Bot 3）", "Seat 4 (Bot 3)"),
    in the game's lines as in the hall's (``render`` with the seats' names). ``final``: the
    result's final board, where the caller has read it already (``final_view``)."""
    names = [s["name"] for s in result["seats"]]

    def say(text: Text) -> str:
        return render(text, locale, names)

    out = [t("result.head", locale, hand=result["hand_id"])]
    for line in result.get("lines", []):
        out.append(render(Text.from_json(line), locale, names))
    if final is None:
        final = final_view(result)  # the final board, read once by a caller that has it
    for i, s in enumerate(result["seats"]):
        if s["uid"] is None:
            text = say(T("result.bot", seat=i + 1, points=_signed(s["points"])))
        else:
            text = say(T("result.seat", seat=i + 1, points=_signed(s["points"]),
                         delta=_signed(s["delta"]), balance=s["balance"]))
        if s.get("new_title") and s.get("title"):
            text += " " + t("result.new_title", locale, title=s["title"])
        if final is not None and i < len(final.seats):
            shown = final.seats[i]
            extra = [cards(shown.cards)] if shown.cards else []
            if shown.status is not None:
                extra.append(render(shown.status, locale, names))
            if shown.melds:
                extra.append(t("seat.melds", locale, melds=spelled(shown.melds, locale, spell)))
            if extra:
                text += " — " + " · ".join(extra)
        out.append(text)
    for line in result.get("transfers", []):
        reason = line.get("reason")
        text = say(T("result.transfer", payer=line["payer"] + 1, payee=line["payee"] + 1,
                     points=line["points"], beans=line["beans"]))
        if reason:
            text += " · " + render(Text.from_json(reason), locale, names)
        out.append(text)
    if result.get("code"):
        out.append(t("result.code", locale, code=f"`{result['code']}`"))
    if result.get("seed") is not None:
        out.append(t("fair.seed", locale, seed=f"`{result['seed']}`",
                     digest=f"`{commitment(result['seed'])}`"))
    return tuple(out)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def own_view(table: Table, view: View, seat: int, locale: str, spell: Spell | None,
             rounds: bool = True) -> list[str]:
    """What a player's private picture shows of the hand, in Discord and the terminal alike:
    their cards, the cards other seats show them (明牌), their melds, the game's lines, the
    round so far (``rounds``) and the card counter."""
    out = [t("hand.cards", locale, cards=cards(view.hand))] if view.hand is not None else []
    for i, sv in enumerate(view.seats):
        if i != seat and sv.cards and i < len(table.seats):
            out.append(t("hand.shown", locale, name=table.seats[i].name, cards=cards(sv.cards)))
    own = view.seats[seat] if seat < len(view.seats) else None
    if own is not None and own.melds:
        out.append(t("hand.melds", locale, melds=spelled(own.melds, locale, spell)))
    out.extend(render(x, locale) for x in view.lines)
    if rounds:
        out.extend(round_lines(view, seat_names(table), locale))
    if view.counter:
        out.append(t("hand.counter", locale, counter=view.counter))
    return out


def hand_text(manager: TableManager, table: Table, seat: int, locale: str,
              view: View | None = None, *, turn: bool | None = None) -> list[str]:
    """A player's private picture: their cards and what they can do now. ``view``: the part
    of the seat's view a DM shows (``dm_view``), by default all of it; a DM that waits says
    so without naming the phase. ``turn``: whether it shows a turn (a DM's is
    ``TableManager.private_acting``), by default whether the game waits for the seat."""
    game = table.game
    if game is None:
        return [t("hand.none", locale)]
    dm = view is not None
    view = game.view(seat) if view is None else view
    spell = manager.spec(table).spell if table.game_key in manager.specs else None
    out = own_view(table, view, seat, locale, spell)
    offers = game.open_offers(seat)
    if offers:
        # open whatever the turn: a button below or /play takes one; nobody waits for it
        out.append(t("hand.offers", locale, actions=", ".join(
            f"{render(c.label, locale)} (`{c.action}`)" for c in offers)))
    if seat in game.to_act() if turn is None else turn:
        out.append(t("hand.your_turn", locale, phase=render(view.phase, locale)))
        picker = game.picker(seat)
        if picker is not None and picker.tokens:
            if len(picker.menus()) == 1:
                out.append(t("hand.how", locale))
            else:
                out.append(t("hand.how_one" if picker.max_values == 1 else "hand.how_menus",
                             locale))
        choices = game.choices(seat)
        if choices:
            out.append(t("hand.choices" if picker is None else "hand.choices_or", locale,
                         actions=", ".join(f"`{c.action}`" for c in choices)))
    elif dm:
        out.append(t("dm.wait", locale))
    else:
        out.append(t("hand.wait", locale, phase=render(view.phase, locale)))
    return out


def error_text(exc: Exception, locale: str, *, help_game: str | None = None) -> str:
    """One short line for an expected error: a refusal by the host or by the game's rules.

    The player's own input is repeated at most ``limits.ECHO`` characters long. With
    ``help_game`` (a game key, given where the refusal is about how the action was written:
    ``Game.names_notation``), the line ends with a pointer to that game's notation help."""
    if isinstance(exc, HostError):
        return "❌ " + render(_echoed(exc.text), locale)
    if isinstance(exc, GameError):
        text = getattr(exc, "text", None)
        reason = render(_echoed(text), locale) if text is not None else clip(str(exc), 300)
        line = "❌ " + t("err.game", locale, reason=reason)
        if help_game is not None:
            line += " " + t("err.see_help", locale, game=help_game)
        return line
    return "❌ " + t("err.internal", locale)


def notation_help(manager: TableManager, table_id: int, exc: Exception) -> str | None:
    """The key of the game whose notation help a refused action should point to, or None
    when the refusal is not about how the action was written (``Game.names_notation``)."""
    table = manager.tables.get(table_id)
    if table is None or not isinstance(exc, GameError):
        return None
    spec = manager.specs.get(table.game_key)
    return table.game_key if spec is not None and spec.game.names_notation(exc) else None


def _echoed(text: Text) -> Text:
    return Text(text.key, {k: _echoed(v) if isinstance(v, Text) else echo(v)
                           for k, v in text.args.items()})
