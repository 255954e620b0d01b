"""Many games at once: simulations, the arena, and the chunk runner that
spreads them over processes or a Ray cluster.

    simulate.py   `jongg simulate`: matches by the thousand, with their summary
    arena.py      agents against each other, seats rotated
    standings.py  ratings and intervals of an arena's results
    scale.py      a run as chunks of seeds, run in a pool or on Ray, merged in order
    intervals.py  Wilson intervals for a share
"""
