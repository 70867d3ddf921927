"""The shipped bank's layout and content rules, and the loader's error reports."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from studybot import bank
from studybot.errors import BadInput, BankError

CHAPTERS = [
    (1, 1, 8),
    (2, 9, 19),
    (3, 20, 39),
    (4, 40, 47),
    (5, 48, 58),
    (6, 59, 72),
    (7, 73, 87),
    (8, 88, 99),
    (9, 100, 117),
    (10, 118, 129),
    (11, 130, 141),
    (12, 142, 165),
    (13, 166, 179),
    (14, 180, 200),
]


@pytest.fixture(scope="module")
def shipped():
    return bank.load()


def test_shipped_bank_has_200_questions_in_the_14_chapters(shipped):
    assert [q.id for q in shipped.questions] == list(range(1, 201))
    assert [(c.number, c.first, c.last) for c in shipped.chapters] == CHAPTERS
    for number, first, last in CHAPTERS:
        assert {q.chapter for q in shipped.questions if first <= q.id <= last} == {number}


def test_every_question_has_three_to_seven_key_points_and_chinese_text(shipped):
    for q in shipped.questions:
        assert 3 <= len(q.key_points) <= 7, q.id
        assert re.search(r"[\u4e00-\u9fff]", q.question), q.id
        assert all(len(point) >= 15 for point in q.key_points), q.id


def test_no_two_questions_are_the_same_once_normalised(shipped):
    seen = {}
    for q in shipped.questions:
        key = bank.normalise(q.question)
        assert key not in seen, f"Q{q.id} repeats Q{seen.get(key)}"
        seen[key] = q.id
    points = [bank.normalise(p) for q in shipped.questions for p in q.key_points]
    assert len(points) == len(set(points))


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (5, ["上下文", "输入", "输出"]),
        (23, ["KV", "K", "V", "Q"]),
        (34, ["8K", "32K", "KV"]),
        (76, ["多轮", "prefill", "KV"]),
    ],
)
def test_fixed_anchors_keep_their_numbers(shipped, number, words):
    text = shipped.get(number).question
    for word in words:
        assert word in text, (number, word)


def test_anchor_answers_carry_the_numbers_users_quote(shipped):
    q5 = " ".join(shipped.get(5).key_points)
    assert "n²" in q5 and "输出" in q5
    q34 = " ".join(shipped.get(34).key_points)
    assert "4 倍" in q34 and "16 倍" in q34
    q182 = " ".join(shipped.get(182).key_points)
    assert "70272" in q182 or "70,272" in q182
    assert " KB" not in q182 and " MB" not in q182  # binary units, one way


# -- the bank reads as one book ------------------------------------------------


def bank_text(shipped):
    """Every piece of the shipped bank a reader sees, with where it is."""
    for chapter in shipped.chapters:
        yield f"chapter {chapter.number}", chapter.title
    for q in shipped.questions:
        for text in (q.question, *q.key_points, q.hint or ""):
            yield f"Q{q.id}", text


# Each of these terms once had a second spelling in the bank; that spelling is
# allowed only inside the one gloss that introduces the term.
ONE_WORD = [
    ("词元", "token 即「词元」"),
    ("预填充", "prefill（预填充）"),
    ("智能体", "Agent（智能体）"),
    ("kv cache", None),  # always 「KV 缓存」
    ("kv缓存", None),
]


@pytest.mark.parametrize(("word", "gloss"), ONE_WORD)
def test_each_term_is_written_one_way_outside_its_one_gloss(shipped, word, gloss):
    glosses = 0
    for where, text in bank_text(shipped):
        if gloss:
            glosses += text.count(gloss)
            text = text.replace(gloss, "")
        assert word not in text.lower(), f"{where} writes {word!r} outside its gloss"
    assert glosses == (1 if gloss else 0)


def test_every_question_has_a_hint_in_chinese(shipped):
    missing = [q.id for q in shipped.questions if not re.search(r"[\u4e00-\u9fff]", q.hint or "")]
    assert missing == []


LONGEST_POINT = 150  # characters; a longer point packs facts that are recalled apart


def test_every_key_point_is_short_enough_to_recall_on_its_own(shipped):
    long = [
        (q.id, len(point))
        for q in shipped.questions
        for point in q.key_points
        if len(point) > LONGEST_POINT
    ]
    assert long == []


def test_what_two_questions_share_is_written_alike(shipped):
    def points(number):
        return " ".join(shipped.get(number).key_points)

    # YaRN's attention temperature, in the YaRN paper's convention, in both places
    assert all("√(1/t) = 0.1·ln s + 1" in points(n) for n in (32, 192))
    assert all("数万到上百万条" in points(n) for n in (3, 142))  # SFT data scale


@pytest.mark.parametrize("number", [12, 13, 46, 61, 67, 72, 84, 107, 176, 178])
def test_facts_that_age_say_when_they_held(shipped, number):
    assert "截至 2025 年" in " ".join(shipped.get(number).key_points)


@pytest.mark.parametrize(
    ("number", "fact"),
    [
        (4, "15T token"),  # Llama 3 8B's pretraining data
        (8, "Bradley–Terry"),  # Chatbot Arena's fit since Dec 2023
        (12, "152064"),  # Qwen2.5 7B-72B vocab_size
        (41, "两边都加「query: 」"),  # e5's prefix rule for symmetric use
        (133, "0.9^11 ≈ 0.31"),  # bottom Transformer layer, not the embedding layer
        (135, "5e-4"),  # DAPT's peak learning rate
        (182, "68.6 KiB"),
        (193, "77.9%"),  # the journal version's R1-Zero AIME figure
        (200, "EP144"),  # the published decode layout
    ],
)
def test_corrected_facts_stay_corrected(shipped, number, fact):
    assert fact in " ".join(shipped.get(number).key_points)


def test_q13_quotes_the_tokens_per_character_the_bank_itself_measures(shipped):
    from studybot.costs import tokens

    runs = [
        run
        for _, text in bank_text(shipped)
        for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]+", text)
    ]
    measured = sum(tokens.count(run) for run in runs) / sum(len(run) for run in runs)
    quoted = re.search(r"cl100k 约 (\d\.\d+) token/字", " ".join(shipped.get(13).key_points))
    assert quoted and abs(float(quoted.group(1)) - measured) <= 0.05, measured


def test_select_validates_ranges(shipped):
    assert [q.id for q in shipped.select(20, 27)] == list(range(20, 28))
    with pytest.raises(BadInput, match="after --to"):
        shipped.select(9, 3)
    with pytest.raises(BadInput, match="outside"):
        shipped.select(195, 205)


# -- the loader's reports: file:line for every problem -------------------------


@pytest.fixture
def bank_copy(tmp_path) -> Path:
    """A two-chapter bank (chapters 1 and 2 of the shipped one) to break."""
    folder = tmp_path / "bank"
    folder.mkdir()
    src = bank.shipped_dir()
    for name in ("01-intro.toml", "02-tokens-embeddings.toml"):
        shutil.copy(src / name, folder / name)
    index = (src / "bank.toml").read_text(encoding="utf-8")
    head, *tables = index.split("[[chapters]]")
    (folder / "bank.toml").write_text(
        head + "[[chapters]]" + "[[chapters]]".join(tables[:2]), encoding="utf-8"
    )
    return folder


def test_a_copied_bank_loads(bank_copy):
    loaded = bank.load(str(bank_copy))
    assert len(loaded.questions) == 19


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_too_few_key_points_is_reported_at_its_line(bank_copy):
    path = bank_copy / "01-intro.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("id = 3")
    block_start = text.index("key_points = [", start)
    block_end = text.index("]", block_start)
    path.write_text(
        text[:block_start] + 'key_points = ["只有一条要点，明显不够用。"' + text[block_end:],
        encoding="utf-8",
    )
    problems = bank.validate(str(bank_copy))
    expected = f"{path}:{line_of(path, '只有一条要点')}"
    assert any(p.startswith(expected) and "Q3 has 1 key points" in p for p in problems), problems


def test_duplicate_id_unknown_key_and_syntax_errors_are_each_located(bank_copy):
    path = bank_copy / "02-tokens-embeddings.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("id = 12\n", "id = 11\n", 1).replace("hint =", "hints =", 1)
    path.write_text(text, encoding="utf-8")
    problems = bank.validate(str(bank_copy))
    assert any(f"{path}:{line_of(path, 'hints =')}: unknown key 'hints'" in p for p in problems)
    assert any("out of order" in p or "missing question" in p for p in problems)

    path.write_text('chapter = 2\n[[questions]]\nid = 9\nquestion = "未闭合\n', encoding="utf-8")
    problems = bank.validate(str(bank_copy))
    assert any(p.startswith(f"{path}:4: TOML syntax error") for p in problems), problems


def test_duplicate_question_text_is_reported_by_id(bank_copy):
    path = bank_copy / "01-intro.toml"
    text = path.read_text(encoding="utf-8")
    first = re.search(r'question = "(.*)"', text).group(1)
    second = re.findall(r'question = "(.*)"', text)[1]
    path.write_text(text.replace(second, first + "  "), encoding="utf-8")
    assert "Q2: same question as Q1" in bank.validate(str(bank_copy))


def test_loading_a_broken_bank_raises_one_message_with_a_count(bank_copy):
    (bank_copy / "02-tokens-embeddings.toml").unlink()
    with pytest.raises(BankError) as caught:
        bank.load(str(bank_copy))
    assert "02-tokens-embeddings.toml: file not found" in caught.value.message
    assert caught.value.exit_code == 2


def test_bank_validate_command_prints_every_problem_and_exits_2(invoke, bank_copy):
    path = bank_copy / "01-intro.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("id = 4\n", "id = 44\n"), encoding="utf-8"
    )
    result = invoke("bank", "validate", str(bank_copy))
    assert result.exit_code == 2
    assert f"{path}:" in result.stderr and "outside chapter 1" in result.stderr
    assert "problem(s) found" in result.stderr
    ok = invoke("bank", "validate")
    assert ok.exit_code == 0 and "200 questions in 14 chapter(s)" in ok.stdout


def test_bank_list_and_show_json(invoke):
    listed = invoke("bank", "list", "--json")
    import json

    rows = json.loads(listed.stdout)
    assert len(rows) == 200 and set(rows[0]) == {"id", "chapter", "question"}
    assert sorted({r["chapter"] for r in rows}) == list(range(1, 15))
    shown = json.loads(invoke("bank", "show", "34", "--json").stdout)
    assert set(shown) == {
        "id",
        "chapter",
        "question",
        "key_points",
        "tags",
        "hint",
        "reference",
        "label",
    }
    assert shown["id"] == 34 and shown["chapter"] == 3
    missing = invoke("bank", "show", "201")
    assert missing.exit_code == 2 and "question 201 is not in bank" in missing.stderr
