"""逃跑记录: leaver records with an escalating, decaying cool-down; per-pair statistics; the
要不起 auto-pass preference.

Rules (lichess's playban is the model):

- An **incident** is an escape (逃跑) from a running hand, a hand the trustee played wholly for
  a person (托管 throughout, or never acting), or a full table abandoned before the deal. Each
  adds one **strike** to the player's record in that economy and is logged (append-only).
- The strikes set a **cool-down** on joining bean rooms, counted from the incident:
  ``COOLDOWNS[strikes]`` — the first strike is a warning only, then minutes, then hours (the
  last entry holds for every strike beyond it).
- **Decay**: every ``CLEAN_PER_STRIKE`` clean hands take one strike off. A clean hand is a
  settled bean-room hand with another person at the table that the player played themselves
  to its end: not escaped, kicked, or on 托管 when it ended. Clean hands do not shorten a cool-down already running.
- A moderator may clear a record (strikes and cool-down; the lifetime counts stay), audited.
- **Pairs**: for each two people at a settled bean-room hand, the hands they played together,
  the beans that went between them (the hand's transfers where the game settles pair by pair;
  otherwise each loser's loss shared among the winners in proportion to their gains) and the
  hands one escaped while the other won. Flags for moderators, never a punishment.

Keyed by ints (economy, player, server); nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from storage.db import Connection, Storage

COOLDOWNS: tuple[float, ...] = (0.0, 0.0, 10 * 60, 60 * 60, 4 * 3600, 12 * 3600, 24 * 3600)
"""Seconds of cool-down after an incident, by the strikes it brings the record to: none at 0,
a warning at 1, ten minutes at 2, an hour at 3, then four, twelve and 24 hours."""

CLEAN_PER_STRIKE = 10
"""Clean hands that take one strike off."""

KINDS = ("escape", "absent", "abandon")


def cooldown_for(strikes: int) -> float:
    """Seconds of cool-down an incident that brings the record to ``strikes`` sets.

    >>> [int(cooldown_for(n) // 60) for n in (1, 2, 3, 9)]
    [0, 10, 60, 1440]
    """
    return COOLDOWNS[min(max(strikes, 0), len(COOLDOWNS) - 1)]


@dataclass(frozen=True)
class Record:
    """A player's leaver record in one economy; ``banned_until`` 0 when never banned."""

    uid: int
    escapes: int = 0
    absences: int = 0
    abandons: int = 0
    strikes: int = 0
    clean: int = 0
    banned_until: float = 0.0

    def seconds_left(self, now: float) -> float:
        """Seconds of cool-down left at ``now`` (0: may join bean rooms)."""
        return max(0.0, self.banned_until - now)

    @property
    def incidents(self) -> int:
        return self.escapes + self.absences + self.abandons


@dataclass(frozen=True)
class SeatOutcome:
    """One person's part in a settled hand, for the records: their bean ``delta``, whether they
    ``escaped``, were ``absent`` (the trustee played all of it), ``kicked`` by a moderator, or
    left the seat to the ``trustee`` when the hand ended (not played themselves to its end)."""

    uid: int
    delta: int
    escaped: bool = False
    absent: bool = False
    kicked: bool = False
    trustee: bool = False


@dataclass(frozen=True)
class Pair:
    """Two people's statistics in one server: ``net`` beans went from ``b`` to ``a``."""

    a: int
    b: int
    hands: int
    net: int
    a_into_b: int
    b_into_a: int

    def lopsided(self) -> float:
        """How one-way their beans move: |net| per hand together."""
        return abs(self.net) / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class Partner:
    """One partner of a player: ``gained`` beans the player won from them overall,
    ``their_escapes``: hands the partner escaped while the player won, ``my_escapes`` the
    reverse."""

    uid: int
    hands: int
    gained: int
    their_escapes: int
    my_escapes: int


async def _read_record(conn: Connection, economy: int, uid: int) -> Record:
    row = (await conn.execute(
        "SELECT escapes, absences, abandons, strikes, clean, banned_until FROM conduct "
        "WHERE economy = ? AND uid = ?",
        (economy, uid),
    )).fetchone()
    return Record(uid) if row is None else Record(uid, *row)


async def _incident(
    conn: Connection,
    economy: int,
    uid: int,
    kind: str,
    now: float,
    hand_id: int | None,
    guild_id: int | None,
) -> Record:
    column = {"escape": "escapes", "absent": "absences", "abandon": "abandons"}[kind]
    strikes = (await _read_record(conn, economy, uid)).strikes + 1
    until = now + cooldown_for(strikes)
    await conn.execute(
        f"INSERT INTO conduct (economy, uid, {column}, strikes, clean, banned_until, last_at) "
        "VALUES (?, ?, 1, 1, 0, ?, ?) ON CONFLICT (economy, uid) DO UPDATE SET "
        f"{column} = conduct.{column} + 1, strikes = conduct.strikes + 1, clean = 0, "
        "banned_until = CASE WHEN conduct.banned_until > excluded.banned_until "
        "THEN conduct.banned_until ELSE excluded.banned_until END, last_at = excluded.last_at",
        (economy, uid, until, now),
    )
    await conn.execute(
        "INSERT INTO conduct_events (economy, uid, kind, hand_id, guild_id, at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (economy, uid, kind, hand_id, guild_id, now),
    )
    return await _read_record(conn, economy, uid)


_CLEAN = (
    "UPDATE conduct SET "
    f"strikes = CASE WHEN clean + 1 >= {CLEAN_PER_STRIKE:d} THEN strikes - 1 ELSE strikes END, "
    f"clean = CASE WHEN clean + 1 >= {CLEAN_PER_STRIKE:d} THEN 0 ELSE clean + 1 END "
    "WHERE economy = ?2 AND strikes > 0"
)

_PAIRS_CONFLICT = (
    "ON CONFLICT (economy, guild_id, a, b) DO UPDATE SET hands = pairs.hands + 1, "
    "net = pairs.net + excluded.net, a_into_b = pairs.a_into_b + excluded.a_into_b, "
    "b_into_a = pairs.b_into_a + excluded.b_into_a, last_at = excluded.last_at"
)

_PAIRS_UPSERT = (
    "INSERT INTO pairs (economy, guild_id, a, b, hands, net, a_into_b, b_into_a, "
    "last_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) " + _PAIRS_CONFLICT
)


async def _clean(conn: Connection, economy: int, uid: int) -> None:
    """One clean hand: toward a decay when the record has strikes (then a strike goes)."""
    await conn.execute(_CLEAN + " AND uid = ?1", (uid, economy))


def _pair_rows(
    seats: Sequence[SeatOutcome | None],
    people: Sequence[SeatOutcome],
    transfers: Sequence[tuple[int, int, int]],
    now: float,
    *,
    economy: int,
    guild_id: int,
) -> list[tuple[int, int, int, int, int, int, int, float]] | None:
    """Each pair of people's row of a hand (by uid: a < b), or None with fewer than two."""
    if len(people) < 2:
        return None
    by_seat = [s if s is not None else SeatOutcome(0, 0) for s in seats]
    flows = _flows(by_seat, [t for t in transfers
                             if seats[t[0]] is not None and seats[t[1]] is not None])
    rows = []
    for x, y in combinations(sorted(people, key=lambda s: s.uid), 2):
        net = flows.get((y.uid, x.uid), 0) - flows.get((x.uid, y.uid), 0)
        x_into_y = int(x.escaped and y.delta > 0)
        y_into_x = int(y.escaped and x.delta > 0)
        rows.append((economy, guild_id, x.uid, y.uid, net, x_into_y, y_into_x, now))
    return rows


def _apportion(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` beans shared in proportion to ``weights`` (positive), exactly: each gets its
    share rounded down, and the beans left over go one each to the largest remainders (ties:
    the larger weight, then the earlier seat).

    >>> _apportion(395, [200, 200])
    [198, 197]
    """
    whole = sum(weights)
    parts = [total * w // whole for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole),
                                                       -weights[i], i))
    for i in order[: total - sum(parts)]:
        parts[i] += 1
    return parts


def _flows(seats: Sequence[SeatOutcome], transfers: Sequence[tuple[int, int, int]]
           ) -> dict[tuple[int, int], int]:
    """Beans from person to person in one hand: {(payer, payee): beans}.

    ``transfers``: (payer seat, payee seat, beans moved) for a hand settled pair by pair (seats
    index ``seats``; bots are None there and are skipped by the caller). Without transfers the
    beans the winners received (the losses less the rake, at most the gains) are shared out
    exactly: each winner's part is its gain (less its share of any shortfall), each loser's
    its loss (less its share of the rake), split in proportion (``_apportion``); then each
    pair gets its proportional share of both, rounded so that every row and column still adds
    up to the bean (a player's pair figures add up to what the ledger says they won or paid).
    """
    flows: dict[tuple[int, int], int] = {}
    if transfers:
        for payer, payee, beans in transfers:
            if beans:
                key = (seats[payer].uid, seats[payee].uid)
                flows[key] = flows.get(key, 0) + beans
        return flows
    winners = [s for s in seats if s.delta > 0]
    losers = [s for s in seats if s.delta < 0]
    gains = sum(s.delta for s in winners)
    losses = sum(-s.delta for s in losers)
    if not gains or not losses:
        return flows
    paid = min(gains, losses)  # the rake is the difference; it went to the house
    pays = _apportion(paid, [-s.delta for s in losers])
    gets = _apportion(paid, [s.delta for s in winners])
    rows, cols = range(len(losers)), range(len(winners))
    cells = {(i, j): pays[i] * gets[j] for i in rows for j in cols}  # times ``paid``
    shares = {c: n // paid for c, n in cells.items()}
    owed = [pays[i] - sum(shares[i, j] for j in cols) for i in rows]
    due = [gets[j] - sum(shares[i, j] for i in rows) for j in cols]
    # what rounding down left: one more bean to some cells with a fraction, so that every row
    # and column adds up again (always possible: the fractions themselves do); the largest
    # fractions first, then a path that moves earlier choices along (bipartite matching)
    up: set[tuple[int, int]] = set()

    def place(i: int, seen: set[int]) -> bool:
        for j in cols:
            if j in seen or (i, j) in up or not cells[i, j] % paid:
                continue
            seen.add(j)
            if due[j] > 0:
                due[j] -= 1
            else:  # column j is full: move one of its shares to another column of that row
                other = next((k for k in rows if (k, j) in up and k != i and place(k, seen)),
                             None)
                if other is None:
                    continue
                up.discard((other, j))
            up.add((i, j))
            return True
        return False

    for i, j in sorted(cells, key=lambda c: (-(cells[c] % paid), c)):
        if owed[i] > 0 and due[j] > 0 and cells[i, j] % paid:
            up.add((i, j))
            owed[i] -= 1
            due[j] -= 1
    for i in rows:
        while owed[i] > 0 and place(i, set()):
            owed[i] -= 1
    for cell in up:
        shares[cell] += 1
    for i, j in sorted(cells):  # never needed (a matching exists); rows and columns still agree
        extra = min(owed[i], due[j])
        if extra > 0:
            shares[i, j] += extra
            owed[i] -= extra
            due[j] -= extra
    for (i, j), part in shares.items():
        if part:
            flows[(losers[i].uid, winners[j].uid)] = part
    return flows


class Conduct:
    """Leaver records, pair statistics and preferences over a :class:`Database`."""

    def __init__(self, db: Storage) -> None:
        self.db = db

    async def record(self, uid: int, *, economy: int) -> Record:
        """The player's record in ``economy`` (an empty one if they have none)."""
        return await self.db.read(_read_record, economy, uid)

    async def records(self, uids: Collection[int], *, economy: int) -> dict[int, Record]:
        """The records of ``uids`` in ``economy`` (an empty one for those who have none), in
        one read."""
        wanted = sorted(set(uids))

        async def read(conn: Connection) -> dict[int, Record]:
            found = {uid: Record(uid) for uid in wanted}
            for i in range(0, len(wanted), 500):
                chunk = wanted[i : i + 500]
                for uid, *row in await conn.execute(
                    "SELECT uid, escapes, absences, abandons, strikes, clean, banned_until "
                    "FROM conduct WHERE economy = ? AND uid IN ("
                    + ", ".join("?" * len(chunk)) + ")",
                    (economy, *chunk),
                ):
                    found[int(uid)] = Record(int(uid), *row)
            return found

        return await self.db.read(read)

    async def incident(
        self,
        uid: int,
        kind: str,
        now: float,
        *,
        economy: int,
        hand_id: int | None = None,
        guild_id: int | None = None,
    ) -> Record:
        """Record an escape, absence or abandon; returns the record after it (cool-down set).

        ValueError for an unknown kind."""
        if kind not in KINDS:
            raise ValueError(f"an incident is one of {', '.join(KINDS)}, got {kind[:20]!r}")
        return await self.db.run(_incident, economy, uid, kind, now, hand_id, guild_id)

    async def clear(self, uid: int, moderator_id: int, reason: str, now: float, *,
                    economy: int) -> Record:
        """A moderator clears the record's strikes and cool-down (lifetime counts stay);
        logged as a conduct event and in the economy's audit log. Returns the record as it was
        before."""

        async def tx(conn: Connection) -> Record:
            before = await _read_record(conn, economy, uid)
            await conn.execute(
                "UPDATE conduct SET strikes = 0, clean = 0, banned_until = 0 "
                "WHERE economy = ? AND uid = ?",
                (economy, uid),
            )
            await conn.execute(
                "INSERT INTO conduct_events (economy, uid, kind, moderator_id, at) "
                "VALUES (?, ?, 'clear', ?, ?)",
                (economy, uid, moderator_id, now),
            )
            await conn.execute(
                "INSERT INTO players (id, economy, balance, created_at) VALUES (?, ?, 0, ?) "
                "ON CONFLICT (economy, id) DO NOTHING",
                (uid, economy, now),
            )
            await conn.execute(
                "INSERT INTO audit (moderator_id, action, uid, amount, reason, at, economy) "
                "VALUES (?, 'clear_record', ?, ?, ?, ?, ?)",
                (moderator_id, uid, before.strikes, reason, now, economy),
            )
            return before

        return await self.db.run(tx)

    async def hand_settled(
        self,
        seats: Sequence[SeatOutcome | None],
        transfers: Sequence[tuple[int, int, int]],
        now: float,
        *,
        economy: int,
        guild_id: int,
        hand_id: int,
        beans: bool,
    ) -> list[Record]:
        """A settled hand: absences become incidents, clean hands decay records, and (in a
        bean room) every pair of people gets the hand, the beans between them and escapes.
        Returns the records of the absences it recorded (seat order), for the table to be told.

        ``seats``: per seat, the person's part or None for a bot; ``transfers`` as settled
        (payer seat, payee seat, beans moved); ``beans``: the room plays for beans. Escapes
        were recorded when they happened (``incident``). A hand is counted once: a second call
        for the same ``hand_id`` changes nothing (and returns no records)."""
        people = [s for s in seats if s is not None]
        absent = {s.uid for s in people if s.absent and not s.escaped and not s.kicked}
        clean = [  # a clean hand: played to its end in a bean room with another person
            s.uid for s in people
            if s.uid not in absent and beans and len(people) > 1
            and not (s.escaped or s.kicked or s.trustee)
        ]
        rows = _pair_rows(seats, people, transfers, now, economy=economy, guild_id=guild_id)
        if rows is None or not beans:
            rows = []

        async def tx(conn: Connection) -> list[Record]:
            absences: list[Record] = []
            if not (await conn.execute(
                "INSERT INTO conduct_hands (hand_id) VALUES (?) ON CONFLICT DO NOTHING",
                (hand_id,),
            )).rowcount:
                return absences  # counted already (a settlement replayed after a restart)
            for seat in people:
                if seat.uid in absent:
                    absences.append(await _incident(
                        conn, economy, seat.uid, "absent", now, hand_id, guild_id))
                elif seat.uid in clean:
                    await _clean(conn, economy, seat.uid)
            if rows:
                await conn.executemany(_PAIRS_UPSERT, rows)
            return absences

        async def one_statement(conn: Connection) -> list[Record]:
            # PostgreSQL, no absence to record: the same writes as one statement (no BEGIN or
            # COMMIT round trips); the hand's conduct_hands row still counts it once
            await conn.execute(
                "WITH counted AS (INSERT INTO conduct_hands (hand_id) VALUES (?1) "
                "ON CONFLICT DO NOTHING RETURNING hand_id), "
                f"cleaned AS ({_CLEAN} AND uid = ANY(CAST(?3 AS BIGINT[])) "
                "AND EXISTS (SELECT 1 FROM counted) RETURNING uid) "
                "INSERT INTO pairs (economy, guild_id, a, b, hands, net, a_into_b, b_into_a, "
                "last_at) SELECT ?2, ?4, v.a, v.b, 1, v.net, v.ab, v.ba, ?5 FROM unnest("
                "CAST(?6 AS BIGINT[]), CAST(?7 AS BIGINT[]), CAST(?8 AS BIGINT[]), "
                "CAST(?9 AS BIGINT[]), CAST(?10 AS BIGINT[])) AS v(a, b, net, ab, ba) "
                "WHERE EXISTS (SELECT 1 FROM counted) " + _PAIRS_CONFLICT,
                (hand_id, economy, clean, guild_id, now,
                 *([list(c) for c in zip(*(r[2:7] for r in rows), strict=True)] or [[]] * 5)),
            )
            return []

        if self.db.dialect == "postgresql" and not absent:
            return await self.db.run_autocommit(one_statement)
        return await self.db.run(tx)

    async def pairs(self, *, economy: int, guild_id: int, limit: int = 10,
                    min_hands: int = 1) -> list[Pair]:
        """The most lopsided pairs of a server: by |net| beans per hand, then by hands."""

        async def read(conn: Connection) -> list[Pair]:
            return [
                Pair(*row)
                for row in await conn.execute(
                    "SELECT a, b, hands, net, a_into_b, b_into_a FROM pairs "
                    "WHERE economy = ? AND guild_id = ? AND hands >= ? "
                    "ORDER BY ABS(net) * 1.0 / hands DESC, a_into_b + b_into_a DESC, "
                    "hands DESC, a, b LIMIT ?",
                    (economy, guild_id, int(min_hands), int(limit)),
                )
            ]

        return await self.db.read(read)

    async def partners(self, uid: int, *, economy: int, guild_id: int,
                       limit: int = 10) -> list[Partner]:
        """A player's partners in a server, most hands together first."""

        async def read(conn: Connection) -> list[Partner]:
            rows = await conn.execute(
                "SELECT * FROM (SELECT b AS uid, hands, net, b_into_a, a_into_b FROM pairs "
                "WHERE economy = ?1 AND guild_id = ?2 AND a = ?3 "
                "UNION ALL SELECT a, hands, -net, a_into_b, b_into_a FROM pairs "
                "WHERE economy = ?1 AND guild_id = ?2 AND b = ?3) AS p "
                "ORDER BY hands DESC, ABS(net) DESC, uid LIMIT ?4",
                (economy, guild_id, uid, int(limit)),
            )
            return [Partner(*row) for row in rows]

        return await self.db.read(read)

    # --- preferences ------------------------------------------------------------------------
    # one row per person, a 0/1 column per on-by-default choice (every server)
    _PREFERENCES = frozenset({"autopass", "images"})

    async def _off(self, column: str) -> set[int]:
        assert column in self._PREFERENCES  # a column name, never a value, goes into the SQL

        async def read(conn: Connection) -> set[int]:
            rows = await conn.execute(f"SELECT uid FROM preferences WHERE {column} = 0")
            return {r[0] for r in rows}

        return await self.db.read(read)

    async def _set(self, column: str, uid: int, on: bool) -> None:
        assert column in self._PREFERENCES

        async def tx(conn: Connection) -> None:
            await conn.execute(
                f"INSERT INTO preferences (uid, {column}) VALUES (?, ?) "
                f"ON CONFLICT (uid) DO UPDATE SET {column} = excluded.{column}",
                (uid, int(on)),
            )

        await self.db.run(tx)

    async def autopass_off(self) -> set[int]:
        """Everyone who turned 要不起 auto-pass off (it is on by default)."""
        return await self._off("autopass")

    async def set_autopass(self, uid: int, on: bool) -> None:
        """Turn the player's 要不起 auto-pass on or off (every server)."""
        await self._set("autopass", uid, on)

    async def images_off(self) -> set[int]:
        """Everyone who turned pictures off (text only; pictures are on by default)."""
        return await self._off("images")

    async def set_images(self, uid: int, on: bool) -> None:
        """Turn the player's pictures on or off (every server)."""
        await self._set("images", uid, on)
