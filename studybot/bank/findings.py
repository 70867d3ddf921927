"""What ``bank validate`` reports, each at its ``file:line``: errors, warnings and notes.

An error stops the bank from loading (the loader's problems, already
``file:line: message``); a warning is a rubric that grades worse than its
writer meant; a note is a remark on style that never needs a fix. The bank
is read from a JSON copy that keeps no line numbers (``cached``), so the
places of the rubric's tables come from the TOML text, read once more.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path

ERROR, WARNING, NOTE = "error", "warning", "note"

# (question id, point, claim) -> (file, line); point 0 is the question, claim 0 the point
Places = dict[tuple[int, int, int], tuple[str, int]]


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a bank, or worth a look, and where it is written."""

    level: str  # ERROR, WARNING or NOTE
    message: str
    file: str | None = None  # as shown: relative to the working folder where it is inside it
    line: int | None = None  # 1-based
    question: int | None = None  # the question's id
    point: int | None = None  # 1-based key point of that question

    def shown(self) -> str:
        """``file:line: level: message`` (an error as the loader words it, without its level)."""
        where = self.file or ""
        where += f":{self.line}" if self.file and self.line else ""
        if not where and self.question is not None:
            where = f"Q{self.question}" + (f" point {self.point}" if self.point else "")
        level = "" if self.level == ERROR else f"{self.level}: "
        return f"{where}: {level}{self.message}" if where else f"{level}{self.message}"

    def as_json(self) -> dict[str, object]:
        return asdict(self)


_PLACED = re.compile(r"(?P<file>.+?):(?P<line>\d+): (?P<message>.*)", re.DOTALL)
_QUESTION = re.compile(r"\bQ(?P<id>\d+)\b(?: rubric (?P<point>\d+))?")


def from_problem(text: str, level: str = ERROR) -> Finding:
    """A line of the loader or the importer (``file:line: message``, ``Q12: …``) as a finding."""
    placed = _PLACED.fullmatch(text)
    file, line, message = None, None, text
    if placed:
        file, line, message = placed["file"], int(placed["line"]), placed["message"]
    asked = _QUESTION.search(message)
    question = int(asked["id"]) if asked else None
    point = int(asked["point"]) if asked and asked["point"] else None
    return Finding(level, message, file, line, question, point)


_QUESTIONS = re.compile(r"^\s*\[\[\s*questions\s*\]\]")
_RUBRIC = re.compile(r"^\s*\[\[\s*questions\s*\.\s*rubric\s*\]\]")
_CLAIM = re.compile(r"^\s*\[\[\s*questions\s*\.\s*rubric\s*\.\s*claims\s*\]\]")
_ID = re.compile(r"^\s*id\s*=\s*(\d+)")


def rubric_places(folder: Path) -> Places:
    """Where each question, its rubric tables and their claims are in the bank's TOML files."""
    places: Places = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name == "bank.toml":
            continue
        shown = shown_path(path)
        question = point = claim = 0
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _QUESTIONS.match(text):
                question, point, claim = 0, 0, 0
            elif _RUBRIC.match(text):
                point, claim = point + 1, 0
            elif _CLAIM.match(text):
                claim += 1
            elif question == 0 and (found := _ID.match(text)):
                question = int(found.group(1))
                places[(question, 0, 0)] = (shown, number)
                continue
            else:
                continue
            if question:
                places[(question, point, claim)] = (shown, number)
    return places


def shown_path(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it (``questions/03-….toml``)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
