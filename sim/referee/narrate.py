"""`durak replay`: one game told move by move, as the referee sees it."""
from __future__ import annotations

from sim import referee
from sim.core.cards import SUITS
from sim.core.rules import resolve

SUIT_NAMES = dict(zip(SUITS, ("clubs", "diamonds", "hearts", "spades")))


def narrate(trace: dict, seat_names: list[str]) -> list[str]:
    """Readable lines for one traced deal (the referee replays it and its events are told)."""
    toggles = {k: v for k, v in trace["toggles"].items()}
    rules = resolve(trace["family"], trace["num_players"], toggles)
    later = trace.get("deal", 0) > 0
    st = referee.new_deal(rules, trace["deck"], trace["dealer"], later_deal=later,
                          previous_fool=trace.get("previous_fool") if later else None)
    who = lambda s: f"{s} ({seat_names[s]})"  # noqa: E731
    trump = trace["deck"][rules.num_players * rules.toggles["hand_size"] if rules.num_players *
                          rules.toggles["hand_size"] < 36 else 35]
    lines = [f"{rules.describe()}; seed {trace['seed']}, game {trace['game_index']}, deal {trace.get('deal', 0)}",
             f"dealer {who(trace['dealer'])}; trump card {trump} ({SUIT_NAMES[trump[-1]]})"]
    pos = st.to_position()
    for s in range(rules.num_players):
        lines.append(f"  {who(s)} holds {' '.join(pos['hands'][str(s)])}")
    lines.append(f"bout 1: {who(st.attacker)} attacks {who(st.defender)}")
    bout = 1
    for a in trace["actions"]:
        for e in referee.apply(st, a):
            if e["event"] == "bout_end":
                bout = e["bout"] + 1
            elif e["event"] == "roles":
                lines.append(f"bout {bout}: {who(e['attacker'])} attacks {who(e['defender'])}")
            else:
                lines += _tell(e, who)
    return lines


def _tell(e: dict, who) -> list[str]:
    k = e["event"]
    if k == "attack":
        if e.get("from_talon"):
            return [f"  {who(e['player'])} leads the top card of the talon: {' '.join(e['cards'])}"]
        return [f"  {who(e['player'])} leads {' '.join(e['cards'])}"]
    if k == "cover":
        return [f"  {who(e['player'])} covers {e['attack']} with {e['cover']}"]
    if k == "defend":
        cov = ", ".join(f"{c['attack']} with {c['cover']}" for c in e["covers"]) or "nothing"
        tail = f", takes {' '.join(e['take'])}" if e["take"] else ""
        return [f"  {who(e['player'])} covers {cov}{tail}"]
    if k == "throw_in":
        return [f"  {who(e['player'])} throws in {e['card']}"]
    if k == "pass":
        return [f"  {who(e['player'])} passes"]
    if k == "take_declared":
        return [f"  {who(e['player'])} says 'I take'"]
    if k == "pick_up":
        return [f"  {who(e['player'])} picks up {' '.join(e['cards'])}"]
    if k == "discard":
        return [f"  beaten off: {' '.join(e['cards'])} go to the discard"]
    if k == "shuffled_into_talon":
        return [f"  beaten off: {' '.join(e['cards'])} are shuffled into the talon (otboyny)"]
    if k == "transfer":
        return [f"  {who(e['player'])} transfers with {e['card']}: {who(e['new_defender'])} must defend"]
    if k == "transfer_by_showing":
        return [f"  {who(e['player'])} shows {e['card']} and transfers: {who(e['new_defender'])} must defend"]
    if k == "exchange_trump_six":
        return [f"  {who(e['player'])} exchanges {e['gave']} for the face-up {e['got']}"]
    if k == "swap":  # VAR-PO1
        if not e["gave"]:
            return [f"  {who(e['player'])} does not swap"]
        return [f"  {who(e['player'])} swaps {' '.join(e['gave'])} for {' '.join(c or '?' for c in e['got'])} "
                f"from the talon (his go under it)"]
    if k == "draw":
        return [f"  {who(e['player'])} draws {' '.join(c or '?' for c in e['cards'])}"]
    if k == "out":
        return [f"  {who(e['player'])} is out"]
    if k == "roles":
        return [f"bout: {who(e['attacker'])} attacks {who(e['defender'])}"]
    if k == "bout_end":
        return []
    if k == "deal_over":
        r = e["result"]
        if r["fool"] is not None:
            out = [f"game over after {r['bouts']} bouts: {who(r['fool'])} is the fool"]
        elif r["losing_team"] is not None:
            out = [f"game over after {r['bouts']} bouts: team {r['losing_team']} loses"]
        else:
            out = [f"game over after {r['bouts']} bouts: a draw"]
        if r.get("score_winners") is not None:  # a scoring variant (RUL-60..62)
            won = ", ".join(who(s) for s in r["score_winners"]) or "nobody"
            out.append(f"score won by {won} (cards beaten {r['points']}, pogony {r['pogony']})")
        return out
    return [f"  {e}"]
