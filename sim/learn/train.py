"""Fit the learned player's network to search's option values, measure it, and write it as a strategy module.

`load` reads the Parquet files of `sim.learn.data`; `featurize` turns every (decision, option) into the features of
`strategies/_features.py` (the same compiled code the player runs); the target of an option is its value (search's
mean score) minus the mean value of its decision's options, so the network learns which option is better, not how good
the position is. `fit` trains a one-hidden-layer ReLU network with scikit-learn (the `train` extra: playing never
needs it) on standardised features, then folds the scaling into the first layer. `regret` is the offline yardstick
used to choose the model: per held-out decision, the value search gave its best option minus the value of the option
picked (by the model, by expert's answer, by chance). `write_module` writes `strategies/_learned_model.py` with the
weights, what they were trained on and a digest that a test checks.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from numba import njit

from strategies._features import NF, NP, cannot_beat, group, option, position

MODEL_PATH = Path(__file__).resolve().parents[2] / "strategies" / "_learned_model.py"


@njit
def _featurize(obs, kind, legal, first, opts, offsets, X, grp):
    x = np.zeros(NF)
    pc = np.zeros(36)
    for i in range(kind.shape[0]):
        grp[i] = group(obs[i])  # the network that plays this decision, as the player picks it
        sure = cannot_beat(obs[i], pc)
        position(obs[i], kind[i], x, sure)
        for j in range(offsets[i], offsets[i + 1]):
            option(obs[i], kind[i], legal[i], opts[j], first[i], x, pc, sure)
            X[j, :] = x


def load(paths):
    import pandas as pd
    return pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)


def featurize(df):
    """(X per option, decision index per option, value per option, offsets, network group per decision) of a
    decisions DataFrame."""
    nc = df["n_options"].to_numpy(np.int64)
    offsets = np.zeros(len(df) + 1, dtype=np.int64)
    np.cumsum(nc, out=offsets[1:])
    obs = np.stack(df["obs"].to_numpy()).astype(np.int64)
    opts = np.concatenate(df["options"].to_numpy()).astype(np.int64)
    esc = np.concatenate(df["escaped"].to_numpy()).astype(np.float64)
    fool = np.concatenate(df["fool"].to_numpy()).astype(np.float64)
    done = np.repeat(df["sampled"].to_numpy(np.float64), nc)
    value = (esc - fool) / done
    X = np.zeros((len(opts), NF))
    grp = np.zeros(len(df), dtype=np.int64)
    _featurize(obs, df["kind"].to_numpy(np.int64), df["legal"].to_numpy(np.int64), df["first"].to_numpy(np.int64),
               opts, offsets, X, grp)
    dec = np.repeat(np.arange(len(df)), nc)
    return X, dec, value, offsets, grp


def centred(value, dec, n):
    mean = np.bincount(dec, weights=value, minlength=n) / np.bincount(dec, minlength=n)
    return value - mean[dec]


def regret(pred, value, offsets):
    """Mean over decisions of (best value - value of the option with the highest `pred`), in points (x100),
    with the share of decisions where the pick is search's best."""
    r = np.zeros(len(offsets) - 1)
    hit = np.zeros(len(offsets) - 1)
    for i in range(len(offsets) - 1):
        a, b = offsets[i], offsets[i + 1]
        v = value[a:b]
        k = int(np.argmax(pred[a:b]))
        r[i] = v.max() - v[k]
        hit[i] = v[k] >= v.max()
    return 100 * r.mean(), hit.mean()


def split(df, seed=0, holdout=0.15):
    """Train / test masks over decisions, by game (a game's decisions stay together)."""
    key = df["family"].astype(str) + ":" + df["players"].astype(str) + ":" + df["seed"].astype(str) + ":" + \
        df["game"].astype(str)
    h = key.map(lambda s: int(hashlib.sha1(f"{seed}:{s}".encode()).hexdigest()[:8], 16) / 2 ** 32)
    test = (h < holdout).to_numpy()
    return ~test, test


