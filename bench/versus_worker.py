"""One side of bench/bench_versus.py, run in its own process against the
jongg found first on its path (this checkout, or an older commit's).

    python bench/versus_worker.py play VARIANT PLAYERS AGENTS FIRST COUNT MODE
    python bench/versus_worker.py logs FOLDER
    python bench/versus_worker.py serve VARIANT TABLES DECISIONS

`play` warms the matcher on three matches, then plays COUNT seeded matches from
seed FIRST and prints, as one JSON line: rounds, decisions, the CPU seconds
of the matches alone, each match's digest (its seats and actions in order,
its scores and the final state's own digest) and the peak RSS. `logs` writes
one seeded match's log per shipped variant, player count and mode into
FOLDER. `serve` does a web server's work without its sockets: TABLES
seeded tables at once, seats 1 and 2 people (random legal choices), the
others random bots, one decision at each table in turn; after each, every
person at that table is sent its update (jongg.web.protocol.update), and it
prints the CPU seconds of it all and a digest of every update. Only what
every version since the benchmark's reference has is used: load_game,
play_match, State.history, State.digest (and for `serve`, the Referee and
protocol.update, which bench/bench_serve.py's reference has).
"""

from __future__ import annotations

import hashlib
import json
import resource
import sys
import time
from pathlib import Path

import jongg
from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.state import Mode, State

LOG_SEED = 2026


def accelerated() -> bool:
    """Whether this jongg's matcher runs its C accelerator."""
    from jongg.runtime.matching import accelerated as accel
    return accel.compiled_fold is not None


def match_digest(state: State) -> str:
    deck = state.spec.deck
    text = "\n".join(f"{seat} {action.text(deck)}" for seat, action in state.history)
    text += f"\n{state.scores} {state.digest()}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(variant: str, players: int, agents: str, first: int, count: int, mode: str) -> None:
    game = load_game(variant, players)
    names = agents.split(",")
    for warm in range(3):  # the matcher's memos and its tables built as they are asked
        play_match(game, 10_000 + warm, names, mode=Mode(mode))
    rounds = decisions = 0
    seconds = 0.0
    digests = []
    for seed in range(first, first + count):
        begin = time.process_time()
        record, state = play_match(game, seed, names, mode=Mode(mode))
        seconds += time.process_time() - begin
        rounds += len(record.rounds)
        decisions += record.decisions
        digests.append(match_digest(state))
    print(json.dumps({"jongg": jongg.__file__, "accelerated": accelerated(),
                      "rounds": rounds, "decisions": decisions,
                      "seconds": seconds, "digests": digests,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def logs(folder: str) -> None:
    from jongg.compiler.registry import shipped
    from jongg.compiler.variant import player_counts, resolve
    from jongg.runtime.errors import JonggError

    out = Path(folder)
    for name in shipped("variant"):
        if resolve(name).data.get("status") == "scoring-only":
            continue  # scored, not played (its own tests check its scoring)
        for players in player_counts(resolve(name)):
            try:
                game = load_game(name, players)
            except JonggError:  # a variant that version does not play (status: scoring-only)
                continue
            agents = ["greedy", "random"] if game.spec.racks > 1 else ["random"]
            for mode in (Mode.GUARDED, Mode.STRICT):
                play_match(game, LOG_SEED, agents, mode=mode,
                           log=out / f"{name}-{players}p-{mode.value}.jsonl")
    print(json.dumps({"jongg": jongg.__file__, "accelerated": accelerated()}))


def serve(variant: str, tables: int, decisions: int) -> None:
    import random

    from jongg.runtime.agents.play import make_agents
    from jongg.runtime.agents.referee import Referee
    from jongg.web import protocol

    game = load_game(variant, 4)
    people = (0, 1)
    rng = random.Random(1)
    open_tables = []
    for t in range(tables):
        state = game.new_match(1000 + t)
        bots = make_agents(["random"], t, 4)
        open_tables.append((state, Referee(state, {s: bots[s] for s in range(2, 4)}),
                            [0] * len(people)))
    digest = hashlib.sha256()
    begin = time.process_time()
    made = updates = 0
    for step in range(decisions):
        state, referee, told = open_tables[step % tables]
        if not referee.going():
            continue
        seat = referee.bot()
        if seat is None:
            person = referee.waiting()[0]
            referee.submit(person, rng.choice(state.legal_actions(person)))
        else:
            referee.play(seat)
        made += 1
        for i, person in enumerate(people):
            update = protocol.update(state, person, told[i])
            told[i] = update["next"]
            updates += 1
            digest.update(json.dumps(update, sort_keys=True).encode())
    print(json.dumps({"jongg": jongg.__file__, "accelerated": accelerated(),
                      "decisions": made, "updates": updates,
                      "seconds": time.process_time() - begin,
                      "digests": [digest.hexdigest()[:16]],
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "play":
        play(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6]),
             sys.argv[7])
    else:
        logs(sys.argv[2])
