"""The FSRS settings a learner knows from Anki: in config.toml, as flags, honoured by review and due."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from terminal import finish, spawn

from studybot.channel import config
from studybot.learn import review
from studybot.storage.store import Store

DAYS_AGO = datetime.now(UTC) - timedelta(days=3)


def rated(*question_ids: int, rating: int = 1, at: datetime = DAYS_AGO) -> None:
    store = Store.open()
    for question_id in question_ids:
        review.record_review(store, bank="default", question_id=question_id, rating=rating, now=at)
    store.close()


def settings_file(home, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def served(home, invoke, *flags: str) -> list[int]:
    """Start `review` at a terminal, stop at its first question; the questions it planned."""
    child = spawn(home, "review", *flags)
    child.expect("题")
    child.sendcontrol("c")
    finish(child)
    newest = json.loads(invoke("sessions", "--json").stdout)[0]
    return json.loads(invoke("show", str(newest["id"]), "--json").stdout)["segments"][0][
        "questions"
    ]


def test_a_daily_review_limit_changes_what_review_serves(studybot_home, invoke):
    rated(3, 5, 7, 9)  # rated Again three days ago: all four due now
    assert served(studybot_home, invoke) == [3, 5, 7, 9]

    settings_file(studybot_home, "reviews_per_day = 2\n")
    assert served(studybot_home, invoke) == [3, 5]  # the two most overdue (same moment: by id)
    assert served(studybot_home, invoke, "--reviews-per-day", "3") == [3, 5, 7]

    rated(3, 5, rating=3, at=datetime.now(UTC))  # two reviews done today: the limit is spent
    child = spawn(studybot_home, "review")
    child.expect("Today's review limit is reached: 2 reviews done, reviews_per_day 2")
    assert finish(child) == 0
    text = invoke("due").stdout
    assert "review serves 0 of the 2 due (reviews_per_day 2, 2 done today)" in text


def test_new_questions_per_day_adds_the_next_unrated_ones(studybot_home, invoke):
    rated(5)
    settings_file(studybot_home, "new_per_day = 3\n")
    assert served(studybot_home, invoke) == [1, 2, 3, 5]
    assert "adds up to 3 new question(s) today (new_per_day 3" in invoke("due").stdout
    rated(1, 2, rating=3, at=datetime.now(UTC))  # two first ratings today: one new left
    assert served(studybot_home, invoke) == [3, 5]


def test_nothing_rated_and_no_new_questions_is_still_nothing_due(invoke):
    result = invoke("review")
    assert result.exit_code == 0 and "Nothing is due for review" in result.stdout


@pytest.mark.parametrize(
    ("where", "text", "says"),
    [
        ("file", "desired_retention = 1.5\n", "desired_retention = 1.5 (from {file})"),
        ("file", "reviews_per_day = -1\n", "reviews_per_day = -1 (from {file})"),
        ("file", "maximum_interval = 'long'\n", "maximum_interval = 'long' (from {file})"),
        ("flag", "--desired-retention 0.5", "desired_retention = 0.5 (from --desired-retention)"),
        ("flag", "--new-per-day -3", "new_per_day = -3 (from --new-per-day)"),
    ],
)
def test_a_bad_fsrs_setting_names_its_file_or_flag_and_key(
    invoke, studybot_home, where, text, says
):
    flags = text.split() if where == "flag" else []
    if where == "file":
        settings_file(studybot_home, text)
    result = invoke("review", *flags)
    assert result.exit_code == 2
    assert says.format(file=studybot_home / "config.toml") in result.stderr
    assert "Traceback" not in result.stderr


def test_config_show_lists_the_four_with_their_source(invoke, studybot_home):
    settings_file(studybot_home, "desired_retention = 0.85\nnew_per_day = 5\n")
    data = json.loads(invoke("config", "show", "--json").stdout)["settings"]
    file = str(studybot_home / "config.toml")
    assert data["desired_retention"] == {"value": 0.85, "source": file}
    assert data["new_per_day"] == {"value": 5, "source": file}
    assert data["reviews_per_day"] == {"value": 200, "source": "default"}
    assert data["maximum_interval"] == {"value": 36500, "source": "default"}
    text = invoke("config", "show").stdout
    assert "desired_retention" in text and "maximum_interval" in text


def interval_after_good_reviews(**fsrs) -> timedelta:
    """Days a card waits after a few Good ratings, each on its due date, under these settings."""
    settings = replace(config.load(), **fsrs)
    store = Store.open()
    at = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    question_id = 10 + len(store.cards("default"))
    for _ in range(4):
        after = review.record_review(
            store, bank="default", question_id=question_id, rating=3, now=at, settings=settings
        )
        gap, at = after.due - at, after.due
    store.close()
    return gap


def test_desired_retention_and_maximum_interval_shape_the_interval(studybot_home):
    usual = interval_after_good_reviews()
    assert interval_after_good_reviews(desired_retention=0.7) > usual
    assert interval_after_good_reviews(desired_retention=0.97) < usual
    assert interval_after_good_reviews(maximum_interval=2) <= timedelta(days=2)
