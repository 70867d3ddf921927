"""Small pieces every command shares: JSON output, option sets, the store."""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

# The names --cache-rule accepts (studybot.cache.rules.CHOICES), kept literal
# here so that --help never imports the cache package; a test keeps them equal.
CACHE_RULES = [
    "openai", "deepseek", "gemini", "exact", "llamacpp", "none", "custom", "provider", "simple",
]  # fmt: skip

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


# json.dumps escapes C0 controls; DEL and C1 (a terminal may obey U+009B as CSI) go too.
_UNESCAPED = re.compile("[\x7f-\x9f]")


def emit_json(data: Any) -> None:
    """``data`` as JSON on stdout: lossless, and nothing in it a terminal would obey."""
    click.echo(escaped_json(json.dumps(data, ensure_ascii=False, indent=2)))


def escaped_json(text: str) -> str:
    """JSON text with DEL and C1 written as \\u escapes: the same data, safe on a terminal."""
    return _UNESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def binary_to_stdout(fill: Callable[[Path], Any], *, what: str, hint: str) -> Any:
    """``-o -`` for a binary file: ``fill`` writes it to a temporary path, then it goes to stdout.

    A terminal would show noise (and may obey some of it), so there it is
    refused: ``what`` says what the file is, ``hint`` how to name one.
    Returns what ``fill`` returned.
    """
    import shutil
    import tempfile
    from pathlib import Path

    from studybot.errors import BadInput

    if sys.stdout.isatty():
        raise BadInput(f"{what}, not text for the terminal", hint=hint)
    with tempfile.TemporaryDirectory(prefix="studybot-") as folder:
        path = Path(folder) / "output"
        made = fill(path)
        with path.open("rb") as written:
            shutil.copyfileobj(written, sys.stdout.buffer)
        sys.stdout.buffer.flush()
    return made


def stderr_console():
    from studybot.cli.render import console

    return console(stderr=True)


def stdout_console():
    from studybot.cli.render import console

    return console()


def is_interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def human_bytes(value: float | None) -> str:
    if value is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TiB"


def channel_options(fn):
    """--provider, --base-url, --model, --wire-api, --local, --offline: how to reach the model.

    Each option's name is a key of ``config.FLAG_FIELDS``, the one mapping to settings.
    """
    fn = click.option(
        "--offline",
        is_flag=True,
        default=None,
        help="Answer from the bank's key, never call a model.",
    )(fn)
    fn = click.option(
        "--local",
        is_flag=True,
        default=None,
        help="Use the model server on this machine (Ollama, llama.cpp, vLLM, SGLang), no key.",
    )(fn)
    fn = click.option(
        "--wire-api",
        type=click.Choice(["chat", "responses"]),
        help="Chat Completions (default) or Responses.",
    )(fn)
    fn = click.option("--model", help="Model ID exactly as the provider lists it.")(fn)
    fn = click.option(
        "--base-url", help="API root, e.g. https://taotoken.net/api or http://localhost:11434/v1."
    )(fn)
    fn = click.option(
        "--provider", metavar="NAME", help="A [providers.NAME] profile from studybot's config.toml."
    )(fn)
    return fn


def grader_option(fn):
    """--grader: the profile that grades (and asks an interview's probes)."""
    return click.option(
        "--grader",
        metavar="PROFILE",
        help="Grade (and probe) with this [providers.NAME] profile; answers stay with the model.",
    )(fn)


def segment_options(fn):
    """--segment-min, --segment-max, --budget: how a range is cut."""
    fn = click.option(
        "--budget",
        "segment_budget",
        type=click.IntRange(min=1),
        help="Max projected peak context of a segment, in tokens.",
    )(fn)
    fn = click.option(
        "--segment-max", type=click.IntRange(min=1), help="Most questions in a segment (default 8)."
    )(fn)
    fn = click.option(
        "--segment-min",
        type=click.IntRange(min=1),
        help="Fewest questions in a segment (default 5).",
    )(fn)
    return fn


def _numbers(ctx, param, value: str | None) -> tuple[int, ...]:
    if value is None:
        return ()
    from studybot.bank.selection import parse_numbers

    return parse_numbers(value, f"--{param.name}")


def selection_options(fn):
    """--from/--to, --chapter, --tag, --ids, --weak: which questions (run, interview)."""
    options = [
        click.option("--from", "first", type=int, help="First question number."),
        click.option("--to", "last", type=int, help="Last question number."),
        click.option("--chapter", callback=_numbers, metavar="N[,M]", help="Whole chapters."),
        click.option(
            "--tag", "tags", multiple=True, metavar="T", help="Questions tagged T (repeatable)."
        ),
        click.option("--ids", callback=_numbers, metavar="5,23", help="These questions."),
        click.option(
            "--weak", type=click.IntRange(min=1), metavar="N", help="The N lowest-graded seen."
        ),
    ]
    for option in reversed(options):  # the help lists them in this order
        fn = option(fn)
    return fn


stats_option = click.option(
    "--stats",
    is_flag=True,
    default=None,
    help="In a quiz or review, show each turn's tokens, cache and KV size (or stats = true).",
)

FOLLOWUPS = 2  # study.interview.DEFAULT_FOLLOWUPS: the CLI does not import that at start-up


def followups_option(help: str):
    """``--followups N``: the interview's probes per question (``interview`` and ``plan``)."""
    return click.option(
        "--followups", type=click.IntRange(0, 5), default=FOLLOWUPS, show_default=True,
        metavar="N", help=help,
    )  # fmt: skip


def _recordable_bank(ctx, param, value: str | None) -> str | None:
    """A --bank path with bytes that are not UTF-8 is refused before anything reads by it."""
    try:
        (value or "").encode("utf-8")
    except UnicodeEncodeError:  # the library's refusal, loaded only then (start-up stays light)
        from studybot.study.opening import storable

        storable(value)
    return value


bank_option = click.option(
    "--bank",
    "bank_ref",
    metavar="NAME|PATH",
    help="An imported bank's name, a bank folder or a question file.",
    callback=_recordable_bank,
)
