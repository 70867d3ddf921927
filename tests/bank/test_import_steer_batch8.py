"""Classes first seen in the eighth batch of real files (issue 34), on files written here in
their shapes: what sits inside a question's answer stays there, questions with the same title
and different code are different questions, and the preview suggests nothing that harms.
"""

from __future__ import annotations

from studybot import bank
from studybot.bank import importer

TOPICS = ["closures", "promises", "hoisting", "callbacks", "prototypes", "modules"]


# -- what sits inside a question's answer is part of it --------------------------------------


def _boxed_answers(tmp_path):
    """``###### N. question`` over a ``<details>`` answer holding ``####`` sub-headings, one
    of which reads like a question (``#### 2. How X works:``), another inside a list item."""
    parts = ["# JavaScript Questions\n"]
    for n, topic in enumerate(TOPICS, start=1):
        parts.append(
            f"###### {n}. What are {topic} in JavaScript?\n\n"
            "<details><summary><b>Answer</b></summary>\n\n"
            f"#### 1. Definition:\n\n{topic.capitalize()} are a core feature.\n\n"
            f"#### 2. How {topic} work:\n\n"
            f"- ##### Scope of {topic}:\nThey keep what they need.\n\n"
            f"When we use {topic} we write less code.\n\n"
            "</details>\n\n---\n"
        )
    path = tmp_path / "js.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def test_headings_inside_an_answer_box_are_its_lines_never_questions_or_chapters(invoke, tmp_path):
    path = _boxed_answers(tmp_path)
    loaded = importer.inspect(path)
    assert [q.question for q in loaded.bank.questions] == [
        f"What are {topic} in JavaScript?" for topic in TOPICS
    ]
    assert len(loaded.bank.chapters) == 1
    first = loaded.bank.questions[0].reference or ""
    assert "How closures work:" in first and "When we use closures" in first
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Asking lines not taken" not in preview.stdout  # "When we use …" was imported
    assert "Try" not in preview.stdout


