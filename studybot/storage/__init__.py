"""Storage: the session database, its migrations, and the files under STUDYBOT_HOME.

Owns every table (sessions, segments, turns, follow-ups, grades, cards,
reviews; ``store`` with its parts ``segments``, ``attempts``, ``interviews`` and
``reviews``, its rows in ``records``), migrations (``migrations``),
opening a database safely (``dbfile``), per-session locks (``locks``) and
where the home is (``home``).

May import: the shared modules (errors, types) only.
"""
