"""Exports read the way their readers read them: Anki's importer, an .apkg, a Markdown renderer."""

from __future__ import annotations

import errno
import json
import sqlite3
import sys
import zipfile
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.errors import BadInput
from studybot.output import writing
from studybot.storage.store import Store
from studybot.study import carry, session

# An answer in the shape live models write: headings, emphasis, formulas, a
# table, code, and HTML-like tokens that are text, not markup.
ANSWER = """## 要点

- **注意力** 的代价是 $O(n^2)$，缩放因子 $\\frac{1}{\\sqrt{d_k}}$
- 行内 \\(a_i * b_i\\) 与 $x_1 * x_2$ 都是公式

$$\\mathrm{softmax}(QK^T/\\sqrt{d_k})V$$

模型会输出 <think> 标签和 </s> 结束符。

| n | KV |
|---|---|
| 8K | 1× |

```python
print("<b>not bold</b>")
```
"""
SUMMARY = "第一行：KV 缓存线性增长\n第二行：注意力 n² <think>\n第三行：分段"
FOLLOW_UP = "那 <MLA> 呢？"


class Shaped(OfflineProvider):
    """The offline provider with a live model's kind of text."""

    def answer(self, messages, *, question, on_text=None):
        return self._reply(messages, ANSWER + f"\n第 {question.id} 题完。", on_text)

    def summarise(self, messages, *, questions, lines):
        return self._reply(messages, f"{SUMMARY}\n（Q{questions[0].id} 起）", None)

    def follow_up(self, messages, *, question, text, on_text=None):
        return self._reply(messages, "MLA 存一个潜向量 $c_t$。", on_text)


class FollowUpOn(session.Listener):
    def __init__(self, question_id: int) -> None:
        self.question_id = question_id
        self.asked = False

    def after_answer(self, question, suggestion=None):
        if question.id == self.question_id and not self.asked:
            self.asked = True
            return session.FOLLOW_UP
        return session.NEXT

    def follow_up_text(self, question):
        return FOLLOW_UP


def session_with_follow_ups(first: int, last: int, follow_up_on: int | None = None) -> int:
    loaded = bank.load()
    study = session.Study(loaded, Shaped(loaded), config.load())
    store = Store.open()
    record = session.start(study, store, loaded.select(first, last))
    session.run(study, store, record, FollowUpOn(follow_up_on or 0))
    # the last summary waits for a reader; write it with this provider, as export would
    carry.last_summary(study, store, store.session(record.id), session.Listener())
    return record.id


class Visible(HTMLParser):
    """The text a browser (or Anki's card view) shows, and the tags it drew."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)

    @property
    def visible(self) -> str:
        return "".join(self.text)


def anki_file(text: str) -> tuple[dict[str, str], list[list[str]]]:
    """Split a file the way Anki's text importer does: '#key:value' headers, then rows."""
    headers, rows = {}, []
    for line in text.splitlines():
        if not rows and line.startswith("#"):
            key, _, value = line[1:].partition(":")
            headers[key] = value
            continue
        rows.append(line.split(headers.get("separator") == "tab" and "\t" or ","))
    return headers, rows


