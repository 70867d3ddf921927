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


_SUMMARY_AFTER = """# 🧭 Serving notes

## 💡 Checkpoints

* **要点 1**：如何估算缓存大小？
  * 层数乘以头数乘以维度。

* **要点 2**：为什么连续分配会浪费显存？
  * 按最大长度预留。

## 📚 第一章：代码

Some prose about the code.

## 🚀 总结与部署建议

1. **标配**：部署时使用分页引擎；
2. **前缀优化**：开启前缀缓存；
3. **预算**：提前规划缓存配额。
"""


def test_a_summary_heading_after_the_questions_is_no_question(tmp_path):
    report = read(tmp_path, _SUMMARY_AFTER)
    assert questions(report) == ["如何估算缓存大小？", "为什么连续分配会浪费显存？"]
    english = _SUMMARY_AFTER.replace("总结与部署建议", "Summary and Best Practices")
    assert questions(read(tmp_path, english)) == questions(report)


def test_the_preview_counts_no_summary_as_an_asking_line_nor_suggests_a_level(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SUMMARY_AFTER)
    assert "Took 2 question(s): 2 of the file's 2 asking line(s), 0 that do not ask." in shown
    assert "总结与部署建议" not in shown
    assert "--level" not in shown


def test_a_summary_heading_over_questions_keeps_them(tmp_path):
    text = (
        "# Notes\n\n## Summary and interview questions\n\n- 如何估算缓存大小？\n- 为什么要分页？\n"
    )
    assert questions(read(tmp_path, text)) == ["如何估算缓存大小？", "为什么要分页？"]
    text = "# Notes\n\n## 总结：为什么要分页？\n\n因为连续分配浪费显存。\n"
    assert questions(read(tmp_path, text)) == ["为什么要分页？"]  # asks: no notes


_ITALIC_NOTES = """# 面试 100 问

### **第一部分：基础 (1-3)**

*考察对分词、Scaling Law 及长度外推的理解。*

1. 解释 **Self-Attention** 的计算过程。
2. 为什么要除以根号 d？
3. 什么是 RoPE？

### **第二部分：推理 (4-5)**

*部署必考，考察如何把模型跑得更快。*

1. 常见的解码策略有哪些？
2. 什么是 KV Cache？

### **第三部分：应用**

_Covers retrieval, which every team asks about._

1. How would you evaluate a RAG system?
"""


def test_an_italic_note_under_a_section_heading_is_no_question(tmp_path):
    report = read(tmp_path, _ITALIC_NOTES)
    assert questions(report) == [
        "解释 Self-Attention 的计算过程。",
        "为什么要除以根号 d？",
        "什么是 RoPE？",
        "常见的解码策略有哪些？",
        "什么是 KV Cache？",
        "How would you evaluate a RAG system?",
    ]


def test_the_preview_lists_no_italic_note(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _ITALIC_NOTES)
    assert "考察如何" not in shown
    assert "Found in: 6 list items (read by default)." in shown


def test_an_italic_line_that_asks_is_still_a_question(tmp_path):
    text = "# Q\n\n## Part\n\n*为什么要分页管理缓存？*\n\n因为连续分配浪费显存。\n"
    assert questions(read(tmp_path, text)) == ["为什么要分页管理缓存？"]


def test_a_name_and_a_number_in_bold_stays_in_the_question(tmp_path):
    # "Llama 3" names what is asked about: only a label word (考点, Point, Step…) is a label
    text = (
        "# Models\n\n"
        "- **Llama 3**: Why does it use grouped-query attention?\n"
        "  - Fewer KV heads shrink the cache.\n"
        "- **Point 2**: Why does RoPE extrapolate poorly?\n"
        "  - Unseen rotation angles.\n"
    )
    assert questions(read(tmp_path, text)) == [
        "Llama 3: Why does it use grouped-query attention?",
        "Why does RoPE extrapolate poorly?",
    ]
