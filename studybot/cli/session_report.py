"""One past session as ``show`` draws it, and a run at its end: the turns, tokens, cost, texts.

The per-turn table (``turn_table``) with follow-ups and probes under their
question, then grades and ratings, the tokens of each kind of request (the
ones thrown away included), peak KV, the cost per segment, and the texts of
the follow-ups and segment summaries.
"""

from __future__ import annotations

import shlex

from studybot.cli.columns import print_table, room
from studybot.cli.common import human_bytes, stdout_console
from studybot.cli.render import STYLES, number, sparkline
from studybot.cli.turn_table import fitting, follow_up_row, money_columns, probe_row
from studybot.output.figures import percent


def render_session(view, texts: bool = True) -> None:
    """The per-turn table with follow-ups under their question, totals, then the summaries.

    ``texts=False`` leaves out the follow-up and summary texts, for the end
    of a run that has just shown them.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from studybot.costs.prices import NO_PRICES_HINT
    from studybot.study.recorded import money as session_money

    record, turns = view.record, view.turns
    money = session_money(view)
    follow_ups: dict[int, list] = {}
    for item in view.followups:
        follow_ups.setdefault(item.question_id, []).append(item)
    console = stdout_console()
    columns = fitting(money_columns(money), turns, room(console))
    # The title is a line of its own: a table's title wraps at the table's width.
    console.print(
        Text(
            f"Session {record.id} · {_chosen(record)} · {record.mode} · "
            f"{record.provider} ({record.model}) · {record.status} · {record.done}/{record.total} done"
        )
    )
    table = Table(
        box=box.SIMPLE_HEAD,  # no side rules, so the table fits 80 columns
        pad_edge=False,
        show_edge=False,
        collapse_padding=True,
    )
    for heading, _cell in columns:
        table.add_column(heading, justify="left" if heading == "growth" else "right", no_wrap=True)
    peak = max((t.context_tokens for t in turns), default=0)
    for t in turns:
        table.add_row(*(cell(t, peak) for _heading, cell in columns))
        for item in follow_ups.get(t.question_id, []):
            table.add_row(*follow_up_row(item, columns), style=STYLES["tokens"])
        for probe in view.probes_of(t.question_id):
            table.add_row(*probe_row(probe, columns), style=STYLES["tokens"])
    print_table(console, table)
    _recall_line(console, view)
    for t in turns:
        if t.flag_text:
            console.print(f"* Q{t.question_id} {t.answer_flag}: {t.flag_text}")
    if any(t.usage_suspect for t in turns):
        console.print(
            "! the provider's reported usage disagrees with the local count by more than 2×; "
            "context n and KV use the local count"
        )
    if any(money.cached[t.question_id] != t.cached_tokens for t in turns):
        console.print(
            f"~ cached tokens the provider did not report, simulated under the "
            f"{money.rule.name} cache rule"
        )
    if turns:
        _totals(console, view, peak)
        _money_line(console, money, view, NO_PRICES_HINT)
    if texts:
        _follow_up_texts(console, turns, follow_ups)
        _summaries(console, view.segments)
        if record.mode == "interview":
            from studybot.cli.interview import show_feedback

            show_feedback(view)
    if not record.complete:
        console.print(f"Unfinished: studybot resume {record.id}")


def _chosen(record) -> str:
    """The selection, with the questions it spans when it is not a range: "weak 10 (Q2–26)"."""
    from studybot.study.selection import label

    first, last = record.first_question, record.last_question
    span = f"Q{first}" if first == last else f"Q{first}–{last}"
    return span if record.selection.get("kind", "range") == "range" else f"{label(record)} ({span})"


def _recall_line(console, view) -> None:
    """Each attempted or rated question's grade and rating, under the table (80 columns)."""
    from studybot.learn.review import RATINGS

    grades, ratings = view.grades, view.reviews
    cells = []
    for question_id in sorted(set(grades) | set(ratings)):
        g, r = grades.get(question_id), ratings.get(question_id)
        grade = "-" if g is None or g.score is None else percent(g.score)
        cells.append(f"Q{question_id} {grade} {RATINGS[r.rating] if r else 'unrated'}")
    if cells:
        console.print("recall (grade, rating): " + " · ".join(cells), markup=False)


