"""The card lab: what a card editor asks of a card beyond "does it compile".

    tally.py       free-play rounds of a card, counted line by line (merged chunk by chunk)
    committed.py   committed rounds: one seat plays for a line from the deal
    difficulty.py  committed difficulty, fair values, two agents' agreement
    figures.py     the free-play figures, with their intervals
    exact.py       what the variations settle exactly: dominated, impossible, overlaps
    report.py      `jongg card report`: the rounds, scaled out, and the report written
    compare.py     `--against`: two cards' reports side by side
    html.py        the report's page; plots.py its plots (matplotlib)
    render.py      a card as players know it (`card render`)
    diff.py        two cards line by line (`card diff`)
"""
