"""Leaver records (cool-down and decay), per-pair statistics and the auto-pass preference."""

from __future__ import annotations

from storage_support import MOD

from storage.conduct import CLEAN_PER_STRIKE, Conduct, SeatOutcome, cooldown_for
from storage.db import Storage
from storage.wallet import Wallet

ECO, GUILD = 77, 77
T0 = 1_700_000_000.0


async def test_three_escapes_escalate_from_a_warning_to_minutes_to_an_hour(db: Storage) -> None:
    conduct = Conduct(db)
    first = await conduct.incident(5, "escape", T0, economy=ECO, hand_id=None, guild_id=GUILD)
    assert first.strikes == 1 and first.seconds_left(T0) == 0, "the first is a warning"
    second = await conduct.incident(5, "escape", T0 + 60, economy=ECO)
    assert second.seconds_left(T0 + 60) == 10 * 60
    third = await conduct.incident(5, "absent", T0 + 2000, economy=ECO)
    assert third.seconds_left(T0 + 2000) == 3600
    assert (third.escapes, third.absences, third.strikes) == (2, 1, 3)
    other = await conduct.record(5, economy=ECO + 1)
    assert other.strikes == 0, "records are per economy"


async def test_clean_hands_take_strikes_off_one_per_ten(db: Storage) -> None:
    conduct = Conduct(db)
    for n in range(3):
        await conduct.incident(6, "escape", T0 + n, economy=ECO)
    clean = [SeatOutcome(6, 10), SeatOutcome(8, -10)]
    for n in range(CLEAN_PER_STRIKE - 1):
        await conduct.hand_settled(clean, (), T0 + 100 + n, economy=ECO, guild_id=GUILD,
                                   hand_id=n, beans=True)
    assert (await conduct.record(6, economy=ECO)).strikes == 3
    await conduct.hand_settled(clean, (), T0 + 200, economy=ECO, guild_id=GUILD, hand_id=99,
                               beans=True)
    record = await conduct.record(6, economy=ECO)
    assert (record.strikes, record.clean, record.escapes) == (2, 0, 3)
    # the next escape now costs what a third strike costs, not a fourth
    after = await conduct.incident(6, "escape", T0 + 300, economy=ECO)
    assert after.strikes == 3 and after.seconds_left(T0 + 300) == cooldown_for(3)
    # a hand in a score-only room, or with nobody else, decays nothing
    for n in range(CLEAN_PER_STRIKE):
        await conduct.hand_settled(clean, (), T0 + 400, economy=ECO, guild_id=GUILD,
                                   hand_id=1000 + n, beans=False)
        await conduct.hand_settled([SeatOutcome(6, 0), None], (), T0 + 400, economy=ECO,
                                   guild_id=GUILD, hand_id=2000 + n, beans=True)
    assert (await conduct.record(6, economy=ECO)).strikes == 3


async def test_an_absent_hand_is_an_incident_and_a_kick_is_not(db: Storage) -> None:
    conduct = Conduct(db)
    seats = [SeatOutcome(1, -5, absent=True), SeatOutcome(2, 5), SeatOutcome(3, 0, kicked=True,
                                                                              absent=True)]
    await conduct.hand_settled(seats, (), T0, economy=ECO, guild_id=GUILD, hand_id=1, beans=True)
    assert (await conduct.record(1, economy=ECO)).absences == 1
    assert (await conduct.record(3, economy=ECO)).incidents == 0


async def test_a_moderator_clears_a_record_and_it_is_audited(db: Storage, wallet: Wallet
                                                             ) -> None:
    conduct = Conduct(db)
    await conduct.incident(7, "escape", T0, economy=0)
    await conduct.incident(7, "escape", T0, economy=0)
    before = await conduct.clear(7, MOD, "talked to them", T0 + 5, economy=0)
    assert before.strikes == 2
    cleared = await conduct.record(7, economy=0)
    assert cleared.strikes == 0 and cleared.seconds_left(T0 + 5) == 0 and cleared.escapes == 2
    audit = await wallet.audit()
    assert audit[0].action == "clear_record" and audit[0].uid == 7 and audit[0].amount == 2