def test_a_heading_level_selector_keeps_the_sub_headings_in_the_answer(invoke, tmp_path, run_line):
    path = _boxed_answers(tmp_path)
    preview = invoke("bank", "import", str(path), "--questions", "headings:6", "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Import would refuse" not in preview.stdout
    assert f"{len(TOPICS)} question(s) in 1 chapter(s)" in preview.stdout
    assert "--questions headings:4" not in preview.stdout  # the answers' sub-headings
    words = run_line(preview.stdout)
    assert "--force" not in words
    saved = invoke(*words, "--name", "js")
    assert saved.exit_code == 0, saved.stderr
    answer = bank.load("js").questions[1].reference or ""
    assert "How promises work:" in answer and "When we use promises" in answer


def test_steps_deep_under_a_numbered_question_stay_in_its_answer(tmp_path):
    path = tmp_path / "k8s.md"
    path.write_text(
        "1. 什么是 Pod？\n\n    Pod 是最小的调度单位。\n\n"
        "2. 当 Pod 出现问题，如何进行排查？\n"
        "    1. **查看 Pod 状态**：`kubectl get pods`\n"
        "    2. **查看事件**：`kubectl describe pod`\n"
        "    - 是否存活：\n"
        "        ```bash\n        ps -ef | grep kubelet\n        ```\n"
        "    - **健康检查：用 curl 去测试是否正常运行**\n"
        "    - 查看日志：`journalctl -u kubelet`\n\n"
        "3. 什么是 Service？\n\n    Service 是访问入口。\n\n"
        "    - 追问：Service 和 Ingress 有什么区别？\n\n"
        "4. Deployment 和 StatefulSet 有什么区别？\n\n    后者有稳定的标识。\n",
        encoding="utf-8",
    )
    loaded = importer.read(path)
    assert [q.question for q in loaded.questions] == [
        "什么是 Pod？",
        "当 Pod 出现问题，如何进行排查？",
        "什么是 Service？",
        "Service 和 Ingress 有什么区别？",  # after the answer, a follow-up that asks is one
        "Deployment 和 StatefulSet 有什么区别？",
    ]
    steps = loaded.questions[1].reference or ""
    assert "是否存活：" in steps and "健康检查" in steps and "journalctl" in steps


# -- the same title over different code: different questions ---------------------------------


def test_the_same_title_over_different_code_gives_one_question_each_with_its_code(invoke, tmp_path):
    css = "```css\n.left {{ flex: 1 2 {0}px; }}\n.right {{ flex: 2 1 {1}px; }}\n```\n"
    path = tmp_path / "daily.md"
    path.write_text(
        "# 每日一题\n\n"
        "第 12 题：求最终 left、right 的宽度\n\n" + css.format(300, 200) + "\n"
        "解析：[第 12 题](https://example.com/12)\n\n"
        "第 11 题：求最终 left、right 的宽度\n\n" + css.format(500, 400) + "\n"
        "解析：[第 11 题](https://example.com/11)\n\n"
        "第 10 题：什么是 BFC？\n\n解析：[第 10 题](https://example.com/10)\n\n"
        "第 9 题：什么是 BFC？\n\n解析：[第 9 题](https://example.com/9)\n",
        encoding="utf-8",
    )
    report = importer.inspect(path)
    texts = [q.question for q in report.bank.questions]
    assert len(texts) == 3, texts
    assert texts[0].startswith("求最终 left、right 的宽度\n\n```")
    assert "300px" in texts[0] and "500px" in texts[1]
    assert "```" not in (report.bank.questions[0].reference or "")
    assert texts[2] == "什么是 BFC？"  # the same words and no code: asked again
    assert len(report.repeats) == 1 and "什么是 BFC？" in report.repeats[0]
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "1 question(s) asked again" in preview.stdout


def test_a_question_about_the_code_below_keeps_it_and_its_answer_stays_apart(tmp_path):
    exercise = (
        "#### {0}. What is the output of below code\n\n"
        "```javascript\nconsole.log({1});\n```\n\n"
        "- 1: {1}\n- 2: undefined\n\n"
        "<details><summary><b>Answer</b></summary>\n\n##### Answer: 1\n\n"
        "It prints {1}.\n\n</details>\n\n---\n"
    )
    lines = ["# Coding Exercise\n"]
    lines += [exercise.format(n, value) for n, value in enumerate(["1 + 1", "typeof null"], 1)]
    lines.append("#### 3. What is the output of the following loop\n\n```js\nfor (;;) {}\n```\n")
    lines.append("It never ends.\n")
    path = tmp_path / "exercises.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    report = importer.inspect(path)
    first, second, third = report.bank.questions
    assert first.question.endswith("```\nconsole.log(1 + 1);\n```")
    assert "typeof null" in second.question
    assert third.question.startswith("What is the output of the following loop\n\n```")
    assert "It prints typeof null." in (second.reference or "")
    assert third.reference == "It never ends."
    assert report.repeats == ()


def test_a_worked_example_under_a_question_stays_in_its_answer(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(
        "## 1. 写一个“标准”宏 MIN\n\n```c\n#define MIN(a, b) ((a) <= (b) ? (a) : (b))\n```\n\n"
        "## 2. 写一个“标准”宏 MIN\n\n这个宏输入两个参数并返回较小的一个。\n\n"
        "## 3. 什么是闭包？\n\n```js\nfunction f() { let x = 1; return () => x; }\n```\n",
        encoding="utf-8",
    )
    report = importer.inspect(path)
    questions = report.bank.questions
    assert [q.question for q in questions] == ["写一个“标准”宏 MIN", "什么是闭包？"]
    assert "#define MIN" in (questions[0].reference or "")
    assert "function f()" in (questions[1].reference or "")


# -- the preview suggests nothing that harms ---------------------------------------------------


def test_section_headings_over_lists_of_questions_are_not_suggested_as_questions(
    invoke, tmp_path, run_line
):
    parts = [
        "![banner](assets/banner.png)\n\n# 如何通过 Node.js 面试\n\n本文列出面试中需要确认的点.\n\n"
        "## 导读\n\n每类列举几个`常见问题`, 可以通过 `阅读更多` 查看.\n"
    ]
    for topic in ["模块", "事件循环", "进程", "网络", "错误处理"]:
        parts.append(
            f"## [{topic}](/sections/{topic}.md)\n\n"
            f"* [`[Basic]` {topic}机制](/sections/{topic}.md#basic)\n\n**常见问题**\n\n"
            f"* {topic}的原理是什么? [[more]](/sections/{topic}.md#q1)\n"
            f"* 如何调试{topic}? [[more]](/sections/{topic}.md#q2)\n"
            f"* {topic}有哪些坑?\n\n[阅读更多](/sections/{topic}.md)\n"
        )
    path = tmp_path / "node.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "--level" not in preview.stdout  # six sections, each taken as one question
    assert "--questions headings:2" not in preview.stdout
    # The bullets under each bold label are the questions by default now.
    report = importer.inspect(path)
    assert len(report.bank.questions) == 15, [q.question for q in report.bank.questions]
    assert all("[[more]]" not in q.question for q in report.bank.questions)
    assert run_line(preview.stdout)[:3] == ["bank", "import", str(path)]


def test_a_reading_that_takes_more_non_asking_questions_is_never_suggested():
    from studybot.bank.importer.steer import Reading, _harmless

    default = Reading("", 32, 32, 0, answered=32)
    sub_headings = Reading("--questions headings:4", 86, 1, 85, answered=1)
    assert _harmless(default, sub_headings) is None
    sections = Reading("", 1, 1, 0, answered=1)
    level = Reading("--questions headings:2", 14, 0, 14, answered=0)
    assert _harmless(sections, level) is None
    loose = Reading("", 51, 16, 35, answered=4)
    problems = Reading("--questions headings:2", 14, 0, 14, answered=0)
    assert _harmless(loose, problems) == problems  # fewer that do not ask: the fix it is
    bold = Reading("--questions bold", 166, 166, 5, answered=150)
    assert _harmless(Reading("", 26, 20, 6, answered=20), bold) == bold
    items = Reading("--questions items", 8, 8, 0, answered=0)  # questions with no answers
    assert _harmless(Reading("", 1, 1, 0, answered=1), items) == items
