"""`sim replay`: one Cuzco game replayed from its seed with the event log on, told as text.

The engine logs events in the order the rules run them (rules.py, EV_*). A few of them come before
the event they belong to - a god card played before its die is placed, the feather a delivery
gives, the card a fire blessing takes, the VP of a mission - so the text shows such an effect
after (or folded into) its cause: only when the next main event in the log is the one that claims
it, so that nothing is ever moved to the wrong turn.

Two things the log does not hold are recovered: the starting hands and missions, by running setup
alone from the same seed, and where the end-of-game mission count starts (no event marks it): in
the last round's phase III every seat settles at most one mission, in player order, so the first
mission settled by a seat already passed in that order belongs to the end of the game.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng as rng_mod
from . import data
from . import rules as R
from .game import run_one, search_flag
from .state import (
    ABILITY_NAMES, ACTION_NAMES, C_BLESSING_PLENTY, C_DOUBLE_PEOPLE, C_EXTRA_FARM, C_EXTRA_STUDY,
    C_EXTRA_TURN, C_IGNORE_LOWER, C_JUMP, C_MISSION_DISCOUNT, C_MOVE_DIE, C_PRIEST_RETURN,
    C_SEARCH_DISCARD, C_SLIDE_UP, C_VIRTUAL_SIX, CARD_NAMES, COLOUR_NAMES, CUZCO, EX_FEATHER,
    EX_GOD_CARD, EX_VP, EXCHANGE_NAMES, S_LOG_N, GOD_NAMES, GOOD_NAMES, MF_ARG1, MF_ARG2, MF_KIND1,
    MF_KIND2, MF_N1, MF_N2, MISSION_KIND_NAMES, MK_FEATHERS_OF_COLOUR, MK_GODS_OF,
    MK_GOODS_OF_TYPE, MK_NONE, MK_PEOPLE_WITH_ABILITY, MK_VILLAGES_IN_RING, MK_VILLAGES_OF_COLOUR,
    MK_VILLAGES_WORTH, N_CARDS, P_HAND, P_MASK, P_MISSION, STAT_START_ORDER, STUDY, VP_ACHIEVEMENTS,
    VP_EXCHANGE, VP_GOODS, VP_HEADDRESS, VP_MEDALS, VP_MISSIONS, VP_PRIESTS, VP_SOURCE_NAMES,
    VP_START, VP_STATUS, VP_VILLAGES, new_side, new_state, param_tables, players, rng_words, stats,
)

WAY_NAMES = ("stone trail", "rope bridge", "any way")
TILE_KINDS = ("study", "farm")
# events that may be logged just before the event they belong to
EFFECTS = {R.EV_CARD, R.EV_MOVE_DIE, R.EV_VP, R.EV_CARD_GAIN, R.EV_FEATHER, R.EV_EXTRA_TURN}
# VP that are a line of their own (not the effect of a turn or a use)
MAIN_VP_SOURCES = {VP_START, VP_PRIESTS, VP_MEDALS, VP_VILLAGES, VP_ACHIEVEMENTS}
END_VP_SOURCES = {VP_MEDALS, VP_VILLAGES, VP_ACHIEVEMENTS}
TURN_CARDS = {C_MOVE_DIE, C_IGNORE_LOWER, C_EXTRA_TURN, C_VIRTUAL_SIX, C_JUMP, C_SLIDE_UP,
              C_SEARCH_DISCARD}
USE_CARDS = {C_DOUBLE_PEOPLE, C_EXTRA_STUDY, C_EXTRA_FARM}


def _claims(cause, effect) -> bool:
    """Whether `effect`, logged (just) before `cause`, belongs to it."""
    ev, seat = int(cause[0]), int(cause[1])
    kind = int(effect[0])
    if int(effect[1]) != seat:
        return False
    if ev == R.EV_PLACE:
        return kind in (R.EV_MOVE_DIE, R.EV_EXTRA_TURN) or (kind == R.EV_CARD and effect[2] in TURN_CARDS)
    if ev == R.EV_USE:
        return kind == R.EV_CARD and effect[2] in USE_CARDS
    if ev == R.EV_MISSION:
        return (kind == R.EV_CARD and effect[2] == C_MISSION_DISCOUNT) or \
            (kind == R.EV_VP and effect[3] == VP_MISSIONS)
    if ev == R.EV_DELIVER:
        return kind == R.EV_FEATHER and effect[2] == cause[3]
    if ev == R.EV_BLESSING:
        return (kind == R.EV_CARD_GAIN and effect[2] == cause[2]) or \
            (kind == R.EV_CARD and effect[2] == C_BLESSING_PLENTY)
    if ev == R.EV_EXCHANGE:
        ex = int(cause[2])
        return (ex == EX_VP and kind == R.EV_VP and effect[3] == VP_EXCHANGE) or \
            (ex == EX_GOD_CARD and kind == R.EV_CARD_GAIN) or (ex == EX_FEATHER and kind == R.EV_FEATHER)
    if ev == R.EV_PRIEST:
        return kind == R.EV_CARD and effect[2] == C_PRIEST_RETURN
    return False


def _folded(cause, effect) -> bool:
    """Whether a claimed effect is told inside its cause's line rather than beneath it."""
    ev, kind = int(cause[0]), int(effect[0])
    return kind == R.EV_EXTRA_TURN or ev in (R.EV_MISSION, R.EV_DELIVER, R.EV_EXCHANGE, R.EV_BLESSING,
                                            R.EV_PRIEST, R.EV_BUY, R.EV_HEADDRESS)


