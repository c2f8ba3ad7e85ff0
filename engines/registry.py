"""The game registry: every game the hall can seat, by key."""

from __future__ import annotations

import importlib

from engines.base import GameSpec

# Each module exposes SPECS: a tuple of GameSpec. Adding a game = adding its module here.
_MODULES: tuple[str, ...] = (
    "engines.doudizhu", "engines.niuniu", "engines.hotpot", "engines.gomoku", "engines.mahjong",
    "engines.shengji", "engines.dagunzi", "engines.paohuzi", "engines.shuangkou", "engines.gouji",
)


def specs() -> dict[str, GameSpec]:
    """All registered games by key, in registration order."""
    found: dict[str, GameSpec] = {}
    for name in _MODULES:
        for spec in importlib.import_module(name).SPECS:
            if spec.key in found:
                raise ValueError(f"game key {spec.key!r} registered twice")
            found[spec.key] = spec
    return found


def get(key: str) -> GameSpec:
    """The spec of game ``key``; KeyError naming the known games if there is none."""
    table = specs()
    if key not in table:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(table) or 'none'}")
    return table[key]
