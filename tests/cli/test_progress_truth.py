"""`progress` tells the truth: read questions are seen, a lapse shows, and what is due when."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from studybot.storage.store import Store

NOW = datetime.now(UTC)


def learnt(rate, question_id: int, days_ago: float = 6) -> None:
    """Two Good ratings ten minutes apart: the card leaves its learning steps."""
    start = NOW - timedelta(days=days_ago)
    rate(question_id, 3, start, grade=0.8)
    rate(question_id, 3, start + timedelta(minutes=10), grade=0.9)


def progress_json(invoke) -> dict:
    result = invoke("progress", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_read_questions_count_as_seen(rate, invoke):
    assert invoke("run", "--from", "1", "--to", "8").exit_code == 0  # a read run: no rating
    rate(2, 3, NOW, grade=0.7)
    one = progress_json(invoke)["chapters"][0]
    assert (one["seen"], one["rated"], one["total"]) == (8, 1, 8)
    assert one["last_studied"] is not None
    assert "8/8" in invoke("progress").stdout


def test_a_lapse_a_minute_ago_is_below_100_and_stands_out(rate, invoke):
    for question_id in (20, 21, 22, 23):
        learnt(rate, question_id)
    rate(23, 3, NOW - timedelta(days=1), grade=0.9)  # a passed review
    rate(23, 1, NOW - timedelta(minutes=1), grade=0.1)  # then a lapse, a minute ago
    data = progress_json(invoke)
    questions = {q["id"]: q for q in data["questions"]}
    lapse, passed = questions[23], questions[22]
    assert lapse["failed"] is True and lapse["last_rating"] == 1
    assert lapse["retention"] < 1.0 and lapse["retention"] < passed["retention"]
    assert passed["failed"] is False
    three = data["chapters"][2]
    assert three["failed"] == 1
    assert three["retention"] < 1.0
    # Anki's true retention: only reviews of learnt cards count (Q23's last two)
    assert three["true_retention"] == {"share": 0.5, "passed": 1, "failed": 1}
    assert data["true_retention"]["failed"] == 1
    line = next(
        line for line in invoke("progress").stdout.splitlines() if line.split()[:1] == ["3"]
    )
    assert "✗ 1" in line and "100%" not in line


def test_a_first_rating_of_again_is_no_100_percent_either(rate, invoke):
    rate(5, 1, NOW - timedelta(minutes=1), grade=0.0)
    (q5,) = progress_json(invoke)["questions"]
    assert q5["failed"] and q5["retention"] < 1.0


def test_retention_counts_the_hours_not_whole_days(rate, invoke):
    rate(9, 4, NOW - timedelta(hours=20), grade=1.0)  # Easy 20 hours ago: fsrs says day 0
    (q9,) = progress_json(invoke)["questions"]
    assert 0.9 < q9["retention"] < 0.999


def test_due_today_and_a_seven_day_forecast(rate, invoke):
    rate(30, 1, NOW - timedelta(days=3))  # overdue: due today
    for question_id, days_ago in ((40, 6), (41, 5), (42, 4), (43, 30)):
        rate(question_id, 4, NOW - timedelta(days=days_ago))  # Easy: back in days
    data = progress_json(invoke)
    cards = json.loads(invoke("due", "--json").stdout)
    today = datetime.now().astimezone().date()
    days = [(datetime.fromisoformat(c["due"]).astimezone().date() - today).days for c in cards]
    assert data["due_today"] == sum(1 for d in days if d <= 0) >= 1
    assert data["forecast"] == [sum(1 for d in days if d == n) for n in range(1, 8)]
    assert len(data["forecast"]) == 7
    questions = {q["id"]: q for q in data["questions"]}
    assert questions[30]["due_now"] and questions[30]["due_today"]
    footer = next(line for line in invoke("progress").stdout.splitlines() if "next 7 days" in line)
    assert f"due today {data['due_today']}" in footer
    assert " ".join(map(str, data["forecast"])) in footer


def pixels(path):
    import matplotlib.image

    return matplotlib.image.imread(path)[..., :3]


def has_colour(image, hex_colour: str) -> bool:
    import numpy as np

    target = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return bool((np.abs(image - target).max(axis=-1) < 0.02).any())


def test_the_png_marks_failed_and_due_cells(rate, invoke, tmp_path):
    pytest.importorskip("matplotlib")
    from studybot.output import plots

    learnt(rate, 25, days_ago=0.01)  # learnt a quarter of an hour ago: due in a day or more
    before = tmp_path / "before.png"
    assert invoke("progress", "--plot", str(before)).exit_code == 0
    assert not has_colour(pixels(before), plots.FAILED)
    assert not has_colour(pixels(before), plots.DUE)
    rate(25, 1, NOW - timedelta(minutes=1))  # a lapse: failed, and due again within minutes
    rate(60, 3, NOW - timedelta(days=9))  # a learning card left for days: due
    after = tmp_path / "after.png"
    assert invoke("progress", "--plot", str(after)).exit_code == 0
    image = pixels(after)
    assert has_colour(image, plots.FAILED) and has_colour(image, plots.DUE)
    assert has_colour(image, plots.UNSEEN)


def test_the_png_names_chapters_it_can_draw_and_numbers_the_rest(invoke, tmp_path):
    pytest.importorskip("matplotlib")
    from studybot import bank
    from studybot.learn import progress
    from studybot.output import plots

    source = tmp_path / "mine.md"
    source.write_text(
        "## Attention\n\n1. What does the softmax scale by?\n2. Why mask the future?\n\n"
        "## 推理加速\n\n3. 为什么 KV 缓存能加速解码？\n",
        encoding="utf-8",
    )
    assert invoke("bank", "import", str(source), "--name", "mine").exit_code == 0
    loaded = bank.load("mine")
    report = progress.progress(Store.open(), loaded, "mine")
    names, font = plots.chapter_names(report)
    assert names[0] == "1 Attention"
    if font is None:  # no CJK font on this machine: the Chinese title becomes its number
        assert names[1] == "ch 2"
    else:
        assert names[1] == "2 推理加速"
    png = tmp_path / "mine.png"
    assert invoke("progress", "--bank", "mine", "--plot", str(png)).exit_code == 0
