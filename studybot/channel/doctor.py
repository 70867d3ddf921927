"""Channel diagnosis: is it the URL, the key, the model, or the history length?

Without probing, the doctor lints the settings and checks that a key is
set. Probing talks to the endpoint: it lists the models (when the endpoint
can), asks Q23 (short) and Q76 (longer) in fresh contexts and checks both
answers come back whole (that settles URL, key and model), then asks Q34
alone and Q34 after a long history and compares their tokens and latency.
A channel that answers Q34 alone but breaks on Q34 deep in a conversation
has a history-length problem, and the cure is segmenting, not the channel.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from studybot.bank import Bank, Question
from studybot.channel.checks import key_facts, lint, lint_key
from studybot.channel.config import Settings
from studybot.costs import tokens
from studybot.errors import StudybotError
from studybot.types import Messages, Reply

SHORT, LONG, CONTROL = 23, 76, 34  # the bank's anchor questions used as probes
CONFIG, CHANNEL, HISTORY = "config", "channel", "history"  # what a failed check points to
DATABASE = "database"  # a failed database check is reported apart from the channel verdict
OFFLINE_MODE = "mode"  # the check that says runs are offline because no key is set
LISTED = 5  # models a "not listed" warning names
SLOWER = 3.0  # a deep Q34 this many times slower to its first token is worth a remark


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: skipped or informational
    detail: str
    points_to: str = CHANNEL  # the problem a failure means: config, channel or history
    figures: dict[str, float] = field(default_factory=dict)
    hint: str | None = None  # what to do about a failure
    warn: bool = False  # informational, but worth reading (a model the list does not name)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    kind: str  # "ok", "offline", "config", "channel" or "history"
    text: str
    hint: str | None = None
    exit_code: int = 0


def database_check(path: Path) -> Check:
    """The session database: where it is, SQLite's quick_check of it, and whether runs can save."""
    from studybot.storage import dbfile
    from studybot.storage.dbfile import home_hint, home_problem, quick_check, writable

    result = quick_check(path)
    detail = f"{path}: quick_check {result}"
    full = dbfile.full_disk(path)
    if full:  # SQLite says "disk I/O error" there, which reads like a permission problem
        return Check(
            "database",
            False,
            f"{path}: {full}; run cannot save (quick_check {result})",
            points_to=DATABASE,
            hint="free some disk space (or set STUDYBOT_HOME to a folder on another disk); "
            "what was saved is kept",
        )
    if home_problem(path):
        return Check("database", False, result, points_to=DATABASE, hint=home_hint(path))
    if not result.startswith("ok"):
        damaged = any(word in result for word in ("not a database", "malformed", "corrupt"))
        hint = (
            f"move {path.name} away (keep it for recovery); studybot starts a new one"
            if damaged
            else f"check the permissions of {path} and its folder"
        )
        return Check("database", False, detail, points_to=DATABASE, hint=hint)
    if not writable(path):
        return Check(
            "database",
            False,
            f"{detail}, but read-only: sessions, show and export read it; run cannot save",
            points_to=DATABASE,
            hint=f"make {path.parent} writable, or set STUDYBOT_HOME to a writable folder",
        )
    return Check("database", True, detail, points_to=DATABASE)


def settings_checks(settings: Settings) -> list[Check]:
    """The checks that need no network: lint, and whether a key is there to use."""
    if settings.offline:
        return [Check("offline", None, "offline is on: nothing to check on the channel")]
    if settings.local:  # found on this machine, used with no key
        found = settings.source("base_url").removeprefix("--local: ")
        problems = [
            Check("lint", False, problem.message, points_to=CONFIG, hint=problem.hint)
            for problem in lint(settings)
        ]
        return [Check("local", True, f"found {found}; model {settings.model}"), *problems]
    facts = key_facts(settings)
    # A key's own problems are reported on the key's line, not also as "ok key".
    key_problems = lint_key(facts.variable, settings.api_key() or "") if facts.usable else []
    on_key = {problem.message for problem in key_problems}
    checks = [
        Check(
            "key" if problem.message in on_key else "lint",
            False,
            problem.message,
            points_to=CONFIG,
            hint=problem.hint,
        )
        for problem in lint(settings)
    ]
    if not checks:
        checked = "base URL, key and model look" if facts.usable else "base URL looks"
        checks.append(Check("lint", True, f"{checked} right"))
    if facts.usable and not key_problems:
        checks.append(Check("key", True, facts.describe()))
    elif not facts.usable:
        checks.append(
            Check(
                OFFLINE_MODE,
                None,
                f"offline mode: {facts.describe()}, so runs answer from the bank's answer key",
                hint=go_live(facts.variable),
            )
        )
    return checks


