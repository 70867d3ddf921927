"""A preview that steers (issue 34, item 2): where questions were found, what was left, the
option that reads the file better, and the command to run, with that option, as its last line.

The file is written for the test: questions as bold bullets inside ``<details>`` boxes under
section headings, each box's summary an answer's label (``答案``) with no question above it,
which the default does not read into. (The shape the issue names, ``<summary>查看问题</summary>``,
is read by default: tests/bank/test_import_corpus_batch14.py.)
"""

from __future__ import annotations

import json
import shlex

from studybot import bank

FOLDED = """# LLM 面试八股

## 一、基础篇

### 1. 注意力机制

<details><summary>答案</summary>

- **为什么要除以根号 d？**
- **多头注意力的作用是什么？**
- **MQA 和 GQA 有什么区别？**

</details>

### 2. 位置编码

<details><summary>答案</summary>

- **RoPE 为什么能外推？**
- **ALiBi 是怎么做的？**

</details>

## 二、训练篇

### 3. 微调

<details><summary>答案</summary>

- **LoRA 的原理是什么？**
- **QLoRA 比 LoRA 省在哪里？**
- **全参微调什么时候更好？**

</details>

### 4. 为什么大模型会有幻觉？

训练数据与目标都会带来幻觉。
"""

LISTED = [
    (9, "为什么要除以根号 d？"),
    (10, "多头注意力的作用是什么？"),
    (11, "MQA 和 GQA 有什么区别？"),
    (19, "RoPE 为什么能外推？"),
    (20, "ALiBi 是怎么做的？"),
    (30, "LoRA 的原理是什么？"),
    (31, "QLoRA 比 LoRA 省在哪里？"),
    (32, "全参微调什么时候更好？"),
]


