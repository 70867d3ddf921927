"""Failure classes a twenty-first batch of real public question files showed (issue 34), part Z.

Each file here is written for the test, in the shape those files had: a bold label
(a word and a number) before what is asked; a summary heading with numbered tips
after the questions; an italic one-line note under a section heading.
"""

from __future__ import annotations

from imported import previewed, questions, read

_LABELLED = """# 🧭 Caching deep dive: memory maps and reuse

Some intro prose about the topic here.

## 💡 Interview checkpoints

* **要点 1**：如何估算一个模型在长上下文下的缓存大小？
  * *参考回答*：
    * **公式**：层数乘以头数乘以维度。
> 💡 **提示**：记住两个 2。

* **要点 2**：为什么连续分配会浪费大量显存？
  * *参考回答*：
    * **内部浪费**：按最大长度预留。
> 💡 **提示**：整栋楼只住一层。

## 📚 第一章：对比表

| a | b |
|---|---|
| 1 | 2 |
"""


def test_a_bold_label_before_the_question_is_its_label_not_its_words(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "如何估算一个模型在长上下文下的缓存大小？",
        "为什么连续分配会浪费大量显存？",
    ]
    assert [q.label for q in report.bank.questions] == [None, None]  # numbered as in the file
    assert all("提示" in (q.reference or "") for q in report.bank.questions)


def test_bold_labels_in_english_and_with_the_colon_inside(tmp_path):
    text = (
        "# Bank\n\n## Part A\n\n"
        "- **Step 4**: Why does batching help throughput?\n"
        "- **Point 7:** How does beam search share cache blocks?\n"
        "- **题目 9**：什么是分页注意力？\n"
    )
    report = read(tmp_path, text)
    assert questions(report) == [
        "Why does batching help throughput?",
        "How does beam search share cache blocks?",
        "什么是分页注意力？",
    ]
    assert [q.label for q in report.bank.questions] == ["4", "7", "9"]  # the source's numbers


def test_a_bold_label_before_a_statement_or_a_name_stays(tmp_path):
    text = (
        "# Bank\n\n## Part A\n\n"
        "- **What is a KV cache?** The keys and values kept per token.\n"
        "- **Note 1**: the cache grows with the sequence.\n"
        "- **Llama 3 in production** — how would you serve it cheaply?\n"
    )
    report = read(tmp_path, text)
    assert "What is a KV cache?" in questions(report)
    assert not any(q.startswith(("the cache grows", "Note 1")) for q in questions(report))
    assert "Llama 3 in production — how would you serve it cheaply?" in questions(report)


def test_the_preview_shows_the_question_without_its_label(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _LABELLED)
    assert "Q1 如何估算一个模型在长上下文下的缓存大小？" in shown
    assert "要点 1" not in shown
