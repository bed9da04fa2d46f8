"""`durak play`: a person plays deals in the terminal against library strategies.

The deal runs on the core (`sim.core.machine.Deal`); the other seats are library strategies called
with their own observation. At the person's turn: the trump, the talon, the hand sizes, the table and
the hand (sorted by suit, trumps last, with suit symbols or plain letters with --ascii), and the legal
moves numbered. The person answers with a number, or in words (`8C 8H`, `take`, `pass`, `show 9S`,
`swap`, `keep`); `?` asks for a hint (`sim.experiments.hint`), `q` quits. A move the core does not
allow is put to the referee, which says why, with the rule id. At the end: the result, and `replay`
tells the whole deal as `durak replay` does; the seed plays the same deal again.

The live log tells every seat's move, forced ones included, and what the referee sees between the moves:
who picks up which cards, the table beaten off, the draws from the talon (the others' as a count), who goes
out, and who attacks whom in the next bout. A referee state kept in step with the core gives these events.
Before the first deal the engine and the strategies are compiled (or loaded) under a spinner, and the hint's
search is compiled in the background while the person thinks.
"""
from __future__ import annotations

import os
import re
import sys
import threading
import time

import numpy as np

from sim.core import dispatch
from sim.core import layout as L
from sim.core.cards import SUITS as SUIT_CHARS
from sim.core.cards import card_name, parse_card
from sim.core.lib import seed_stream
from sim.core.machine import Deal
from sim.experiments import hint as H
from sim.experiments.batch import parse_strategy
from sim.referee import game as G
from sim.referee.narrate import narrate
from sim.referee.trace import decode_actions, decode_shuffles

HINT_WARM_ENV = "DURAK_HINT_WARM"  # "0": no background compile of the hint's search (the test suite)

SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def show(c: int, ascii_only: bool) -> str:
    n = card_name(c)
    return n if ascii_only else n[:-1] + SYMBOLS[n[-1]]


def sort_hand(cards, trump: int):
    """By suit (trumps last), then rank."""
    return sorted(cards, key=lambda c: ((c & 3) == trump, c & 3, c >> 2))


def _cards(mask: int) -> list[int]:
    return [c for c in range(36) if (mask >> c) & 1]


CARD_NAME = re.compile(r"\b(10|[6-9JQKA])([CDHS])\b")


def symbols(text: str, ascii_only: bool) -> str:
    """Card names in a text (the referee's reasons, its events) written as the screen shows them."""
    return text if ascii_only else CARD_NAME.sub(lambda m: m.group(1) + SYMBOLS[m.group(2)], text)


def parse_cards(text: str) -> list[int]:
    out = []
    for tok in text.replace(",", " ").split():
        for sym, letter in SYMBOLS.items():
            tok = tok.replace(letter, sym)
        out.append(parse_card(tok.upper()))
    return out


class Opponent:
    """A library strategy called from Python with its default (or given) parameters."""

    def __init__(self, spec: str, seat: int, seed: int):
        s = parse_strategy(spec)
        self.spec = spec
        self.name = s.label
        self.mod = dispatch.load_module(dispatch.info(s.name).path)
        self.params = dispatch.params_vector(dispatch.info(s.name), [v for _, v in s.params])
        self.rng = np.zeros(1, dtype=np.uint64)
        seed_stream(self.rng, np.int64(seed), np.int64(seat), np.int64(11))

    def answer(self, deal: Deal, seat: int, kind: int) -> int:
        fn = dispatch.decision(self.mod, L.KIND_NAMES[kind])
        if fn is None:
            return 0  # a strategy without a swap function never swaps
        obs = deal.observe(seat)
        obs.flags.writeable = False
        return int(fn(obs, np.int64(deal.ws[L.S_LEGAL]), self.params, self.rng))


