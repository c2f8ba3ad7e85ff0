"""网页牌面: what the web table's pages show, as plain data a page draws (bot/web/static).

A *frame* is everything one viewer may see of a table right now, built from the game
interface alone — ``Game.view(viewer)`` (``None``: the public), ``legal_actions``, ``choices``,
``open_offers``, ``picker`` and ``GameSpec.faces`` — and from the same texts as the Discord
table (``table_text``). A spectator's frame is built from the public view only, so no hidden
card or tile can be in it. Faces are sent ready to draw: the suit's symbol, red or not; the
page holds no game knowledge and no texts of its own (its labels come in ``labels``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from bot.host.model import PLAYING, Table
from bot.host.tables import TableManager
from bot.i18n import render, t
from bot.render.text import TableText, seat_detail, seat_names, table_text
from engines.base import Face, FaceKind, Game, GameSpec, Picker, View, no_faces

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
"""Cards' suits as the page draws them."""
TILE_SUITS = {"m": "万", "p": "筒", "s": "条"}
"""Tiles' suits as the page writes them under the number (字牌 carry their own name)."""

LABELS = ("web.play", "web.hint", "web.trustee_on", "web.trustee_off", "web.your_turn",
          "web.offline", "web.seconds", "web.watching", "web.round", "web.clear", "web.start")
"""The page's own words, sent with each frame in the table's language."""


def face_json(face: Face) -> dict[str, Any]:
    """One face as the page draws it: ``k`` kind, ``t`` its text, ``u`` the suit's sign
    (♠ ♥ for cards, 万 筒 条 under a tile's number), ``r`` red, ``g`` a gap before it.

    >>> face_json(Face(FaceKind.CARD, "10", "h", red=True))
    {'k': 'card', 't': '10', 'u': '♥', 'r': True, 'g': False}
    """
    if face.kind is FaceKind.TILE:
        suit = TILE_SUITS.get(face.suit, "")
    elif face.kind is FaceKind.CARD:
        suit = SUIT_SYMBOLS.get(face.suit, "")
    else:
        suit = ""
    return {"k": face.kind.value, "t": face.label, "u": suit, "r": face.red, "g": face.gap}


def faces_of(spec: GameSpec | None, notation: str | None, twin: str | None = None
             ) -> list[dict[str, Any]] | None:
    """The faces of ``notation`` (drawn from its suited ``twin``, ``View.shown``, if any), or
    None where the game draws none (the page then shows the text)."""
    if not notation or spec is None or spec.faces is no_faces:
        return None
    faces = _faces(spec.faces, notation, twin)
    return list(faces) if faces is not None else None


@lru_cache(maxsize=8192)
def _faces(draw: Any, notation: str, twin: str | None) -> tuple[dict[str, Any], ...] | None:
    """``faces_of``'s work, kept: a notation's faces do not change (``GameSpec.faces`` is a
    pure function), and a table's frames draw the same cards again and again. The dicts are
    shared: a frame's faces are read, never changed (``hand_cells`` copies its cells)."""
    faces = draw(twin) if twin else None
    faces = faces or draw(notation)
    return tuple(face_json(f) for f in faces) if faces else None


def _key(face: dict[str, Any], suited: bool) -> tuple[Any, ...]:
    """What makes two faces the same card: where the hand's suits come from its twin only
    (``View.shown``: the game's notation has no suits), its kind and label."""
    return (face["k"], face["t"], face["u"], face["r"]) if suited else (face["k"], face["t"])


def token_face(spec: GameSpec | None, picker: Picker, index: int) -> dict[str, Any]:
    """The face of picker token ``index`` (its notation, else its label), or a text face."""
    for text in (picker.tokens[index], picker.labels[index]):
        faces = faces_of(spec, text)
        if faces and len(faces) == 1:
            return faces[0]
    return {"k": "text", "t": picker.labels[index], "u": "", "r": False, "g": False}


