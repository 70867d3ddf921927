"""Keyboard input: single keys without Enter, and edited lines of text.

On a terminal, ``read_key`` switches stdin to cbreak mode for one key
(signals stay on, so Ctrl-C is still a KeyboardInterrupt), and
``read_text`` uses prompt_toolkit: line editing, in-memory history and
wide-character widths, so arrow keys edit the text instead of landing in it
as escape codes. Ctrl-C at any prompt raises KeyboardInterrupt (from a text
prompt ``Interrupted``, which keeps what was typed), and so does Ctrl-D at a
key prompt: the caller saves the session and exits as interrupted. Ctrl-D
in a text prompt ends the text, as Enter on an empty line does.

Keys typed before a prompt opens are dropped when it opens (``33`` at a
rating prompt rates once; the second ``3`` never reaches the next attempt).

When stdin is not a terminal (a pipe, a test), both read lines instead:
a key is the first character of a line, text runs to an empty line, and
the end of input is ``None``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Mapping

import click

ENTER = "enter"  # Enter and space
NAMES = {"\r": ENTER, "\n": ENTER, " ": ENTER, "": ENTER}
CTRL_C, CTRL_D, ESCAPE = "\x03", "\x04", "\x1b"

_history = None  # one in-memory history for every text prompt of the process
_meanwhile: list[Callable[[], None]] = []  # work that starts once the next editor is drawn


class Interrupted(KeyboardInterrupt):
    """Ctrl-C in a text prompt; ``text`` is what had been typed (a draft worth keeping)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


def is_terminal() -> bool:
    return sys.stdin.isatty()


def meanwhile(work: Callable[[], None]) -> None:
    """Run ``work`` in a thread once the next text editor is on screen (now, without a terminal).

    Started earlier, it would hold the interpreter while the first question
    and its editor are being drawn.
    """
    _meanwhile.append(work)
    if not is_terminal():
        _start_meanwhile()


def _start_meanwhile(*_) -> None:
    import threading

    while _meanwhile:
        threading.Thread(target=_meanwhile.pop(0), daemon=True).start()


def drop_type_ahead() -> None:
    """Forget keys typed before this prompt opened (a terminal only)."""
    if not is_terminal():
        return
    import termios

    with contextlib.suppress(termios.error):
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def read_key(prompt: str, allowed: dict[str, str]) -> str | None:
    """One key from ``allowed`` (key → what it does), asked again until one is pressed.

    Returns the key (Enter and space as ``ENTER``, letters lower-cased), or
    None at the end of piped input.
    """
    from studybot.cli.render import echo

    drop_type_ahead()
    while True:
        echo(prompt, nl=False)
        key = _key() if is_terminal() else _line_key()
        if key is None:
            click.echo("", err=True)
            return None
        click.echo("" if key == ENTER else key, err=True)
        if key in allowed:
            return key
        shown = "Enter" if key == ENTER else repr(key) if key.isprintable() else "that key"
        echo(f"{shown} does nothing here; keys: {key_list(allowed)}")


def key_list(allowed: dict[str, str]) -> str:
    return " · ".join(f"{'Enter' if k == ENTER else k} {what}" for k, what in allowed.items())


def _key() -> str:
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        key = os.read(fd, 1).decode("utf-8", "replace")
        if key == ESCAPE:
            _drain(fd)  # an arrow or function key: a sequence, not a key of ours
            return ESCAPE
        if key and ord(key) >= 0xC0:  # the first byte of a multi-byte character
            key = key + os.read(fd, 3).decode("utf-8", "ignore")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    if key in (CTRL_C, CTRL_D):
        raise KeyboardInterrupt
    return NAMES.get(key, key.lower())


def _drain(fd: int) -> None:
    import select

    while select.select([fd], [], [], 0.02)[0]:
        os.read(fd, 16)


def _line_key() -> str | None:
    line = sys.stdin.readline()
    if not line:
        return None
    key = line.strip()[:1]
    return NAMES.get(key, key.lower())


def read_text(
    prompt: str,
    *,
    multiline: bool = False,
    default: str = "",
    commands: Mapping[str, Callable[[], None]] | None = None,
    limit: int | None = None,
) -> str | None:
    """A line (or, with ``multiline``, lines up to an empty one or Ctrl-D) of edited text.

    Enter on an empty first line returns "" (so does Ctrl-D there). ``default``
    is text already in the editor (a kept draft). ``commands``: a word typed
    alone on a line of its own (``h``, ``?``) runs its function instead of
    being sent, and the line is cleared. ``limit``: text longer than this many
    characters is not sent; the editor says so and keeps it to be cut. Ctrl-C
    raises ``Interrupted`` with the text typed so far. Returns None at the end
    of piped input.
    """
    if not is_terminal():
        return _piped_text(multiline)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.application import run_in_terminal
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.validation import Validator

    global _history
    if _history is None:
        _history = InMemoryHistory()
    keys = KeyBindings()
    commands = dict(commands or {})

    @keys.add("enter")
    def _enter(event) -> None:
        buffer = event.current_buffer
        line = buffer.document.current_line
        if line.strip() in commands and buffer.document.is_cursor_at_the_end:
            # The word alone on its line is a command: clear the line, keep the rest.
            buffer.delete_before_cursor(len(buffer.document.current_line_before_cursor))
            if buffer.text:
                buffer.delete_before_cursor(1)  # the newline that opened the line
            run_in_terminal(commands[line.strip()])
            return
        if not multiline or not buffer.text.strip() or line == "":
            buffer.validate_and_handle()  # an empty line ends a multi-line attempt
        else:
            buffer.insert_text("\n")

    @keys.add("c-d")
    def _end(event) -> None:
        event.current_buffer.validate_and_handle()

    @keys.add("c-c")
    def _interrupt(event) -> None:
        event.app.exit(exception=Interrupted(event.current_buffer.text))

    fits = None
    if limit is not None:
        fits = Validator.from_callable(
            lambda text: len(text.strip()) <= limit,  # as it is sent: stripped
            error_message=f"at most {limit:,} characters: cut it, then send it again",
            move_cursor_to_end=True,
        )
    from prompt_toolkit.utils import get_cwidth

    from studybot.cli.editor_wrap import WordWrap

    session: PromptSession[str] = PromptSession(
        history=_history,
        key_bindings=keys,
        multiline=multiline,
        validator=fits,
        input_processors=[WordWrap(prefix=get_cwidth(prompt))],  # rows break between words
    )
    # A terminal that does not answer the cursor-position request (CPR) gets the editor
    # without it, quietly: prompt_toolkit would print a WARNING line into the screen.
    session.app.renderer.cpr_not_supported_callback = None
    session.app.after_render += _start_meanwhile
    drop_type_ahead()
    text = session.prompt(
        prompt, default=default, prompt_continuation=lambda width, *_: " " * width
    )
    return text.strip()


def _piped_text(multiline: bool) -> str | None:
    lines: list[str] = []
    while True:
        line = sys.stdin.readline()
        if not line:
            return "\n".join(lines) if lines else None
        line = line.rstrip("\n")
        if not multiline:
            return line.strip()
        if not line.strip():
            return "\n".join(lines).strip()
        lines.append(line)
