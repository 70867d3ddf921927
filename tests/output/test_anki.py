"""Anki cards from a ``SessionView``: stable GUIDs, a deck per chapter, tags, flagged answers."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace

import pytest

from studybot import bank
from studybot.bank import Bank, Chapter, saved_root
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.output import anki
from studybot.storage.store import Store
from studybot.study import session

FOLLOW_UP = "那 <GQA> 呢？"


def mini(title: str = "注意力") -> Bank:
    """Six shipped questions in two chapters; Q1 is also tagged with studybot's own tag."""
    questions = [
        replace(q, chapter=1 if q.id <= 3 else 2, rubric=()) for q in bank.load().select(1, 6)
    ]
    questions[0] = replace(questions[0], tags=("kv-cache", "studybot", "attention"))
    chapters = (Chapter(1, title, 1, 3), Chapter(2, "缓存", 4, 6))
    return Bank("mini", "小题库", "zh-CN", chapters, tuple(questions))


class Flawed(OfflineProvider):
    """The answer key, but Q3's answer hits the token limit and Q5's comes back empty."""

    def answer(self, messages, *, question, on_text=None):
        reply = super().answer(messages, question=question, on_text=on_text)
        if question.id == 3:
            return replace(reply, finish_reason="length")
        if question.id == 5:
            return replace(reply, text="")
        return reply

    def follow_up(self, messages, *, question, text, on_text=None):
        # answered as a model would: the offline reply only says it cannot (left off the card)
        return self._reply(messages, "GQA 让一组查询头共用一份 K、V。", on_text)


class AsksOnce(session.Listener):
    def __init__(self, question_id: int) -> None:
        self.question_id, self.asked = question_id, False

    def after_answer(self, question, suggestion):
        if question.id == self.question_id and not self.asked:
            self.asked = True
            return session.FOLLOW_UP
        return session.NEXT

    def follow_up_text(self, question):
        return FOLLOW_UP


def view_with_follow_ups(key: str, loaded: Bank, first: int, last: int, follow_up_on: int = 2):
    study = session.Study(loaded, Flawed(loaded), config.load(), key=key)
    store = Store.open()
    record = session.start(study, store, loaded.select(first, last))
    session.run(study, store, record, AsksOnce(follow_up_on))
    return store.view(record.id)


@pytest.fixture
def saved_mini():
    bank.save(mini(), "mini")
    return bank.load("mini")


def test_one_card_per_answered_question_with_a_guid_stable_across_sessions(saved_mini):
    view = view_with_follow_ups("mini", saved_mini, 1, 6)
    made = anki.cards(view)
    assert [c.guid for c in made] == [anki.guid("mini", q) for q in range(1, 7)]
    assert all(re.fullmatch(r"studybot-[0-9a-f]{20}", c.guid) for c in made)
    again = anki.cards(view_with_follow_ups("mini", saved_mini, 2, 4, follow_up_on=0))
    assert [c.guid for c in again] == [made[1].guid, made[2].guid, made[3].guid]
    # the same question of another bank is another card
    assert anki.guid("other", 1) != anki.guid("mini", 1) != anki.guid("mini", 2)


def test_each_chapter_is_its_own_deck_under_the_bank(saved_mini):
    made = anki.cards(view_with_follow_ups("mini", saved_mini, 1, 6))
    assert [c.deck for c in made] == ["studybot::mini::01 注意力"] * 3 + [
        "studybot::mini::02 缓存"
    ] * 3


def test_tags_name_studybot_the_chapter_and_the_questions_own_tags(saved_mini):
    made = {
        int(c.front.split("第 ")[1].split(" ")[0]): c
        for c in anki.cards(view_with_follow_ups("mini", saved_mini, 1, 6))
    }
    assert made[1].tags == ("studybot", "chapter_01", "kv-cache", "attention")  # once each
    assert made[4].tags[:2] == ("studybot", "chapter_02")
    assert made[4].tags[2:] == saved_mini.get(4).tags


def test_a_cut_or_empty_answer_is_tagged_so_it_can_be_found_in_anki(saved_mini):
    view = view_with_follow_ups("mini", saved_mini, 1, 6)
    assert view.turn(3).answer_flag == "truncated" and view.turn(5).answer_flag == "empty"
    tags = {card.guid: card.tags for card in anki.cards(view)}
    assert tags[anki.guid("mini", 3)][-1] == "truncated"
    assert tags[anki.guid("mini", 5)][-1] == "empty"
    flagged = [g for g, t in tags.items() if {"truncated", "empty"} & set(t)]
    assert sorted(flagged) == sorted([anki.guid("mini", 3), anki.guid("mini", 5)])


def test_the_front_is_the_question_and_the_back_the_answer_with_its_follow_ups(saved_mini):
    view = view_with_follow_ups("mini", saved_mini, 1, 3)
    first, second, _ = anki.cards(view)
    assert first.front.startswith("<p><strong>第 1 题</strong>：")
    assert saved_mini.get(1).question in first.front
    assert "<hr>" not in first.back
    asked = view.followups_of(2)[0]
    assert "<hr>" in second.back
    assert "<b>追问：</b>那 &lt;GQA&gt; 呢？" in second.back  # text, not a tag Anki would eat
    assert asked.answer.splitlines()[0] in second.back


def test_a_bank_given_as_a_path_is_named_by_its_folder_and_titles_lose_their_separator(tmp_path):
    folder = tmp_path / "my::bank"
    bank.save(mini(title="注意力::基础"), "tmp")
    shutil.copytree(saved_root() / "tmp", folder)
    loaded = bank.load(str(folder))
    made = anki.cards(view_with_follow_ups(str(folder), loaded, 1, 4, follow_up_on=0))
    assert made[0].deck == "studybot::my:bank::01 注意力:基础"
    assert made[-1].deck == "studybot::my:bank::02 缓存"


def test_a_session_whose_bank_is_gone_still_makes_its_cards(saved_mini):
    view = view_with_follow_ups("mini", saved_mini, 1, 2)
    shutil.rmtree(saved_root() / "mini")
    made = anki.cards(view)
    assert [c.deck for c in made] == ["studybot::mini", "studybot::mini"]
    assert [c.tags for c in made] == [("studybot",), ("studybot",)]
    assert [c.guid for c in made] == [anki.guid("mini", 1), anki.guid("mini", 2)]


def anki_rows(text: str) -> tuple[dict[str, str], list[list[str]]]:
    headers, rows = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            headers[key] = value
        else:
            rows.append(line.split("\t"))
    return headers, rows


def test_the_import_file_names_one_deck_in_its_header_or_each_notes_in_a_column(saved_mini):
    one, _ = anki_rows(anki.to_text(view_with_follow_ups("mini", saved_mini, 1, 3)))
    assert one["deck"] == "studybot::mini::01 注意力" and "deck column" not in one
    assert one["columns"] == "GUID\tFront\tBack\tTags"
    headers, rows = anki_rows(anki.to_text(view_with_follow_ups("mini", saved_mini, 1, 6)))
    assert "deck" not in headers and headers["deck column"] == "5"
    assert headers["columns"] == "GUID\tFront\tBack\tTags\tDeck"
    assert [len(r) for r in rows] == [5] * 6
    assert [r[4] for r in rows] == [
        c.deck for c in anki.cards(view_with_follow_ups("mini", saved_mini, 1, 6))
    ]
    assert rows[2][3].split() == ["studybot", "chapter_01", *saved_mini.get(3).tags, "truncated"]
