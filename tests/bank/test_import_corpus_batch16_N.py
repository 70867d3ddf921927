"""Failure classes a sixteenth batch of real public question files showed (issue 34), part N.

Each file here is written for the test, in the shape those files had: a checklist of
questions in tables whose cells end in a ``？（…）`` tail and whose other columns are for the
reader to rate themselves (``V_``, ``Y/N``, ``✓``/``✗``); a quiz in JSON whose records keep
their ``options`` and name the right one by its index, with an ``explain`` after it.
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

_CHECKLIST = """# 检索系统 80 问

> 用法：逐条自评掌握程度 V1/V2/V3，是否能结合项目讲 Y/N。

## 一、线上服务（4问）

| # | 问题 | 掌握程度 | 结合项目 |
|---|------|:---:|:---:|
| 1 | 检索日志怎么设计？（用户追问→召回结果→点击 全链路记录） | V_ | Y/N |
| 2 | 索引服务挂了怎么办？（回退到简单关键词匹配/静态结果页） | V_ | Y/N |
| 3 | 排序模型上线前要看哪些指标？（NDCG、MRR、延迟） | V_ | Y/N |
| 4 | 倒排索引为什么适合全文检索？ | V_ | Y/N |

## 二、手写代码

| # | 问题 | 掌握程度 |
|---|------|:---:|
| 5 | 手写 BM25 打分函数 | V_ |
| 6 | 手写倒排索引的合并（含跳表） | V_ |
| 7 | 手写 top-k 堆选择 | V_ |
"""


def test_a_table_cells_parenthesis_tail_stays_in_its_question(tmp_path):
    report = read(tmp_path, _CHECKLIST)
    assert questions(report)[:4] == [
        "检索日志怎么设计？（用户追问→召回结果→点击 全链路记录）",  # "追问" is no write-up
        "索引服务挂了怎么办？（回退到简单关键词匹配/静态结果页）",  # "简单" is no level
        "排序模型上线前要看哪些指标？（NDCG、MRR、延迟）",
        "倒排索引为什么适合全文检索？",
    ]


def test_self_rating_columns_are_not_answers(tmp_path):
    report = read(tmp_path, _CHECKLIST)
    assert len(report.bank.questions) == 7
    assert questions(report)[4] == "手写 BM25 打分函数"
    assert [q.reference for q in report.bank.questions] == [None] * 7


def test_the_table_selector_leaves_rating_and_number_columns_out_of_answers(tmp_path):
    report = read(tmp_path, _CHECKLIST, questions="table:问题")
    assert len(report.bank.questions) == 7
    assert [q.reference for q in report.bank.questions] == [None] * 7


_TICKED = """# Search review

| Question | Done |
|---|---|
| What does BM25 saturate? | ✓ |
| Why shard an index by document? | ✗ |
| How is recall@k computed? | |

| Question | Answer |
|---|---|
| Is an inverted index sorted by term? | Yes |
| Does BM25 use document length? | Yes |
| Can dense retrieval match exact IDs well? | No |
"""


def test_tick_marks_are_no_answers_but_short_real_answers_are(tmp_path):
    report = read(tmp_path, _TICKED)
    answers = {q.question: q.reference for q in report.bank.questions}
    assert answers == {
        "What does BM25 saturate?": None,
        "Why shard an index by document?": None,
        "How is recall@k computed?": None,
        "Is an inverted index sorted by term?": "Yes",
        "Does BM25 use document length?": "Yes",
        "Can dense retrieval match exact IDs well?": "No",
    }


def test_a_level_note_alone_still_goes(tmp_path):
    report = read(tmp_path, "# 检索\n\n- 倒排索引是什么？（简单）\n- 什么是 BM25？(hard)\n")
    assert questions(report) == ["倒排索引是什么？", "什么是 BM25？"]


_QUIZ = {
    "title": "检索 Boss 关",
    "questions": [
        {
            "ref": "r1",
            "q": "倒排索引的键是什么？",
            "options": ["文档编号", "词项", "向量", "时间戳"],
            "answer": 1,
            "explain": "倒排索引从词项指向包含它的文档。",
        },
        {
            "ref": "r2",
            "q": "BM25 里哪一项让词频的作用饱和？",
            "options": ["idf", "k1", "文档总数"],
            "answer": "B",
            "explanation": "k1 控制词频增长的上限。",
        },
        {
            "ref": "r3",
            "q": "哪些是稀疏检索方法？",
            "options": ["BM25", "DPR", "TF-IDF"],
            "answer": [0, 2],
        },
        {
            "ref": "r4",
            "q": "召回率的分母是？",
            "options": ["相关文档数", "返回文档数"],
            "answer": 7,
        },
    ],
}


def test_a_quiz_records_answer_is_the_chosen_options_text_with_its_explanation(tmp_path):
    report = read(tmp_path, json.dumps(_QUIZ, ensure_ascii=False), "quiz.json")
    first, second, third, fourth = report.bank.questions
    assert (
        first.question == "倒排索引的键是什么？\n- A. 文档编号\n- B. 词项\n- C. 向量\n- D. 时间戳"
    )
    assert first.reference == "词项\n\n倒排索引从词项指向包含它的文档。"
    assert second.question.endswith("\n- A. idf\n- B. k1\n- C. 文档总数")
    assert second.reference == "k1\n\nk1 控制词频增长的上限。"
    assert third.reference == "BM25\nTF-IDF"
    assert fourth.reference == "7"  # names no option: kept as written, options still shown
    assert fourth.question.endswith("\n- A. 相关文档数\n- B. 返回文档数")


def test_a_quiz_preview_says_how_its_options_were_read(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, json.dumps(_QUIZ, ensure_ascii=False), "quiz.json")
    assert "Options shown under each question; the answer is the chosen option" in shown
    assert "Not used: 'ref'" in shown
    assert "'options'" not in shown and "'explain'" not in shown
