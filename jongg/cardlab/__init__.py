"""The card lab: what a card editor asks of a card beyond "does it compile".

    tally.py     rounds played on a card, counted line by line (merged chunk by chunk)
    figures.py   the figures a report shows, with their intervals
    exact.py     the dealt-complete rates, counted exactly
    report.py    `jongg card report`: the rounds, scaled out, and the report written
    html.py      the report's page; plots.py its plots (matplotlib)
    render.py    a card as players know it (`card render`)
    diff.py      two cards line by line (`card diff`)
"""
