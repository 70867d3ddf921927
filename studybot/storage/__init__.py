"""Storage: the session database, its migrations, and the files under STUDYBOT_HOME.

Owns every table (prefixes, sessions, segments with their summaries, turns,
followups, grades, drafts, interview_answers, probes, cards, reviews and
_migrations; docs/architecture.md says where each is read): ``store`` with
its parts ``segments``, ``attempts``,
``interviews`` and ``reviews``, its rows in ``records``, rows a newer
version wrote read leniently (``lenient``); migrations (``migrations``),
opening a database safely (``dbfile``), per-session locks (``locks``), what a
path that is no regular file is, in words (``kinds``), and where the home is
(``home``).

May import: the shared modules (errors, types) only.
"""