MARGINS = (0.0, 0.0025, 0.005, 0.01, 0.02, 0.04, 1e9)  # 1e9: always expert's answer
TARGET_SCALE = 5.0  # values differ by hundredths: scaled up, Adam's default step sizes fit them


GROUP_FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
# the networks, in the order of strategies._features.group (a family; two players, then three to six)
GROUPS = tuple(f"{f} {'2' if k == 0 else '3-6'} players" for f in GROUP_FAMILIES for k in (0, 1))


def fit(X, y, hidden=64, seed=0, alpha=1e-4, max_iter=60, log=print):
    """A one-hidden-layer ReLU network on standardised features; returns (W1, B1, W2, B2) on raw features."""
    from sklearn.neural_network import MLPRegressor
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd < 1e-9] = 1.0
    Z = (X - mu) / sd
    m = MLPRegressor(hidden_layer_sizes=(hidden,), activation="relu", alpha=alpha, batch_size=256,
                     learning_rate_init=1e-3, max_iter=max_iter, random_state=seed, early_stopping=True,
                     validation_fraction=0.1, n_iter_no_change=8, tol=1e-7)
    m.fit(Z, y * TARGET_SCALE)
    log(f"fit: {m.n_iter_} epochs, loss {m.loss_:.6f} (first {m.loss_curve_[0]:.6f})")
    w1 = m.coefs_[0].T / sd  # (hidden, NF)
    b1 = m.intercepts_[0] - w1 @ mu
    w2 = m.coefs_[1][:, 0]
    b2 = float(m.intercepts_[1][0])
    return w1, b1, w2, b2, m.loss_curve_


def predict(params, X):
    w1, b1, w2, b2 = params[:4]
    return np.maximum(X @ w1.T + b1, 0.0) @ w2 + b2


def digest(w1, b1, w2, b2, margin) -> str:
    h = hashlib.sha256()
    for a in (w1, b1, w2, b2, margin):
        h.update(np.ascontiguousarray(a, dtype="<f8").tobytes())
    return h.hexdigest()[:16]


def _arr(a) -> str:
    return "[" + ", ".join(repr(float(v)) for v in np.ravel(a)) + "]"


def write_module(params, meta: dict, path: Path = MODEL_PATH, cap: int = 10, margin=None):
    w1, b1, w2, b2 = params[:4]
    margin = np.zeros(len(b2)) if margin is None else np.asarray(margin) * TARGET_SCALE
    meta = dict(meta, digest=digest(w1, b1, w2, b2, margin), hidden=int(b1.shape[1]), features=NF, position_features=NP)
    text = f'''"""The learned player's network (generated by `durak learn train`; do not edit): what it was trained on is META."""
import numpy as np

from strategies._features import NF

META = {json.dumps(meta, indent=1, sort_keys=True)}
CAP = {cap}  # leads weighed at most (search's candidates)
GROUPS = {len(b2)}  # prostoy_5, prostoy_6, podkidnoy, perevodnoy; each for 2 players, then for 3-6
HIDDEN = {b1.shape[1]}
W1 = np.array({_arr(w1)}).reshape(GROUPS, HIDDEN, NF)
B1 = np.array({_arr(b1)}).reshape(GROUPS, HIDDEN)
W2 = np.array({_arr(w2)}).reshape(GROUPS, HIDDEN)
B2 = np.array({_arr(b2)})
MARGIN = np.array({_arr(margin)})  # play an option
# other than expert's only when the network rates it this much better (in the network's units)
'''
    text = text.replace(": true", ": True").replace(": false", ": False").replace(": null", ": None")
    path.write_text(text)
    return meta


