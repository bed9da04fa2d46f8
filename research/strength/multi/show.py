"""Tally a JSON log of search's disagreements with expert (keys log, diff, half; each entry kind, trump, expert,
search, sizes): python -m research.strength.multi.show LOG.json -- the 30 most frequent (kind, expert's answer,
search's answer) classes, trump or plain and, for leads, how many cards."""
import json
import sys
from collections import Counter


def card(a, tr):
    if a < 0:
        return "none"
    return f"{'T' if (a & 3) == tr else 'p'}{a >> 2}"


def lead(m, tr):
    cs = [i for i in range(36) if m >> i & 1]
    return "+".join(card(x, tr) for x in cs)


def main(path):
    d = json.load(open(path))
    log = d["log"]
    print(len(log), "disagreements", d["diff"], d["half"])
    c = Counter()
    for e in log:
        tr = e["trump"]
        if e["kind"] == "attack":
            ex, se = lead(e["expert"], tr), lead(e["search"], tr)
        else:
            ex, se = card(e["expert"], tr), card(e["search"], tr)
        c[(e["kind"], ex[:1] + ("" if e["kind"] != "attack" else str(ex.count("+") + 1)),
           se[:1] + ("" if e["kind"] != "attack" else str(se.count("+") + 1)))] += 1
    for k, v in c.most_common(30):
        print(v, k)


if __name__ == "__main__":
    main(sys.argv[1])