def test_anki_text_imports_as_basic_notes_with_stable_guids_decks_and_tags(invoke, tmp_path):
    first = session_with_follow_ups(5, 12, follow_up_on=9)
    out = tmp_path / "cards.txt"
    assert invoke("export", str(first), "-f", "anki", "-o", str(out)).exit_code == 0
    headers, rows = anki_file(out.read_text(encoding="utf-8"))
    assert headers["separator"] == "tab" and headers["html"] == "true"
    assert headers["notetype"] == "Basic"
    assert headers["guid column"] == "1" and headers["tags column"] == "4"
    assert headers["deck column"] == "5"  # Q5–12 spans chapters 1 and 2
    assert len(rows) == 8 and all(len(row) == 5 for row in rows)
    guids = [row[0] for row in rows]
    assert len(set(guids)) == 8
    decks = {row[4] for row in rows}
    titles = {c.number: c.title for c in bank.load().chapters}
    assert decks == {f"studybot::default::0{n} {titles[n]}" for n in (1, 2)}
    by_question = {int(Visible(row[1]).visible.split(" ")[1]): row for row in rows}
    assert by_question[5][3].split() == [
        "studybot",
        "chapter_01",
        *[t.replace(" ", "_") for t in bank.load().get(5).tags],
    ]
    back = by_question[9][2]
    seen = Visible(back)
    assert {"h2", "strong", "table", "pre", "ul"} <= set(seen.tags)
    assert "em" not in seen.tags  # no _ or * inside a formula became emphasis
    for formula in (
        r"\(O(n^2)\)",
        r"\(\frac{1}{\sqrt{d_k}}\)",
        r"\(a_i * b_i\)",
        r"\(x_1 * x_2\)",
        r"\[\mathrm{softmax}(QK^T/\sqrt{d_k})V\]",
    ):
        assert formula in seen.visible, formula
    assert "<think>" in seen.visible and "</s>" in seen.visible  # shown, not swallowed as tags
    assert "think" not in seen.tags and "s" not in seen.tags
    assert '"<b>not bold</b>"' in seen.visible
    assert (
        "追问：那 <MLA> 呢？" in seen.visible and r"\(c_t\)" in seen.visible
    )  # follow-up on the back
    assert "<MLA>" not in by_question[8][2]

    # a second session over the same questions: same GUIDs, so Anki updates instead of adding
    second = session_with_follow_ups(9, 12)
    again = tmp_path / "again.txt"
    assert invoke("export", str(second), "-f", "anki", "-o", str(again)).exit_code == 0
    headers2, rows2 = anki_file(again.read_text(encoding="utf-8"))
    assert headers2["deck"] == f"studybot::default::02 {titles[2]}"  # one chapter: one header
    assert "deck column" not in headers2 and all(len(row) == 4 for row in rows2)
    assert {row[0] for row in rows2} == {by_question[q][0] for q in range(9, 13)}


def test_apkg_opens_with_sqlite_with_notes_and_one_deck_per_chapter(invoke, tmp_path):
    session_with_follow_ups(5, 12, follow_up_on=9)
    tsv, apkg = tmp_path / "cards.txt", tmp_path / "cards.apkg"
    invoke("export", "1", "-f", "anki", "-o", str(tsv))
    result = invoke("export", "1", "-f", "apkg", "-o", str(apkg))
    assert result.exit_code == 0, result.stderr
    assert "8 notes" in result.stderr
    with zipfile.ZipFile(apkg) as package:
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "collection.anki2")
    notes = db.execute("select guid, flds, tags from notes").fetchall()
    decks = json.loads(db.execute("select decks from col").fetchone()[0])
    cards = db.execute("select did from cards").fetchall()
    db.close()
    _headers, rows = anki_file(tsv.read_text(encoding="utf-8"))
    assert sorted(guid for guid, _f, _t in notes) == sorted(row[0] for row in rows)
    front, back = next(flds for guid, flds, _t in notes if guid == rows[4][0]).split("\x1f")
    assert "第 9 题" in Visible(front).visible and r"\(O(n^2)\)" in Visible(back).visible
    names = {deck["name"] for deck in decks.values()}
    assert {row[4] for row in rows} <= names
    assert len({did for (did,) in cards}) == 2 and len(cards) == 8


def test_apkg_without_genanki_names_the_extra(invoke, tmp_path, monkeypatch):
    session_with_follow_ups(1, 3)
    monkeypatch.setitem(sys.modules, "genanki", None)  # import genanki now raises ImportError
    folder = tmp_path / "out"
    folder.mkdir()
    result = invoke("export", "1", "-f", "apkg", "-o", str(folder / "c.apkg"))
    assert result.exit_code == 2
    assert "pip install 'studybot[anki]'" in result.stderr
    assert list(folder.iterdir()) == []