def go_live(variable: str) -> str:
    return f"to go live: export {variable}='…' (the key from your provider's console) and pass --model ID"


# The request for a question after a history, as a run would send it (study's conversation).
Asker = Callable[[Sequence[tuple[Question, str]], Question], Messages]


def probe(settings: Settings, bank: Bank, ask: Asker, provider=None) -> Iterator[Check]:
    """Talk to the endpoint; stops at the first failure that makes later checks moot."""
    if provider is None:
        from studybot.channel.providers.openai_compat import OpenAICompatProvider

        provider = OpenAICompatProvider(settings)
    try:
        models = provider.list_models()
    except StudybotError as exc:
        yield Check("models", False, exc.message, hint=exc.hint)
        return
    if models is None:
        yield Check("models", None, "the endpoint does not list models (skipped)")
    elif settings.model in models:
        yield Check("models", True, f"{len(models)} listed, {settings.model!r} among them")
    else:
        # Servers answer to names they do not list (llama-server lists its file name,
        # an alias or a router takes others): the request below judges the model.
        close = _closest(settings.model, models)
        yield Check(
            "models",
            None,
            f"warning: {settings.model!r} is not among the {len(models)} models listed "
            f"({_listed(models)})"
            + (f"; closest: {', '.join(close)}" if close else "")
            + "; the questions below show whether the endpoint answers to it",
            warn=True,
        )

    for question_id in (SHORT, LONG):
        question = _question(bank, question_id)
        check = _ask(provider, ask, question, [], f"Q{question.id}")
        yield check
        if not check.ok:
            return

    control = _question(bank, CONTROL)
    alone = _ask(provider, ask, control, [], f"Q{control.id} alone")
    yield alone
    if not alone.ok:
        return
    history = _long_history(settings, bank, ask, control)
    name = f"Q{control.id} deep"
    deep = _ask(provider, ask, control, history, name, points_to=HISTORY)
    if deep.ok:
        deep = Check(name, True, _compare(alone, deep, len(history)), HISTORY, deep.figures)
    yield deep


def verdict(checks: list[Check], probed: bool) -> Verdict:
    failed = [c for c in checks if c.ok is False]
    if any(c.name == "offline" for c in checks):
        return Verdict(True, "offline", "offline by choice: no channel to diagnose")
    by_kind = {kind: [c for c in failed if c.points_to == kind] for kind in (CONFIG, CHANNEL)}
    if by_kind[CONFIG]:
        first = by_kind[CONFIG][0]
        return Verdict(
            False,
            CONFIG,
            f"channel problem (settings): {first.detail}",
            hint=f"{first.hint + '; ' if first.hint else ''}nothing was sent",
            exit_code=2,
        )
    offline = next((c for c in checks if c.name == OFFLINE_MODE), None)
    if offline is not None:
        return Verdict(True, "offline", offline.detail, hint=offline.hint)
    if by_kind[CHANNEL]:
        first = by_kind[CHANNEL][0]
        return Verdict(
            False,
            CHANNEL,
            f"channel problem (URL, key or model): {first.name}: {first.detail}",
            hint=first.hint or "`studybot config show` says where each setting came from",
            exit_code=1,
        )
    if failed:
        return Verdict(
            False,
            HISTORY,
            "history-length problem: the channel works (short and long questions came back "
            f"whole, Q{CONTROL} alone is fine) but Q{CONTROL} after a long history failed: "
            f"{failed[0].detail}",
            hint="segment it: `studybot run` keeps 5–8 questions per segment with a short "
            "summary; use --segment-max 4 for a tighter context",
            exit_code=1,
        )
    if not probed:
        return Verdict(
            True, "ok", "the settings look right; `studybot doctor --probe` asks the model"
        )
    return Verdict(
        True,
        "ok",
        "the channel is fine: URL, key and model are right. History length, not the channel, "
        "is what makes long chats slow and fragile; studybot's segments keep it short.",
    )