def run(files, hidden=64, seed=0, write=False, log=print, max_iter=60) -> dict:
    """Load, featurize, fit one network per group (family; two players or more) on 85% of the games, report the
    held-out regret (points of value lost against search's best option) of the network, of expert's answer and of a
    uniform pick, per cell (network_raw: the network without the margin that keeps expert's answer); write the
    module."""
    df = load(files)
    X, dec, value, offsets, grp = featurize(df)
    y = centred(value, dec, len(df))
    tr, te = split(df, seed)
    log(f"{len(df):,} decisions, {len(X):,} options; {int(tr.sum()):,} decisions to train on")
    G = len(GROUPS)
    W1, B1, W2, B2 = np.zeros((G, hidden, NF)), np.zeros((G, hidden)), np.zeros((G, hidden)), np.zeros(G)
    pred = np.zeros(len(X))
    losses = {}
    for g in range(G):
        sel = (grp == g)[dec]
        if not (sel & tr[dec]).any():
            continue
        log(f"{GROUPS[g]}: {int((grp == g).sum()):,} decisions")
        p = fit(X[sel & tr[dec]], y[sel & tr[dec]], hidden=hidden, seed=seed, max_iter=max_iter, log=log)
        W1[g], B1[g], W2[g], B2[g] = p[:4]
        losses[GROUPS[g]] = (float(p[4][0]), float(p[4][-1]))
        pred[sel] = predict(p, X[sel])
    first = X[:, NP + 1]  # the "heuristic" feature: 1 for expert's answer
    raw = pred.copy()
    margin = np.zeros(G)
    for g in range(G):  # the least predicted gain over expert's answer worth playing: the best on held-out games
        ix = np.flatnonzero(te & (grp == g))
        if len(ix) == 0:
            continue
        pick = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in ix])
        off = np.concatenate([[0], np.cumsum(offsets[ix + 1] - offsets[ix])])
        scores = [(regret(pred[pick] + (m * TARGET_SCALE) * first[pick], value[pick], off)[0], m) for m in MARGINS]
        margin[g] = min(scores)[1]
        log(f"{GROUPS[g]}: margin {margin[g]:g} (held-out regret {', '.join(f'{m:g}: {r:.2f}' for r, m in scores)})")
    pred = pred + (margin[grp] * TARGET_SCALE)[dec] * first
    noise = np.random.default_rng(seed).random(len(X))
    keys = df[["family", "players", "toggles"]].astype(str).agg(" ".join, axis=1).to_numpy()
    rows = []
    for key in sorted(set(keys[te])) + ["all"]:
        ix = np.flatnonzero(te & ((keys == key) if key != "all" else True))
        pick = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in ix])
        off = np.concatenate([[0], np.cumsum(offsets[ix + 1] - offsets[ix])])
        row = {"cell": key, "decisions": int(len(ix))}
        for name, p in (("network", pred), ("network_raw", raw), ("expert", first), ("uniform", noise)):
            r, hit = regret(p[pick], value[pick], off)
            row[name + "_regret"] = round(r, 3)
            row[name + "_best"] = round(hit, 3)
        rows.append(row)
        log(f"{key:40s} {row['decisions']:7,d}  regret network {row['network_regret']:.2f}  expert "
            f"{row['expert_regret']:.2f}  uniform {row['uniform_regret']:.2f}")
    report = {"decisions": int(len(df)), "options": int(len(X)), "hidden": hidden, "seed": seed,
              "loss": losses, "cells": rows}
    if write:
        cells = df.groupby(["family", "players", "toggles"]).size()
        meta = {"trained": True, "decisions": int(len(df)), "options": int(len(X)), "seed": seed,
                "data_seeds": sorted({int(s) for s in df["seed"].unique()}),
                "data_commits": sorted(set(df["commit"].astype(str))) if "commit" in df else [],
                "players_of_data": sorted(set(df["player"].astype(str))), "samples": int(df["samples"].max()),
                "cells": {f"{f} {n} {t}": int(c) for (f, n, t), c in cells.items()},
                "groups": list(GROUPS), "held_out_regret": rows[-1]}
        report["meta"] = write_module((W1, B1, W2, B2), meta, margin=margin)
    return report
