"""Anki decks in: an ``.apkg`` package and a CrowdAnki ``deck.json`` (issue 34, item 4).

Each deck here is written for the test in the shape Anki and CrowdAnki
write: an SQLite collection with its ``col`` JSON, a ``deck.json`` with
note types, nested decks and HTML fields.
"""

from __future__ import annotations

import json
import sqlite3
import zipfile

from studybot import bank
from studybot.storage.store import Store

BASIC = 1342697561419
REVERSED = 1342697561420


def collection(path, notes, models=None, decks=None) -> None:
    """An Anki 2.1 collection (schema 11): ``col`` holds the note types and decks as JSON."""
    models = models or {
        str(BASIC): {
            "name": "Basic",
            "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}],
        }
    }
    decks = decks or {"1": {"name": "Default"}}
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer,"
        " ver integer, dty integer, usn integer, ls integer, conf text, models text,"
        " decks text, dconf text, tags text);"
        "CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer,"
        " usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);"
        "CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer,"
        " mod integer, usn integer, type integer, queue integer, due integer, ivl integer,"
        " factor integer, reps integer, lapses integer, left integer, odue integer,"
        " odid integer, flags integer, data text);"
    )
    db.execute(
        "INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')",
        (json.dumps(models), json.dumps(decks)),
    )
    for number, (mid, fields, tags, deck) in enumerate(notes, start=1):
        db.execute(
            "INSERT INTO notes VALUES (?, ?, ?, 0, 0, ?, ?, '', 0, 0, '')",
            (1000 + number, f"g{number}", mid, tags, "\x1f".join(fields)),
        )
        db.execute(
            "INSERT INTO cards VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')",
            (5000 + number, 1000 + number, deck),
        )
    db.commit()
    db.close()


def package(tmp_path, notes, name="deck.apkg", **kwargs):
    db = tmp_path / "collection.anki2"
    collection(db, notes, **kwargs)
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as out:
        out.write(db, "collection.anki2")
        out.writestr("media", "{}")
    db.unlink()
    return path


def test_an_apkg_gives_each_note_with_its_deck_as_chapter_and_its_tags(invoke, tmp_path):
    models = {
        str(BASIC): {
            "name": "Basic",
            "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}],
        },
        str(REVERSED): {  # a note type of the user's own: extra fields, answer named 答案
            "name": "面试卡",
            "flds": [
                {"name": "来源", "ord": 2},
                {"name": "问题", "ord": 0},
                {"name": "答案", "ord": 1},
            ],
        },
    }
    decks = {"1": {"name": "Default"}, "20": {"name": "LLM::解码"}, "21": {"name": "LLM::对齐"}}
    notes = [
        (
            BASIC,
            ["温度怎么影响采样？", "温度低更确定，<br>温度高更多样。"],
            " decoding sampling ",
            20,
        ),
        (
            BASIC,
            [
                "What does <b>top-p</b> keep?",
                "<div>The smallest set of tokens</div><ul><li>whose "
                "mass passes p</li><li>renormalised</li></ul>",
            ],
            "decoding",
            20,
        ),  # fmt: skip
        (REVERSED, ["为什么需要 &lt;/s&gt;？", "让模型学会停。", "面经"], "sft", 21),
        (BASIC, ["", "一条只有背面的笔记"], "", 21),
    ]
    path = package(tmp_path, notes, models=models, decks=decks)
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 1 章 解码: 2 question(s)" in preview.stdout
    assert "第 2 章 对齐: 1 question(s)" in preview.stdout
    assert "question ← '问题', answer ← '答案'" in preview.stdout
    assert "note 4: a note with an empty question: 一条只有背面的笔记" in preview.stdout
    result = invoke("bank", "import", str(path), "--name", "deck", "--force")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("deck")
    assert [(q.question, q.reference, q.tags) for q in loaded.questions] == [
        ("温度怎么影响采样？", "温度低更确定，\n温度高更多样。", ("decoding", "sampling")),
        (
            "What does top-p keep?",  # a question is kept as plain text
            "The smallest set of tokens\n\n- whose mass passes p\n- renormalised",
            ("decoding",),
        ),
        ("为什么需要 </s>？", "让模型学会停。", ("sft",)),
    ]


def test_a_package_in_the_newest_anki_format_is_refused_with_what_to_do(invoke, tmp_path):
    path = package(tmp_path, [(BASIC, ["Please update to the latest Anki version", ""], "", 1)])
    with zipfile.ZipFile(path, "a") as out:
        out.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd compressed")
    result = invoke("bank", "import", str(path), "--preview")
    assert result.exit_code == 2
    assert "the deck is in the newest Anki format (compressed), not read here" in result.stderr
    assert "Support older Anki versions" in result.stderr
    broken = tmp_path / "broken.apkg"
    broken.write_bytes(b"not a zip at all")
    result = invoke("bank", "import", str(broken), "--preview")
    assert result.exit_code == 2
    assert "not an Anki package (an .apkg is a zip file)" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


