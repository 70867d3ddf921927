"""Learning: grading an attempt, scheduling the card, and what the learner knows.

Owns the graders (``grading``: the offline estimate and the live side
request's reading; ``terms``), FSRS cards, ratings and what is due
(``review``) and per-chapter progress (``progress``). The tables live in the
store; this package decides what goes in them.

May import: channel (the provider contract), bank, costs, storage and the
shared modules; never study, output or cli.
"""
