"""Attack studybot from outside and count what it does not explain: `unexpected` errors and hangs.

Every case runs the real CLI in a fresh STUDYBOT_HOME (a subprocess, as a
user would) and is judged by what a user sees:

- crash: stderr says "unexpected", "Traceback" or "Exception ignored", the
  exit code is none of studybot's (0, 1, 2, 130, 128 + a signal), or the
  case's own check of what it left behind fails;
- hang: the command runs past the limit (10 s) and is killed.

Families of cases:

- settings: hostile config.toml files (huge, binary, every setting with
  every wrong type, odd URLs, broken profiles and prices), hostile
  environment variables (STUDYBOT_*, CODEX_HOME, COLUMNS, a home that is a
  file or /dev/null) under config show, doctor, run, plan and sessions;
- banks: folders with broken TOML and odd rubric tables under bank
  validate, list, show, search, run and plan;
- imports: FIFOs, /dev/zero, /dev/urandom, surrogates, huge ids (the import
  helper's; reported, not fixed here);
- signals: INT, HUP and TERM at every prompt of a quiz in a pseudo-terminal
  (read keys, the attempt editor, the rating, a follow-up, a streaming answer);
- streams: stdout or stderr closed, and stdout closed early by its reader;
- memory: the largest process of the run is printed, against 2 GB;
- keepalive: a live server (the tests' local one) that sends only keep-alive
  comments, holds the connection open and silent (or commenting) after the
  final event, sends text after it or a second choice (chat and responses);
  each case also has the exit code a correct run gives;
- side: ``grade`` with learner text that tries to end its block in the
  grading request, and a judge whose reply is huge, nested too deep, holds
  escape codes, quotes words the learner never wrote or is no grade at all.
- exports, environments (``crash_targets.py``): ``-o`` onto devices, FIFOs
  and links, live HTML in Anki cards, ``COLUMNS=0``, a closed stdout, a
  home named with escape codes, a read-only home, a database link to
  nothing. A case there also fails when what it leaves behind is wrong
  (a device replaced, a report that printed nothing).
- newer, encodings, inputs (``crash_inputs.py``): a database a newer
  studybot wrote with changed interview tables (each report ends 0 and says
  so); outputs that cannot show Chinese and names that are not UTF-8;
  ``grade`` fed endless or binary stdin, Markdown shapes that used to drop
  questions, UTF-32, a CSV cell over the limit, config.toml files that are
  no files or too deep, and a home on a full disk (root and ``unshare``).

    PYTHONPATH=. python bench/crash_scan.py                # everything
    PYTHONPATH=. python bench/crash_scan.py --only banks --jobs 3 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_cases import (  # noqa: E402
    KEY,
    MODEL,
    bank_cases,
    import_cases,
    keepalive_cases,
    prompt_routes,
    settings_cases,
    side_cases,
    stream_cases,
)
from crash_inputs import encoding_cases, input_cases, newer_cases  # noqa: E402
from crash_targets import environment_cases, export_target_cases  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 10.0  # seconds: longer than this is a hang
MEMORY_MB = 2048  # a process holding more than this is a defect too
CODES = {0, 1, 2, 130, 128 + signal.SIGHUP, 128 + signal.SIGTERM}
CRASH_WORDS = ("Error: unexpected ", "Traceback", "Exception ignored")


@dataclass
class Outcome:
    family: str
    name: str
    rc: int | None  # None: killed after LIMIT
    seconds: float
    said: str  # the last line of stderr (or of the terminal)
    crash: bool = False
    hang: bool = False
    notes: list[str] = field(default_factory=list)


def environment(home: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("STUDYBOT_", "OPENAI_", "TAOTOKEN_")) and k != "PYTEST_CURRENT_TEST"
    }
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home), CODEX_HOME=str(home / "codex"))
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def judge(family: str, name: str, rc: int | None, seconds: float, err: str) -> Outcome:
    lines = [line for line in err.splitlines() if line.strip()]
    outcome = Outcome(family, name, rc, round(seconds, 2), lines[-1][:200] if lines else "")
    outcome.hang = rc is None
    words = [w for w in CRASH_WORDS if w in err]
    outcome.crash = bool(words) or (rc is not None and rc not in CODES)
    if words:
        outcome.notes.append(next(line for line in lines if any(w in line for w in words))[:300])
    return outcome


@contextmanager
def serving(serve) -> Iterator[str]:
    """The base URL of a local OpenAI-compatible server set up as ``serve`` says ("" for none)."""
    if serve is None:
        yield ""
        return
    from openai_server import OpenAIServer, default_answer

    server = OpenAIServer(key=KEY, models=[MODEL], answer=serve.answer or default_answer)
    server.script(*serve.faults)
    with server:
        yield server.base_url


def run_case(family: str, case) -> Outcome:
    """One subprocess case: ``case`` sets up its home and says how to run."""
    with tempfile.TemporaryDirectory(prefix="crash-") as folder, serving(case.serve) as url:
        home = Path(folder) / "home"
        home.mkdir()
        args, env, stdin, streams = case.prepare(home, Path(folder), url)
        command = streams.wrap([*case.launcher(home), sys.executable, "-m", "studybot", *args])
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                command,
                env=environment(home, env),
                stdin=stdin if stdin is not None else subprocess.DEVNULL,
                start_new_session=True,
                cwd=folder,  # a relative name written by mistake (a file "-") lands here
                **streams.popen(),
            )
            out, err = streams.communicate(proc, LIMIT)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc, out, err = None, b"", ""
        outcome = judge(family, case.name, rc, time.monotonic() - started, err)
        if case.expect is not None and rc is not None and rc != case.expect:
            outcome.crash = True
            outcome.notes.append(f"exit {rc}, expected {case.expect}")
        problem = case.verify(home, Path(folder), rc, out, err)
        if problem:
            outcome.crash = True
            outcome.notes.append(problem)
        return outcome


def run_prompt(route, number: int) -> Outcome:
    """A quiz in a pseudo-terminal, stopped by ``number`` at one prompt."""
    import pexpect

    name = f"{route.name} · {signal.Signals(number).name}"
    with tempfile.TemporaryDirectory(prefix="crash-") as folder:
        home = Path(folder) / "home"
        env = environment(home, {"PROMPT_TOOLKIT_NO_CPR": "1", "STUDYBOT_OFFLINE_DELAY": "0.3"})
        started = time.monotonic()
        child = pexpect.spawn(
            sys.executable,
            ["-m", "studybot", *route.args],
            env=env,
            encoding="utf-8",
            timeout=LIMIT,
            dimensions=(40, 120),
        )
        try:
            route.reach(child)
            child.kill(number)
            child.expect(pexpect.EOF, timeout=LIMIT)
            child.close()
            rc = child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus
            screen = child.before or ""
        except (pexpect.TIMEOUT, pexpect.EOF) as exc:
            child.close(force=True)
            reached = isinstance(exc, pexpect.EOF)
            outcome = judge("signals", name, None, time.monotonic() - started, child.before or "")
            outcome.hang = not reached
            outcome.notes.append(
                "ended before the prompt" if reached else "no EOF after the signal"
            )
            return outcome
        outcome = judge("signals", name, rc, time.monotonic() - started, screen)
        expected = 130 if number == signal.SIGINT else 128 + number
        if rc != expected:
            outcome.crash = True
            outcome.notes.append(f"exit {rc}, expected {expected}")
        if route.saved and "Resume with: studybot resume 1" not in screen:
            outcome.notes.append("no resume hint")
            outcome.crash = True
        return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        choices=[
            "settings",
            "banks",
            "imports",
            "signals",
            "streams",
            "keepalive",
            "side",
            "exports",
            "environments",
            "newer",
            "encodings",
            "inputs",
        ],
    )
    parser.add_argument("--jobs", type=int, default=2, help="cases at once (default 2)")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    options = parser.parse_args()
    families = {
        "settings": settings_cases,
        "banks": bank_cases,
        "imports": import_cases,
        "streams": stream_cases,
        "keepalive": keepalive_cases,
        "side": side_cases,
        "exports": export_target_cases,
        "environments": environment_cases,
        "newer": newer_cases,
        "encodings": encoding_cases,
        "inputs": input_cases,
    }
    outcomes: list[Outcome] = []
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for family, make in families.items():
            if options.only not in (None, family):
                continue
            outcomes += list(pool.map(lambda case, f=family: run_case(f, case), make()))
    if options.only in (None, "signals"):
        for route in prompt_routes():
            for number in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
                outcomes.append(run_prompt(route, number))
    report(outcomes, time.monotonic() - started)
    if options.json:
        options.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))


def report(outcomes: list[Outcome], seconds: float) -> None:
    by_family: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_family.setdefault(outcome.family, []).append(outcome)
    print(f"{'family':<12} {'cases':>5} {'unexpected':>10} {'hangs':>5}  slowest")
    for family, items in by_family.items():
        crashes = sum(o.crash for o in items)
        hangs = sum(o.hang for o in items)
        slowest = max(items, key=lambda o: o.seconds)
        print(
            f"{family:<12} {len(items):>5} {crashes:>10} {hangs:>5}  "
            f"{slowest.seconds:.1f} s ({slowest.name})"
        )
    bad = [o for o in outcomes if o.crash or o.hang]
    total_crash = sum(o.crash for o in outcomes)
    total_hang = sum(o.hang for o in outcomes)
    print(
        f"{'total':<12} {len(outcomes):>5} {total_crash:>10} {total_hang:>5}  "
        f"in {seconds:.0f} s (limit {LIMIT:g} s a case)"
    )
    # Linux: the largest resident set of any child waited for, in KiB.
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    over = " — over the 2 GB a case may take" if largest > MEMORY_MB else ""
    print(f"largest process: {largest:,.0f} MB{over}")
    for outcome in bad:
        kind = "HANG" if outcome.hang else "CRASH"
        print(f"  {kind} {outcome.family}: {outcome.name}: rc {outcome.rc}: {outcome.said}")
        for note in outcome.notes:
            print(f"      {note}")


if __name__ == "__main__":
    main()
