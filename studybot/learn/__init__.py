"""Learning: grading an attempt, scheduling the card, and what the learner knows.

Owns the graders (``grading``: the grade, the offline grader once per bank;
``marks``: a point's four states, their credit and the rating a grade
suggests; ``live_grade``: the live side request's strict schema and reading;
``rubric``, with ``claims``, ``aliases``, ``statements``, ``links``, ``reading``,
``words``, ``spelling``, ``negations``, ``alternatives`` (a kind a
不是 turns down), ``conditions`` (what a clause
says under a supposition), ``antonyms``, ``clauses``,
``segmenter``, ``variants``, ``numbers``, ``measures`` (the figures a
claim's own sentence states), ``counted`` (a count in a relation's own words), ``sides``, ``pairs``, ``swaps``, ``presumed`` (negations
that presume a claim), ``contrasts`` (turns a claim's own words hold), and ``lapses`` with
``credits``, ``substitutes`` (a source or example of the bank's put in the point's), ``ratios``,
``defaults``, ``against`` and ``comparisons``: the offline
grader on the rubric's claims; ``rubric_cache``: compiled rubrics kept on disk for the
next process; ``selftest``: the rubric graded against itself;
``term_estimate`` with ``terms``: the term estimate of banks without one;
``rubric_lint``: rubric warnings), FSRS cards, ratings and what is due
(``review``), per-chapter progress (``progress``) and an interviewer's
probes (``probes``). The tables live in the store; this package decides
what goes in them.

May import: bank, costs, storage and the shared modules; never channel, study,
output or cli (what grading needs of a provider is ``live_grade.Judge``).
"""
