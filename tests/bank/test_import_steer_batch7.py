"""Classes first seen in the seventh batch of real files (issue 34), on files written here in
their shapes: one empty heading never refuses a file, the preview suggests the selector that
gives the user answered questions, record fields are text unless they hold HTML, and a
question's text keeps its brackets, its number and nothing of where it was copied from.
"""

from __future__ import annotations

import json

from studybot import bank
from studybot.bank import importer

TOPICS = ["闭包", "原型链", "事件循环", "Promise", "作用域", "变量提升", "箭头函数", "深拷贝"]


# -- one bad record never refuses a whole file -----------------------------------------------


def test_an_empty_heading_among_many_is_listed_and_the_rest_imports(invoke, tmp_path, run_line):
    questions = [
        f"## {n}. 什么是第 {n} 种缓存策略？\n\n第 {n} 种策略的说明。\n" for n in range(1, 13)
    ]
    broken = "##  \n\n**13. 引用作为返回值要注意什么？**\n\n不能返回局部变量的引用。\n"
    path = tmp_path / "cpp.md"
    path.write_text("# C++ 面试\n\n" + "\n".join(questions[:6] + [broken] + questions[6:]))
    empty = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line == "##  ")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert f"line {empty}: a question with no text; not taken: " in preview.stdout
    assert "Problems" not in preview.stdout
    took = " ".join(preview.stdout.split())  # the counts leave the empty heading out too
    assert "Found in: 12 headings" in took and "Took 12 question(s)" in took, took
    assert "0 that do not ask" in took, took
    words = run_line(preview.stdout)
    assert "--force" not in words
    saved = invoke(*words)
    assert saved.exit_code == 0, saved.stderr
    assert "Imported 12 questions" in saved.stdout
    assert f"{path}:{empty}: a question with no text; not taken" in saved.stdout
    assert len(bank.load("cpp").questions) == 12


def test_a_preview_with_a_problem_ends_with_a_command_that_imports_it(invoke, tmp_path, run_line):
    records = [{"question": f"第 {n} 题是什么？", "answer": "答案。"} for n in range(1, 6)]
    records.append({"question": "要点太多的题？", "key_points": [f"要点 {n}" for n in range(9)]})
    path = tmp_path / "many points.json"
    path.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    plain = invoke("bank", "import", str(path), "--name", "points")
    assert plain.exit_code == 2 and "9 key points" in plain.stderr
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Problems (1)" in preview.stdout
    words = run_line(preview.stdout)
    assert words[-1] == "--force"
    saved = invoke(*words)
    assert saved.exit_code == 0, saved.stderr
    assert len(bank.load("many-points").questions) == 6


# -- suggestions by what the user gets ---------------------------------------------------------


def _readme(tmp_path):
    """A README in the shape of a large real one: a table of contents whose first column numbers
    the questions, then ``N. ### question`` list items with their answers indented below."""
    toc = "| No. | Questions |\n|---|---|\n" + "".join(
        f"| {n} | [什么是{t}？](#什么是{t}) |\n" for n, t in enumerate(TOPICS, 1)
    )
    body = "".join(
        f"{n}. ### 什么是{t}？\n\n   {t}的定义写在这里，它解决作用域与复用的问题。\n\n"
        f"   - 要点一：{t}的用途\n   - 要点二：{t}的代价\n\n"
        f"   ```js\n   console.log('{t}')\n   ```\n\n   **[⬆ 回到顶部](#目录)**\n\n"
        for n, t in enumerate(TOPICS, 1)
    )
    path = tmp_path / "js.md"
    path.write_text("# JavaScript 面试题\n\n### 目录\n\n" + toc + "\n" + body, encoding="utf-8")
    return path


def test_a_numbering_column_is_no_answer_the_headings_that_hold_answers_are_suggested(
    invoke, tmp_path
):
    path = _readme(tmp_path)
    # The headings inside the numbered items are the questions by default; the table's
    # numbering column is never offered as a reading with answers.
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "table:Questions" not in preview.stdout
    shown = invoke("bank", "import", str(path), "--name", "js")
    assert shown.exit_code == 0, shown.stderr
    loaded = bank.load("js")
    asked = [q for q in loaded.questions if q.question.endswith("？")]
    assert [q.question for q in asked] == [f"什么是{t}？" for t in TOPICS]
    assert all("的定义写在这里" in (q.reference or "") for q in asked)
    table = importer.inspect(path, questions="table:Questions")
    # chosen by hand, the numbering column still answers nothing
    assert [q.reference for q in table.bank.questions][:2] == [None, None]


