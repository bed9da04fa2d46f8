"""The five-card first-bout limit (001) and its scope (004)."""
from sim.experiments.plain import rule_verdict

TITLE = "Does the first-bout limit of 5 matter, and does its scope?"
QUESTION = ("\"In the first bout only five cards may be thrown\" (001) — does it change anything, and does it "
            "matter whether it holds for the first bout only or until the first discard (004)?")
ORDER = 5
ATLAS = ["first_bout_max_attack", "first_bout_limit_scope"]  # its pages in results/atlas
_METRICS = ["first_defender_fool", "first_attacker_fool", "bouts"]  # the headline rows of each table


def run(ctx):
    lim, scope = [], []
    for n in (2, 4):
        cs = ctx.compare("podkidnoy", n, {"first_bout_max_attack": 5}, {"first_bout_max_attack": "none"}, 500_000,
                         label=f"limit-{n}p", where=f"{n} players")
        ctx.section(f"Limit of 5 or no limit, podkidnoy, {n} players", cs, _METRICS, f"limit-{n}p")
        lim += cs
        cs = ctx.compare("podkidnoy", n, {"first_bout_limit_scope": "first_bout"},
                         {"first_bout_limit_scope": "until_first_discard"}, 500_000, label=f"scope-{n}p",
                         where=f"{n} players")
        ctx.section(f"Scope: first bout or until the first discard, podkidnoy, {n} players", cs, _METRICS,
                    f"scope-{n}p")
        scope += cs
    return ("The limit: " + rule_verdict(lim, "first_defender_fool", "the first defender",
                                        "the five-card first-bout limit (against no limit)") +
            " The scope: " + rule_verdict(scope, "first_defender_fool", "the first defender",
                                          "the limit held for the first bout only (against: until the first "
                                          "discard)"))
