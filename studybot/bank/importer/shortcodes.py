"""Hugo shortcodes that stand for HTML: ``{{< details "Why …?" >}}`` … ``{{< /details >}}``.

A ``spoiler`` shortcode (``{{< spoiler text="Answer" >}}`` … ``{{< /spoiler >}}``) is read
the same way: a box whose title says ``Answer`` hides the answer, and its wrapper is no part
of it.

A Hugo site writes a collapsible box as a shortcode (``{{< details … >}}`` or
``{{% details … %}}``; its title the first quoted argument or ``title="…"``),
which Hugo renders as ``<details><summary>title</summary>`` … ``</details>``.
``unshortcoded`` rewrites the shortcode lines as that HTML, a line for a line,
so every place still names the file's own line, and the box reads as any
``<details>`` does: the title its question, the body its answer (by default
and with ``--questions details``). Lines inside fenced code stay as written.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import unfenced

# "{{< details "Q" open >}}", "{{% details title="Q" %}}": the title quoted, first or named
_OPENING = re.compile(
    r"\s*\{\{(?P<mark>[<%])\s*(?:details|spoiler)\s+(?:(?:title|text)\s*=\s*)?"
    r"(?P<quote>[\"'`])(?P<title>(?:(?!(?P=quote)).)+)(?P=quote)[^{}]*?[>%]\}\}\s*"
)
_CLOSING = re.compile(r"\s*\{\{[<%]\s*/\s*(?:details|spoiler)\s*[>%]\}\}\s*")


def unshortcoded(lines: list[str]) -> list[str]:
    """``lines`` with each ``details`` shortcode as the ``<details>`` HTML it renders to."""
    if not any("{{" in line and ("details" in line or "spoiler" in line) for line in lines):
        return lines
    out = list(lines)
    for index in unfenced(lines):
        line = lines[index]
        if "{{" not in line:
            continue
        if opening := _OPENING.fullmatch(line):
            out[index] = f"<details><summary>{opening['title'].strip()}</summary>"
        elif _CLOSING.fullmatch(line):
            out[index] = "</details>"
    return out
