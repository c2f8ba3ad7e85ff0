"""/settings images: the per-person choice of pictures or text only (SQLite migration 0008,
PostgreSQL 0002), on both backends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from storage.conduct import Conduct
from storage.db import Storage


async def test_pictures_are_on_until_turned_off_and_the_choice_survives_a_restart(
    open_db: Callable[..., Awaitable[Storage]],
) -> None:
    db = await open_db()
    conduct = Conduct(db)
    assert await conduct.images_off() == set()
    await conduct.set_images(4, False)
    await conduct.set_images(5, False)
    await conduct.set_images(5, True)
    assert await conduct.images_off() == {4}
    # one preferences row per person: auto-pass and pictures are set apart from each other
    await conduct.set_autopass(4, False)
    assert await conduct.images_off() == {4} and await conduct.autopass_off() == {4}
    await conduct.set_autopass(6, False)
    assert await conduct.images_off() == {4}
    await db.close()
    reopened = await open_db()
    assert await Conduct(reopened).images_off() == {4}
    await reopened.close()