async def test_pair_statistics_match_a_scripted_series_of_hands(db: Storage) -> None:
    conduct = Conduct(db)
    # hand 1, pot rule: 1 loses 100, 2 wins 60 and 3 wins 30 (10 went in rake)
    await conduct.hand_settled([SeatOutcome(1, -100), SeatOutcome(2, 60), SeatOutcome(3, 30)],
                               (), T0, economy=ECO, guild_id=GUILD, hand_id=1, beans=True)
    # hand 2, transfers: seat 0 (player 2) pays seat 1 (player 1) 40, a bot in seat 2
    await conduct.hand_settled([SeatOutcome(2, -40), SeatOutcome(1, 40), None],
                               [(0, 1, 40), (2, 0, 0)], T0, economy=ECO, guild_id=GUILD,
                               hand_id=2, beans=True)
    # hand 3: player 1 escapes, player 3 wins
    await conduct.hand_settled([SeatOutcome(1, -90, escaped=True), SeatOutcome(3, 90)], (),
                               T0, economy=ECO, guild_id=GUILD, hand_id=3, beans=True)
    # a settlement replayed after a restart is not counted again
    await conduct.hand_settled([SeatOutcome(1, -90, escaped=True), SeatOutcome(3, 90)], (),
                               T0, economy=ECO, guild_id=GUILD, hand_id=3, beans=True)
    # another server's hands are not this server's pairs
    await conduct.hand_settled([SeatOutcome(1, -9), SeatOutcome(2, 9)], (), T0, economy=ECO,
                               guild_id=GUILD + 1, hand_id=4, beans=True)
    pairs = {(p.a, p.b): p for p in await conduct.pairs(economy=ECO, guild_id=GUILD)}
    assert (pairs[1, 2].hands, pairs[1, 2].net) == (2, -60 + 40)  # net: from 2 to 1
    assert (pairs[1, 3].hands, pairs[1, 3].net, pairs[1, 3].a_into_b) == (2, -30 - 90, 1)
    assert (pairs[2, 3].hands, pairs[2, 3].net) == (1, 0)
    first = (await conduct.pairs(economy=ECO, guild_id=GUILD))[0]
    assert (first.a, first.b) == (1, 3), "the most one-way pair comes first"
    partners = await conduct.partners(1, economy=ECO, guild_id=GUILD)
    assert [(p.uid, p.hands, p.gained, p.my_escapes) for p in partners] == [
        (3, 2, -120, 1), (2, 2, -20, 0)]


async def test_autopass_is_on_until_turned_off(db: Storage) -> None:
    conduct = Conduct(db)
    assert await conduct.autopass_off() == set()
    await conduct.set_autopass(4, False)
    await conduct.set_autopass(5, False)
    await conduct.set_autopass(5, True)
    assert await conduct.autopass_off() == {4}


async def test_a_hand_the_trustee_finished_is_not_clean(db: Storage) -> None:
    """Bug: a hand handed to the trustee after one action counted toward the decay, so strikes
    wore off without playing; a clean hand is one the player played themselves to its end."""
    conduct = Conduct(db)
    await conduct.incident(6, "escape", T0, economy=ECO)
    await conduct.hand_settled([SeatOutcome(6, 10, trustee=True), SeatOutcome(8, -10)], (),
                               T0 + 1, economy=ECO, guild_id=GUILD, hand_id=1, beans=True)
    assert (await conduct.record(6, economy=ECO)).clean == 0
    await conduct.hand_settled([SeatOutcome(6, 10), SeatOutcome(8, -10)], (),
                               T0 + 2, economy=ECO, guild_id=GUILD, hand_id=2, beans=True)
    assert (await conduct.record(6, economy=ECO)).clean == 1


async def test_a_settled_hand_returns_the_absences_it_recorded(db: Storage) -> None:
    """The host tells the table about each absence's strike, as it does for escapes."""
    conduct = Conduct(db)
    seats = [SeatOutcome(1, -5, absent=True), SeatOutcome(2, 5),
             SeatOutcome(3, 0, kicked=True, absent=True), None]
    told = await conduct.hand_settled(seats, (), T0, economy=ECO, guild_id=GUILD, hand_id=1,
                                      beans=True)
    assert [(r.uid, r.absences, r.strikes) for r in told] == [(1, 1, 1)]
    again = await conduct.hand_settled(seats, (), T0, economy=ECO, guild_id=GUILD, hand_id=1,
                                       beans=True)
    assert again == [], "a replayed settlement records (and tells) nothing"


async def test_pair_beans_add_up_to_each_winners_gain(db: Storage) -> None:
    """Bug: 斗地主's landlord won 395 (two farmers lost 200 each, 5 went in rake) and
    /mod player showed 197 + 197: each loser's share was rounded down on its own."""
    conduct = Conduct(db)
    await conduct.hand_settled([SeatOutcome(1, 395), SeatOutcome(2, -200), SeatOutcome(3, -200)],
                               (), T0, economy=ECO, guild_id=GUILD, hand_id=1, beans=True)
    partners = await conduct.partners(1, economy=ECO, guild_id=GUILD)
    assert sum(p.gained for p in partners) == 395
    assert sorted(p.gained for p in partners) == [197, 198]
    # the other way round: one loser's loss split between two winners
    await conduct.hand_settled([SeatOutcome(4, -401), SeatOutcome(5, 200), SeatOutcome(6, 200)],
                               (), T0, economy=ECO, guild_id=GUILD, hand_id=2, beans=True)
    for winner in (5, 6):
        gained = {p.uid: p.gained for p in await conduct.partners(winner, economy=ECO,
                                                                  guild_id=GUILD)}
        assert gained[4] == 200, "each winner's figure is the beans they won"
