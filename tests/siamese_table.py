"""Siamese, Royale and Imperial rigged rounds, for the tests of their clauses
(tests/test_siamese_rules.py, tests/test_siamese_rules_scoring.py)."""

from __future__ import annotations

import pytest

from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.state import Exposure, Mode, State
from jongg.runtime.tiles import parse_tiles

from .rig import act, game, rigged

clause = pytest.mark.clause

# Lines of the sample card, as tiles
HONOR_1 = "N N N N E E E E W W S S S S"  # honor-1, 25: NNNN EEEE WW SSSS
HONOR_1_JOKER = "N N N J E E E E W W S S S S"
EVEN_3 = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B 8B RD RD"  # even-3, 30: 2222a 44a 66a 8888a DDb
EVEN_3_LESS_8B = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B RD RD"  # even-3 waiting on an 8B
SP_3 = "1C 1C 3C 3C 5C 5C 7C 7C 9C 9C N N S S"  # sp-3, 50, concealed, singles and pairs
# Tiles that complete nothing and claim nothing: no pairs, no jokers
JUNK_13 = "1D 2D 3D 5D 6D 7D 9D GD WD F 3B 5B 7B"
JUNK_14 = JUNK_13 + " 9B"
OTHER_14 = "1C 2C 3C 4C 5C 6C 7C 8C 9C RD 4D 8D 1B W"  # no kind of JUNK_14 either


def first(tiles: str, n: int) -> str:
    return " ".join(tiles.split()[:n])


def table(variant: str, players: int, hands: dict[int, str], draws: str = "",
          mode: Mode = Mode.GUARDED, pledges: dict[int, str] | None = None,
          **kw: object) -> State:
    """A rigged deal, played past the Atomic Cat question: the seats in
    `pledges` set those 13 tiles aside on rack 1, the others decline; East
    then draws the last of its 28 tiles (SMJ-08)."""
    pledges = pledges or {}
    east = hands[0].split()
    state = rigged(game(variant, players), hands | {0: " ".join(east[:-1])},
                   f"{east[-1]} {draws}", mode=mode, **kw)  # type: ignore[arg-type]
    open_play(state, pledges)
    return state


def open_play(state: State, pledges: dict[int, str] | None = None) -> None:
    """Answer the Atomic Cat question for every seat (SMJ-27), and set aside."""
    pledges = pledges or {}
    for seat in range(state.spec.players):
        act(state, seat, "vote yes" if seat in pledges else "vote no")
    for seat, tiles in pledges.items():
        for tile in tiles.split():
            act(state, seat, f"pass {tile}")


def royale(hands: dict[int, str], draws: str = "", mode: Mode = Mode.GUARDED,
           players: int = 4) -> State:
    return table("royale-siamese", players, hands, draws, mode)


def siamese(hands: dict[int, str], draws: str = "", mode: Mode = Mode.GUARDED,
            **kw: object) -> State:
    return table("siamese", 2, hands, draws, mode, **kw)  # type: ignore[arg-type]


def declared(state: State, seat: int, rack: int, tiles: str) -> None:
    """Put a declared Mah Jongg on a seat's rack (1-based), as if made earlier:
    its tiles come out of the wall, so tiles stay conserved."""
    found = parse_tiles(state.spec.deck, tiles)
    for t in found:  # from the bottom of the wall: the rigged draws stay on top
        state._wall.remove(t)
        if state._wall_owner:
            state._wall_owner.pop()
    state._seats[seat].exposures.append(Exposure(tuple(sorted(found)), -1, rack - 1, mahjong=True))


def holding(state: State, seat: int, tiles: str) -> None:
    """Give a seat these concealed tiles instead of its own, which go back to the wall."""
    me = state._seats[seat]
    state._wall.extend(me.concealed())
    me.counts = [0] * len(me.counts)
    for t in parse_tiles(state.spec.deck, tiles):
        state._wall.remove(t)
        me.counts[t] += 1
    if state._wall_owner:
        state._wall_owner = [state.dealer] * len(state._wall)


def awards(state: State) -> list[int]:
    """Every award from the bank, in order."""
    return [e.amount for e in state.payments if e.payer == BANK]
