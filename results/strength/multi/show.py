import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
log = d["log"]
print(len(log), "disagreements", d["diff"], d["half"])
c = Counter()
def card(a, tr):
    if a < 0: return "none"
    return f"{'T' if (a & 3) == tr else 'p'}{a >> 2}"
def lead(m, tr):
    cs = [i for i in range(36) if m >> i & 1]
    return "+".join(card(x, tr) for x in cs)
for e in log:
    tr = e["trump"]
    if e["kind"] == "attack":
        ex, se = lead(e["expert"], tr), lead(e["search"], tr)
    else:
        ex, se = card(e["expert"], tr), card(e["search"], tr)
    n_act = sum(1 for s in e["sizes"] if s > 0)
    c[(e["kind"], ex[:1] + ("" if e["kind"] != "attack" else str(ex.count("+")+1)), se[:1] + ("" if e["kind"] != "attack" else str(se.count("+")+1)))] += 1
for k, v in c.most_common(30):
    print(v, k)