def _money_line(console, money, view, hint: str) -> None:
    """The session's cost and each segment's (summary and grading requests included)."""
    record = view.record
    if not money.cost:
        if not record.live:
            hint = (
                f"offline answers cost nothing; what a live model would cost: {plan_command(view)} "
                "--price-input 2 --price-cached 0.2 --price-output 8 --currency CNY"
            )
        console.print(hint.format(model=record.model), markup=False, style=STYLES["tokens"])
        return
    total = money.cost.total
    segments = " · ".join(
        f"seg {index + 1} {cost.text()}" for index, cost in sorted(money.cost.segments.items())
    )
    console.print(
        f"cost {total.text()} (input {total.input:.6f} · cached input {total.cached_input:.6f}"
        f" · output {total.output:.6f}, summaries included) · {segments}",
        markup=False,
    )


def plan_command(view) -> str:
    """``studybot plan`` of the same bank, questions and mode as this session."""
    from studybot.bank import SHIPPED
    from studybot.study.interview import DEFAULT_FOLLOWUPS, followups_of

    record, chosen = view.record, view.record.selection
    words = ["studybot", "plan"]
    if record.bank not in ("", SHIPPED):
        words += ["--bank", record.bank]
    kind = chosen.get("kind", "range")
    if kind == "range":
        words += ["--from", str(record.first_question), "--to", str(record.last_question)]
    elif kind == "chapter":
        words += ["--chapter", ",".join(map(str, chosen["chapters"]))]
    elif kind == "tag":
        words += [word for tag in chosen["tags"] for word in ("--tag", tag)]
    else:  # ids, the weakest or a review: the questions it held (the weakest change)
        ids = sorted({q for segment in view.segments for q in segment.question_ids})
        words += ["--ids", ",".join(map(str, ids))]
    if record.mode == "interview":
        words += ["--mode", "interview"]
        if followups_of(record) != DEFAULT_FOLLOWUPS:
            words += ["--followups", str(followups_of(record))]
    return shlex.join(words)


def _totals(console, view, peak: int) -> None:
    """Token lines: the answers, then each kind of side request, then every request sent.

    Each line holds the requests thrown away (cut and asked again, failed and
    retried) beside the ones kept: they were sent and served all the same.
    """
    turns, spent = view.turns, view.spent()
    answers = [s for s in spent if s.kind == "answer"]
    prompt, cached, output = _tokens(answers)
    # Offline nothing was sent: the counts are studybot's own and the cache hits its rule's.
    simulated = (
        " (simulated: offline, studybot's count and cache rule)" if not view.record.live else ""
    )
    console.print(
        f"prompt tokens {number(prompt)} · cached {number(cached)}{_share(cached, prompt)} · "
        f"answer tokens {number(output)} · peak context n = {number(peak)} of an answer "
        f"request{simulated}"
    )
    restarts = len({t.segment for t in turns}) > 1
    console.print(
        f"context n per turn: {sparkline([t.context_tokens for t in turns])}"
        + (" (each segment starts small again)" if restarts else ""),
        markup=False,
    )
    summaries = [s for s in spent if s.kind == "summary"]
    if summaries:
        sent = sum(s.requests for s in summaries)
        console.print(f"summaries: {sent} request{'s' * (sent > 1)} · {_usage_text(summaries)}")
    _study_lines(console, view)
    if view.probes:
        asked = [p for p in view.probes if p.source == "model"]
        sides = [s for s in spent if s.kind in ("probe", "probe grading")]
        console.print(
            f"probes: {len(view.probes)} ({len(asked)} by the model) · side requests "
            f"{sum(s.requests for s in sides)} · {_usage_text(sides)}"
            " · not added to the main history"
        )
    _side_lines(console, view)
    _thrown_lines(console, spent)
    if view.record.live:
        _all_requests(console, spent)

    from studybot.study.recorded import session_kv

    kv = session_kv(view)
    if kv:
        # a summary request carries its segment's whole history: often past every answer's n
        which = "a summary request" if kv.peak_tokens > peak else "an answer request"
        console.print(
            f"peak KV {human_bytes(kv.peak_bytes)} ({kv.model}, n = {number(kv.peak_tokens)} of "
            f"{which}) · "
            f"one long session over these questions: n = {number(kv.long_tokens)}, "
            f"KV {human_bytes(kv.long_bytes)} ({kv.ratio:.1f}× the peak)"
        )


def _tokens(spent) -> tuple[int, int, int]:
    """Prompt, cached and answer tokens of ``spent``, thrown-away requests included."""
    return (
        sum(s.prompt_tokens for s in spent),
        sum(s.cached_tokens for s in spent),
        sum(s.completion_tokens for s in spent),
    )


