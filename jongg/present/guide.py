"""The commands a person types at `jongg play`, listed once: for `help` at
the table and for `jongg play --help` (kept free of imports but textwrap,
so the CLI starts quickly)."""

import re
import textwrap

DESCRIBED_AT = 20  # the column where a command's description starts

# {tile} and {three}: tile codes of the game at hand (at the table, tiles
# of the person's own hand), so the examples are ones they can type
COMMANDS = """in-game commands:
  TILE or N         discard a tile by its code ({tile}) or its position (the number under it)
  {three:<16}  in a Charleston: the tiles to pass, all at once or one by one
  undo              take back the last tile chosen for a pass (before the pass is made)
  p                 let a discard go (in a claim window)
  1, 2, ...         a numbered choice: a claim, a rack, a joker exchange
  c                 claim the discard: the one claim possible, or the choices
  0, 1, 2, 3        a count, typed as itself: a courtesy offer, tiles passed blind
  y, n              answer a vote (a second Charleston, a pledge)
  m                 declare Mah Jongg
  x                 exchange a joker: give the tile it stands for, take the joker
  hint [N]          the N nearest lines (default 3) with what they miss, the suggested
                    discard or pass and why, the tiles that would win
  card [LINE]       the card as printed; with a line's id (or show LINE), its variations
                    and your hand in it; card notation: the lines as written
  help              this list, and what is legal now
  quit              stop; the log keeps the game (jongg play --resume LOG goes on)
any action may also be typed whole: 'claim kong 8B 8B J', 'pass {tile}', 'vote yes', 'offer 2'"""

# Added when every player plays several racks from one pool of tiles.
RACK_COMMANDS = """with racks ({racks} each here; {wins} Mah Jongg{s} win the round):
  m                 declare the one Mah Jongg possible, or choose among those listed
  m RACK, m RACK LINE  declare that rack's Mah Jongg: its highest line, or LINE
  claims name their rack: 'claim set R2 R2 J on 2' exposes the set on rack 2
  hint              a plan sharing your pool between your racks, rack by rack, and the
                    suggested discard; at a pledge's question, whether to pledge
  your tiles are one pool every rack draws on; positions count in the pool"""

# Added when a rack may be pledged to a line right after the deal.
PLEDGE_COMMANDS = "  off               go off your pledge: the tiles set aside rejoin the pool"

EXAMPLES = {"tile": "5B", "three": "1D 3D GD, 1 4 9"}  # on the American deck


def fitted(rows: list[str], width: int) -> list[str]:
    """The rows wrapped to `width` columns, a command's description under
    itself (a hanging indent) rather than wrapped back to the margin."""
    merged: list[str] = []
    for row in rows:
        if merged and row.startswith(" " * DESCRIBED_AT) and row.strip():
            merged[-1] += " " + row.strip()
        else:
            merged.append(row)
    out: list[str] = []
    for row in merged:
        described = re.match(r"  \S.*?\s{2,}(?=\S)", row)
        indent = " " * (described.end() if described else 4)
        out += textwrap.wrap(row, max(width, len(indent) + 20), subsequent_indent=indent) or [""]
    return out
