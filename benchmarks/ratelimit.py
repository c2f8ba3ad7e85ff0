"""REST calls per action against a model of Discord's rate limits, for every family, in SimCord.

Every seat is a person; they play a few hands each, taking the hinted action the way a person
would: its button on the table message if there is one, else on their DM, else the card picker
of their DM or of /hand (opened once per hand, again only when it went stale; the menu that acts
at once, or the gathering menus and Play), else /play. Between two actions of a table a seeded
exponential pause of mean 1/pace passes in simulated time (default 2 s: 0.5 actions/s, the
busy-table pace); timers that fall due meanwhile fire (the 2 s 要不起 auto-pass acts for people
who wait). Calls are counted from each Start click to the settlement, per action in the hand's
log (people's and auto-passes), as benchmarks/discord_calls.py does.

In front of SimCord's REST transport (the bot's ``HTTPClient.request`` and the webhook adapter
that carries interaction answers) sits a model of Discord's limits (docs/discord-budget.md cites
Discord's documentation for each):

- global: 50 requests per second per bot token, over every route except the interaction
  endpoints (``POST /interactions/{id}/{token}/callback`` and the ``/webhooks/{app}/{token}``
  follow-ups and edits of the original answer), which are exempt;
- per channel: 5 message creates or edits per 5 s per channel (the table's channel, each DM);
- per interaction token: its webhook routes (edits through the token) 5 per 5 s, a bucket of
  their own, apart from the channel's.

A request that would exceed a limit waits, in simulated time, until it fits: what discord.py
does (it holds a request on a bucket whose ``X-RateLimit-Remaining`` reached 0 until the reset,
and after a 429 sleeps ``retry_after`` and retries); the bot only sees the call take longer, so
its own coalescing of table edits reacts as it would on Discord. SimCord replaces
``HTTPClient.request`` wholesale, so a 429 injected into SimCord would reach the bot as an
HTTPException instead of being retried; hence the delay, awaited through ``env.external_wait``
so that only ``advance_time`` (never the wall clock) resumes it. The windows are sliding ("at
most N in any W seconds"), at least as strict as the fixed windows Discord's headers report.

Printed per family: all and global-limited calls per action, calls per action by kind, the table
message's lag p50/p99 (from a change of the table, ``Notifier.table_changed``, to the first write
of the table message drawn from that change or a later one: an edit, a post, or an interaction
answer updating it) and busy tables per bot at 0.5 actions/s per table, 50 / (0.5 × global-
limited calls per action); last, the summary line of the worst family.

    python benchmarks/ratelimit.py [--hands N] [--pace ACTIONS_PER_S] [--families 斗地主,四川,...]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextvars
import itertools
import math
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bot"), str(ROOT / "benchmarks")]

from discord_calls import _actions, _has_select
from simhelpers import button_labels, table_message

from bot.client import create_bot
from bot.settings import load_settings
from engines import registry

GLOBAL_LIMIT, GLOBAL_WINDOW = 50, 1.0
CHANNEL_LIMIT, CHANNEL_WINDOW = 5, 5.0
PACE = 0.5  # actions per second per busy table
# SimCord lets a bot timer due within its settle timeout fire in real time; shorter than the
# 2 s auto-pass, timers wait for advance_time (simulated time only), and a run is fast; long
# enough for a picture to be drawn on a busy machine
SETTLE = 1.5

FAMILIES = {  # family name → (game key, people)
    "斗地主": ("doudizhu", 3),
    "四川": ("sichuan", 4),
    "血战": ("xuezhan", 4),
    "升级": ("shengji", 4),
    "够级": ("gouji", 6),
    "双扣": ("shuangkou", 4),
}
KINDS = ("interaction responses", "token edits", "DM edits", "DM sends", "table edits",
         "channel messages", "other")

# (table id, version of the table drawn) of the last table embed rendered on this task
_rendered: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "rendered_table", default=None)


@dataclass
class Call:
    at: float  # simulated time the bot asked
    sent: float  # simulated time it went out, after any wait
    method: str
    path: str
    kind: str
    limited: bool  # counts against the global limit


class Window:
    """At most ``limit`` requests in any ``width`` seconds (half-open windows); reservations
    may lie in the future. Times are kept in whole microseconds, so window edges are exact."""

    def __init__(self, limit: int, width: float) -> None:
        self.limit, self.width = limit, round(width * 1e6)
        self.times: list[int] = []

    def earliest(self, t: int) -> int:
        """The first instant (µs) from ``t`` at which one more request fits every window."""
        times, width = self.times, self.width
        while True:
            lo = bisect.bisect_right(times, t - width)
            for s in [*times[lo:bisect.bisect_right(times, t)], t]:
                if bisect.bisect_left(times, s + width) - bisect.bisect_left(times, s) >= self.limit:
                    t = s + width
                    break
            else:
                return t

    def take(self, t: int) -> None:
        bisect.insort(self.times, t)


@dataclass
class Model:
    """The limits in front of one SimCord bot: classifies, holds back and logs each REST call,
    and notes each change of a table and each write of its message (for the lag)."""

    env: Any
    dm_or_guild: dict[int, str] = field(default_factory=dict)  # channel id → "table"/"guild"
    calls: list[Call] = field(default_factory=list)
    glob: Window = field(default_factory=lambda: Window(GLOBAL_LIMIT, GLOBAL_WINDOW))
    channels: dict[int | str, Window] = field(default_factory=dict)
    versions: Counter[int] = field(default_factory=Counter)
    changes: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    writes: dict[int, list[tuple[float, int]]] = field(default_factory=lambda: defaultdict(list))

    def now(self) -> float:
        return self.env.backend.clock.elapsed

    def classify(self, method: str, path: str) -> tuple[str, bool, int | str | None]:
        """(kind, global-limited, the per-route bucket it uses: a channel's messages, or an
        interaction token's webhook)."""
        parts = path.strip("/").split("/")
        if parts[0] == "interactions":
            return "interaction responses", False, None
        if parts[0] == "webhooks" and len(parts) >= 3:
            # edits and follow-ups through an interaction token: exempt from the global limit,
            # but the token's webhook is a per-route bucket of its own ("Interactions webhooks
            # share the same rate limit properties as normal webhooks"), modelled as a channel's
            return "token edits", False, f"token:{parts[2]}"
        if parts[0] == "channels" and len(parts) in (3, 4) and parts[2] == "messages" \
                and method in ("POST", "PATCH") and parts[1].isdigit():
            channel = int(parts[1])
            where = self.dm_or_guild.get(channel, "dm")
            if method == "PATCH":
                kind = {"table": "table edits", "dm": "DM edits"}.get(where, "channel messages")
            else:
                kind = "DM sends" if where == "dm" else "channel messages"
            return kind, True, channel
        return "other", True, None

    async def through(self, send: Any, method: str, path: str, json: Any) -> Any:
        kind, limited, channel = self.classify(method, path)
        at = self.now()
        sent = at
        if limited or channel is not None:
            want = go = math.ceil(at * 1e6)
            bucket = None
            if channel is not None:
                bucket = self.channels.setdefault(channel, Window(CHANNEL_LIMIT, CHANNEL_WINDOW))
            while True:  # the first instant both the route's bucket and the global one allow
                here = bucket.earliest(go) if bucket is not None else go
                t = self.glob.earliest(here) if limited else here
                if t == go:
                    break
                go = t
            if limited:
                self.glob.take(go)
            if bucket is not None:
                bucket.take(go)
            sent = at + (go - want) / 1e6
        drawn = _rendered.get()
        if sent > at:
            await self.env.external_wait(asyncio.sleep(sent - at), reason="Discord rate limit")
        result = await send()
        self.calls.append(Call(at, self.now(), method, path, kind, limited))
        if drawn is not None and _carries_embed(json) and (
                kind in ("interaction responses", "token edits", "table edits")
                or (kind == "channel messages" and self.dm_or_guild.get(channel or 0) == "table")):
            _rendered.set(None)
            self.writes[drawn[0]].append((self.now(), drawn[1]))
        return result

    def install(self, bot: Any) -> None:
        from simcord.http.client import _path_of  # the API path of a routed URL

        http = bot.http
        original = http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            json = kwargs.get("json")
            if json is None and kwargs.get("form"):
                json = {"form": True, **_form_json(kwargs["form"])}
            return await self.through(lambda: original(route, **kwargs), route.method,
                                      _path_of(route.url), json)

        http.request = request
        adapter = self.env._webhook_adapter
        hook_original = adapter.request

        async def hook(route: Any, session: Any, **kwargs: Any) -> Any:
            json = kwargs.get("payload") or _form_json(kwargs.get("multipart") or [])
            return await self.through(lambda: hook_original(route, session, **kwargs),
                                      route.method, _path_of(route.url), json)

        adapter.request = hook
        hall = bot.hall
        table_changed, embed = hall.table_changed, hall.embed

        async def changed(table: Any) -> None:
            self.versions[table.id] += 1
            self.changes[table.id].append(self.now())
            await table_changed(table)

        async def drawn(table: Any) -> Any:
            out = await embed(table)
            _rendered.set((table.id, self.versions[table.id]))
            return out

        hall.table_changed, hall.embed = changed, drawn

    def lags(self, since: float) -> tuple[list[float], int]:
        """Per change of a table from ``since`` on: the time until the table message showed it
        (or a later state); and how many changes were never shown."""
        out, unseen = [], 0
        for table, stamps in self.changes.items():
            writes = self.writes.get(table, [])
            for version, at in enumerate(stamps, start=1):
                if at < since:
                    continue
                shown = [t for t, v in writes if v >= version and t >= at]
                if shown:
                    out.append(min(shown) - at)
                else:
                    unseen += 1
        return sorted(out), unseen


def _form_json(form: list[dict[str, Any]]) -> dict[str, Any]:
    import json

    for part in form:
        if part.get("name") == "payload_json":
            try:
                return json.loads(part["value"])
            except (TypeError, ValueError):
                return {}
    return {}


def _carries_embed(json: Any) -> bool:
    if not isinstance(json, dict):
        return False
    data = json.get("data") if isinstance(json.get("data"), dict) else json
    return bool(data.get("embeds"))


def _buttons(message: Any) -> set[str]:
    return {child.custom_id for row in message.components
            for child in getattr(row, "children", []) if getattr(child, "custom_id", None)}


def _picks(picker: Any, action: str) -> list[str] | None:
    """The picker values (``index:token``, as the menus carry them) that form ``action``."""
    if picker is None or not picker.tokens:
        return None
    head, _, tail = picker.template.partition("{}")
    if not (action.startswith(head) and action.endswith(tail)):
        return None
    body = action[len(head):len(action) - len(tail)] if tail else action[len(head):]
    if picker.sep:
        body = body.replace(picker.sep, "")
    # a token is the card in notation, perhaps told apart from its twins ("8#2"), perhaps
    # suited where the action is not (斗地主's "3s" for a 3)
    pool = sorted(enumerate(picker.tokens), key=lambda item: -len(item[1].partition("#")[0]))
    values: list[str] = []
    while body:
        found = next(((i, tok) for i, tok in pool if body.startswith(tok.partition("#")[0])),
                     None)
        step = len(found[1].partition("#")[0]) if found is not None else 1
        if found is None:
            found = next(((i, tok) for i, tok in pool if tok[:1] == body[:1]), None)
        if found is None:
            return None
        body = body[step:]
        pool.remove(found)
        values.append(f"{found[0]}:{found[1]}"[:100])
    if not picker.min_values <= len(values) <= picker.max_values:
        return None
    return values


def _selects(message: Any) -> dict[str, set[str]]:
    """custom id → option values of each menu on ``message``."""
    return {child.custom_id: {o.value for o in child.options}
            for row in message.components for child in getattr(row, "children", [])
            if child.type.name == "select"}


async def _pick(actor: Any, message: Any, picker: Any, values: list[str], table_id: int
                ) -> bool:
    """Pick ``values`` on ``message``'s menus as a person would: the one menu that acts at
    once, or the gathering menus and then Play. False (nothing done) when the menus are stale
    (they offer other cards than the hand has now)."""
    menus = _selects(message) if message is not None else {}
    shown = set().union(*menus.values()) if menus else set()
    if shown != {f"{i}:{tok}"[:100] for i, tok in enumerate(picker.tokens)}:
        return False
    where: dict[str, list[str]] = {}
    for value in values:
        cid = next(c for c, options in menus.items() if value in options)
        where.setdefault(cid, []).append(value)
    if all(cid.startswith("gh:p") for cid in where):
        if len(where) != 1:
            return False
        ((cid, picked),) = where.items()
        await actor.select(message, picked, custom_id=cid)
        return True
    for cid, picked in where.items():
        await actor.select(message, picked, custom_id=cid)
    await actor.click(message, custom_id=f"gh:t:{table_id}:pick")
    return True


async def act(channel: Any, member: Any, table: Any, seat: int,
              views: dict[int, tuple[Any, Any, str]]) -> str:
    """``member`` takes the hinted action the way a person would; returns how. ``views``: the
    picker each seat uses this hand (its DM or its /hand answer)."""
    game = table.game
    action = game.hint(seat)
    custom = f"gh:a:{channel.id}:{action}"[:100]
    shown = table_message(channel)
    if custom in _buttons(shown):
        await member.click(shown, custom_id=custom)
        return "table button"
    dm = member.user.dm_channel.last_message if member.user.dm_channel else None
    if dm is not None and custom in _buttons(dm):
        await member.user.click(dm, custom_id=custom)
        return "DM button"
    picker = game.picker(seat)
    values = _picks(picker, action)
    if values is not None:
        for attempt in range(2):
            if seat not in views:
                # the DM with the hand carries the picker once it shows one; else /hand,
                # opened once per hand and kept up to date by each pick (as
                # benchmarks/discord_calls.py does); opened again when it went stale
                if attempt == 0 and dm is not None and _has_select(dm):
                    views[seat] = (member.user, None, "DM picker")
                else:
                    views[seat] = (member, await member.slash(channel, "hand"), "/hand picker")
            actor, opened, way = views[seat]
            # the message as it is now: the DM, or the /hand answer as the picks left it
            view = (member.user.dm_channel.last_message if way == "DM picker"
                    else opened.response.message)
            if await _pick(actor, view, picker, values, channel.id):
                return way
            del views[seat]
    await member.slash(channel, "play", action=action)
    return "/play"


async def steady(env: Any, step: Any) -> Any:
    """Await a SimCord step; if SimCord gave up settling it (its settle timeout, kept short so
    that timers wait for simulated time, ran out on a busy machine), what was dispatched stands:
    settle with time to spare and go on."""
    try:
        return await step
    except TimeoutError:
        await env.settle(timeout=60)
        return "late"


async def family(name: str, key: str, people: int, hands: int, pace: float, seed: int
                 ) -> dict[str, Any]:
    """``people`` persons play ``hands`` hands of ``key``, one action every 1/``pace`` s on
    average; what the calls and the table's lag came to."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = replace(load_settings(environ={"GAMEHALL_DB": f"{tmp}/hall.db"},
                                         known_games=registry.specs().keys()),
                           locale_default="en-US")
        seeds = itertools.count(11)
        bot = create_bot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot, settle_timeout=SETTLE) as env:
            model = Model(env)
            model.install(bot)
            guild = env.create_guild()
            channel = guild.create_text_channel("hall")
            model.dm_or_guild[channel.id] = "table"
            members = [guild.add_member(env.create_user(f"p{i + 1}")) for i in range(people)]
            await members[0].slash(channel, "table create", game=key, room="novice")
            for member in members[1:]:
                await member.click(table_message(channel), label="Join")
            by_uid = {m.id: m for m in members}
            start_call = len(model.calls)
            since = model.now()
            actions, ways = 0, Counter()
            for _ in range(hands):
                await steady(env, env.advance_time(rng.expovariate(pace)))
                # the closing edit may be held back by the channel's limit: wait for Start
                for _ in range(60):
                    if "Start" in button_labels(table_message(channel)):
                        break
                    await steady(env, env.advance_time(1.0))
                await steady(env, members[0].click(table_message(channel), label="Start"))
                table = bot.manager.tables[channel.id]
                hand_id = table.hand_id
                views: dict[int, tuple[Any, Any, str]] = {}
                for _ in range(2000):
                    if table.game is None:
                        break
                    seat = table.game.to_act()[0]
                    member = by_uid[table.seats[seat].uid]
                    ways[await steady(env, act(channel, member, table, seat, views))] += 1
                    await steady(env, env.advance_time(rng.expovariate(pace)))
                else:
                    raise AssertionError(f"{name}: the hand did not finish")
                actions += await _actions(bot, hand_id)
            await env.advance_time(30)  # let held-back edits go out
            calls = model.calls[start_call:]
            lags, unseen = model.lags(since)
    kinds = Counter(c.kind for c in calls)
    limited = sum(c.limited for c in calls)
    waited = [c.sent - c.at for c in calls if c.sent > c.at + 1e-6]
    return {"name": name, "people": people, "hands": hands, "actions": actions,
            "calls": len(calls), "limited": limited, "kinds": kinds, "lags": lags,
            "ways": ways, "waited": waited, "unseen": unseen}


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


async def main(hands: int, names: list[str], pace: float) -> None:
    worst: dict[str, Any] | None = None
    worst_lag = 0.0
    for name in names:
        key, people = FAMILIES[name]
        began = time.perf_counter()
        r = await family(name, key, people, hands, pace, seed=27)
        per = r["limited"] / r["actions"]
        p50, p99 = quantile(r["lags"], 0.5), quantile(r["lags"], 0.99)
        tables = GLOBAL_LIMIT / (PACE * per) if per else float("inf")
        print(f"{name} ({key}), {people} people, {hands} hands, {r['actions']} actions "
              f"({time.perf_counter() - began:.0f} s):")
        print(f"  all calls/action {r['calls'] / r['actions']:.2f}, "
              f"global-limited/action {per:.2f}, busy tables per bot {tables:.0f}")
        print("  by kind (per action): " + ", ".join(
            f"{kind} {r['kinds'][kind] / r['actions']:.2f}" for kind in KINDS))
        print(f"  table message lag p50 {p50:.2f} s, p99 {p99:.2f} s "
              f"({len(r['lags'])} changes, {r['unseen']} never shown); calls held back by the limits: "
              f"{len(r['waited'])}, longest wait {max(r['waited'], default=0):.2f} s")
        print("  actions taken by: " + ", ".join(f"{w} {n}" for w, n in r["ways"].most_common()))
        if worst is None or per > worst["per"]:
            worst = {"name": name, "per": per}
        worst_lag = max(worst_lag, p99)
    assert worst is not None
    print(f"ratelimit: {worst['per']:.2f} calls/action ({worst['name']}), lag p99 {worst_lag:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--pace", type=float, default=PACE,
                        help="actions per second a table's people take (busy tables are "
                             f"counted at {PACE}/s whatever this is)")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help="comma-separated, from: " + ", ".join(FAMILIES))
    args = parser.parse_args()
    asyncio.run(main(args.hands, [n for n in args.families.split(",") if n], args.pace))