def test_sub_sections_under_each_question_need_no_option(invoke, tmp_path, run_line):
    parts = ["不可变", "相等比较", "拼接性能", "常量池", "编码"]
    body = "".join(
        f"### {n}. 字符串的{s}是怎么回事？\n\n一句话概括{s}。\n\n#### 核心区别\n\n- 第一点\n"
        f"- 第二点\n\n#### 详细解析\n\n{s}的细节展开说明。\n\n#### 关键要点\n\n记住{s}的结论。\n\n"
        for n, s in enumerate(parts, 1)
    )
    path = tmp_path / "string.md"
    path.write_text("## 字符串\n\n" + body, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Try --questions" not in preview.stdout  # the default reads them already
    words = run_line(preview.stdout)
    assert invoke(*words).exit_code == 0
    loaded = bank.load("string")
    assert [q.question for q in loaded.questions] == [f"字符串的{s}是怎么回事？" for s in parts]
    assert all("关键要点" in (q.reference or "") for q in loaded.questions)


# -- record fields are text unless they hold HTML ----------------------------------------------


def test_a_csv_field_that_names_tags_is_text_and_one_with_markup_is_html(tmp_path):
    path = tmp_path / "web.csv"
    path.write_text(
        "question,answer\n"
        'What is the difference between <div> and <section> in HTML?,"<div> is generic; '
        '<section> groups a theme."\n'
        'Why escape user input?,"Turn < into &lt; before you print <b>it</b>."\n'
        'What is a closure?,"A function<br>with its scope &amp; state."\n',
        encoding="utf-8",
    )
    report = importer.inspect(path)
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        (
            "What is the difference between <div> and <section> in HTML?",
            "<div> is generic; <section> groups a theme.",
        ),
        ("Why escape user input?", "Turn < into &lt; before you print <b>it</b>."),
        ("What is a closure?", "A function\nwith its scope & state."),
    ]
    assert any("cells read as HTML in 1 row(s)" in note for note in report.notes)


# -- a question's own text ---------------------------------------------------------------------


def test_brackets_in_code_and_a_number_run_into_the_text_are_kept(tmp_path):
    lines = ["# C 语言\n"]
    for n in range(40, 45):
        lines.append(f"## {n}.第 {n} 题：指针和数组有什么区别？\n\n见教材。\n")
    lines[3] = "## 42.32位和64位系统中，指针分别占多少字节？\n\n4 和 8。\n"
    lines.append("## 45. 二维数组 adj[i][j] 作为参数时 adj[][N] 为什么要写列数？\n\n按行寻址。\n")
    lines.append("## 45.1 列数不写会怎样？\n\n编译错误。\n")
    lines.append("## 46. 什么是 [野指针](https://example.com/wild) ？\n\n指向已释放内存。\n")
    path = tmp_path / "c.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    loaded = importer.read(path)
    by_text = {q.question: q for q in loaded.questions}
    assert "32位和64位系统中，指针分别占多少字节？" in by_text
    assert "二维数组 adj[i][j] 作为参数时 adj[][N] 为什么要写列数？" in by_text
    assert "列数不写会怎样？" in by_text  # "45.1 " is a section number: a space follows
    assert "什么是 野指针 ？" in by_text
    labels = [q.label or str(q.id) for q in loaded.questions]
    assert labels[:5] == ["40", "41", "42", "43", "44"]


def test_a_source_tail_after_a_bold_question_is_neither_text_nor_answer(tmp_path):
    path = tmp_path / "redis.md"
    path.write_text(
        "# Redis 面试\n\n"
        "**1、什么是缓存穿透？**（D:\\notes\\redis\\all.md）\n\n查询不存在的数据，每次都打到数据库。\n\n"
        "**2、什么是缓存雪崩？**（D:\\notes\\redis\\all.md）\n\n大量 key 同时过期。\n\n"
        "**3、说说缓存击穿的处理办法。**（https://example.com/redis/breakdown）\n\n"
        "热点 key 加互斥锁。\n\n"
        "**4、布隆过滤器的误判率怎么估算？**（notes/bloom.md）\n\n按位数组长度与哈希个数估算。\n",
        encoding="utf-8",
    )
    loaded = importer.read(path)
    assert [(q.question, q.reference) for q in loaded.questions] == [
        ("什么是缓存穿透？", "查询不存在的数据，每次都打到数据库。"),
        ("什么是缓存雪崩？", "大量 key 同时过期。"),
        ("说说缓存击穿的处理办法。", "热点 key 加互斥锁。"),
        ("布隆过滤器的误判率怎么估算？", "按位数组长度与哈希个数估算。"),
    ]


def test_a_mark_before_a_heading_number_still_strips_the_number(tmp_path):
    path = tmp_path / "marks.md"
    path.write_text(
        "# 高频题\n\n### 🔥 5、什么是缓存穿透？\n\n答一。\n\n### ⭐ 6、什么是缓存雪崩？\n\n答二。\n\n"
        "### 7、什么是缓存击穿？\n\n答三。\n",
        encoding="utf-8",
    )
    loaded = importer.read(path)
    assert [(q.id, q.question) for q in loaded.questions] == [
        (5, "什么是缓存穿透？"),
        (6, "什么是缓存雪崩？"),
        (7, "什么是缓存击穿？"),
    ]


def test_answers_alone_or_a_reading_that_needs_force_are_not_suggested():
    from studybot.bank.importer.steer import Reading, _better

    default = Reading("", 180, 168, 12, answered=18)
    table = Reading("--questions table:Title", 100, 100, 0, answered=100, refused=True)
    assert _better(default, [table]) is None  # fewer asking lines, and it needs --force
    taken = Reading("", 82, 78, 4, answered=68)
    bold = Reading("--questions bold", 82, 78, 4, answered=78)
    assert _better(taken, [bold]) is None  # the same questions: more answers alone
    sections = Reading("", 42, 18, 24, answered=18)
    level = Reading("--questions headings:3", 8, 8, 0, answered=8)
    assert _better(sections, [level]) == level
