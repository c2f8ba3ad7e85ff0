"""The web table's pages with no socket: a finished hand's replay, and a server's leaderboard.

``/board/<server>``: each game's top level scores in that server (as /leaderboard shows them),
only where the server's moderators turned the page on (``/settings leaderboard``); players are
named as the bot knows them (``WebServer.names``), else by the end of their id.

``/event/<server>/<event>/<mark>``: a tournament's standings and, round by round, its hands
that have ended with links to their replay pages; the page reloads itself when another hand
ends. The mark is the event's signature (``tokens.event_mark``), so only those given the link
(``/tournament info``) find the page; it shows nothing a seat hides (no card: the hands are
links to replays, which open only once settled).

``/replay/<code>``: the hand as dealt (every seat's cards, shown only once it is settled, as
/replay does) and every action in order, which the page's script steps through (Prev/Next;
without script the whole list shows). Seats are named by number: a page names no Discord user.
Anyone holding the code may open it, as anyone in the channel saw the code in the settlement.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
from typing import TYPE_CHECKING

from aiohttp import web

from bot.i18n import render, t
from bot.render.text import cards, game_name
from bot.render.web import faces_of
from bot.web.tokens import event_mark
from engines.base import ESCAPE, Text
from storage import guilds, history, levels
from storage.tournaments import Event, Status
from storage.tournaments import TournamentError as EventError

if TYPE_CHECKING:
    from bot.web.server import WebServer

WAIT_SECONDS = 25.0
"""How long the event page's request for a change is held open before it is answered
"unchanged" (the page then asks again)."""
WAIT_STEP = 0.5


def add_pages(app: web.Application, server: WebServer) -> None:
    async def replay(request: web.Request) -> web.Response:
        return await replay_page(server, request)

    async def board(request: web.Request) -> web.Response:
        return await board_page(server, request)

    async def event(request: web.Request) -> web.Response:
        return await event_page(server, request)

    async def event_wait(request: web.Request) -> web.Response:
        return await event_changed(server, request)

    app.add_routes([web.get("/replay/{code}", replay), web.get("/board/{guild}", board),
                    web.get("/event/{guild}/{event}/{mark}", event),
                    web.get("/event/{guild}/{event}/{mark}/wait", event_wait)])


def _faces_html(faces: list[dict] | None, text: str) -> str:
    if not faces:
        return f'<span class="text">{html.escape(cards(text))}</span>'
    out = []
    for f in faces:
        kind = f"face {f['k']}" + (" red" if f["r"] else "") + (" gap" if f["g"] else "")
        suit = f'<span class="u">{html.escape(f["u"])}</span>' if f["u"] else ""
        out.append(f'<span class="{kind}"><span class="t">{html.escape(f["t"])}</span>{suit}'
                   "</span>")
    return '<span class="faces small">' + "".join(out) + "</span>"


async def replay_page(server: WebServer, request: web.Request) -> web.Response:
    """A settled hand step by step; a hand still running (or no such code): a plain page."""
    from bot.cogs.wallet import first_hands
    from bot.web.server import page_locale, plain_page

    locale = page_locale(request)
    code = request.match_info["code"]
    hand = await history.hand_by_code(server.manager.db, code) if len(code) <= 64 else None
    if hand is None or hand.game not in server.manager.specs:
        return plain_page(t("web.refused.title", locale), [t("err.no_such_hand", locale)], 404,
                          locale=locale)
    if hand.status != "settled" or not hand.record:
        return plain_page(t("web.refused.title", locale),
                          [t("err.hand_not_finished", locale, hand=hand.code)], 403, locale=locale)
    spec = server.manager.specs[hand.game]
    record = json.loads(hand.record)
    names = [t("seat.named", locale, n=i + 1, name=t("terminal.bot", locale, n=i + 1)
               if uid is None else t("web.player", locale)) for i, uid in enumerate(hand.seats)]
    body = ['<section id="dealt">']
    for name, dealt in zip(names, first_hands(spec.game, record), strict=True):
        if dealt:
            body.append(f'<div class="dealt"><span class="who">{html.escape(name)}</span>'
                        f"{_faces_html(faces_of(spec, dealt), dealt)}</div>")
    body.append('</section><ol id="steps">')
    for seat, action in record["log"]:
        shown = t("replay.escape", locale) if action == ESCAPE else action
        faces = None if action == ESCAPE else faces_of(spec, action)
        body.append(f'<li><span class="who">{html.escape(names[seat])}</span> '
                    f"{_faces_html(faces, shown) if faces else html.escape(shown)}</li>")
    body.append("</ol>")
    if hand.outcome:
        outcome = json.loads(hand.outcome)
        for line in outcome.get("lines", []):
            body.append(f"<p>{html.escape(render(Text.from_json(line), locale))}</p>")
        body.append("<p>" + html.escape(t("replay.points", locale, points=", ".join(
            f"{n} {p:+d}" for n, p in zip(names, outcome["points"], strict=False)))) + "</p>")
    title = t("replay.head_code", locale, code=hand.code,
              game=game_name(server.manager, hand.game, locale)).replace("`", "")
    return plain_page(title, [], locale=locale, body="".join(body), script="replay.js")


BOARD_ROWS = 10


async def board_page(server: WebServer, request: web.Request) -> web.Response:
    """A server's leaderboard page, or a plain 404 where it is off (the default)."""
    from bot.web.server import page_locale, plain_page

    locale = page_locale(request)
    text = request.match_info["guild"]
    guild_id = int(text) if text.isdigit() and len(text) <= 20 else None
    db = server.manager.db
    if guild_id is None or not server.manager.owns(guild_id) or not await guilds.web_board(
            db, guild_id):
        return plain_page(t("web.board_title", locale), [t("web.board_closed", locale)], 404,
                          locale=locale)
    settings = server.manager.settings
    uids = None
    if settings.wallet_scope != "server":  # one global economy: this server's players only
        uids = await history.players_in_guild(db, guild_id)
    body = []
    for key, spec in server.manager.specs.items():
        rows = await levels.leaderboard(db, key, uids, BOARD_ROWS,
                                        economy=settings.economy(guild_id))
        if not rows:
            continue
        ladder = settings.levels.get(spec.level_table, ())
        body.append(f"<h2>{html.escape(t('board.head', locale, game=game_name(server.manager, key, locale)))}</h2><ol>")
        for uid, score in rows:
            name = server.names(uid) or f"…{str(uid)[-4:]}"
            title = levels.title(ladder, score) if ladder else ""
            body.append(f"<li>{html.escape(name)} — {score}"
                        + (f" ({html.escape(title)})" if title else "") + "</li>")
        body.append("</ol>")
    if not body:
        body.append(f"<p>{html.escape(t('board.empty', locale))}</p>")
    return plain_page(t("web.board_title", locale), [], locale=locale, body="".join(body))


