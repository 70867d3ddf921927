"""The ``studybot`` entry point and the one error boundary.

Every exception ends here as one line on stderr (plus a hint) and an exit
code from ``studybot.errors``: library errors by their class, a broken
database by name, Ctrl-C as INTERRUPTED — at any moment, start-up included.
SIGTERM and SIGHUP take Ctrl-C's path (the session is saved, the resume
hint printed while stderr is still open) and exit 128 + the signal. A
stdout closed by its reader (``| head``) is not a crash. Only the standard
library is imported at module level, so the boundary is in place before
click, the CLI and everything they pull in are loaded. Unexpected
exceptions stay loud under pytest and with STUDYBOT_DEBUG=1.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sqlite3
import sys
import typing

from studybot.errors import FAILURE, INTERRUPTED, OK, StudybotError

DEBUG = "STUDYBOT_DEBUG"


# The signals that end studybot the way Ctrl-C does; the one received sets the exit code.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_received: list[int] = []


def main() -> None:
    """The console script: the whole CLI inside the boundary."""
    _standard_streams()
    _encodable_streams()
    for number in ENDING_SIGNALS:
        signal.signal(number, _as_interrupt)
    try:
        from studybot.cli import cli

        code = run(cli)
    except KeyboardInterrupt as exc:  # while studybot is still starting
        code = handle(exc)
    if code == INTERRUPTED and _received:
        code = 128 + _received[0]
    _release_stdout()
    _escapes_note()
    sys.exit(code)


def _as_interrupt(number: int, frame) -> None:
    """SIGTERM or SIGHUP: Ctrl-C's path; a second one ends studybot at once."""
    _received.append(number)
    signal.signal(number, signal.SIG_DFL)
    raise KeyboardInterrupt


def _standard_streams() -> None:
    """A closed stdin, stdout or stderr (``>&-``) becomes /dev/null; writing to stdout fails.

    Left closed, its number would go to the next file opened (the session
    database), and whatever was meant for the terminal would land in it.
    What is written to a closed stdout is lost, so the first write fails
    (``OutputClosed``), as it does for a shell's ``echo hi >&-``: a report
    that shows nothing never exits 0. A closed stderr only loses messages;
    the exit code still says how it went.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            if fd == 1:
                sys.stdout = _ClosedOutput(_RefusedBytes(io.FileIO(fd, "w", closefd=False)))
                continue
            setattr(sys, name, open(fd, mode, encoding="utf-8", closefd=False))  # noqa: SIM115


class OutputClosed(BrokenPipeError):
    """stdout was closed before studybot started (``>&-``): nothing written to it can be seen."""

    def __init__(self) -> None:
        super().__init__(errno.EBADF, "standard output is closed")


class _RefusedBytes(io.BufferedWriter):
    def write(self, data) -> int:
        raise OutputClosed


class _ClosedOutput(io.TextIOWrapper):
    """stdout as ``>&-`` left it: every write fails at once, so nothing waits in a buffer."""

    def __init__(self, raw: io.BufferedWriter) -> None:
        super().__init__(raw, encoding="utf-8", errors="strict")

    def write(self, text: str) -> int:
        raise OutputClosed


# The encodings whose output had characters written as escapes (the note at the end names one).
_escaped: list[str] = []


def _escapes_note() -> None:
    """One line when something printed was written as escapes, saying why."""
    import codecs

    if not _escaped:
        return
    if codecs.lookup(_escaped[0]).name == "utf-8":  # only a lone surrogate fails there
        _say("Note: bytes that are not UTF-8 (in a file name?) are written as escapes like \\udcff")
        return
    _say(
        f"Note: this output's encoding ({_escaped[0]}) cannot show every character; "
        "those are written as escapes such as \\u4e2d (PYTHONIOENCODING=utf-8 shows them)"
    )


def _encodable_streams() -> None:
    """stdout and stderr never fail on a character their encoding lacks.

    ``PYTHONIOENCODING=ascii`` (or latin-1) cannot encode a Chinese question,
    and no encoding can a path's undecodable bytes (lone surrogates): such a
    character is written as an escape (``\\u4e2d``), and a note at the end says so.
    stdin reads what it cannot decode as U+FFFD instead of failing.
    """
    import codecs

    def escaped(exc: UnicodeError):
        encoding = getattr(exc, "encoding", "") or "?"
        if encoding not in _escaped:
            _escaped.append(encoding)
        return codecs.backslashreplace_errors(exc)

    codecs.register_error("studybot-escape", escaped)
    for stream, errors in ((sys.stdout, "studybot-escape"), (sys.stderr, "studybot-escape")):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            typing.cast(io.TextIOWrapper, stream).reconfigure(errors=errors)
    with contextlib.suppress(AttributeError, ValueError, OSError):
        typing.cast(io.TextIOWrapper, sys.stdin).reconfigure(errors="replace")


def _release_stdout() -> None:
    """A reader that closed stdout early gets nothing more; Python's exit flush must not fail."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run(cli) -> int:
    """Run the click group; whatever ends it becomes an exit code."""
    try:
        result = cli.main(prog_name="studybot", standalone_mode=False)
    except BaseException as exc:  # noqa: BLE001 - the boundary: everything is said once, here
        return handle(exc)
    return result if isinstance(result, int) else OK