def test_the_preview_counts_lists_what_it_left_and_names_the_option_that_takes_it(invoke, tmp_path):
    path = tmp_path / "bagu.md"
    path.write_text(FOLDED, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    out = shown.stdout
    assert "Found in: 1 heading (read by default)." in out
    assert "Took 1 question(s): 1 of the file's 9 asking line(s), 0 that do not ask." in out
    assert "Asking lines not taken (8):" in out
    for line, text in LISTED:
        assert f"  line {line}: {text}\n" in out
    assert (  # items would leave the asking heading "4. …" and its answer
        "Try --questions lines: 9 questions, 1 asking with an answer, 0 non-asking "
        "(9 of 9 asking lines, 8 of those not taken)" in out
    )
    assert f"studybot bank import {path} --questions lines --preview" in out
    assert "--level 3" not in out  # one option offered, the one that reads it better
    last = out.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name bagu --questions lines"
    run = invoke(*shlex.split(last.removeprefix("Run: studybot ")))
    assert run.exit_code == 0, run.stderr
    saved = bank.load("bagu").questions
    assert [q.question for q in saved] == [text for _, text in LISTED] + ["为什么大模型会有幻觉？"]
    assert saved[-1].reference == "训练数据与目标都会带来幻觉。"
    followed = invoke("bank", "import", str(path), "--preview", "--questions", "items")
    assert followed.exit_code == 0, followed.stderr
    assert "Found in: 8 list items (read with --questions items)." in followed.stdout
    assert "line 36: asks; --questions items does not take it: 4. 为什么大模型会有幻觉？" in (
        followed.stdout  # what this reading leaves, listed once
    )
    assert "Asking lines not taken" not in followed.stdout
    assert "Try --questions" not in followed.stdout  # one line more is not clearly better
    last = followed.stdout.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name bagu --questions items"


def test_the_last_line_is_the_command_to_run_with_the_name_and_the_options(invoke, tmp_path):
    path = tmp_path / "llm-200.md"
    path.write_text(FOLDED, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview", "--name", "mine", "--answers", "none")
    last = shown.stdout.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name mine --answers none --questions lines"
    bare = invoke("bank", "import", str(path), "--preview")
    assert bare.stdout.rstrip("\n").split("\n")[-1] == (
        f"Run: studybot bank import {path} --name llm-200 --questions lines"
    )


def test_the_suggested_preview_keeps_the_users_options_and_runs(invoke, tmp_path):
    path = tmp_path / "bagu.md"
    path.write_text(FOLDED, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview", "--answers", "none", "--level", "3")
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.rstrip("\n").split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("Try --questions lines: "))
    suggested = lines[at + 1].strip()  # --level 3 left out: --questions reads without it
    assert suggested == f"studybot bank import {path} --answers none --questions lines --preview"
    assert (
        lines[-1]
        == f"Run: studybot bank import {path} --name bagu --answers none --questions lines"
    )
    followed = invoke(*shlex.split(suggested.removeprefix("studybot ")))
    assert followed.exit_code == 0, followed.stderr
    assert "(read with --questions lines --answers none)." in followed.stdout
    assert "Total: 9 question(s) in 2 chapter(s); 0 with a reference answer" in followed.stdout
    ran = shlex.split(followed.stdout.rstrip("\n").split("\n")[-1])
    assert _options(ran) == _options(shlex.split(lines[-1]))  # the same import, to run


def _options(words: list[str]) -> dict[str, str]:
    at = words.index("--name")
    return dict(zip(words[at::2], words[at + 1 :: 2], strict=True))


def test_the_refusals_suggested_command_keeps_the_users_options(invoke, tmp_path):
    path = tmp_path / "folded.md"
    path.write_text(FOLDED.split("### 4.")[0], encoding="utf-8")
    refused = invoke("bank", "import", str(path), "--preview", "--answers", "none")
    assert refused.exit_code == 2
    hinted = f"studybot bank import {path} --answers none --questions items --preview"
    assert f"({hinted})" in refused.stderr
    followed = invoke(*shlex.split(hinted.removeprefix("studybot ")))
    assert followed.exit_code == 0, followed.stderr
    assert "Found in: 8 list items (read with --questions items --answers none)." in (
        followed.stdout
    )


def test_nothing_taken_by_default_names_the_selector_in_the_refusal(invoke, tmp_path):
    path = tmp_path / "folded.md"
    path.write_text(FOLDED.split("### 4.")[0], encoding="utf-8")
    refused = invoke("bank", "import", str(path), "--preview")
    assert refused.exit_code == 2
    assert "no questions found" in refused.stderr
    assert (
        f"Hint: try --questions items: 8 questions, 0 with an answer, 0 non-asking "
        f"(studybot bank import {path} --questions items --preview)" in refused.stderr
    )


def test_preview_json_and_import_json_carry_the_same_steering(invoke, tmp_path):
    path = tmp_path / "folded.md"
    path.write_text(FOLDED, encoding="utf-8")
    preview = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)
    steer = preview["steer"]
    assert steer["found_in"] == {"heading": 1}
    assert steer["asking_lines"] == 9
    assert [(a["where"], a["text"]) for a in steer["asking_not_taken"]] == [
        (f"{path}:{line}", text) for line, text in LISTED
    ]
    plain = {"answered": 1, "needs_force": False}
    assert steer["taken"] == {"option": "", "questions": 1, "asking": 1, "non_asking": 0} | {
        **plain,
        "takes_not_taken": 0,
    }
    assert steer["suggestion"] == {
        "option": "--questions lines",
        "questions": 9,
        "asking": 9,
        "non_asking": 0,
        "takes_not_taken": 8,
        **plain,
    }
    three = {"option": "--questions headings:3", "questions": 4, "asking": 1, "non_asking": 3}
    assert three | {**plain, "takes_not_taken": 0} in steer["readings"]
    assert preview["command"] == f"studybot bank import {path} --name folded"
    saved = invoke("bank", "import", str(path), "--name", "folded", "--json")
    assert saved.exit_code == 0, saved.stderr
    data = json.loads(saved.stdout)
    assert data["steer"] == steer
    assert data["command"] == preview["command"]


def test_a_file_read_whole_by_default_gets_no_suggestion(invoke, tmp_path):
    path = tmp_path / "plain.md"
    path.write_text(
        "# Questions\n\n## Basics\n\n1. What is overfitting?\n2. Why normalise inputs?\n"
        "3. Explain dropout.\n4. How does Adam differ from SGD?\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview")
    assert "Found in: 4 list items (read by default)." in shown.stdout
    assert "Asking lines not taken" not in shown.stdout
    assert "Try" not in shown.stdout


def test_on_a_60_column_terminal_every_line_fits_and_the_commands_still_run(
    studybot_home, tmp_path, monkeypatch
):
    import shlex

    from rich.cells import cell_len
    from screens import on_terminal

    monkeypatch.chdir(tmp_path)  # the file named as a user in its folder names it
    path = "folded-llm-interview-questions.md"
    (tmp_path / path).write_text(FOLDED, encoding="utf-8")
    screen = on_terminal(studybot_home, ("bank", "import", path, "--preview"), 60)
    lines = screen.replace("\r\n", "\n").rstrip("\n").split("\n")
    assert max(cell_len(line) for line in lines) <= 60
    assert "  line 32: 全参微调什么时候更好？" in lines
    # a command broken between its words, with a backslash: pasted, it is one command again
    run = next(n for n, line in enumerate(lines) if line.startswith("Run: "))
    assert lines[run].endswith(" \\") and run < len(lines) - 1
    pasted = " ".join(line.removesuffix(" \\").strip() for line in lines[run:])
    assert shlex.split(pasted.removeprefix("Run: ")) == [
        "studybot", "bank", "import", path, "--name", "folded-llm-interview-questions",
        "--questions", "lines",
    ]  # fmt: skip


def test_questions_asked_inside_answers_are_listed_but_every_line_is_not_suggested(
    invoke, tmp_path
):
    path = tmp_path / "qa.md"
    path.write_text(
        "# Attention\n\n"
        "### 1. Why scale the dot product by sqrt(d)?\n\nIts variance grows with d.\n\n"
        "Why does that matter?\n\nThe softmax saturates.\n\n"
        "### 2. Why several heads?\n\nEach head attends to its own subspace.\n\n"
        "What would one head miss?\n\nMixed patterns.\n\n"
        "### 3. What does the KV cache hold?\n\nK and V of every past token.\n\n"
        "Why not Q?\n\nQ is used once.\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview")
    assert (
        "Took 3 question(s): 3 of the file's 6 asking line(s), 0 that do not ask." in shown.stdout
    )
    assert "  line 7: Why does that matter?\n  line 15: What would one head miss?\n" in shown.stdout
    assert "Try --questions" not in shown.stdout  # 'lines' would cut each answer in two


def test_a_reading_with_fewer_section_titles_is_suggested_one_that_only_takes_less_is_not():
    from studybot.bank.importer.steer import Reading, _better

    default = Reading("", 228, 212, 16)  # 212 asking items and 16 section titles
    items = Reading("--questions items", 212, 212, 0)
    titles = Reading("--questions headings:2", 16, 0, 16)
    few = Reading("--questions headings:4", 3, 0, 3)  # fewer non-asking only by taking less
    assert _better(default, [titles, items, few]) == items
    assert _better(Reading("", 7, 0, 7), [few]) is None


def test_a_path_almost_as_wide_as_the_terminal_keeps_its_backslash_on_its_line(
    studybot_home, tmp_path, monkeypatch
):
    import shlex

    from rich.cells import cell_len
    from screens import on_terminal

    monkeypatch.chdir(tmp_path)
    path = "notes/interview-prep/folded-llm-interview-questions.md"  # 53 columns
    (tmp_path / "notes" / "interview-prep").mkdir(parents=True)
    (tmp_path / path).write_text(FOLDED, encoding="utf-8")
    screen = on_terminal(studybot_home, ("bank", "import", path, "--preview"), 60)
    lines = screen.replace("\r\n", "\n").rstrip("\n").split("\n")
    assert max(cell_len(line) for line in lines) <= 60
    run = next(n for n, line in enumerate(lines) if line.startswith("Run: "))
    assert all(line.endswith(" \\") for line in lines[run:-1]), lines[run:]
    pasted = " ".join(line.removesuffix(" \\").strip() for line in lines[run:])
    assert shlex.split(pasted.removeprefix("Run: "))[:4] == ["studybot", "bank", "import", path]


def test_the_heading_of_a_section_without_questions_is_no_asking_line_left(invoke, tmp_path):
    path = tmp_path / "readme.md"
    path.write_text(
        "# 大模型面试\n\n## 基础\n\n1. 为什么要做归一化？\n2. 什么是 KV 缓存？\n3. RoPE 怎么外推？\n\n"
        "## 🤝 如何贡献\n\n欢迎提交 PR，补充真实面经。\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    assert "Total: 3 question(s)" in shown.stdout
    assert "如何贡献" not in shown.stdout.split("Total:")[1]  # not listed as an asking line left


def test_the_preview_never_prints_two_blank_lines_in_a_row(invoke, tmp_path):
    path = tmp_path / "cards.md"
    path.write_text(
        "# 缓存\n\n### Q1：击穿和穿透有什么不同？\n\n击穿是热点键过期，穿透是查不存在的键。\n\n"
        "### Q2：LRU 淘汰的是哪个键？\n\n最久没被访问的那个。\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview").stdout
    assert "Total: 2 question(s)" in shown
    assert "\n\n\n" not in shown