async def _event(server: WebServer, request: web.Request) -> tuple[Event, dict] | None:
    """The event a page's address names, with its state as it is now, or None (no such
    event in that server, a wrong mark, or no tournaments in this process)."""
    runner = server.events
    guild, number = request.match_info["guild"], request.match_info["event"]
    if runner is None or not (guild.isdigit() and number.isdigit() and len(guild) <= 20
                              and len(number) <= 18):
        return None
    guild_id, event_id = int(guild), int(number)
    if not hmac.compare_digest(request.match_info["mark"],
                               event_mark(server.secret, guild_id, event_id)):
        return None
    try:
        found = await runner.store(guild_id).get(event_id)
    except EventError:
        return None
    if found.guild_id != guild_id:
        return None
    return found, runner.states.get(event_id, found.state)  # a running event: as it is now


def _event_stamp(event: Event, state: dict) -> str:
    """What the page shows changes with: the status, the round, the hands that ended."""
    return f"{event.status.value}.{state.get('round', 0)}.{len(state.get('hands', []))}"


async def event_page(server: WebServer, request: web.Request) -> web.Response:
    """比赛: an event's standings and its ended hands, each a link to its replay page."""
    from bot.cogs.tournament import standing_rows
    from bot.tournament.runner import hand_codes
    from bot.web.server import page_locale, plain_page

    locale = page_locale(request)
    found = await _event(server, request)
    if found is None:
        return plain_page(t("web.refused.title", locale), [t("web.event_unknown", locale)], 404,
                          locale=locale)
    event, state = found
    spec = event.spec
    title = t("web.event_title", locale, event=event.id,
              game=game_name(server.manager, spec.game, locale))
    lines = [t("tourney.line", locale, event=event.id, game=spec.game,
               format=spec.format.value, count=len(event.entrants), size=spec.size,
               status=event.status.value)]
    head = t("tourney.standings", locale, event=event.id, round=state.get("round", 0))
    body = [f"<h2>{html.escape(head)}</h2>", '<table id="standings"><tbody>']
    for place, name, chips in standing_rows(state):
        body.append(f'<tr><td>{place}</td><td class="who">{html.escape(name)}</td>'
                    f'<td class="chips">{chips}</td></tr>')
    body.append("</tbody></table>")
    hands = hand_codes(state)
    rounds = sorted({h["round"] for h in hands})
    if not rounds:
        body.append(f'<p>{html.escape(t("tourney.hands_none", locale))}</p>')
    for round_no in rounds:
        played = hand_codes(state, round_no)
        tables = sorted({h["table"] for h in played})
        body.append(f'<h2>{html.escape(t("web.event_round", locale, round=round_no))}</h2>'
                    '<ol class="hands">')
        for h in played:
            what = html.escape(t("web.event_hand", locale, table=tables.index(h["table"]) + 1,
                                 hand=h["hand"]))
            code = h.get("code")
            link = (f' <a href="/replay/{html.escape(code)}">{html.escape(code)}</a>'
                    if code else "")
            body.append(f"<li>{what}{link}</li>")
        body.append("</ol>")
    live = event.status in (Status.OPEN, Status.RUNNING)
    stamp = html.escape(_event_stamp(event, state))
    body.append(f'<p id="event" data-stamp="{stamp}" data-live="{int(live)}"></p>')
    return plain_page(title, lines, locale=locale, body="".join(body),
                      script="event.js" if live else None)


async def event_changed(server: WebServer, request: web.Request) -> web.Response:
    """The event page's wait: answers as soon as another hand ended (or the round or the
    status changed) since the page's ``stamp``, else after WAIT_SECONDS: ``{"stamp": …}``."""
    found = await _event(server, request)
    if found is None:
        raise web.HTTPNotFound()
    given = request.query.get("stamp", "")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_SECONDS
    while True:
        event, state = found
        stamp = _event_stamp(event, state)
        if stamp != given or loop.time() >= deadline:
            return web.json_response({"stamp": stamp})
        await asyncio.sleep(WAIT_STEP)
        running = server.events.states.get(event.id)
        if running is not None and event.status is Status.RUNNING:
            found = (event, running)  # in memory: a look costs nothing
        else:
            found = await _event(server, request)
            if found is None:
                raise web.HTTPNotFound()
