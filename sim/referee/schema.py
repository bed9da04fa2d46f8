"""The position document (docs/positions.md) as a JSON schema, checked before the referee reads it.

``document_problem(doc)`` gives the first problem as one line naming its JSON path, e.g.
``$.position.talon_size: -3 is less than the minimum of 0``; None for a well-formed document.
The rules of play (is the action legal, do the cards add up) stay in ``game.py``; this only checks
that every field has the type and range the format allows.
"""
from __future__ import annotations

from sim.core.rules import FAMILIES

CARD = {"type": "string", "pattern": r"^\s*(?:[6-9]|10|[JQKAjqka])[CDHScdhs]\s*$",
        "description": "a card: rank 6,7,8,9,10,J,Q,K,A and suit C,D,H,S, e.g. '10S'"}
CARDS = {"type": "array", "items": CARD}
SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
SEAT_KEY = "^[0-5]$"
COUNT = {"type": "integer", "minimum": 0, "maximum": 72}  # 72: two packs (VAR-BD1, RUL-81)

POSITION = {
    "type": "object",
    "properties": {
        "num_players": {"type": "integer", "minimum": 2, "maximum": 6},
        "seats_clockwise": {"type": "array", "items": {"type": "integer"}},
        "trump_suit": {"type": ["string", "null"], "pattern": r"^\s*[CDHScdhs]\s*$"},
        "trump_card": {"anyOf": [CARD, {"type": "null"}]},
        "trump_card_location": {"enum": ["talon_bottom", "already_drawn", "removed_from_play", None]},
        "talon_size": {"anyOf": [COUNT, {"type": "null"}]},
        "talon_order_top_to_bottom": {"anyOf": [CARDS, {"type": "null"}]},
        "hands": {"type": "object", "propertyNames": {"pattern": SEAT_KEY},
                  "additionalProperties": CARDS},
        "hand_sizes": {"type": ["object", "null"], "propertyNames": {"pattern": SEAT_KEY},
                       "additionalProperties": COUNT},
        "attacker": {"anyOf": [SEAT, {"type": "null"}]},
        "defender": {"anyOf": [SEAT, {"type": "null"}]},
        "dealer": {"anyOf": [SEAT, {"type": "null"}]},
        "table": {"type": ["array", "null"], "maxItems": 12, "items": {
            "type": "object", "required": ["attack"],
            "properties": {"attack": CARD, "cover": {"anyOf": [CARD, {"type": "null"}]}, "by": SEAT}}},
        "first_bout": {"type": "boolean"},
        "out_players": {"type": ["array", "null"], "items": SEAT},
        "out_bouts": {"type": ["object", "null"], "propertyNames": {"pattern": SEAT_KEY},
                      "additionalProperties": {"type": "integer", "minimum": 0}},
        "teams": {"type": ["array", "null"], "items": {"type": "array", "items": SEAT}},
        "discard_count": {"anyOf": [COUNT, {"type": "null"}]},
        "removed_from_play": {"anyOf": [CARDS, {"type": "null"}]},
        "discard_bouts": {"type": "integer", "minimum": 0},
        "bout_number": {"type": ["integer", "null"], "minimum": 1},
        "first_discard_done": {"type": "boolean"},
        "take_declared": {"type": "boolean"},
        "passed": {"type": ["array", "null"], "items": SEAT},
        "transfers_this_bout": {"type": "integer", "minimum": 0},
        "bout_opener": {"anyOf": [SEAT, {"type": "null"}]},
        "shown_this_bout_by": {"type": ["array", "null"], "items": SEAT},
        "shown_cards_this_bout": {"anyOf": [CARDS, {"type": "null"}]},
        "shown_trumps_this_deal": {"anyOf": [CARDS, {"type": "null"}]},
        "result": {"type": ["object", "null"]},
        "scores": {"type": ["object", "null"], "properties": {
            "points": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "pogony": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "pogon_top": {"type": "array", "items": {"enum": ["6", "7", "8", "9", "10", "J", "Q", "K", "A",
                                                              None]}}}},
    },
}

ACTION = {"type": "object", "anyOf": [
    {"required": ["type"], "properties": {"type": {"type": "string"}}},
    {"required": ["sequence"], "properties": {"sequence": {"type": "array", "minItems": 1,
                                                             "items": {"type": "object"}}}},
]}

DOCUMENT = {
    "type": "object",
    "required": ["family", "position", "action"],
    "properties": {
        "family": {"enum": list(FAMILIES)},
        "toggles": {"type": ["object", "null"]},
        "position": POSITION,
        "action": ACTION,
    },
}

# `durak hint`: a position without an action (the action is what it answers), or a start of a deal
HINT_POSITION = {
    "type": "object",
    "required": ["family", "position"],
    "properties": {"family": DOCUMENT["properties"]["family"], "toggles": {"type": ["object", "null"]},
                   "position": POSITION, "seat": SEAT},
}
HINT_START = {
    "type": "object",
    "required": ["family", "start_of_deal", "num_players", "hand", "trump_card"],
    "properties": {"family": DOCUMENT["properties"]["family"], "toggles": {"type": ["object", "null"]},
                   "start_of_deal": {"const": True}, "num_players": {"type": "integer", "minimum": 2, "maximum": 6},
                   "seat": SEAT, "attacker": SEAT, "dealer": {"anyOf": [SEAT, {"type": "null"}]},
                   "hand": CARDS, "trump_card": CARD,
                   "teams": {"type": ["array", "null"], "items": {"type": "array", "items": SEAT}}},
}

EXAMPLES = {"type": "object", "required": ["examples"],
            "properties": {"examples": {"type": "array", "minItems": 1, "items": {"type": "object"}}}}


def json_path(parts) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _plain(err) -> str:
    """A schema error in plain words (the card pattern, not the regular expression)."""
    v = err.validator
    if v == "pattern":
        pat = err.schema.get("pattern")
        if pat == CARD["pattern"]:
            return f"{err.instance!r} is not a card (rank 6,7,8,9,10,J,Q,K,A and suit C,D,H,S, e.g. '10S')"
        if pat == SEAT_KEY:
            return f"{err.instance!r} is not a seat number 0 to 5 (Durak is played by 2 to 6)"
        return f"{err.instance!r} is not a suit (C, D, H or S)"
    if v == "enum" and err.schema.get("enum") == list(FAMILIES):
        return f"{err.instance!r} is not a rules family; choose one of {', '.join(FAMILIES)}"
    return err.message


def problem(doc, schema=DOCUMENT, prefix=()) -> str | None:
    """The first problem of ``doc`` (the one nearest the top, then in path order), or None.
    jsonschema is imported here, not at the top: it takes most of a second, and only `judge` and `hint`
    read documents (every command imports the referee for its error type)."""
    import jsonschema
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    if not errors:
        return None
    e = min(errors, key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    while e.validator == "anyOf" and e.context:  # e.g. "a card or null": tell the more specific alternative
        e = min(e.context, key=lambda c: (-len(c.absolute_path), c.validator in ("type", "required")))
    return f"{json_path([*prefix, *e.absolute_path])}: {_plain(e)}"
