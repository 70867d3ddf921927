"""An answer cut and asked again: only the kept reply is shown (issue 30, item 3).

A real local server cuts the first stream mid-answer (a dropped stream, or
``finish_reason`` "length" at the first output limit) and answers whole
the second time. On a terminal (a pseudo-terminal whose output a terminal
emulator, pyte, turns into the screen) the discarded text is gone from the
screen and a line says the answer was cut and is asked again; piped, stdout
is the kept answer alone and the notice is on stderr.
"""

from __future__ import annotations

from collections.abc import Callable

import pyte
import pytest
import terminal
from openai_server import Fault, OpenAIServer
from scripted import interviewer_reply
from terminal import finish

KEY = "sk-retry-screen-0123456789abcdef"
MODEL = "m"
COLUMNS, ROWS = 100, 40
DRAFT = "DISCARDED 草稿，这一段不会留下。" * 20 + "\n"
KEPT = "## 保留的回答\n\nKEPT 这是完整的回答。\n\n1. 第一点\n2. 第二点\n"
DROPPED = "the stream"  # the provider's word for a dropped stream, in its notice


def first_then(first: str, then: Callable[[dict], str]) -> Callable[[dict], str]:
    """A server's model that writes ``first`` for its first request, then as ``then`` does."""
    calls = []

    def answer(body: dict) -> str:
        calls.append(body)
        return first if len(calls) == 1 else then(body)

    return answer


@pytest.fixture
def configured(studybot_home):
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nmax_retries = 2\n", encoding="utf-8"
    )
    return studybot_home


def screen_of(child) -> str:
    """What the terminal shows now, from everything the program wrote to it."""
    screen = pyte.Screen(COLUMNS, ROWS)
    pyte.Stream(screen).feed(child.logfile_read.getvalue())
    return "\n".join(line.rstrip() for line in screen.display)


CUTS = {
    "dropped": ({}, Fault.cut(after_chunks=6), "retry 1/2"),
    "length": ({"finish_at": 2048}, None, "was cut at 2048 tokens; asking once more (retry 1/1)"),
}


@pytest.mark.parametrize("cut", CUTS)
def test_on_a_terminal_the_cut_answer_leaves_the_screen(configured, cut):
    options, fault, says = CUTS[cut]
    answer = first_then(DRAFT, lambda body: KEPT)
    with OpenAIServer(key=KEY, models=[MODEL], answer=answer, **options) as server:
        server.script(fault)
        child = terminal.spawn(
            configured, "run", "--from", "1", "--to", "1",
            "--base-url", server.base_url, "--model", MODEL,
            key=KEY, columns=COLUMNS, rows=ROWS,
        )  # fmt: skip
        child.expect("next")
        shown = screen_of(child)
        child.send("\r")
        assert finish(child) == 0
        assert len(server.generations) == 2
    assert "DISCARDED" in child.logfile_read.getvalue()  # it was drawn while it streamed
    assert "DISCARDED" not in shown  # and taken back
    assert says in " ".join(shown.split())  # the notice, however it is wrapped
    assert "KEPT 这是完整的回答" in shown and "保留的回答" in shown and "## " not in shown
    assert shown.index("question 1:") < shown.index("KEPT")  # the notice, then the answer


@pytest.mark.parametrize("cut", CUTS)
def test_piped_stdout_holds_only_the_kept_answer(configured, invoke, monkeypatch, cut):
    options, fault, says = CUTS[cut]
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    answer = first_then(DRAFT, lambda body: KEPT)
    with OpenAIServer(key=KEY, models=[MODEL], answer=answer, **options) as server:
        server.script(fault)
        result = invoke(
            "run", "--from", "1", "--to", "1", "--base-url", server.base_url, "--model", MODEL
        )
        assert len(server.generations) == 2
    assert result.exit_code == 0, result.stderr
    assert "DISCARDED" not in result.stdout
    assert result.stdout.count(KEPT) == 1
    assert says in result.stderr and "DISCARDED" not in result.stderr


def test_an_interviewer_question_cut_and_asked_again_is_drawn_once(configured):
    draft = "DISCARDED 面试官的半句话" * 10
    with OpenAIServer(
        key=KEY, models=[MODEL], answer=first_then(draft, interviewer_reply)
    ) as server:
        # The stream rests half a second before it breaks: the cut half is drawn before it is
        # taken back (with no rest, its four chunks and the break could all come before the
        # first frame, and nothing would be there to take back).
        server.script(Fault.cut(after_chunks=4, pause=0.5))
        child = terminal.spawn(
            configured, "interview", "--ids", "24", "--followups", "0",
            "--base-url", server.base_url, "--model", MODEL,
            key=KEY, columns=COLUMNS, rows=ROWS,
        )  # fmt: skip
        child.expect("（题库原题：")
        child.expect("Ctrl-C stops")
        child.expect("›")
        shown = screen_of(child)
        child.sendcontrol("c")
        finish(child)
    assert "DISCARDED" in child.logfile_read.getvalue()
    assert "DISCARDED" not in shown
    assert "asking question 24: " in shown and "retry 1/2" in shown
    assert shown.count("面试官：第 24 题") == 1  # the kept wording, once
