"""Questions kept only in a Markdown file's YAML front matter.

A Hugo review page holds its quiz in its front matter and nothing below it
(``review:`` over ``- questions:`` with ``question: >``, ``answers:``,
``correct_answer:`` and ``explanation:``). Where the Markdown reader finds no
question in such a file, the front matter is read as a YAML file is
(``yamldoc``): records with a question key at any depth, each naming its own
line in the file. Front matter whose records give no question stays metadata.
"""

from __future__ import annotations

from pathlib import Path

from studybot.bank.importer import yamldoc
from studybot.bank.importer.draft import Options, Parsed
from studybot.bank.importer.notebook import front_matter_end


def front_records(path: Path, text: str, options: Options, parsed: Parsed) -> Parsed:
    """``parsed``, the Markdown reading of ``text``; where it found nothing, the records of
    its front matter when they give questions."""
    if parsed.drafts or parsed.fatal:
        return parsed
    lines = text.splitlines()
    end = front_matter_end(lines, within=len(lines))
    if end is None:
        return parsed
    found = yamldoc.read_yaml(path, "\n".join(["", *lines[1:end]]), options)  # lines kept
    return found if found.drafts and not found.fatal else parsed
