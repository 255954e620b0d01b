"""`jongg card report DRAFT --against LAST`: two cards played on the same
seeds, side by side. Lines are matched by id, else by hand (the same
notation under another id); per line, how committed difficulty and the fair
value moved under each agent; per section, how each agent's free-play
share of wins moved."""

from __future__ import annotations

from html import escape
from typing import Any

from jongg.cardlab.html import _table, num, pct


def _match(old: list[dict[str, Any]], new: list[dict[str, Any]], hands: dict[str, dict[str, str]]
           ) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """(old, new) pairs: by id, then by hand; the rest alone."""
    by_id = {c["line"]: c for c in old}
    old_hand = {hands["old"].get(c["line"]): c for c in old}
    pairs: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
    used = set()
    for c in new:
        twin = by_id.get(c["line"]) or old_hand.get(hands["new"].get(c["line"]))
        if twin is not None and twin["line"] in used:
            twin = None
        if twin is not None:
            used.add(twin["line"])
        pairs.append((twin, c))
    pairs += [(c, None) for c in old if c["line"] not in used]
    return pairs


def _lines(a: dict[str, Any], b: dict[str, Any], hands: dict[str, dict[str, str]]
           ) -> list[dict[str, Any]]:
    """One agent's committed lines of the two cards, matched."""
    lines = []
    for x, y in _match(a["lines"], b["lines"], hands):
        lines.append({"old": None if x is None else x["line"],
                      "new": None if y is None else y["line"],
                      **{f"{k}_{side}": None if c is None else c[k]
                         for side, c in (("old", x), ("new", y))
                         for k in ("value", "rate", "rate_ci95", "fair_value", "flag")}})
    return lines


def _sections(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """One agent's free-play shares of wins by section, of the two cards."""
    old = {s["section"]: s for s in a["sections"]}
    return [{"section": s["section"],
             "share_of_wins_old": old.get(s["section"], {}).get("share_of_wins"),
             "share_of_wins_new": s["share_of_wins"]} for s in b["sections"]]


def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What moved from the `old` report's card to the `new` one's, under
    each agent (both reports are of the same agents)."""
    tables = []
    for a, b in zip(old["tables"], new["tables"], strict=True):
        hands = {"old": {ln["line"]: ln.get("hand", "") for ln in a["lines"]},
                 "new": {ln["line"]: ln.get("hand", "") for ln in b["lines"]}}
        committed = [{"agent": y["agent"], "lines": _lines(x, y, hands)}
                     for x, y in zip(a["committed"], b["committed"], strict=True)]
        free = [{"agent": y["agent"], "sections": _sections(x, y)}
                for x, y in zip(a["free"], b["free"], strict=True)]
        tables.append({"players": b["players"], "committed": committed, "free": free,
                       # the first agent's, as before
                       "lines": committed[0]["lines"] if committed else [],
                       "sections": free[0]["sections"]})
    return {"card": old["card"], "title": old.get("title"), "tables": tables}


def compare_html(data: dict[str, Any]) -> str:
    out = [f"<h2>Against {escape(data['title'] or data['card'])}</h2>"]
    for t in data["tables"]:
        for agent in t["committed"]:
            rows = []
            for ln in agent["lines"]:
                moved = "" if ln["rate_old"] is None or ln["rate_new"] is None else \
                    f"{100 * (ln['rate_new'] - ln['rate_old']):+.0f} points"
                rows.append([escape(ln["new"] or ""), escape(ln["old"] or ""),
                             "" if ln["value_old"] is None else str(ln["value_old"]),
                             "" if ln["value_new"] is None else str(ln["value_new"]),
                             pct(ln["rate_old"], ln["rate_ci95_old"]),
                             pct(ln["rate_new"], ln["rate_ci95_new"]), moved,
                             num(ln["fair_value_old"], 0), num(ln["fair_value_new"], 0),
                             escape(ln["flag_old"] or ""), escape(ln["flag_new"] or "")])
            out.append(f"<h3>{t['players']} players: lines, committed under "
                       f"{escape(agent['agent'])}</h3>" + _table(
                           "against", ["line", "was", "value, was", "value",
                                       "committed rate, was", "committed rate", "moved",
                                       "fair, was", "fair", "flag, was", "flag"], rows, text=2))
        for agent in t["free"]:
            out.append(f"<h3>{t['players']} players: sections, free play under "
                       f"{escape(agent['agent'])}</h3>" + _table(
                           "against-sections", ["section", "share of free-play wins, was",
                                                "share of free-play wins"],
                           [[escape(s["section"]), pct(s["share_of_wins_old"]),
                             pct(s["share_of_wins_new"])] for s in agent["sections"]]))
    out.append('<p class="note">Both cards were played on the same seeds, under the same '
               "agents; lines are matched by id, else by hand. A move inside both intervals "
               "is not a move.</p>")
    return "".join(out)
