"""The four states of a graded key point and what each earns."""

from __future__ import annotations

COVERED, PARTLY, MISSED, CONTRADICTED = "covered", "partly", "missed", "contradicted"
STATES = (COVERED, PARTLY, MISSED, CONTRADICTED)
CREDIT = {COVERED: 1.0, PARTLY: 0.5, MISSED: 0.0, CONTRADICTED: 0.0}
MARKS = {COVERED: "✓", PARTLY: "½", MISSED: "✗", CONTRADICTED: "⚠"}  # as every screen shows them


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"
