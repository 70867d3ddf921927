"""A session as data or Markdown notes (Anki cards: ``anki``; into a file: ``writing``).

Everything here renders from one ``SessionView`` (the session read once).
``session_json`` (``session_data`` with the cache rule and costs) is what
``show --json``, ``run --json`` and ``export -f json`` print; its keys are a
contract with users' scripts. Nothing here ever reads a key or a secret:
only what the store holds.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from studybot.bank.key import answered_follow_up
from studybot.output.figures import local_minute, percent
from studybot.output.markup import escape_html_like
from studybot.storage.store import SessionRecord, SessionView
from studybot.types import Discarded

TURN_KEYS = (
    "question_id",
    "segment",
    "question",
    "answer",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "context_tokens",
    "latency_ms",
)
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s")


def _span(first: int, last: int, mark: str = "Q") -> str:
    """ "Q1–Q8", or "Q20" alone: a one-question span is no range."""
    return f"{mark}{first}" if first == last else f"{mark}{first}–{mark}{last}"


def session_summary(record: SessionRecord) -> dict[str, Any]:
    """One line of ``sessions --json``."""
    return {
        "id": record.id,
        "status": record.status,
        "bank": record.bank,
        "from": record.first_question,
        "to": record.last_question,
        "answered": record.answered,
        "done": record.done,
        "stopped_at": record.stopped_at,
        "total": record.total,
        "provider": record.provider,
        "model": record.model,
        "created": record.created,
        "mode": record.mode,
        "selection": record.selection,
    }


def session_data(view: SessionView) -> dict[str, Any]:
    """Everything ``show --json`` reports: segments with their summaries, turns, follow-ups."""
    record, grades, ratings = view.record, view.grades, view.reviews
    turns = []
    for turn in view.turns:
        row = {key: getattr(turn, key) for key in TURN_KEYS}
        row["local_prompt_tokens"] = turn.local_prompt_tokens
        row["local_completion_tokens"] = turn.local_completion_tokens
        row["usage_source"] = turn.usage_source
        row["usage_suspect"] = bool(turn.usage_suspect)
        row["answer_flag"] = turn.answer_flag
        row["kv_bytes"] = turn.kv_bytes
        # the answer's own figures are its kept request's; the ones thrown away are beside them
        row["requests"] = 1 + turn.discarded.requests
        row["discarded"] = discarded_json(turn.discarded)
        graded, rated = grades.get(turn.question_id), ratings.get(turn.question_id)
        row["attempt"] = graded.attempt if graded else None
        row["grade"] = graded.score if graded else None
        row["grade_source"] = graded.source if graded else None
        row["points"] = _marks(graded.points) if graded else None
        # What the grader said, when the learner changed a mark (the stored grade is theirs).
        row["grade_estimate"] = graded.estimate_score if graded and graded.changed else None
        row["points_estimate"] = _marks(graded.estimate) if graded and graded.changed else None
        row["rating"] = rated.rating if rated else None
        turns.append(row)
    return {
        "id": record.id,
        "status": record.status,
        "provider": record.provider,
        "model": record.model,
        "bank": record.bank,
        "from": record.first_question,
        "to": record.last_question,
        "answered": record.answered,
        "done": record.done,
        "stopped_at": record.stopped_at,
        "total": record.total,
        "created": record.created,
        "mode": record.mode,
        "selection": record.selection,
        "grading_usage": grading_usage(grades.values()),
        "requests": requests_json(view),
        "segments": [
            {
                "index": segment.index,
                "questions": list(segment.question_ids),
                "summary_in": segment.summary_in,
                "summary_out": segment.summary_out,
                "summary_usage": asdict(segment.summary_usage) if segment.summary_usage else None,
                "summary_discarded": discarded_json(segment.summary_discarded),
            }
            for segment in view.segments
        ],
        "turns": turns,
        "follow_ups": [
            {
                "question_id": f.question_id,
                "question": f.question,
                "answer": f.answer,
                "prompt_tokens": f.prompt_tokens,
                "completion_tokens": f.completion_tokens,
                "cached_tokens": f.cached_tokens,
                "requests": 1 + f.discarded.requests,
                "discarded": discarded_json(f.discarded),
                "created": f.created,
            }
            for f in view.followups
        ],
        "kv": _session_kv(view),
        **({"interview": _interview(view)} if record.mode == "interview" else {}),
    }


def _interview(view: SessionView) -> dict[str, Any]:
    """An interview's answers (with their seconds) and probes, by question id."""
    return {
        "answers": {
            str(q): {"attempt": a.attempt, "seconds": a.seconds, "finished": bool(a.finished)}
            for q, a in sorted(view.interview.items())
        },
        "probes": [asdict(p) for p in view.probes],
    }


