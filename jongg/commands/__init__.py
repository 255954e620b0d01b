"""The command line's commands: each reads its arguments, calls the Python
API (jongg.api) and the front ends, and prints; none holds a rule.

    game.py      play, simulate, replay, resume: a match from the command line
    card.py      card check, show, render, diff, match, tiles
    variant.py   variant check and show
    arena.py     jongg arena: agents against each other
    args.py      arguments several commands share (--agents)
    console.py   progress bars and the console they print to
    printing.py  text and JSON renderings of cards and match results
    resolved.py  `variant show --resolved`: a variant with where each value came from
"""