def hand_cells(spec: GameSpec | None, view: View, picker: Picker | None
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the hand, the picks that are not in it): each cell a face with ``p``, the picker token
    it picks (its index), or None. A hand face takes a token with the same face: one token per
    face when several are picked together, any face of it when one pick is the action (a
    discard), so clicking a card in the hand picks it. Where the hand's suits are only its
    picture's (``View.shown``), a face takes a token of the same rank, whatever its suit."""
    twin = view.shown.hand if view.shown is not None else None
    hand = [dict(f, p=None) for f in faces_of(spec, view.hand, twin) or []]
    if view.hand and not hand:  # no faces for this game: its notation, as one text cell
        hand = [{"k": "text", "t": view.hand, "u": "", "r": False, "g": False, "p": None}]
    if picker is None or not picker.tokens:
        return hand, []
    faces = [token_face(spec, picker, i) for i in range(len(picker.tokens))]
    suited = twin is None
    tokens: dict[tuple[Any, ...], list[int]] = {}  # a face's tokens, in order
    for i, face in enumerate(faces):
        tokens.setdefault(_key(face, suited), []).append(i)
    used: set[int] = set()
    for cell in hand:
        free = tokens.get(_key(cell, suited))
        if free:  # the first token of this face (one pick: the same for every copy)
            cell["p"] = free[0] if picker.max_values == 1 else free.pop(0)
            used.add(cell["p"])
    extra = [dict(faces[i], p=i) for i in range(len(faces)) if i not in used]
    return hand, extra


@lru_cache(maxsize=16)
def labels(locale: str) -> dict[str, str]:
    """The page's own words in ``locale`` (the same for every frame: made once)."""
    return {key.removeprefix("web."): t(key, locale) for key in LABELS}


@dataclass(frozen=True)
class Parts:
    """What every viewer's frame of one table shares at one moment: its public texts
    (``table_text``, the costly part, with the public view it was drawn from), the seats'
    names, the settlement. Made once per change of the table and used for its spectators'
    frame and each seat's (``frame(parts=…)``)."""

    text: TableText
    names: list[str]
    result: list[str]

    @classmethod
    def of(cls, manager: TableManager, table: Table, locale: str) -> Parts:
        game = table.game if table.status == PLAYING else None
        text = table_text(manager, table, locale)  # its result lines, the final board read once
        result = [x.replace("**", "").replace("`", "") for x in text.result] if game is None \
            else []
        return cls(text, seat_names(table), result)

    def lines(self, view: View, locale: str) -> list[str]:
        """The view's table-wide lines, as the table text rendered them where they are the
        public ones (the spectators' and, mostly, every seat's)."""
        public = self.text.view
        if public is not None and view.lines == public.lines:
            return [x.replace("**", "") for x in self.text.lines[:len(view.lines)]]
        return [render(x, locale).replace("**", "") for x in view.lines]

    def public_detail(self, seat: int) -> str:
        """A seat's detail as the table text has it (its "—" for nothing is the page's "")."""
        detail = self.text.seats[seat].detail
        return "" if detail == "—" else detail


@dataclass(frozen=True)
class Sight:
    """Who looks at which table, at one moment: what the parts of a frame are drawn from."""

    table: Table
    game: Game | None
    """The hand being played (None between hands)."""
    view: View | None
    viewer: int | None
    mine: bool
    """Whether the viewer is to act now."""
    spec: GameSpec | None
    locale: str


def frame(manager: TableManager, table: Table, viewer: int | None, locale: str,
          now: float, parts: Parts | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat index, or None for a spectator) sees of ``table`` now.
    ``parts``: the table's shared parts for this moment, when several frames are made."""
    parts = parts or Parts.of(manager, table, locale)
    text = parts.text  # title, names, result, notes: public texts
    game = table.game if table.status == PLAYING else None
    live = game is not None and not game.is_over()
    # the public view is the table text's own (drawn once for every frame of this moment)
    view = game.view(viewer) if game is not None and viewer is not None else text.view
    mine = viewer is not None and game is not None and live and viewer in game.to_act()
    sight = Sight(table, game, view, viewer, mine, manager.specs.get(table.game_key), locale)
    out: dict[str, Any] = {
        "kind": "watch" if viewer is None else "seat",
        "table": table.id, "hand_no": table.hand_id,
        # actions taken in this hand so far: a frame with more is newer (the benchmark's mark)
        "moves": len(game.log) if game is not None else 0,
        "title": text.title,
        "phase": render(view.phase, locale) if game is not None and view is not None else (
            text.status),
        "deadline": table.deadline if live and game is not None and game.to_act() else None,
        "now": now,
        "seats": _seats(sight, parts, live),
        "lines": parts.lines(view, locale) if game is not None and view is not None else [],
        "round": _plays(sight, parts.names),
        "result": list(parts.result),
        "notes": list(text.notes[-5:]),
        "footer": text.footer,
        "board": None, "hand": [], "extra": [], "picker": None, "buttons": [],
        "hint": False, "your_turn": mine, "trustee": False,
        # between hands a seated player may deal the next one, as Start does in Discord
        "can_start": viewer is not None and table.status != PLAYING and viewer < len(
            table.seats),
        "counter": view.counter if view is not None and viewer is not None else None,
        "labels": labels(locale),
    }
    if view is not None and view.board is not None:
        board = view.board
        out["board"] = {"size": board.size, "stones": dict(board.stones), "last": board.last,
                        "marks": dict(board.marks), "legal": []}
    if viewer is not None and game is not None and viewer < len(table.seats):
        _own(sight, out)
    return out


