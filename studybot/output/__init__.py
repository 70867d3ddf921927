"""Output: a session as notes and data, and the pictures.

Owns Markdown notes and JSON (``export``), an interview's report
(``feedback``), Anki cards and packages (``anki``), Markdown made safe for
cards and terminals (``markup``), a share written as a percentage
(``figures``) and the PNG charts (``plots``: a plan's token growth, a
progress grid). Notes render from one `SessionView`; the charts from a plan
or the progress figures; ``writing`` puts a file in place safely.

May import: study, channel, learn, bank, costs, storage and the shared modules; never cli.
"""
