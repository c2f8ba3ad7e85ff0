"""The web table's pages with no socket: a finished hand's replay, and a server's leaderboard.

``/board/<server>``: each game's top level scores in that server (as /leaderboard shows them),
only where the server's moderators turned the page on (``/settings leaderboard``); players are
named as the bot knows them (``WebServer.names``), else by the end of their id.

``/replay/<code>``: the hand as dealt (every seat's cards, shown only once it is settled, as
/replay does) and every action in order, which the page's script steps through (Prev/Next;
without script the whole list shows). Seats are named by number: a page names no Discord user.
Anyone holding the code may open it, as anyone in the channel saw the code in the settlement.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

from aiohttp import web

from bot.i18n import render, t
from bot.render.text import cards, game_name
from bot.render.web import faces_of
from engines.base import ESCAPE, Text
from storage import guilds, history, levels

if TYPE_CHECKING:
    from bot.web.server import WebServer


def add_pages(app: web.Application, server: WebServer) -> None:
    async def replay(request: web.Request) -> web.Response:
        return await replay_page(server, request)

    async def board(request: web.Request) -> web.Response:
        return await board_page(server, request)

    app.add_routes([web.get("/replay/{code}", replay), web.get("/board/{guild}", board)])


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
