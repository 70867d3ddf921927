"""What a question file's encoding is called, and the messages of records that hold nothing.

Issue 29, item 16: a UTF-32 file was called UTF-16, and so was UTF-8 text
with one NUL in it (which then read as no questions at all); a CSV cell
over 131,072 characters got Python's own message, and a TSV file that is
only a header got the hint meant for Markdown.
"""

from __future__ import annotations

import pytest

QUESTIONS = "1. 什么是词元？\n2. 为什么要分词？\n"


def import_(invoke, path, *more: str):
    return invoke("bank", "import", str(path), "--name", "mine", *more)


@pytest.mark.parametrize("encoding", ["utf-32", "utf-32-le", "utf-32-be"])
def test_a_utf32_file_is_called_utf32(invoke, tmp_path, encoding):
    path = tmp_path / "q.md"
    path.write_bytes(QUESTIONS.encode(encoding))
    refused = import_(invoke, path)
    assert refused.exit_code == 2
    assert refused.stderr.splitlines() == [
        f"Error: {path}:1: the file is UTF-32 text, not UTF-8",
        "Hint: save it as UTF-8 (Notepad: Save as → UTF-8; or iconv -f UTF-32 -t UTF-8)",
    ]
    forced = import_(invoke, path, "--force", "--json")
    assert forced.exit_code == 0, forced.stderr
    shown = invoke("bank", "show", "2", "--bank", "mine", "--json").stdout
    assert "为什么要分词？" in shown


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_still_called_utf16(invoke, tmp_path, encoding):
    path = tmp_path / "q.md"
    path.write_bytes(QUESTIONS.encode(encoding))
    refused = import_(invoke, path)
    assert refused.exit_code == 2
    assert f"{path}:1: the file is UTF-16 text, not UTF-8" in refused.stderr


def test_utf8_with_one_nul_is_utf8_and_its_questions_are_read(invoke, tmp_path):
    path = tmp_path / "q.md"
    path.write_bytes("1. 什么是词元？\n2. 为什么\x00要分词？\n3. 分词器怎么训练？\n".encode())
    result = invoke("bank", "import", str(path), "--preview", "--json")
    assert result.exit_code == 0, result.stderr
    assert "UTF-16" not in result.stdout + result.stderr
    assert '"questions": 3' in result.stdout


def test_a_csv_cell_over_the_limit_gets_our_message(invoke, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text(
        'question,answer\n什么是词元？,"一个引号没有关上\n' + "长" * 140_000 + "\n",
        encoding="utf-8",
    )
    result = import_(invoke, path)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {path}:2: a cell longer than 131,072 characters "
        "(a quote opened there and never closed?)",
        "Hint: close the quote, or split the cell: a cell holds at most 131,072 characters",
    ]


@pytest.mark.parametrize(
    "name, header, hint",
    [
        ("q.tsv", "question\tanswer\n", "question<TAB>answer"),
        ("q.csv", "question,answer\n", "question,answer"),
    ],
)
def test_a_header_alone_gets_the_hint_of_its_kind(invoke, tmp_path, name, header, hint):
    path = tmp_path / name
    path.write_text(header, encoding="utf-8")
    result = import_(invoke, path)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {path}:1: no questions found (looked for rows under the header)",
        f"Hint: put one question per row under the header: {hint} (a header alone holds none)",
    ]
