"""How often an expert of each style (runtime/agents/expert.py STYLES)
chooses otherwise than the usual expert, on the decisions the usual one
meets: what `search:styles=N` can add to its candidates.

Run: python bench/bench_styles.py [--variant mjcg-card] [--matches 3] [--rounds 2]

Experts play every seat; at seat 0 an expert of each style is asked too,
at every decision (so its chance and its memory of the hand go as the
usual one's do), and the decisions in play with more than one action
where its choice differs are counted. The usual style's own count is the
control: it differs only if the same expert can choose otherwise (it
cannot), so every other count is the style's.
"""

from __future__ import annotations

import argparse

from jongg.api import load_game
from jongg.runtime.agents.expert import STYLES, ExpertAgent
from jongg.runtime.agents.play import agents_for


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="mjcg-card")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each match looked at")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = load_game(args.variant)
    differ = dict.fromkeys(STYLES, 0)
    decisions = 0
    for seed in range(args.seed, args.seed + args.matches):
        state = game.new_match(seed)
        seats = agents_for(["expert"], seed, game.spec.players)
        styled = {name: ExpertAgent(seed, 0, style=style) for name, style in STYLES.items()}
        while not state.is_terminal() and len(state.results) < args.rounds:
            seat = state.current_players()[0]
            seen, legal = state.observe(seat), state.legal_actions(seat)
            chosen = seats[seat].act(seen, legal)
            if seat == 0:
                counted = seen.step in ("turn", "claims") and len(legal) > 1
                decisions += counted
                for name, expert in styled.items():
                    other = expert.act(seen, legal)  # always asked: its memory goes along
                    differ[name] += counted and other != chosen
            state.apply(seat, chosen)
    print(f"{game.spec.variant}: {decisions} decisions in play at seat 0; "
          "chosen otherwise than the usual expert: "
          + ", ".join(f"{name} {n}" for name, n in differ.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
