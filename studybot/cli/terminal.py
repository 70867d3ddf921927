"""Keyboard input: single keys without Enter, and edited lines of text.

On a terminal, ``read_key`` switches stdin to cbreak mode for one key
(signals stay on, so Ctrl-C is still a KeyboardInterrupt), and
``read_text`` uses prompt_toolkit: line editing, in-memory history and
wide-character widths, so arrow keys edit the text instead of landing in it
as escape codes. Ctrl-C and Ctrl-D at any prompt raise KeyboardInterrupt:
the caller saves the session and exits as interrupted.

When stdin is not a terminal (a pipe, a test), both read lines instead:
a key is the first character of a line, text runs to an empty line, and
the end of input is ``None``.
"""

from __future__ import annotations

import os
import sys

import click

ENTER = "enter"  # Enter and space
NAMES = {"\r": ENTER, "\n": ENTER, " ": ENTER, "": ENTER}
CTRL_C, CTRL_D, ESCAPE = "\x03", "\x04", "\x1b"

_history = None  # one in-memory history for every text prompt of the process


def is_terminal() -> bool:
    return sys.stdin.isatty()


def read_key(prompt: str, allowed: dict[str, str]) -> str | None:
    """One key from ``allowed`` (key → what it does), asked again until one is pressed.

    Returns the key (Enter and space as ``ENTER``, letters lower-cased), or
    None at the end of piped input.
    """
    while True:
        click.echo(prompt, nl=False, err=True)
        key = _key() if is_terminal() else _line_key()
        if key is None:
            click.echo("", err=True)
            return None
        click.echo("" if key == ENTER else key, err=True)
        if key in allowed:
            return key
        shown = "Enter" if key == ENTER else repr(key) if key.isprintable() else "that key"
        click.echo(f"{shown} does nothing here; keys: {key_list(allowed)}", err=True)


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


def read_text(prompt: str, *, multiline: bool = False) -> str | None:
    """A line (or, with ``multiline``, lines up to an empty one or Ctrl-D) of edited text.

    Enter on an empty first line returns "". Returns None at the end of piped input.
    """
    if not is_terminal():
        return _piped_text(multiline)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    global _history
    if _history is None:
        _history = InMemoryHistory()
    keys = KeyBindings()

    @keys.add("enter")
    def _enter(event) -> None:
        buffer = event.current_buffer
        if not multiline or not buffer.text.strip() or buffer.document.current_line == "":
            buffer.validate_and_handle()  # an empty line ends a multi-line attempt
        else:
            buffer.insert_text("\n")

    @keys.add("c-d")
    def _end(event) -> None:
        buffer = event.current_buffer
        if buffer.text:
            buffer.validate_and_handle()
        else:
            event.app.exit(exception=EOFError)

    session = PromptSession(history=_history, key_bindings=keys, multiline=multiline)
    try:
        text = session.prompt(prompt, prompt_continuation=lambda width, *_: " " * width)
    except EOFError:
        raise KeyboardInterrupt from None
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
