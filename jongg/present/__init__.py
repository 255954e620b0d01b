"""The presentation model: what a seat sees and may do, and how the game is
told, computed once for every front end (the terminal renders it; a web
table renders the same).

Plain data and plain text only (no terminal code): sentences are `Text`,
tuples of `Span`s, some of which are tiles (drawn in their colours, or as
their Unicode glyphs, by the front end). Everything here reads what a seat
may know (its observation, the events it was told, its legal actions) and
the card; never the State's insides.

    seen = Seen.of(state, seat)          # the seat's view, at one moment
    frame(seen)                          # the table: header, seats, hand by suit
    Narrator(spec, seat).tell(events)    # what happened, in sentences
    prompt(seen)                         # what is asked, and each option
    hints(seen)                          # nearest lines, suggested tiles, waits
    round_result(seen, event)            # a round's end, jokers resolved
"""