def _marks(marks) -> list[dict[str, Any]]:
    return [
        {"point": m.point, "state": m.state, "covered": m.covered, "evidence": m.evidence}
        for m in marks
    ]


def grading_usage(grades) -> dict[str, int] | None:
    """What the live grading side requests cost, kept apart like summary requests."""
    sent = [g for g in grades if g.requests or g.discarded.requests]
    if not sent:
        return None
    return {
        "requests": sum(g.requests + g.discarded.requests for g in sent),
        "discarded_requests": sum(g.discarded.requests for g in sent),
        "prompt_tokens": sum(g.prompt_tokens + g.discarded.prompt_tokens for g in sent),
        "completion_tokens": sum(g.completion_tokens + g.discarded.completion_tokens for g in sent),
        "cached_tokens": sum(g.cached_tokens + g.discarded.cached_tokens for g in sent),
    }


def discarded_json(thrown: Discarded) -> dict[str, int] | None:
    """Requests sent for one reply and thrown away; None when there were none."""
    return asdict(thrown) if thrown.requests else None


def requests_json(view: SessionView) -> dict[str, Any]:
    """Every request the session sent (answers, side requests, summaries, retries included):
    what the server served, and the cache share of all of it."""
    spent = view.spent()
    prompt = sum(s.prompt_tokens for s in spent)
    cached = sum(s.cached_tokens for s in spent)
    return {
        "sent": sum(s.requests for s in spent),
        "discarded": sum(s.discarded.requests for s in spent),
        "estimated": sum(s.discarded.estimated for s in spent),
        "prompt_tokens": prompt,
        "completion_tokens": sum(s.completion_tokens for s in spent),
        "cached_tokens": cached,
        "cached_share": round(cached / prompt, 6) if prompt else None,
    }


def _session_kv(view: SessionView) -> dict[str, Any] | None:
    """Peak KV of the session (summary requests too) against one long session."""
    from studybot.study.recorded import session_kv

    kv = session_kv(view)
    if kv is None:
        return None
    return {
        "model": kv.model,
        "peak_tokens": kv.peak_tokens,
        "peak_kv_bytes": kv.peak_bytes,
        "one_long_session_tokens": kv.long_tokens,
        "one_long_session_kv_bytes": kv.long_bytes,
    }


def session_json(view: SessionView) -> dict:
    """``show --json`` and ``export -f json``: the session's data, its cache rule and costs."""
    from studybot.costs.prices import cost_json
    from studybot.study.recorded import money as session_money
    from studybot.study.recorded import sides

    data = session_data(view)
    money = session_money(view)
    data["cache_rule"] = money.rule.name
    data["cost"] = cost_json(money.total)
    for row in data["turns"]:
        row["cost"] = cost_json(money.turn_cost(row["question_id"]))
        row["cached_tokens_estimated"] = money.cached[row["question_id"]] != row["cached_tokens"]
        row["cached_tokens"] = money.cached[row["question_id"]]
    for segment in data["segments"]:
        segment["cost"] = cost_json(money.segment_cost(segment["index"]))
    data["sides"] = [side.to_json() for side in sides(view)]
    return data


def to_markdown(view: SessionView) -> str:
    """Notes a CommonMark renderer shows as written: HTML-like text visible, each summary once."""
    record = view.record
    lines = [
        f"# {escape_html_like(record.bank_title)}：第 {_span(record.first_question, record.last_question, '')} 题",
        "",
        f"- session {record.id} · {record.status} · {record.done}/{record.total} done"
        + (f" · {record.unrated} not rated yet" if record.unrated else ""),
        f"- answered by {record.provider} ({record.model}) · started {local_minute(record.created)}",
        "",
    ]
    recall = _recall(view)
    cited = _sources(record.bank)
    shown: str | None = None  # the summary just printed, which the next segment starts from
    for segment in view.segments:
        lines += [f"## Segment {segment.index + 1}: {_span(segment.first_id, segment.last_id)}", ""]
        if segment.summary_in and segment.summary_in != shown:
            lines += [
                "> 上一段小结",
                ">",
                *[f"> {line}" for line in _summary_lines(segment.summary_in)],
                "",
            ]
        for question_id in segment.question_ids:
            turn = view.turn(question_id)
            if turn is None:
                lines += [f"### 第 {question_id} 题", "", "_not answered yet_", ""]
                continue
            question = escape_html_like(turn.question)
            lines += [
                f"### 第 {question_id} 题：{question}",
                "",
                escape_html_like(turn.answer.strip()),
                "",
            ]
            if turn.flag_text:
                lines += [f"> **Incomplete answer:** {turn.flag_text}", ""]
            lines += recall.get(question_id, [])
            lines += cited.get(question_id, [])
            for item in view.followups_of(question_id):
                asked = escape_html_like(item.question)
                if not answered_follow_up(item.answer):  # kept, never answered: no stand-in text
                    lines += [f"**追问（离线，未回答）：** {asked}", ""]
                    continue
                lines += [f"**追问：** {asked}", "", escape_html_like(item.answer.strip()), ""]
        if segment.summary_out:
            lines += ["**本段小结**", "", *_summary_lines(segment.summary_out), ""]
        shown = segment.summary_out
    return "\n".join(lines).rstrip() + "\n"