class Game:
    def __init__(self, rules, human: int, specs: list[str], seed: int, ascii_only: bool = False,
                 out=None, inp=None, hint_samples: int = 300):
        self.rules, self.human, self.seed, self.ascii = rules, human, seed, ascii_only
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.hint_samples = hint_samples
        n = rules.num_players
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"give --strategy once for every other seat or once per other seat ({n - 1})")
        others = [s for s in range(n) if s != human]
        self.opp = {s: Opponent(spec, s, seed) for s, spec in zip(others, specs)}
        self.names = ["you" if s == human else f"{self.opp[s].name}" for s in range(n)]
        self.deal = Deal(rules, seed)
        self.live = G.new_deal(self.rules, [card_name(c) for c in self.deal.deck], self.deal.dealer)
        self.told = self.shuffles_used = 0  # actions of the trace applied to `live`, otboyny talons used
        self.hint_warm: threading.Thread | None = None

    # ---- output ------------------------------------------------------------------------------
    def say(self, text: str = ""):
        print(text, file=self.out, flush=True)

    def c(self, x: int) -> str:
        return show(x, self.ascii)

    def who(self, s: int) -> str:
        return "you" if s == self.human else f"seat {s} ({self.names[s]})"

    def board(self):
        ws = self.deal.ws
        n = self.rules.num_players
        trump = int(ws[L.O_TRUMP_SUIT])
        tc = int(ws[L.O_TRUMP_CARD])
        tin = "under the talon" if ws[L.O_TRUMP_IN_TALON] else "drawn"
        self.say("")
        trump_txt = (f"trump {self.c(tc)} ({tin})" if tc >= 0 and trump == (tc & 3) else
                     f"trump suit {SUIT_CHARS[trump] if trump >= 0 else 'none'}"
                     + (f", turned {self.c(tc)} ({tin})" if tc >= 0 else ""))
        self.say(f"{trump_txt} | talon {int(ws[L.O_TALON])} | bout {int(ws[L.O_BOUT]) + 1}: "
                 f"{self.who(int(ws[L.O_ATTACKER]))} attack{'s' if ws[L.O_ATTACKER] != self.human else ''} "
                 f"{self.who(int(ws[L.O_DEFENDER]))}")
        sizes = [f"{self.who(s)}: {int(ws[L.O_HAND_SIZE + s])} cards" + (" (out)" if (ws[L.O_OUT] >> s) & 1 else "")
                 for s in range(n) if s != self.human]
        self.say("  " + "; ".join(sizes))
        rows = []
        for i in range(int(ws[L.O_NTABLE])):
            a, cv = int(ws[L.O_TABLE_ATT + i]), int(ws[L.O_TABLE_COV + i])
            rows.append(f"{self.c(a)}/{self.c(cv) if cv >= 0 else '-'}")
        self.say("  table: " + ("  ".join(rows) if rows else "(empty)"))
        hand = sort_hand(_cards(int(ws[L.S_HANDS + self.human])) + _cards(int(ws[L.S_HANDS2 + self.human])), trump)
        self.say("  your hand: " + " ".join(self.c(x) for x in hand))

    def option_text(self, kind: int, o: int) -> str:
        text, _ = H.describe(kind, o, self.deal.ws)
        return symbols(text, self.ascii)

    def verb(self, s: int, third: str, second: str) -> str:
        return f"{self.who(s)} {second if s == self.human else third}"

    # ---- the live log: the referee's events between the moves -----------------------------------
    def tell(self):
        """Apply the core's new actions to the live referee state and say what happened besides the moves."""
        acts = self.actions()
        st = self.live
        shuffles = decode_shuffles(self.deal.trace[: int(self.deal.tn[0])])[0][self.shuffles_used:]
        st.talon_shuffles = [list(t) for t in shuffles]
        for a in acts[self.told:]:
            for e in G.apply(st, a):
                line = self.event_text(e)
                if line:
                    self.say(symbols(line, self.ascii))
        self.shuffles_used += len(shuffles) - len(st.talon_shuffles)
        self.told = len(acts)

    def event_text(self, e: dict) -> str | None:
        k = e["event"]
        if k == "pick_up":
            return f"  took: {self.verb(e['player'], 'picks up', 'pick up')} {' '.join(e['cards'])}"
        if k == "discard":
            return f"  beaten off: {' '.join(e['cards'])} go to the discard"
        if k == "shuffled_into_talon":
            return f"  beaten off: {' '.join(e['cards'])} are shuffled into the talon (otboyny)"
        if k == "draw":
            cards = e["cards"]
            if e["player"] == self.human:
                return f"  you draw {' '.join(c or '?' for c in cards)}"
            return f"  {self.who(e['player'])} draws {len(cards)} card{'s' if len(cards) != 1 else ''}"
        if k == "out":
            return f"  {self.verb(e['player'], 'is', 'are')} out"
        if k == "roles":
            return (f"bout {int(self.deal.ws[L.O_BOUT]) + 1}: {self.who(e['attacker'])} "
                    f"{'attack' if e['attacker'] == self.human else 'attacks'} {self.who(e['defender'])}")
        return None  # the moves themselves are told as they are made; the result at the end

    def apply(self, o: int):
        self.deal.apply(o)
        self.tell()

    # ---- the referee, in step with the core ----------------------------------------------------
    def actions(self) -> list[dict]:
        d = self.deal
        rows = d.trace[: int(d.tn[0])]  # starts with the deal's T_DEAL row (kernels.start_deal)
        return decode_actions(rows)[0]

    def referee_state(self):
        st = G.new_deal(self.rules, [card_name(c) for c in self.deal.deck], self.deal.dealer)
        st.talon_shuffles = decode_shuffles(self.deal.trace[: int(self.deal.tn[0])])[0]  # VAR-OT1
        for a in self.actions():
            G.apply(st, a)
        return st

    def trace(self) -> dict:
        d = self.deal
        return {"family": self.rules.family, "num_players": self.rules.num_players, "toggles": dict(self.rules.toggles),
                "seed": self.seed, "game_index": 0, "deal": 0, "dealer": d.dealer,
                "deck": [card_name(c) for c in d.deck], "actions": self.actions(),
                **({"talon_shuffles": sh} if (sh := decode_shuffles(d.trace[: int(d.tn[0])])[0]) else {})}

    # ---- input ---------------------------------------------------------------------------------
    def parse(self, text: str, kind: int, opts: list[int]):
        """(option, referee action) for a typed move; option None when the core has no such option."""
        ws = self.deal.ws
        p = self.human
        t = text.strip().lower()
        if t.isdigit():
            i = int(t) - 1
            if 0 <= i < len(opts):
                return opts[i], None
            raise ValueError(f"choose a number from 1 to {len(opts)}")
        words = {"take": (L.NO_CARD, {"type": "take", "player": p}), "pass": (L.NO_CARD, {"type": "pass", "player": p}),
                 "swap": (1, {"type": "exchange_trump_six", "player": p}), "exchange": (1, {"type": "exchange_trump_six", "player": p}),
                 "keep": (0, None), "no": (L.NO_CARD, None)}
        if kind == L.K_SWAP and t in ("no", "keep", "none", "pass"):  # VAR-PO1: decline the swap
            return 0, {"type": "swap", "player": p, "cards": []}
        if t == "talon" and kind == L.K_ATTACK:  # armenian: lead the top card of the talon (RUL-45)
            return L.FROM_TALON, {"type": "attack", "player": p, "from_talon": True}
        if t in words:
            o, act = words[t]
            ok = {"take": (L.K_COVER,), "pass": (L.K_THROW_IN,), "swap": (L.K_EXCHANGE,), "exchange": (L.K_EXCHANGE,),
                  "keep": (L.K_EXCHANGE,), "no": (L.K_TRANSFER,)}[t]
            return (o if kind in ok else None), act
        show_it = t.startswith("show ")
        cards = parse_cards(t[5:] if show_it else t)
        if not cards:
            raise ValueError("type a number, cards (e.g. 8C 8H), take, pass, ? or q")
        if kind == L.K_ATTACK:
            mask = 0
            for x in cards:  # a card named twice (two packs): its twin bit (RUL-83)
                mask |= (1 << (L.TWIN_LEAD + (x & 3))) if (mask >> x) & 1 else 1 << x
            return mask, {"type": "attack", "player": p, "cards": [card_name(x) for x in cards]}
        if kind == L.K_SWAP:  # VAR-PO1: the cards to give to the talon
            return sum(1 << x for x in cards), {"type": "swap", "player": p, "cards": [card_name(x) for x in cards]}
        if len(cards) != 1:  # the core asks for one card at each throw-in, cover or transfer
            names = " ".join(self.c(x) for x in cards)
            what = {L.K_THROW_IN: "throw in", L.K_COVER: "cover with", L.K_TRANSFER: "transfer with"}.get(kind, "play")
            raise ValueError(f"one card at a time: {what} one of {names} now"
                             + (", the next when you are asked again" if kind == L.K_THROW_IN else ""))
        x = cards[0]
        if kind == L.K_COVER:
            tgt = int(ws[L.O_TABLE_ATT + ws[L.O_COVER_TARGET]])
            return x, {"type": "cover", "player": p, "attack": card_name(tgt), "cover": card_name(x)}
        if kind == L.K_THROW_IN:
            return x, {"type": "throw_in", "player": p, "cards": [card_name(x)]}
        if kind == L.K_TRANSFER:
            if show_it:
                return L.SHOW + x, {"type": "transfer_by_showing", "player": p, "card": card_name(x)}
            return x, {"type": "transfer", "player": p, "card": card_name(x)}
        return None, None

    def hint(self):
        if self.hint_warm is not None and self.hint_warm.is_alive():
            self.say("(the hint's search is still compiling: the first hint takes a little longer; cached afterwards)")
            self.hint_warm.join()
        rows = H.estimate(self.rules, self.deal.ws, samples=self.hint_samples, playout=1, seed=self.seed)
        kind = int(self.deal.ws[L.O_KIND])
        self.say(f"hint: your fool probability after each move, over {self.hint_samples} deals of the cards you "
                 "cannot see (sampled from what you have seen; expert plays every seat), 95% interval, and the draws")
        for r in rows:
            self.say(f"  {self.option_text(kind, r['option']):<28} fool {100 * r['fool']:5.1f}%  "
                     f"[{100 * r['fool_lo']:.1f}, {100 * r['fool_hi']:.1f}]  draw {100 * r['draw']:4.1f}%")

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        return None if line == "" else line.rstrip("\n")

    # ---- the deal ---------------------------------------------------------------------------------
    def play(self) -> bool:
        """Play to the end. False if the person quit."""
        d = self.deal
        self.say(f"{self.rules.describe()}; seed {self.seed}; you are seat {self.human}; "
                 + "; ".join(f"seat {s}: {self.names[s]}" for s in self.opp))
        while not d.over:
            seat, kind = d.to_act()
            opts = sorted(d.legal_options(), key=lambda o: (o == L.NO_CARD, o))
            if seat != self.human:
                a = self.opp[seat].answer(d, seat, kind)
                if a not in opts:
                    raise RuntimeError(f"{self.names[seat]} answered illegally: {a}")
                forced = " (the only move)" if len(opts) == 1 and kind != L.K_ATTACK else ""
                self.say(f"{self.who(seat)}: {self.option_text(kind, a)}{forced}")
                self.apply(a)
                continue
            if len(opts) == 1 and kind != L.K_ATTACK:
                self.say(f"you: {self.option_text(kind, opts[0])} (the only move)")
                self.apply(opts[0])
                continue
            self.board()
            for i, o in enumerate(opts, 1):
                self.say(f"  {i:2d}) {self.option_text(kind, o)}")
            while True:
                line = self.ask(f"your move ({L.KIND_NAMES[kind].replace('_', ' ')}: number, cards, ? hint, q quit)> ")
                if line is None or line.strip().lower() in ("q", "quit"):
                    return False
                if line.strip() == "?":
                    self.hint()
                    continue
                if not line.strip():
                    continue
                try:
                    o, act = self.parse(line, kind, opts)
                except ValueError as e:
                    self.say(f"  {e}")
                    continue
                if o is not None and o in opts:
                    self.say(f"you: {self.option_text(kind, o)}")
                    self.apply(o)
                    break
                if act is not None:
                    v = G.check(self.referee_state(), act)
                    if not v.legal:
                        self.say(f"  illegal ({v.rule}): {symbols(v.reason, self.ascii)}   "
                                 f"[durak rules --explain {v.rule}]")
                    else:
                        self.say("  the referee allows it, but here it is played as one of the numbered moves")
                else:
                    self.say("  that is not a move at this decision; choose a number")
        self.say("")
        self.say(self.result_text())
        return True

    def warm(self, notice=None):
        """Compile (or load) the kernels and the other seats' strategies before the first deal: a throwaway deal
        played by them in every seat, under `notice(text)` (a spinner); then the hint's search in the background
        (not with $DURAK_HINT_WARM=0)."""
        t0 = time.perf_counter()
        with (notice or _quiet)("compiling the game and the strategies (the first game only; cached afterwards)"):
            d = Deal(self.rules, self.seed)
            specs = {s: o.spec for s, o in self.opp.items()}  # fresh players: the real ones' generators stay put
            bots = {s: Opponent(specs.get(s, next(iter(specs.values()))), s, self.seed) for s in range(self.rules.num_players)}
            for _ in range(5000):
                if d.over:
                    break
                seat, kind = d.to_act()
                d.apply(bots[seat].answer(d, seat, kind))
            Deal(self.rules, self.seed).legal_options()
        took = time.perf_counter() - t0
        if took > 2:
            self.say(f"compiled in {took:.0f} s")
        if os.environ.get(HINT_WARM_ENV, "1") == "0":  # the test suite: no minutes of compile nobody waits for
            return
        ws = Deal(self.rules, self.seed).ws.copy()
        self.hint_warm = threading.Thread(target=_warm_hint, args=(self.rules, ws), daemon=True)
        self.hint_warm.start()

    def result_text(self) -> str:
        rec = self.deal.result()
        n = self.rules.num_players
        if rec[L.F_DRAW]:
            return "the deal is a draw"
        fools = [s for s in range(n) if rec[L.F_OUTCOME + s] == L.OUT_FOOL]
        if self.human in fools:
            return "you are the fool" + (f" (with {', '.join(self.who(s) for s in fools if s != self.human)})"
                                         if len(fools) > 1 else "")
        return "you escaped; the fool: " + ", ".join(self.who(s) for s in fools)

    def replay_lines(self) -> list[str]:
        return narrate(self.trace(), self.names)


