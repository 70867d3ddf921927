"""Output: a session as notes and data, and the pictures.

Owns Markdown notes and JSON (``export``), an interview's report (``interview``), Anki cards and packages
(``anki``), Markdown to HTML for cards (``markup``) and the PNG charts
(``plots``). Everything renders from one ``SessionView``; ``writing`` puts
it in a file safely.

May import: study, channel, learn, bank, costs, storage and the shared modules; never cli.
"""
