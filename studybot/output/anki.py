"""Anki cards from a session: a text file Anki imports, or an ``.apkg`` package.

One note per answered question, Basic note type (Front, Back). Fronts and
backs are Markdown rendered to HTML with formulas left for Anki's MathJax;
a back is the answer and the follow-ups a model answered (an offline
follow-up, never answered, stays out).
Each note's GUID is derived from (bank, question), so importing the same
question again, from this session or a later one, updates the card instead
of adding a duplicate. Each chapter is its own deck,
``studybot::<bank>::<NN chapter title>``.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass
from pathlib import Path

from studybot.bank.key import answer_text, answered_follow_up
from studybot.errors import BadInput, StudybotError
from studybot.output.markup import to_html
from studybot.storage.store import SessionView

INSTALL = "pip install 'studybot[anki]'"
# genanki needs fixed ids: the same note type every export, so Anki never
# sees a new "studybot Basic" each time.
MODEL_ID = 1_702_443_517
CARD_CSS = ".card { font-family: sans-serif; font-size: 18px; text-align: left; }"


@dataclass(frozen=True)
class Card:
    guid: str
    front: str  # HTML
    back: str  # HTML
    tags: tuple[str, ...]
    deck: str


def guid(bank: str, question_id: int) -> str:
    """Stable per (bank, question): the same card whichever session it came from."""
    digest = hashlib.sha256(f"studybot\x1f{bank}\x1f{question_id}".encode()).hexdigest()
    return f"studybot-{digest[:20]}"


def cards(view: SessionView) -> list[Card]:
    """The session's answered questions as cards, in question order."""
    record = view.record
    bank = _bank(record.bank)
    follow_ups: dict[int, list] = {}
    # An offline follow-up has no answer, only a notice and the key points again: a card
    # back holds what was learnt, so it is left out.
    for item in view.followups:
        if answered_follow_up(item.answer):
            follow_ups.setdefault(item.question_id, []).append(item)
    made = []
    for turn in view.turns:
        question = _question(bank, turn.question_id)
        chapter = bank.chapter(question.chapter) if bank and question else None
        back = [to_html(_learnt(record, turn, question))]
        for item in follow_ups.get(turn.question_id, []):
            back += [
                "<hr>",
                f"<p><b>追问：</b>{html.escape(item.question)}</p>",
                to_html(item.answer),
            ]
        made.append(
            Card(
                guid=guid(record.bank, turn.question_id),
                front=to_html(f"**第 {turn.question_id} 题**：{turn.question}"),
                back="\n".join(back),
                # A cut or empty answer is findable in Anki: tagged "truncated" or "empty".
                tags=_tags(question, chapter) + ((turn.answer_flag,) if turn.answer_flag else ()),
                deck=_deck(record.bank, chapter),
            )
        )
    return made


def _learnt(record, turn, question) -> str:
    """What a card's back teaches: the turn's answer, or the bank's answer for an interview.

    An interview's turn is the interviewer's question put in their words, not an answer.
    """
    if record.mode == "interview" and question is not None:
        return answer_text(question)
    return turn.answer


def to_text(view: SessionView) -> str:
    """The file Anki's "Import File" reads: header lines, then one note per line."""
    made = cards(view)
    decks = sorted({c.deck for c in made})
    header = ["#separator:tab", "#html:true", "#notetype:Basic", "#guid column:1", "#tags column:4"]
    columns = ["GUID", "Front", "Back", "Tags"]
    if len(decks) == 1:
        header.append(f"#deck:{decks[0]}")
    else:  # a file across chapters names each note's deck in a column of its own
        header.append("#deck column:5")
        columns.append("Deck")
    header.append("#columns:" + "\t".join(columns))
    rows = []
    for card in made:
        row = [card.guid, _field(card.front), _field(card.back), " ".join(card.tags)]
        if len(decks) > 1:
            row.append(card.deck)
        rows.append("\t".join(row))
    return "\n".join(header + rows) + "\n"


def write_package(view: SessionView, path: Path) -> int:
    """An ``.apkg`` with one deck per chapter; returns the number of notes."""
    try:
        import genanki
    except ImportError:
        raise BadInput("-f apkg needs genanki, which is not installed", hint=INSTALL) from None
    model = genanki.Model(
        MODEL_ID,
        "studybot Basic",
        fields=[{"name": "Front"}, {"name": "Back"}],
        templates=[
            {
                "name": "Card 1",
                "qfmt": "{{Front}}",
                "afmt": '{{FrontSide}}<hr id="answer">{{Back}}',
            }
        ],
        css=CARD_CSS,
    )
    decks: dict[str, genanki.Deck] = {}
    made = cards(view)
    for card in made:
        if card.deck not in decks:
            decks[card.deck] = genanki.Deck(_deck_id(card.deck), card.deck)
        note = genanki.Note(
            model=model, fields=[card.front, card.back], tags=list(card.tags), guid=card.guid
        )
        decks[card.deck].add_note(note)
    genanki.Package(list(decks.values())).write_to_file(str(path))
    return len(made)


def _field(html_text: str) -> str:
    """One field on one line: no tab or newline may reach the file.

    HTML ignores the newlines between tags, but inside <pre> they are the
    code's lines, so there they become <br>.
    """
    parts = re.split(r"(<pre>.*?</pre>)", html_text, flags=re.S)
    kept = [
        part.replace("\n", "<br>") if part.startswith("<pre>") else part.replace("\n", " ")
        for part in parts
    ]
    return "".join(kept).replace("\t", "&#9;").strip()


def _tags(question, chapter) -> tuple[str, ...]:
    tags = ["studybot"]
    if chapter is not None:
        tags.append(f"chapter_{chapter.number:02d}")
    if question is not None:
        tags += [re.sub(r"\s+", "_", tag.strip()) for tag in question.tags if tag.strip()]
    return tuple(dict.fromkeys(tags))


def _deck(bank: str, chapter) -> str:
    name = Path(bank).name if "/" in bank else bank  # a bank given as a path: its folder's name
    root = f"studybot::{name.replace('::', ':')}"
    if chapter is None:
        return root
    return f"{root}::{chapter.number:02d} {chapter.title.replace('::', ':')}"


def _deck_id(name: str) -> int:
    return int(hashlib.sha256(name.encode()).hexdigest()[:12], 16)


def _bank(key: str):
    """The session's bank, for chapters and tags; None when it can no longer be loaded."""
    from studybot import bank as banks

    try:
        return banks.load(None if key == "default" else key)
    except StudybotError:
        return None


def _question(bank, question_id: int):
    if bank is None:
        return None
    try:
        return bank.get(question_id)
    except StudybotError:
        return None