def _warm_hint(rules, ws):
    """The hint's search on a tiny budget, so that its first real use does not compile."""
    try:
        H.estimate(rules, ws, samples=1, playout=1)
    except Exception:  # noqa: BLE001 - a warm-up only: the real hint reports its own problems
        pass


class _quiet:
    def __init__(self, text):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def spinner(out):
    """A notice for Game.warm: a spinner with the elapsed time on a terminal, one plain line otherwise."""
    import contextlib

    from rich.console import Console

    @contextlib.contextmanager
    def shown(text):
        console = Console(file=out)
        if not console.is_terminal:
            yield
            return
        with console.status(text + " ..."):
            yield
    return shown


def run(rules, human: int, specs: list[str], seed: int, games: int = 1, ascii_only: bool = False, out=None, inp=None,
        hint_samples: int = 300) -> int:
    """Play `games` deals (seeds seed, seed+1, ...). Returns the number of deals played to the end."""
    done = 0
    for g in range(games):
        game = Game(rules, human, specs, seed + g, ascii_only, out, inp, hint_samples)
        if g == 0:
            game.warm(spinner(game.out))
        if not game.play():
            game.say("bye")
            return done
        done += 1
        while True:
            line = game.ask("type replay to see the deal again, "
                            + ("enter for the next deal" if g + 1 < games else "enter to finish") + "> ")
            if line is None or line.strip().lower() in ("", "q", "quit", "n", "next"):
                break
            if line.strip().lower() == "replay":
                for x in game.replay_lines():
                    game.say(x)
                game.say(f"(the same deal: durak play --rules {rules.family} --players {rules.num_players} --seed {seed + g})")
    return done
