"""Failure classes a twenty-ninth batch of real public question files showed, part I3.

Each file here is written for the test, in the shape those files had: a flashcard TSV with
no header row whose fronts name a topic (``Level 2 – Storage: default port``) and whose
third column is Anki's tags; Anki's text exports with and without their header lines;
Obsidian question callouts, an imperative one among them, each followed by a folded
answer callout; plain-text cards labelled ``正面：`` / ``背面：`` or ``Front:`` / ``Back:``.
"""

from __future__ import annotations

from imported import previewed, questions, read

_DECK = (
    "Level 2 – Storage: default port\t5432\tfacts level-2\n"
    "Level 2 – Storage: how many replicas\tThree by default\tfacts level-2\n"
    "Level 2 – Storage: finish the rule: Back up before ...\tyou migrate\trules level-2\n"
    "Glossary: Tombstone\tA marker left for a deleted row\tglossary\n"
)


def test_a_headerless_deck_is_read_front_back_and_tags_by_column(tmp_path):
    report = read(tmp_path, _DECK, "deck.tsv")
    assert [(q.question, q.reference, q.tags) for q in report.bank.questions] == [
        ("Level 2 – Storage: default port", "5432", ("facts", "level-2")),
        ("Level 2 – Storage: how many replicas", "Three by default", ("facts", "level-2")),
        (
            "Level 2 – Storage: finish the rule: Back up before ...",
            "you migrate",
            ("rules", "level-2"),
        ),
        ("Glossary: Tombstone", "A marker left for a deleted row", ("glossary",)),
    ]
    assert report.notes[0] == (
        "no header row: column 1 is read as the question, column 2 as the answer, column 3 as tags"
    )


def test_the_preview_says_how_a_headerless_deck_was_read(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _DECK, "deck.tsv")
    assert "No header row: column 1 is read as the question" in shown
    assert "Read question ←" not in shown  # said once, by column


def test_a_header_of_short_names_is_still_a_header(invoke, tmp_path):
    path = tmp_path / "words.tsv"
    path.write_text("Term\tMeaning\nlatency\tdelay\nthroughput\trate\n", encoding="utf-8")
    refused = invoke("bank", "import", str(path), "--preview")
    assert refused.exit_code != 0
    assert "no question column in the header" in refused.stderr


def test_a_third_column_of_sentences_is_not_tags(tmp_path):
    text = (
        "Glossary: Shard\tA slice of the data\tSplit by key range, kept on one node.\n"
        "Glossary: Quorum\tA majority of replicas\tWrites wait for it before they succeed.\n"
    )
    report = read(tmp_path, text, "deck.tsv")
    assert [(q.question, q.tags) for q in report.bank.questions] == [
        ("Glossary: Shard", ()),
        ("Glossary: Quorum", ()),
    ]
    assert report.notes[0] == (
        "no header row: column 1 is read as the question, column 2 as the answer"
    )


def test_anki_text_exports_with_and_without_header_lines(tmp_path):
    notes = "Glossary: Shard\tA slice<br>of the data\tdb\nGlossary: Quorum\tA majority\tdb\n"
    with_header = "#separator:tab\n#html:true\n#tags column:3\n" + notes
    named = "#separator:tab\n#html:true\n#columns:Front\tBack\tTags\n#tags column:3\n" + notes
    for name, text in (("header.txt", with_header), ("named.txt", named), ("bare.txt", notes)):
        report = read(tmp_path, text, name)
        got = [(q.question, q.tags) for q in report.bank.questions]
        assert got == [("Glossary: Shard", ("db",)), ("Glossary: Quorum", ("db",))], name
        assert all(q.reference for q in report.bank.questions), name
    assert read(tmp_path, with_header, "h.txt").bank.get(1).reference == "A slice\nof the data"


_CALLOUTS = """---
topic: "Convolutional networks"
---

> [!question]
> Sketch the layers of a small **CNN** for digits.

> [!answer]-
> ![[cnn-layers.png]]

<!-- id: a1 -->

---

> [!question]
> What does a **pooling** layer do?

> [!answer]-
> It keeps the largest value of each window.

> [!explanation]-
> Fewer positions to compute later.

---

> [!faq] Stride
> What happens when the stride is larger than one?

> [!success]- Show answer
> The output map shrinks.

> [!question] Padding
> Why pad the input with zeros?

> [!example]- Answer
> To keep the border pixels in play.
"""


def test_question_callouts_take_the_answer_callouts_right_after_them(tmp_path):
    report = read(tmp_path, _CALLOUTS, "cards.md")
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("Sketch the layers of a small CNN for digits.", "![[cnn-layers.png]]"),
        (
            "What does a pooling layer do?",
            "It keeps the largest value of each window.\n\nFewer positions to compute later.",
        ),
        # a title that asks nothing over a line that asks: a label, the line the question
        ("What happens when the stride is larger than one?", "The output map shrinks."),
        ("Why pad the input with zeros?", "To keep the border pixels in play."),
    ]


def test_a_note_callout_after_a_question_callout_is_no_answer(tmp_path):
    text = "> [!question]\n> What is a kernel?\n\n> [!tip]\n> Why not try a 3×3 one first?\n"
    report = read(tmp_path, text, "cards.md")
    assert questions(report)[0] == "What is a kernel?"
    assert report.bank.get(1).reference is None


def test_front_and_back_labels_are_a_cards_question_and_answer(tmp_path):
    text = (
        "卡片1\n正面：字典推导式的写法\n背面：{k: v for k, v in pairs}\n\n"
        "卡片2\n正面：生成器表达式省内存的原因\n背面：按需产出，不建整张列表\n"
    )
    report = read(tmp_path, text, "cards.txt")
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("字典推导式的写法", "{k: v for k, v in pairs}"),
        ("生成器表达式省内存的原因", "按需产出，不建整张列表"),
    ]
    english = "Card 1\nFront: Early stopping\nBack: Stop when validation loss rises.\n"
    english += "\nCard 2\n**Front:** Weight decay\n**Back:** An L2 penalty on the weights.\n"
    report = read(tmp_path, english, "cards.md")
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("Early stopping", "Stop when validation loss rises."),
        ("Weight decay", "An L2 penalty on the weights."),
    ]


def test_a_front_label_without_a_back_stays_as_written(tmp_path):
    text = "# Stack\n\nFront: React, Back: Node.\n\n## What is a closure?\n\nA function and its scope.\n"
    report = read(tmp_path, text, "notes.md")
    assert questions(report) == ["What is a closure?"]
