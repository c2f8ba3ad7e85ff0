"""座位链接: signed seat links. A token names one table, one hand, one seat and one player and
expires; it is HMAC-SHA256-signed with the hall's web secret, so it cannot be made or changed
without the secret. Tokens are credentials: never log them (``redact``).

>>> secret = b"k" * 32
>>> token = sign(secret, SeatToken(table=5, hand=9, seat=1, user=42, expires=2000))
>>> verify(secret, token, now=1000)
SeatToken(table=5, hand=9, seat=1, user=42, expires=2000)
>>> verify(secret, token, now=2001)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
TokenError: web.refused.expired
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WATCH = -1
"""The seat of a spectator link: the public view only."""

SECRET_ENV = "GAMEHALL_WEB_SECRET"
MIN_SECRET = 16
"""The shortest secret accepted from the environment, in characters."""


class TokenError(ValueError):
    """A refused token; ``key`` is the catalogue key of the reason shown on the plain page."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


class SecretError(ValueError):
    """The web secret cannot be had; the message names the variable or the file."""


@dataclass(frozen=True)
class SeatToken:
    """What a link grants: ``seat`` of ``table`` for ``user`` during hand ``hand`` (``WATCH``
    with user 0: the table's public view), until ``expires`` (Unix seconds)."""

    table: int
    hand: int
    seat: int
    user: int
    expires: int


_FIELDS = ("table", "hand", "seat", "user", "expires")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, body: str) -> bytes:
    return hmac.new(secret, b"gamehall-seat\0" + body.encode("ascii"), hashlib.sha256).digest()


def sign(secret: bytes, grant: SeatToken) -> str:
    """The token of ``grant``: its fields, then their signature, both base64url."""
    body = _b64(json.dumps([getattr(grant, f) for f in _FIELDS], separators=(",", ":"))
                .encode("ascii"))
    return f"{body}.{_b64(_mac(secret, body))}"


_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}")


def verify(secret: bytes, token: str, now: float) -> SeatToken:
    """The grant of a genuine, unexpired ``token``; TokenError (``web.refused.bad`` for a
    malformed or changed one, ``web.refused.expired``) otherwise. The signature is checked
    first and in constant time, so nothing is read from a forged token."""
    if not isinstance(token, str) or not _SHAPE.fullmatch(token):
        raise TokenError("web.refused.bad")
    body, mac = token.split(".")
    try:
        given = _unb64(mac)
    except ValueError:
        raise TokenError("web.refused.bad") from None
    if not hmac.compare_digest(given, _mac(secret, body)):
        raise TokenError("web.refused.bad")
    try:
        values: Any = json.loads(_unb64(body))
    except ValueError:
        raise TokenError("web.refused.bad") from None
    if (not isinstance(values, list) or len(values) != len(_FIELDS)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
        raise TokenError("web.refused.bad")
    grant = SeatToken(*values)
    if now > grant.expires:
        raise TokenError("web.refused.expired")
    return grant


def event_mark(secret: bytes, guild_id: int, event_id: int) -> str:
    """The mark in an event page's address: the event's signature, so the page is found
    only through its link (22 base64url characters, 128 bits).

    >>> len(event_mark(b"k" * 32, 5, 1)), event_mark(b"k" * 32, 5, 1) == event_mark(b"k" * 32, 5, 2)
    (22, False)
    """
    mac = hmac.new(secret, f"gamehall-event\0{guild_id}:{event_id}".encode("ascii"),
                   hashlib.sha256).digest()
    return _b64(mac[:16])


def redact(text: str) -> str:
    """``text`` with anything shaped like a token replaced by ``…`` (for logs).

    >>> redact("GET /seat/eyJ.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1")
    'GET /seat/… HTTP/1.1'
    """
    return re.sub(r"[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}", "…", text)


def load_secret(path: Path, environ: dict[str, str] | Any = os.environ) -> bytes:
    """The signing secret: ``GAMEHALL_WEB_SECRET`` when set (at least MIN_SECRET characters),
    else the contents of ``path``, generated there (owner-readable only) on first run.
    SecretError naming the variable or the file."""
    given = (environ.get(SECRET_ENV) or "").strip()
    if given:
        if len(given) < MIN_SECRET:
            raise SecretError(f"{SECRET_ENV}: must be at least {MIN_SECRET} characters")
        return given.encode("utf-8")
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretError(f"web.secret_file: cannot read {path}: {exc}") from None
    if text:
        if len(text) < MIN_SECRET:
            raise SecretError(f"web.secret_file: {path} holds fewer than {MIN_SECRET} characters")
        return text.encode("ascii")
    text = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(text + "\n")
    except OSError as exc:
        raise SecretError(f"web.secret_file: cannot create {path}: {exc.strerror or exc}"
                          ) from None
    return text.encode("ascii")


