"""Scoring a winning hand over its decomposition: the hand read as sets and a
pair (or seven pairs, or thirteen orphans), the variant's yaku evaluated on
each reading, fu, dora, limits and payments, the best reading kept. Every rule
is data compiled by jongg.compiler.yaku; nothing here knows a variant."""
