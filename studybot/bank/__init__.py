"""The question bank: its format, its catalogue, importing users' files, lookups and search.

Owns the canonical TOML format with its rubric (``format``), which bank a
name means and where it lives (``catalogue``, re-exported here), readers of
users' own Markdown, notebook, CSV and JSON lists (``importer``), and
questions by chapter, tag or id and search (``selection``).

May import: storage and the shared modules only.
"""

from studybot.bank.catalogue import *  # noqa: F403
from studybot.bank.catalogue import __all__  # noqa: F401