def test_markdown_notes_render_with_html_like_text_visible_and_each_summary_once(invoke, tmp_path):
    session_with_follow_ups(
        1, 14, follow_up_on=2
    )  # two segments: segment 2 starts from segment 1's summary
    out = tmp_path / "notes.md"
    assert invoke("export", "1", "-f", "md", "-o", str(out)).exit_code == 0
    rendered = (
        MarkdownIt("commonmark", {"html": True})
        .enable("table")
        .render(out.read_text(encoding="utf-8"))
    )
    seen = Visible(rendered)
    assert seen.visible.count("模型会输出 <think> 标签和 </s> 结束符。") == 14
    assert "think" not in seen.tags and "s" not in seen.tags and "mla" not in seen.tags
    assert "那 <MLA> 呢？" in seen.visible
    assert seen.visible.count("第一行：KV 缓存线性增长") == 2  # two segments, each summary once
    assert "第二行：注意力 n² <think>" in seen.visible
    summary_items = [
        line for line in rendered.splitlines() if line.startswith("<li>第") and "行：" in line
    ]
    assert len(summary_items) == 6  # every summary line its own line, 3 per segment
    assert '"<b>not bold</b>"' in seen.visible  # code untouched


def test_export_refuses_to_overwrite_without_force_and_writes_atomically(invoke, tmp_path):
    session_with_follow_ups(1, 3)
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "notes.md"
    out.write_text("my own notes\n", encoding="utf-8")
    refused = invoke("export", "1", "-o", str(out))
    assert refused.exit_code == 2
    assert "already exists" in refused.stderr and "--force" in refused.stderr
    assert out.read_text(encoding="utf-8") == "my own notes\n"
    replaced = invoke("export", "1", "-o", str(out), "--force")
    assert replaced.exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("# ")
    assert sorted(p.name for p in folder.iterdir()) == ["notes.md"]  # no temporary file left


def test_a_full_disk_leaves_the_old_file_and_no_partial_one(tmp_path):
    out = tmp_path / "cards.txt"
    out.write_text("old cards\n", encoding="utf-8")

    def disk_full(path):
        path.write_text("half a fi", encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(BadInput, match="No space left on device"):
        writing.write_file(out, disk_full, force=True)
    assert out.read_text(encoding="utf-8") == "old cards\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.txt"]
    with pytest.raises(BadInput):
        writing.write_file(tmp_path / "new.txt", disk_full)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.txt"]


def test_show_prints_summaries_follow_ups_and_context_growth(invoke):
    session_with_follow_ups(1, 14, follow_up_on=2)
    result = invoke("show", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    row_q2 = next(i for i, line in enumerate(lines) if line.split()[:2] == ["2", "1"])
    (asked,) = Store.open().followups(1)
    assert lines[row_q2 + 1].split()[:3] == [
        "↳",
        "追问",
        f"{asked.prompt_tokens:,}",
    ]  # the follow-up sits under its question, with its own prompt tokens
    assert "追问：那 <MLA> 呢？" in result.stdout and "MLA 存一个潜向量" in result.stdout
    assert "Segment summaries" in result.stdout
    assert result.stdout.count("第一行：KV 缓存线性增长") == 2
    assert "█" in result.stdout  # the growth bar
    totals = next(line for line in lines if line.startswith("prompt tokens "))
    assert totals.endswith("(simulated: offline, studybot's count and cache rule)")  # not measured
    growth = next(line for line in lines if line.startswith("context n per turn: "))
    assert len(growth.split(": ")[1].split(" ")[0]) == 14
    data = json.loads(invoke("show", "1", "--json").stdout)
    assert data["follow_ups"][0]["question"] == FOLLOW_UP
    assert data["follow_ups"][0]["question_id"] == 2
    assert all(s["summary_out"].startswith("第一行") for s in data["segments"])


def test_export_json_is_the_same_document_as_show_json(invoke):
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0
    exported = json.loads(invoke("export", "1", "-f", "json").stdout)  # writes the last summary
    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert exported == shown
    assert "cost" in exported and "cache_rule" in exported
