"""Classes first seen in the eighth batch of real files (issue 34), on files written here in
their shapes: what sits inside a question's answer stays there, questions with the same title
and different code are different questions, and the preview suggests nothing that harms.
"""

from __future__ import annotations

import shlex

from studybot import bank
from studybot.bank import importer

TOPICS = ["closures", "promises", "hoisting", "callbacks", "prototypes", "modules"]


def _run_line(stdout: str) -> list[str]:
    """The preview's last line, ``Run: …``, as the words a shell would pass."""
    last = stdout.rstrip().splitlines()[-1]
    assert last.startswith("Run: studybot "), last
    return shlex.split(last.removeprefix("Run: studybot "))


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


def test_a_heading_level_selector_keeps_the_sub_headings_in_the_answer(invoke, tmp_path):
    path = _boxed_answers(tmp_path)
    preview = invoke("bank", "import", str(path), "--questions", "headings:6", "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Import would refuse" not in preview.stdout
    assert f"{len(TOPICS)} question(s) in 1 chapter(s)" in preview.stdout
    assert "--questions headings:4" not in preview.stdout  # the answers' sub-headings
    words = _run_line(preview.stdout)
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