def _seats(sight: Sight, parts: Parts, live: bool) -> list[dict[str, Any]]:
    """Each seat as the viewer sees it: name, detail, acting, its open cards and melds."""
    game, view, viewer, spec = sight.game, sight.view, sight.viewer, sight.spec
    public = parts.text.view
    acting = set(game.public_to_act()) if live and game is not None else set()
    if sight.mine and viewer is not None:
        acting.add(viewer)
    spell = spec.spell if spec is not None else None
    shown = view.shown if view is not None else None
    seats = []
    for i, line in enumerate(parts.text.seats):
        sv = view.seats[i] if view is not None and i < len(view.seats) else None
        if sv is not None and i == viewer:  # your own cards are in your hand, not twice
            sv = replace(sv, cards=None)
        if sv is None or game is None:
            detail = line.detail
        elif viewer is None or (public is not None and i < len(public.seats)
                                and public.seats[i] == sv):
            detail = parts.public_detail(i)  # what everyone sees of it: drawn once
        else:
            detail = " · ".join(seat_detail(sv, sight.locale, spell))
        seats.append({
            "name": line.name.removeprefix("▶ "),
            "detail": detail,
            "acting": i in acting,
            "you": i == viewer,
            "cards": faces_of(spec, sv.cards, shown.seat(i) if shown else None) if sv else None,
            "melds": faces_of(spec, sv.melds) if sv else None,
            "discards": faces_of(spec, sv.discards) if sv else None,
        })
    return seats


def _plays(sight: Sight, names: list[str]) -> list[dict[str, Any]]:
    """The round so far: each play's seat, name, faces (or its text)."""
    view, spec, locale = sight.view, sight.spec, sight.locale
    if view is None or not view.round:
        return []
    shown = view.shown
    plays = []
    for k, play in enumerate(view.round):
        plays.append({"seat": play.seat, "name": names[play.seat] if play.seat < len(
            names) else f"#{play.seat + 1}",
            "faces": faces_of(spec, play.cards, shown.play(k) if shown else None),
            "text": render(play.note, locale) if play.note is not None else (
                play.cards or t("round.pass", locale))})
    return plays


def _own(sight: Sight, out: dict[str, Any]) -> None:
    """A seat's own part of its frame: its hand and picks, its buttons, the board's legal
    points, whether it may ask for a hint."""
    game, view, viewer, mine = sight.game, sight.view, sight.viewer, sight.mine
    assert game is not None and view is not None and viewer is not None
    out["trustee"] = sight.table.seats[viewer].trustee
    picker = game.picker(viewer) if mine else None
    out["hand"], out["extra"] = hand_cells(sight.spec, view, picker)
    if picker is not None and picker.tokens:
        out["picker"] = {"min": picker.min_values, "max": picker.max_values,
                         "single": picker.max_values == 1}
    buttons = [*game.choices(viewer), *game.open_offers(viewer)] if mine else list(
        game.open_offers(viewer))
    seen: set[str] = set()
    for choice in buttons:
        if choice.action not in seen:
            seen.add(choice.action)
            out["buttons"].append({"action": choice.action, "style": choice.style,
                                   "label": render(choice.label, sight.locale)})
    out["hint"] = mine
    if mine and out["board"] is not None:
        out["board"]["legal"] = game.legal_actions(viewer)