def _usage_text(spent) -> str:
    prompt, cached, output = _tokens(spent)
    return (
        f"prompt tokens {number(prompt)} · cached {number(cached)} · answer tokens {number(output)}"
    )


def _share(cached: int, prompt: int) -> str:
    return f" ({percent(cached / prompt)} of prompt tokens)" if prompt else ""


def _thrown_lines(console, spent) -> None:
    """One line per reply that cost more than its own request: what was sent and thrown away."""
    for s in spent:
        thrown = s.discarded
        if not thrown.requests:
            continue
        what = f"Q{s.question_id} {s.kind}" if s.question_id else f"segment {s.segment + 1} summary"
        local = f", {thrown.estimated} counted locally" if thrown.estimated else ""
        console.print(
            f"↻ {what}: {s.requests} requests sent, {thrown.requests} thrown away "
            f"(cut or failed{local}): prompt {number(thrown.prompt_tokens)} · cached "
            f"{number(thrown.cached_tokens)} · answer {number(thrown.completion_tokens)}",
            markup=False,
        )


def _all_requests(console, spent) -> None:
    """Every request the session sent, each kind and each retry: what the server served."""
    sent = sum(s.requests for s in spent)
    thrown = sum(s.discarded.requests for s in spent)
    local = sum(s.discarded.estimated for s in spent)
    prompt, cached, output = _tokens(spent)
    extra = f", {thrown} thrown away" if thrown else ""
    note = f" · {local} cut before the server reported usage: counted locally" if local else ""
    console.print(
        f"all requests: {sent} sent{extra} · prompt tokens {number(prompt)} · cached "
        f"{number(cached)}{_share(cached, prompt)} · answer tokens {number(output)}{note}",
        markup=False,
    )


def _follow_up_texts(console, turns, follow_ups: dict[int, list]) -> None:
    if not follow_ups:
        return
    console.print("\n[bold]Follow-ups[/bold] (side thread, not in the main history)")
    asked = {t.question_id: t.question for t in turns}
    for question_id, items in follow_ups.items():
        console.print(f"Q{question_id} {asked.get(question_id, '')}", markup=False)
        for item in items:
            console.print(f"  追问：{item.question}", markup=False, style=STYLES["question"])
            for line in item.answer.strip().splitlines():
                console.print(f"    {line}", markup=False)


def _summaries(console, segments) -> None:
    written = [s for s in segments if s.summary_out]
    if not written:
        return
    console.print("\n[bold]Segment summaries[/bold] (each carried into the next segment)")
    for segment in written:
        console.print(
            f"Segment {segment.index + 1} · Q{segment.first_id}–Q{segment.last_id}",
            style=STYLES["segment"],
        )
        for line in segment.summary_out.splitlines():
            console.print(f"  {line}", markup=False, style=STYLES["summary"])


def _study_lines(console, view) -> None:
    """Quiz sessions: grades, ratings, and what the grading requests cost."""
    from studybot.learn.review import RATINGS
    from studybot.output.export import grading_usage

    grades = view.grades
    scores = [g.score for g in grades.values() if g.score is not None]
    ratings = [r.rating for r in view.reviews.values()]
    if scores:
        console.print(f"graded {len(scores)} · mean grade {percent(sum(scores) / len(scores))}")
    if ratings:
        counts = " · ".join(f"{ratings.count(n)} {name}" for n, name in RATINGS.items())
        console.print(f"rated {len(ratings)}: {counts}")
    usage = grading_usage(grades.values())
    if usage:
        console.print(
            f"grading: {usage['requests']} request{'s' * (usage['requests'] > 1)} · prompt tokens "
            f"{number(usage['prompt_tokens'])} · cached {number(usage['cached_tokens'])} · "
            f"answer tokens {number(usage['completion_tokens'])}"
        )


def _side_lines(console, view) -> None:
    """With a grader of its own: a line per side, each with its model and its cost."""
    from studybot.study.recorded import grader_model, sides

    if grader_model(view) is None:
        return
    for side in sides(view):
        cost = side.cost.text() if side.cost is not None else "no prices for this model"
        console.print(
            f"{side.name}: {side.model} · prompt tokens {number(side.prompt_tokens)} · cached "
            f"{number(side.cached_tokens)} · answer tokens {number(side.completion_tokens)} · {cost}",
            markup=False,
        )