def handle(exc: BaseException) -> int:
    """Say what ``exc`` means on stderr (nothing for a finding already shown); its exit code."""
    if isinstance(exc, KeyboardInterrupt | EOFError):  # before click: it may be what was loading
        _say("\nInterrupted.")
        return INTERRUPTED
    if isinstance(exc, OutputClosed):  # never open (>&-): what it printed went nowhere
        _say("Error: standard output is closed (>&-): nothing could be shown")
        _say("Hint: run it with stdout open, or send it to a file: > FILE")
        return FAILURE
    if isinstance(exc, BrokenPipeError):  # stdout's reader stopped (| head): nothing to say
        _release_stdout()
        return FAILURE
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else (OK if exc.code is None else FAILURE)
    import click

    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code
    if isinstance(exc, click.Abort):  # click's own Ctrl-C: not a bare "Aborted!"
        _say("\nInterrupted.")
        return INTERRUPTED
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):  # `studybot bank`: help, asked for
        click.echo(exc.ctx.get_help())
        return OK
    if isinstance(exc, click.UsageError):
        from studybot.errors import BadInput

        _error(BadInput(*_usage(exc)))
        return exc.exit_code
    if isinstance(exc, click.ClickException):
        exc.show()
        return exc.exit_code
    if isinstance(exc, sqlite3.Error) and os.environ.get(DEBUG) != "1":
        # The store names its file when it opens; a file that breaks later is named here.
        from studybot.storage.dbfile import explain
        from studybot.storage.home import home
        from studybot.storage.store import DB_NAME

        exc = explain(exc, home() / DB_NAME)
    if isinstance(exc, OSError) and exc.errno in FILE_ERRORS and exc.filename:
        exc = _file_error(exc)
    if isinstance(exc, StudybotError):
        if _loud() and os.environ.get(DEBUG) == "1":
            raise exc
        _error(exc)
        return exc.exit_code
    if _loud():
        raise exc
    from studybot.cli.render import printable

    _say(printable(f"Error: unexpected {type(exc).__name__}: {exc}"))
    _say(f"Hint: rerun with {DEBUG}=1 to see the traceback")
    return FAILURE


def _usage(exc) -> tuple[str, str]:
    """A click usage error as one line and a hint: the close match, else where help is.

    click's own form is four lines (usage, "Try --help", a blank, the error),
    and its "Did you mean one of" lists every near name; one name is the hint.
    """
    ctx = exc.ctx
    command = ctx.command_path if ctx is not None else "studybot"
    message = " ".join(exc.message.split()) if hasattr(exc, "possibilities") else None
    message = message or " ".join(exc.format_message().split())
    near = _close_match(exc)
    if near:
        return message, f"did you mean {near}? (`{command} --help` lists them all)"
    return message, f"`{command} --help` shows the usage"


def _close_match(exc) -> str | None:
    """The one name closest to what was typed: an option, a command or a choice."""
    from difflib import get_close_matches

    typed = getattr(exc, "option_name", None) or getattr(exc, "command_name", None)
    names = list(getattr(exc, "possibilities", None) or [])
    if typed is None:
        import re

        import click

        param = getattr(exc, "param", None)
        found = re.search(r"'([^']*)' is not one of", exc.format_message())
        if found is None or param is None or not isinstance(param.type, click.Choice):
            return None
        typed, names = found.group(1), [str(choice) for choice in param.type.choices]
    best = get_close_matches(typed, names, n=1, cutoff=0.5)
    return best[0] if best else None


# What the file system says about a path the user chose (a folder, STUDYBOT_HOME, -o FILE).
FILE_ERRORS = {
    errno.EACCES,
    errno.EPERM,
    errno.EROFS,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.ENOTDIR,
    errno.EISDIR,
    errno.ENAMETOOLONG,
    errno.ELOOP,
}


def _file_error(exc: OSError) -> StudybotError:
    return StudybotError(
        f"cannot use {exc.filename}: {exc.strerror}",
        hint="check that folder's permissions and free space, "
        "or set STUDYBOT_HOME to a writable folder",
    )


def _error(exc: StudybotError) -> None:
    from studybot.cli.render import fit, paint, printable
    from studybot.errors import Interrupted

    # Messages quote file names, settings and servers' words: never a control character.
    message, hint = printable(exc.message), printable(exc.hint or "")
    if isinstance(exc, Interrupted):
        _say("\n" + fit(message + (f" {hint}" if hint else "")))
        return
    import click

    # click.echo drops the colours when stderr is not a terminal; lines wrap at words there.
    # A stderr that is gone (a hang-up) gets nothing, and the exit code still says it.
    with contextlib.suppress(OSError):
        if message:
            click.echo(paint("Error:", "error") + fit(f"Error: {message}")[6:], err=True)
        if hint:
            click.echo(paint("Hint:", "hint") + fit(f"Hint: {hint}")[5:], err=True)


def _loud() -> bool:
    """Unexpected exceptions keep their traceback: in tests, and when asked for."""
    return os.environ.get(DEBUG) == "1" or "PYTEST_CURRENT_TEST" in os.environ


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr closed or hung up
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