def _setup_state(P, n_players, run_seed, game_index, W):
    """The state right after setup (play_one's first steps; W: the seats' weights, for their
    setup choices), for what setup does not log."""
    st = new_state(n_players, True)
    rec, log = new_side(n_players, True)
    rng_mod.seed_game_stream(rng_words(st), np.uint64(run_seed), np.uint64(game_index))
    R.setup(P, st, rec, log, n_players, W)
    return st, rec, log


def replay_lines(params, n_players, seat_names, seat_kinds, seat_weights, run_seed, game_index) -> list[str]:
    P = params.engine
    _, _, _, _, spaces, _, _, _, joint, missions = param_tables(P)
    villages = list(params.resolved["villages"]["names"])
    labels = data.mission_labels(params.resolved)
    with np.errstate(over="ignore"):
        st, rec, game_log = run_one(P, n_players, np.asarray(seat_kinds, np.int8),
                           np.ascontiguousarray(seat_weights, np.float64), np.uint64(run_seed),
                           np.uint64(game_index), False, True, search_flag(seat_kinds))
        st0, _, log0 = _setup_state(P, n_players, run_seed, game_index,
                                     np.ascontiguousarray(seat_weights, np.float64))
    capacity = game_log.shape[0]
    n_log = int(st[S_LOG_N])
    log = game_log[:n_log].astype(np.int64)
    seat_stats = stats(rec)

    def who(s):
        return f"seat {s} ({seat_names[s]})"

    def place(v):
        return "Cuzco" if v == CUZCO else villages[v] if 0 <= v < len(villages) else f"place {v}"

    def card(c):
        return f"{CARD_NAMES[c]} ({GOD_NAMES[c // 3]})" if 0 <= c < N_CARDS else f"card {c}"

    def space(s):
        acts = [ACTION_NAMES[a] for a in range(len(ACTION_NAMES)) if (spaces[n_players, s] >> a) & 1]
        return "/".join(acts) if acts else f"space {s} (not on this board!)"

    def requirement(kind, n, arg):
        name = MISSION_KIND_NAMES[kind] if 0 <= kind < len(MISSION_KIND_NAMES) else f"kind {kind}"
        if kind in (MK_FEATHERS_OF_COLOUR, MK_VILLAGES_OF_COLOUR):
            name += f":{COLOUR_NAMES[arg]}"
        elif kind == MK_VILLAGES_WORTH:
            name += f":{arg}VP"
        elif kind == MK_VILLAGES_IN_RING:
            name += f":{data.RINGS[arg]}"
        elif kind == MK_GOODS_OF_TYPE:
            name += f":{GOOD_NAMES[arg]}"
        elif kind == MK_GODS_OF:
            name += f":{GOD_NAMES[arg]}"
        elif kind == MK_PEOPLE_WITH_ABILITY:
            name += f":{ABILITY_NAMES[arg]}"
        return f"{n} {name}"

    def mission(m):
        if not 0 <= m < len(labels):
            return f"mission {m}"
        parts = [requirement(missions[m, k], missions[m, nn], missions[m, a])
                 for k, nn, a in ((MF_KIND1, MF_N1, MF_ARG1), (MF_KIND2, MF_N2, MF_ARG2))
                 if missions[m, k] != MK_NONE]
        return f"{labels[m]} [{' + '.join(parts)}]"

    def vp(n):
        return f"{n:+d} VP"

    def played(folded):
        """' with CARD [via Inti medal]' for the god cards told inside a line."""
        return "".join(f" with {CARD_NAMES[int(log[j, 2])]}" + (" via Inti medal" if log[j, 3] else "")
                       for j in folded if log[j, 0] == R.EV_CARD)

    lines = [f"cuzco, {n_players} players, run seed {run_seed}, game {game_index}, variant {params.variant_name}",
             "seats: " + ", ".join(who(s) for s in range(n_players))]

    # ---- setup: what the log does not hold, from a replay of setup alone
    setup_n = next((i for i in range(n_log) if log[i, 0] == R.EV_ROUND), n_log)
    order = sorted(range(n_players), key=lambda s: seat_stats[s, STAT_START_ORDER])
    lines.append("-- setup: player order " + ", ".join(f"seat {s}" for s in order))
    same_setup = int(st0[S_LOG_N]) == setup_n and np.array_equal(log0[:setup_n], log[:setup_n])
    if same_setup:
        pl0 = players(st0)
        for s in range(n_players):
            hand = [CARD_NAMES[c] for c in range(N_CARDS) for _ in range(pl0[s, P_HAND + c])]
            held = [mission(m) for m in pl0[s, P_MISSION:P_MISSION + 3] if m >= 0]
            lines.append(f"   {who(s)}: mask {pl0[s, P_MASK]}, god cards {', '.join(hand) or '-'}; "
                         f"missions {', '.join(held) or '-'}")

    # ---- which effects go after (or into) a later cause
    attached: dict[int, list[int]] = {}
    moved = set()
    for i in range(n_log):
        if log[i, 0] not in EFFECTS:
            continue
        k = i + 1
        while k < n_log and log[k, 0] in EFFECTS:
            k += 1
        if k < n_log and _claims(log[k], log[i]):
            attached.setdefault(k, []).append(i)
            moved.add(i)
    for i in range(n_log - 1):  # the VP of a good or a headdress, told in its line
        if log[i, 0] in (R.EV_BUY, R.EV_HEADDRESS) and log[i + 1, 0] == R.EV_VP and log[i + 1, 1] == log[i, 1] \
                and log[i + 1, 3] == (VP_GOODS if log[i, 0] == R.EV_BUY else VP_HEADDRESS) \
                and log[i + 1, 2] == log[i, 4 if log[i, 0] == R.EV_BUY else 3] and i + 1 not in moved:
            attached.setdefault(i, []).append(i + 1)
            moved.add(i + 1)

    # ---- the end of the game starts where a seat already passed in phase III settles a mission
    last_round = max((i for i in range(n_log) if log[i, 0] == R.EV_ROUND), default=-1)
    end_at = n_log
    if last_round >= 0:
        pos_of: dict[int, int] = {}
        seen = -1
        for i in range(last_round, n_log):
            ev = log[i, 0]
            if ev == R.EV_STATUS_VP:
                pos_of[int(log[i, 1])] = int(log[i, 3])
            elif ev in (R.EV_MISSION, R.EV_NEW_MISSION) and pos_of:
                pos = pos_of.get(int(log[i, 1]), -1)
                if ev == R.EV_MISSION and pos <= seen:
                    end_at = i
                    break
                seen = max(seen, pos)
            elif ev == R.EV_FINAL or (ev == R.EV_VP and log[i, 3] in END_VP_SOURCES):
                end_at = i
                break

    parent = -1  # seat of the last main line
    in_setup = True

    def sub(seat, text):
        return f"      {text}" if seat == parent else f"      {who(seat)}: {text}"

    def describe(i, folded):
        """(is a main line, text) for log row i; `folded` are the rows told inside it."""
        ev, a, b, c, d, e, f = (int(x) for x in log[i])
        if ev == R.EV_ROLL:
            return True, f"{who(a)} rolls {b} {c} {d}"
        if ev == R.EV_PUTUTU_GAIN:
            return True, f"{who(a)} takes a +/-{b} pututu tile ({'triples' if b == 2 else 'doubles'})"
        if ev == R.EV_PLACE:
            extra = any(log[j, 0] == R.EV_EXTRA_TURN for j in folded)
            text = f"{who(a)}: " + ("extra turn, " if extra else "") + f"{d} pip{'s' if d != 1 else ''} on {space(b)}"
            if (spaces[n_players, b] >> c) & 1 == 0 or (spaces[n_players, b] & (spaces[n_players, b] - 1)):
                text += f" -> {ACTION_NAMES[c] if 0 <= c < len(ACTION_NAMES) else c}"
                if (spaces[n_players, b] >> c) & 1 == 0:
                    text += " (not on that space!)"
            if e:
                text += f" ({e} pututu tile{'s' if e > 1 else ''})"
            if f != d:
                text += f", worth {f} pips"
            return True, text
        if ev == R.EV_MOVE:
            return False, f"moves {place(b)} -> {place(c)} by {WAY_NAMES[d] if 0 <= d < 3 else d}"
        if ev == R.EV_DELIVER:
            text = f"delivers a quipu to {place(b)}"
            feathers = [int(log[j, 3]) for j in folded if log[j, 0] == R.EV_FEATHER]
            if c >= 0:
                text += f", +{COLOUR_NAMES[c]} feather" + (f" (slot {feathers[0] + 1})" if feathers else "")
            else:
                text += ", no feather"
            return False, text
        if ev == R.EV_BLESSING:
            parts = ([f"card {card(b)}"] if b >= 0 else []) + ([f"+{c} offering"] if c else []) + \
                ([f"+{d} status"] if d else []) + ([f"+{e} food"] if e else [])
            return False, f"fire blessing{played(folded)}: " + (", ".join(parts) or "nothing left to take")
        if ev == R.EV_TILE:
            worth = "status" if b == STUDY else "food"
            return False, f"takes {TILE_KINDS[b]} tile {ABILITY_NAMES[d]} ({worth} {e}, tile {c})"
        if ev == R.EV_EXCHANGE:
            what = ""
            gains = [CARD_NAMES[int(log[j, 2])] for j in folded if log[j, 0] == R.EV_CARD_GAIN]
            cols = [COLOUR_NAMES[int(log[j, 2])] for j in folded if log[j, 0] == R.EV_FEATHER]
            got = sum(int(log[j, 2]) for j in folded if log[j, 0] == R.EV_VP)
            if gains or cols:
                what = f" ({', '.join(gains + cols)})"
            elif got:
                what = f" ({vp(got)})"
            return False, f"exchange: {c} x {EXCHANGE_NAMES[b]}{what}"
        if ev == R.EV_PRIEST:
            text = f"priest onto temple step {b}{played(folded)}"
            if c >= 0:
                text += f", {who(c)}'s priest goes home"
            return False, text
        if ev == R.EV_HEADDRESS:
            return False, f"headdress: circlet {b + 1}" + (f", {vp(c)}" if folded else "")
        if ev == R.EV_VP:
            src = VP_SOURCE_NAMES[c] if 0 <= c < len(VP_SOURCE_NAMES) else f"source {c}"
            if c in MAIN_VP_SOURCES and not in_setup:
                return True, f"{who(a)} {vp(b)} ({src})"
            return False, f"{vp(b)} ({src})"
        if ev == R.EV_CARD:
            return False, f"plays {card(b)}" + (" via Inti medal" if c else "")
        if ev == R.EV_CARD_GAIN:
            return False, f"gains god card {card(b)}"
        if ev == R.EV_USE:
            amount = joint[c, d - 1] if 0 <= c < joint.shape[0] and 1 <= d <= joint.shape[1] else "?"
            return True, f"{who(a)}: {TILE_KINDS[b]} ability {ABILITY_NAMES[c]} x{d} (value {amount})"
        if ev == R.EV_STATUS_VP:
            return True, f"status: {who(a)} {vp(b)}, order position {c + 1}"
        if ev == R.EV_MEDAL:
            return True, (f"Inti medal to {who(a)}" if a >= 0 else "an Inti medal leaves the temple (no priests)")
        if ev == R.EV_BUY:
            return True, f"{who(a)} buys {GOOD_NAMES[b]} for {c} food" + (f", {vp(d)}" if folded else "")
        if ev == R.EV_MISSION:
            got = sum(int(log[j, 2]) for j in folded if log[j, 0] == R.EV_VP)
            return True, (f"{who(a)} {'completes' if c else 'fails'} {mission(b)}{played(folded)}"
                          + (f", {vp(got)}" if got else ""))
        if ev == R.EV_NEW_MISSION:
            return True, f"{who(a)} takes {mission(b)} from the palace"
        if ev == R.EV_FINAL:
            return True, f"final: {who(a)} scores {b}, rank {c}" + (" (winner)" if d else "")
        if ev == R.EV_MOVE_DIE:
            return False, f"moves a {d} from {space(b)} to {space(c)}"
        if ev == R.EV_FEATHER:
            return False, f"+{COLOUR_NAMES[b]} feather (slot {c + 1})"
        if ev == R.EV_EXTRA_TURN:
            return False, "extra turn"
        return True, f"event {ev}: {a} {b} {c} {d} {e} {f}"

    for i in range(n_log):
        ev = int(log[i, 0])
        if i == end_at:
            lines.append("-- end of the game")
            parent = -1
        if i in moved or (ev == R.EV_VP and log[i, 3] == VP_STATUS):  # status VP: told by event 16
            continue
        if ev == R.EV_ROUND:
            in_setup = False
            parent = -1
            lines.append(f"-- round {int(log[i, 1])}")
            continue
        claimed = attached.get(i, [])
        folded = [j for j in claimed if _folded(log[i], log[j])]
        main, text = describe(i, folded)
        seat = int(log[i, 1])
        if in_setup:
            lines.append(f"   {who(seat)}: {text}")
        elif main:
            parent = seat if ev != R.EV_MEDAL else -1
            lines.append(f"   {text}")
        else:
            lines.append(sub(seat, text))
        for j in claimed:
            if j not in folded:
                lines.append(sub(int(log[j, 1]), describe(j, [])[1]))

    finals = [r for r in log if r[0] == R.EV_FINAL]
    for r in finals:
        if r[4]:
            lines.append(f"winner: {who(int(r[1]))} with {int(r[2])} VP")
    if not finals:
        lines.append("the game did not finish (no final scores in the log)")
    if n_log >= capacity:
        lines.append(f"(the event log is full at {capacity} events: the rest of the game is missing)")
    return lines