def _recall(view: SessionView) -> dict[int, list[str]]:
    """Question id -> Markdown lines with the user's own attempt, its grade and the rating."""
    from studybot.learn.review import RATINGS

    grades, ratings = view.grades, view.reviews
    out: dict[int, list[str]] = {}
    for question_id in set(grades) | set(ratings):
        g, r = grades.get(question_id), ratings.get(question_id)
        facts = []
        if g is not None and g.score is not None and g.changed and g.estimate_score is not None:
            changes = sum(a.state != b.state for a, b in zip(g.points, g.estimate, strict=False))
            marks = "mark" if changes == 1 else "marks"
            facts.append(
                f"grade {percent(g.score)} — you changed {changes} {marks}; "
                f"estimate {percent(g.estimate_score)} ({g.source})"
            )
        elif g is not None and g.score is not None:
            facts.append(f"grade {percent(g.score)} ({g.source})")
        if r is not None:
            facts.append(f"rated {r.rating} {RATINGS[r.rating]}")
        attempt = (g.attempt if g else None) or (r.attempt if r else None) or ""
        lines = [f"**我的作答**（{' · '.join(facts)}）：" if facts else "**我的作答**："]
        quoted = [f"> {escape_html_like(line)}" for line in attempt.strip().splitlines()]
        out[question_id] = [*lines, "", *(quoted or ["> _（先想后看，没有写下作答）_"]), ""]
        if g is not None and g.points:
            out[question_id] += [*_point_marks(g.points), ""]
    return out


def _sources(bank_name: str) -> dict[int, list[str]]:
    """Question id -> Markdown list of where its key points come from; {} for a bank now gone."""
    from studybot import bank as banks
    from studybot.bank.sources import lines
    from studybot.errors import BadInput, BankError

    try:
        loaded = banks.load(bank_name or None)
    except (BankError, BadInput):
        return {}  # an imported bank deleted since: the notes are the session alone
    return {
        q.id: [*(f"- {escape_html_like(line)}" for line in lines(q.sources)), ""]
        for q in loaded.questions
        if q.sources
    }


MARK_LEGEND = "✓ 答到 · ½ 部分 · ✗ 没答 · ⚠ 说错"


def _point_marks(points) -> list[str]:
    """The confirmed mark of each key point, as the reveal showed it: a study record.

    A contradicted point keeps the learner's words that contradicted it.
    """
    from studybot.learn.marks import CONTRADICTED, MARKS

    lines = [f"**要点对照**（{MARK_LEGEND}）：", ""]
    for n, mark in enumerate(points, start=1):
        line = f"{n}. {MARKS.get(mark.state, '?')} {escape_html_like(mark.point)}"
        if mark.state == CONTRADICTED and mark.evidence:
            line += f" — 你写的：“{escape_html_like(mark.evidence)}”"
        lines.append(line)
    return lines


def _summary_lines(summary: str) -> list[str]:
    """One list item per summary line: a renderer would join bare lines into one paragraph."""
    items = []
    for line in summary.splitlines():
        if not line.strip():
            continue
        text = escape_html_like(line.strip())
        items.append(text if LIST_ITEM.match(text) else f"- {text}")
    return items


def render(view: SessionView, fmt: str) -> str:
    """A text format (md, json, anki) as one string."""
    if fmt == "md":
        if view.record.mode == "interview":
            from studybot.output import feedback

            return feedback.to_markdown(view)
        return to_markdown(view)
    if fmt == "anki":
        from studybot.output.anki import to_text

        return to_text(view)
    import json

    return json.dumps(session_json(view), ensure_ascii=False, indent=2) + "\n"
