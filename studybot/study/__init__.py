"""Study: what one session sends, in what order, and what happens between requests.

Owns cutting the chosen questions into segments (``segments``, ``session.cut``),
the byte-stable system prefix (``prompt``), the one conversation that builds
every request (``conversation``), the session loop for read, quiz and review
(``session``), the way into a session (``opening``), which questions a run
chooses (``selection``), resume rules (``resuming``), carried summaries
(``carry``), turn rows from replies (``answers``), a plan's projected requests
(``projection``), the mock interview (``interview``, ``interview_plan``) and a past session rebuilt (``recorded``).

May import: channel, learn, bank, costs, storage and the shared modules; never cli or output.
"""
