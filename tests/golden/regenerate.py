"""Write the golden logs: one seeded random match per shipped variant and
player count. Run after a deliberate change of behaviour, and review the diff:

    python tests/golden/regenerate.py
"""

from __future__ import annotations

from pathlib import Path

from jongg.compiler.game import load_game
from jongg.compiler.variant import player_counts, resolve
from jongg.compiler.yaku import shipped_played
from jongg.runtime.agents.play import play_match

SEED = 2026
FOLDER = Path(__file__).resolve().parent


def golden_path(name: str, players: int) -> Path:
    return FOLDER / f"{name}-{players}p.jsonl"


def setups() -> list[tuple[str, int]]:
    """Every shipped variant the engine plays (not the scoring-only ones)."""
    return [(name, players) for name in shipped_played()
            for players in player_counts(resolve(name))]


def agents(name: str, players: int) -> list[str]:
    """Random agents; with several racks a greedy first seat, since random
    players almost never complete a rack: its logs then hold Mah Jonggs."""
    return ["greedy", "random"] if load_game(name, players).spec.racks > 1 else ["random"]


def main() -> None:
    for name, players in setups():
        path = golden_path(name, players)
        game = load_game(name, players)
        record, _ = play_match(game, SEED, agents(name, players), log=path, overwrite=True,
                               check=True)
        assert not record.violations, record.violations
        won = sum(r["winner"] is not None for r in record.rounds)
        print(f"{path.name}: {record.decisions} decisions, {len(record.rounds)} rounds, "
              f"{won} won")


if __name__ == "__main__":
    main()
