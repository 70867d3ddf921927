"""The question bank: its format, its catalogue, importing users' files, lookups and search.

Owns the canonical TOML format with its types and bank-wide rules
(``format``), a key point's rubric (``rubric``), where each point comes from
(``sources``: checked where the index requires them), what validation finds with its
file and line (``findings``), which bank a name means
and where it lives (``catalogue``, re-exported here), imported banks on disk
(``saved``), the shipped bank read once through a JSON copy (``cached``),
whole-bank work on very large files (``bulk``), readers of users' own
Markdown, notebook, CSV and JSON lists (``importer``), questions by chapter,
tag or id and search (``selection``), the answer key that the offline
provider, the planner and the notes read (``key``), and bank text cut short
(``text``).

May import: storage and the shared modules only.
"""

from studybot.bank.catalogue import *  # noqa: F403
from studybot.bank.catalogue import __all__  # noqa: F401
