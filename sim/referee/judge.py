"""Judging a position + action for people: ``judge(doc)`` and ``format_judgement(result)``.

``doc`` is one entry of a position document (format: docs/positions.md) (family, toggles, position, action);
the rules themselves are all in ``sim/referee/game.py``. This module only runs the referee and puts
what happened into a summary and a few readable lines.
"""
from __future__ import annotations

from sim.referee import game as R
from sim.referee import schema as S


def judge(doc: dict) -> dict:
    """Rule on ``doc["action"]`` in ``doc["position"]``.

    Returns ``{"legal", "rule", "reason"}`` and, when legal, ``"position"`` (the resulting position)
    and ``"events"``: a summary (``discarded``, ``taken``, ``drawn``, ``out``, ``next_attacker``,
    ``next_defender``, ``result``) with the full event list under ``"log"``. For a sequence the verdict
    is that of the first illegal step (``"step"`` says which) or of the last step; ``"steps"`` lists
    every step's verdict. A document that breaks the format (``sim/referee/schema.py``) or a position that
    cannot be played raises ValueError; a format problem names its JSON path ("$.position.talon_size: ...")."""
    problem = S.problem(doc)
    if problem:
        raise ValueError(problem)
    state = R.load_position(doc["family"], doc.get("toggles") or {}, doc["position"])
    action = doc["action"]
    is_sequence = isinstance(action, dict) and "sequence" in action
    steps = action["sequence"] if is_sequence else [action]
    if is_sequence and (not isinstance(steps, list) or not steps):
        return R.Verdict(False, "RUL-1", "a sequence must be a non-empty list of actions").as_dict()
    log: list[dict] = []
    verdicts: list[dict] = []
    verdict = None
    for i, step in enumerate(steps):
        verdict = R.check(state, step)
        verdicts.append(verdict.as_dict())
        if not verdict.legal:
            out = verdict.as_dict()
            if is_sequence:
                out["step"] = i
                out["steps"] = verdicts
                out["reason"] = f"step {i}: {verdict.reason}"
            return out
        log.extend(R.apply(state, step))
    out = verdict.as_dict()
    if is_sequence:
        out["steps"] = verdicts
    out["position"] = state.to_position()
    out["events"] = summarize(log, state)
    return out


def summarize(log: list[dict], state: R.State) -> dict:
    """What happened, gathered from the event log."""
    discarded, taken, drawn, out, into_talon, trump_changes = [], {}, {}, [], [], []
    for e in log:
        kind = e["event"]
        if kind == "discard":
            discarded.extend(e["cards"])
        elif kind == "shuffled_into_talon":  # VAR-OT1
            into_talon.extend(e["cards"])
        elif kind == "pick_up":
            taken.setdefault(str(e["player"]), []).extend(e["cards"])
        elif kind == "draw":
            drawn.setdefault(str(e["player"]), []).extend(e["cards"])
            if e.get("trump_changes_to"):
                trump_changes.append(e["trump_changes_to"])  # VAR-SM1 (RUL-35)
        elif kind == "out":
            out.append(e["player"])
    return {"discarded": discarded, "shuffled_into_talon": into_talon, "taken": taken, "drawn": drawn, "out": out,
            "trump_changes": trump_changes,
            "next_attacker": state.attacker, "next_defender": state.defender,
            "bout_over": any(e["event"] == "bout_end" for e in log),
            "result": None if state.result is None else dict(state.result), "log": log}


def format_judgement(result: dict) -> str:
    """A few readable lines for a ``judge`` result."""
    head = "LEGAL" if result.get("legal") else "ILLEGAL"
    lines = [f"{head} ({result.get('rule')}): {result.get('reason')}"]
    ev = result.get("events")
    pos = result.get("position")
    if not ev or not pos:
        return "\n".join(lines)
    if ev["discarded"]:
        lines.append(f"  to the discard: {' '.join(ev['discarded'])} (discard pile now {pos['discard_count']})")
    if ev.get("shuffled_into_talon"):
        lines.append(f"  otboyny: {' '.join(ev['shuffled_into_talon'])} are shuffled into the talon, not discarded "
                     f"(RUL-54)")
    for seat, cards in ev["taken"].items():
        lines.append(f"  player {seat} picks up: {' '.join(cards)}")
    for seat, cards in ev["drawn"].items():
        lines.append(f"  player {seat} draws {len(cards)}: {' '.join(cards)}")
    for c in ev.get("trump_changes", []):
        lines.append(f"  the card under the trump card is turned: {c}; its suit is trump from now on (RUL-35)")
    for seat in ev["out"]:
        lines.append(f"  player {seat} is out")
    res = ev.get("result")
    if res:
        if res.get("fool") is not None:
            lines.append(f"  deal over: player {res['fool']} is the fool")
        elif res.get("losing_team") is not None:
            lines.append(f"  deal over: team {res['losing_team']} loses")
        else:
            lines.append("  deal over: a draw")
        if res.get("score_winners") is not None:  # a scoring variant (RUL-60..62)
            who = ", ".join(map(str, res["score_winners"])) or "nobody (no score made)"
            lines.append(f"  score: won by {who}; cards beaten {res['points']}, pogony {res['pogony']} "
                         f"(highest {res['pogon_top']})")
    else:
        if ev["bout_over"]:
            lines.append(f"  next bout: player {ev['next_attacker']} attacks player {ev['next_defender']}")
        else:
            lines.append(f"  bout goes on: player {pos['attacker']} attacks player {pos['defender']}")
        if pos["table"]:
            cells = [f"{r['attack']}/{r['cover'] or '-'}" for r in pos["table"]]
            lines.append(f"  table: {' '.join(cells)}")
        if pos.get("scores"):
            sc = pos["scores"]
            lines.append(f"  score so far: cards beaten {sc['points']}, pogony {sc['pogony']} "
                         f"(highest {sc['pogon_top']})")
    hands = " | ".join(f"{s}: {' '.join(h) or '-'}" for s, h in pos["hands"].items())
    if "hand_sizes" in pos:
        hands += f"  (hand sizes {pos['hand_sizes']}; some drawn cards are unknown)"
    lines.append(f"  hands: {hands}")
    return "\n".join(lines)