# -- helpers ------------------------------------------------------------------


def _ask(
    provider,
    ask: Asker,
    question: Question,
    history: list[tuple[Question, str]],
    name: str,
    points_to: str = CHANNEL,
) -> Check:
    messages = ask(history, question)
    started = time.perf_counter()
    first: list[float] = []

    def on_text(chunk: str) -> None:
        if not first:
            first.append(time.perf_counter() - started)

    try:
        reply = provider.answer(messages, question=question, on_text=on_text)
    except StudybotError as exc:
        return Check(name, False, exc.message, points_to, hint=exc.hint)
    seconds = time.perf_counter() - started
    figures = _figures(reply, messages, seconds, first[0] if first else seconds)
    if not reply.text.strip():
        return Check(name, False, "the answer came back empty", points_to, figures)
    if reply.finish_reason != "stop":
        why = f"the answer was cut off (finish_reason {reply.finish_reason})"
        return Check(name, False, why, points_to, figures)
    detail = (
        f"whole answer · prompt {figures['prompt_tokens']:,.0f} tokens"
        f" (cached {figures['cached_tokens']:,.0f}) · answer {figures['completion_tokens']:,.0f}"
        f" · first token {figures['first_token_s']:.2f} s · {seconds:.2f} s"
    )
    return Check(name, True, detail, points_to, figures)


def _figures(reply: Reply, messages, seconds: float, first_token: float) -> dict[str, float]:
    usage = tokens.settle(reply.usage, messages, reply.text).usage
    return {
        "prompt_tokens": usage.prompt_tokens,
        "cached_tokens": usage.cached_tokens,
        "completion_tokens": usage.completion_tokens,
        "first_token_s": round(first_token, 3),
        "seconds": round(seconds, 3),
    }


def _long_history(
    settings: Settings, bank: Bank, ask: Asker, control: Question
) -> list[tuple[Question, str]]:
    """Every earlier question with its answer-key answer, trimmed to fit the window."""
    from studybot.bank.key import answer_text

    room = settings.context_window - settings.max_output_tokens
    history = [(q, answer_text(q)) for q in bank.questions if q.id < control.id]
    while history and tokens.prompt_tokens(ask(history, control)) > room:
        history.pop(0)
    return history


def _compare(alone: Check, deep: Check, turns: int) -> str:
    a, d = alone.figures, deep.figures
    tokens_x = d["prompt_tokens"] / max(a["prompt_tokens"], 1)
    ttft_x = d["first_token_s"] / max(a["first_token_s"], 1e-3)
    slower = " — the long history is what slows it" if ttft_x >= SLOWER else ""
    return (
        f"whole answer after {turns} earlier turns · prompt {d['prompt_tokens']:,.0f} tokens "
        f"({tokens_x:.1f}× alone, cached {d['cached_tokens']:,.0f}) · first token "
        f"{d['first_token_s']:.2f} s vs {a['first_token_s']:.2f} s ({ttft_x:.1f}×){slower}"
    )


def _question(bank: Bank, question_id: int) -> Question:
    """The anchor question, or the bank's nearest one for a bank without it."""
    for question in bank.questions:
        if question.id == question_id:
            return question
    return min(bank.questions, key=lambda q: abs(q.id - question_id))


def _listed(models: list[str]) -> str:
    """The first few models of the list, as the warning names them."""
    shown = ", ".join(models[:LISTED])
    return f"it lists {shown}" + (
        f" and {len(models) - LISTED} more" if len(models) > LISTED else ""
    )


def _closest(model: str, models: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(model.strip(), models, n=3, cutoff=0.4)