CROWDANKI = {
    "__type__": "Deck",
    "name": "LLM 面试",
    "crowdanki_uuid": "d0",
    "note_models": [
        {
            "__type__": "NoteModel",
            "crowdanki_uuid": "m-basic",
            "name": "Basic",
            "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}],
        },
        {
            "__type__": "NoteModel",
            "crowdanki_uuid": "m-cloze",
            "name": "Cloze",
            "flds": [{"name": "Text", "ord": 0}, {"name": "Back Extra", "ord": 1}],
        },
    ],
    "notes": [],
    "children": [
        {
            "__type__": "Deck",
            "name": "注意力",
            "notes": [
                {
                    "__type__": "Note",
                    "fields": [
                        "为什么 KV 缓存不存 Q？",
                        "<p>Q 只用一次。</p><p>K、V 每步都要读。</p>",
                    ],
                    "guid": "a1",
                    "note_model_uuid": "m-basic",
                    "tags": ["KV-Cache", "高频", "kv-cache"],  # Anki keeps a tag's case
                },
                {
                    "__type__": "Note",
                    "fields": ["{{c1::RoPE}} 把位置编码成旋转", "见 RoFormer"],
                    "guid": "a2",
                    "note_model_uuid": "m-cloze",
                    "tags": [],
                },
            ],
            "children": [
                {
                    "__type__": "Deck",
                    "name": "长上下文",
                    "notes": [
                        {
                            "__type__": "Note",
                            "fields": [
                                "8K 扩到 32K，KV 缓存变多大？",
                                "4 倍：<code>2·L·H·d</code>",
                            ],
                            "guid": "a3",
                            "note_model_uuid": "m-basic",
                            "tags": ["kv"],
                        }
                    ],
                }
            ],
        }
    ],
}


def test_a_crowdanki_deck_gives_every_note_of_every_sub_deck(invoke, tmp_path):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(CROWDANKI, ensure_ascii=False, indent=2), encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", "crowd")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("crowd")
    assert [(q.question, q.reference) for q in loaded.questions] == [
        ("为什么 KV 缓存不存 Q？", "Q 只用一次。\n\nK、V 每步都要读。"),
        ("[…] 把位置编码成旋转", "RoPE\n\n见 RoFormer"),
        ("8K 扩到 32K，KV 缓存变多大？", "4 倍：`2·L·H·d`"),
    ]
    assert [c.title for c in loaded.chapters] == ["注意力", "长上下文"]
    assert loaded.questions[0].tags == ("kv-cache", "高频")
    assert loaded.title == "LLM 面试"


def round_trip(invoke, tmp_path, fmt: str, file_name: str, last: int):
    """Run questions 1..last, export the session as ``fmt``, import the file: (turns, bank)."""
    ran = invoke("run", "--from", "1", "--to", str(last))
    assert ran.exit_code == 0, ran.stderr
    out = tmp_path / file_name
    exported = invoke("export", "1", "-f", fmt, "-o", str(out))
    assert exported.exit_code == 0, exported.stderr
    result = invoke("bank", "import", str(out), "--name", "again")
    assert result.exit_code == 0, result.stderr
    return Store.open().view("1").turns, bank.load("again")


def test_a_session_exported_to_apkg_imports_with_the_same_questions_and_answers(invoke, tmp_path):
    turns, loaded = round_trip(invoke, tmp_path, "apkg", "session.apkg", 6)
    assert [q.id for q in loaded.questions] == [t.question_id for t in turns]
    assert [q.question for q in loaded.questions] == [t.question for t in turns]
    assert [q.reference for q in loaded.questions] == [t.answer.strip() for t in turns]
    shipped = bank.load().chapters[0].title
    assert [c.title for c in loaded.chapters] == [f"01 {shipped}"]  # the exporter's deck name


def test_an_answer_written_to_a_card_reads_back_as_the_markdown_it_was():
    from studybot.bank.importer.htmltext import markdown_of
    from studybot.output.markup import to_html

    answer = (
        "要点：\n\n- K、V 会被后续每一步复用\n- Q 只用一次\n\n```python\nk = cache[:t]\n```\n\n"
        "显存 $2 \\cdot L \\cdot H$，**线性**增长，*不是*平方；`</s>` 与 <think> 照写。\n\n"
        "1. 预填充\n2. 解码"
    )
    assert markdown_of(to_html(answer)) == answer


def test_a_session_exported_as_anki_text_imports_with_the_same_answers(invoke, tmp_path):
    turns, loaded = round_trip(invoke, tmp_path, "anki", "cards.txt", 3)
    assert [q.reference for q in loaded.questions] == [t.answer.strip() for t in turns]
    # the card's front as written: "第 1 题：…" (the GUID column names the note, not its number)
    assert [q.question for q in loaded.questions] == [
        f"第 {t.question_id} 题：{t.question}" for t in turns
    ]


def test_a_deck_takes_no_selector_its_notes_are_its_questions(invoke, tmp_path):
    path = package(tmp_path, [(BASIC, ["What is BPE?", "Merges pairs."], "", 1)])
    result = invoke("bank", "import", str(path), "--preview", "--questions", "items")
    assert result.exit_code == 2
    assert "--questions reads Markdown files and notebooks, not APKG" in result.stderr
    assert "--map question=KEY,answer=KEY" in result.stderr
    bare = invoke("bank", "import", str(path), "--name", "bare", "--answers", "none")
    assert bare.exit_code == 0, bare.stderr
    assert [(q.question, q.reference) for q in bank.load("bare").questions] == [
        ("What is BPE?", None)
    ]
