"""Questions that a file's shape must not drop: an unclosed ``<details>``, deep lists.

Issue 29, item 9: an unclosed ``<details>`` after Q1 swallowed Q2 and Q3; a
list item nested deeper than markdown-it's limit (10 levels) took the rest
of the file with it ("no questions found" when it came first), and a
10,000-level list took 21–31 s and 1.4 GB. Each question is imported or
listed as not taken, and deep nesting costs what the file's size costs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studybot.bank.importer import blocks

ROOT = Path(__file__).resolve().parents[2]


def preview(invoke, path: Path) -> dict:
    result = invoke("bank", "import", str(path), "--preview", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def questions(invoke, path: Path) -> list[tuple[str, str | None]]:
    shown = json.loads(invoke("bank", "list", "--bank", str(path), "--json").stdout)
    out = []
    for row in shown["questions"] if isinstance(shown, dict) else shown:
        one = json.loads(
            invoke("bank", "show", str(row["id"]), "--bank", str(path), "--json").stdout
        )
        out.append((one["question"], one.get("reference")))
    return out


# -- an unclosed <details> ---------------------------------------------------------------

ANSWER_TAGS = "<details>\n<summary>答案</summary>\n"
AFTER = "\n注意力按相关性加权。\n\n{2}什么是 KV 缓存？\n\n缓存 K 和 V。\n\n{3}为什么不缓存 Q？\n\nQ 只用一次。\n"


@pytest.mark.parametrize(
    "first, two, three",
    [("1. ", "2. ", "3. "), ("Q1：", "Q2：", "Q3："), ("## 1. ", "## 2. ", "## 3. ")],
    ids=["numbered", "markers", "headings"],
)
def test_an_unclosed_details_after_q1_swallows_neither_q2_nor_q3(
    invoke, tmp_path, first, two, three
):
    path = tmp_path / "notes.md"
    text = f"{first}什么是注意力机制？\n\n{ANSWER_TAGS}" + AFTER.replace("{2}", two).replace(
        "{3}", three
    )
    path.write_text(text, encoding="utf-8")
    assert preview(invoke, path)["totals"]["questions"] == 3
    assert questions(invoke, path) == [
        ("什么是注意力机制？", "注意力按相关性加权。"),
        ("什么是 KV 缓存？", "缓存 K 和 V。"),
        ("为什么不缓存 Q？", "Q 只用一次。"),
    ]


def test_an_unclosed_details_whose_summary_asks_is_a_question_answered_below(invoke, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(
        "<details>\n<summary>什么是注意力机制？</summary>\n"
        + AFTER.replace("{2}", "## 2. ").replace("{3}", "## 3. "),
        encoding="utf-8",
    )
    assert [q for q, _ in questions(invoke, path)] == [
        "什么是注意力机制？",
        "什么是 KV 缓存？",
        "为什么不缓存 Q？",
    ]
    assert questions(invoke, path)[0][1] == "注意力按相关性加权。"


def test_a_closed_details_still_holds_its_answer(invoke, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(
        "1. 什么是注意力机制？\n\n<details>\n<summary>答案</summary>\n\n注意力按相关性加权。\n\n"
        "2. 这一行在折叠里，是答案的一部分？\n\n</details>\n\n2. 什么是 KV 缓存？\n",
        encoding="utf-8",
    )
    found = questions(invoke, path)
    assert [q for q, _ in found] == ["什么是注意力机制？", "什么是 KV 缓存？"]
    assert "这一行在折叠里" in found[0][1]


# -- deep lists ----------------------------------------------------------------------------


def nested(depth: int, indent: str = "  ") -> str:
    return "".join(f"{indent * d}- 第 {d} 层的问题是什么？\n" for d in range(depth))


NUMBERED = "\n1. 什么是词元？\n2. 什么是嵌入？\n3. 什么是注意力？\n"


def test_a_ten_deep_item_before_a_list_leaves_the_list_and_itself(invoke, tmp_path):
    path = tmp_path / "deep.md"
    path.write_text(nested(10) + NUMBERED, encoding="utf-8")
    report = preview(invoke, path)
    taken = [q for q, _ in questions(invoke, path)]
    assert taken == [f"第 {d} 层的问题是什么？" for d in range(10)] + [
        "什么是词元？",
        "什么是嵌入？",
        "什么是注意力？",
    ]
    assert report["not_taken"] == []


@pytest.mark.parametrize(
    "text",
    [
        nested(40, "    "),  # 40 levels of 4-space indentation
        nested(200),  # deeper than the parser is shown
        "".join(f"{'- ' * d}第 {d} 层的问题是什么？\n\n" for d in range(1, 41)),  # "- - - …" lines
        "- " * 5000 + "第 5000 层的问题是什么？\n" + NUMBERED,
        "> " * 5000 + "第 5000 层的问题是什么？\n" + NUMBERED,
    ],
    ids=["4-space", "200-levels", "markers-per-line", "5000-markers", "5000-quotes"],
)
def test_items_nested_deeper_than_the_parser_goes_are_each_imported(invoke, tmp_path, text):
    path = tmp_path / "deep.md"
    path.write_text(text, encoding="utf-8")
    expected = [line.strip("- >\n") for line in text.splitlines() if line.strip("- >")]
    expected = [line.split(". ", 1)[-1] for line in expected]
    assert [q for q, _ in questions(invoke, path)] == expected


def test_the_parser_never_sees_a_prefix_longer_than_its_limit(monkeypatch):
    seen: list[str] = []
    parse = blocks._PARSER.parse
    monkeypatch.setattr(blocks._PARSER, "parse", lambda text: seen.append(text) or parse(text))
    text = nested(3000) + "\n" + "- " * 3000 + "问题？\n"
    found = blocks.parse("\n".join(blocks.source_lines(text)))
    assert found and seen
    longest = max(len(line) - len(line.lstrip(" -")) for t in seen for line in t.split("\n"))
    assert longest <= blocks.PREFIX_COLUMNS + 2


def test_a_line_keeps_at_most_its_limit_of_indentation():
    lines = blocks.source_lines(" " * 50_000 + "- 深\n\t\t- 浅\n" + "\t" * 1000 + "- 更深")
    assert lines[0] == " " * blocks.INDENT_COLUMNS + "- 深"
    assert lines[1] == " " * 8 + "- 浅"
    assert lines[2] == " " * blocks.INDENT_COLUMNS + "- 更深"


def test_a_10000_level_list_is_read_in_seconds_and_little_memory(tmp_path):
    path = tmp_path / "deep.md"
    path.write_text(nested(10_000), encoding="utf-8")  # 100 MB, most of it indentation
    code = textwrap.dedent(
        f"""
        import resource
        from studybot.bank import importer
        report = importer.inspect({str(path)!r})
        used = resource.getrusage(resource.RUSAGE_SELF)
        print(len(report.bank.questions), used.ru_utime + used.ru_stime, used.ru_maxrss)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    count, seconds, kilobytes = done.stdout.split()
    assert int(count) == 10_000
    # CPU seconds, which a busy machine does not inflate: 21–31 s before; about 6 s now
    assert float(seconds) < 15
    assert int(kilobytes) < 800 * 1024  # 1.4 GB before; the file's bytes and text now
