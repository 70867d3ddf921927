"""Study: what one session sends, in what order, and what happens between requests.

Owns cutting the chosen questions into segments (``segments``, ``session.cut``),
the byte-stable system prefix (``prompt``), the one conversation that builds
every request (``conversation``), the one segment walk (``loop``) with its
steps: read, quiz and review (``session``, with the quiz steps in
``quizzing``) and the mock interview (``interview``), what the loop tells
the learner (``listening``), the way into a session (``opening``), which
questions a run chooses (``selection``), resume rules (``resuming``),
carried summaries (``carry``), saved rows from replies (``answers``), a
plan's projected requests (``projection``, ``interview_plan``), a past
session rebuilt (``recorded``) and one attempt graded outside a session
(``checking``).

May import: channel, learn, bank, costs, storage and the shared modules; never cli or output.
"""
