"""A live quiz against llama.cpp's own server: the engine's tokens beside studybot's.

Starts ``llama-server`` on a free port behind a small logging reverse proxy,
then runs the installed ``studybot`` CLI as a learner would — a 16-question
``run --quiz`` in a pseudo-terminal, every attempt typed, graded live, rated
with Enter — and prints, per request the engine served, its ``prompt_tokens``,
``cached_tokens`` and ``completion_tokens`` beside the figures studybot
stored (``studybot show --json``), then the totals of both sides, the cached
share of each and how many grades were parsed against how many fell back.
Every figure that differs is named.

    python bench/real_engine.py --server PATH/llama-server --model PATH/tiny-qwen2.gguf

or with ``STUDYBOT_LLAMA_SERVER`` and ``STUDYBOT_LLAMA_MODEL`` set. How to
build the server and the tiny model: docs/real-engine.md.
``max_output_tokens`` is kept small (``--max-tokens``, 256) so that some
answers of the tiny model (about 150 tokens on average) hit the limit and
are asked again.
"""

from __future__ import annotations

import argparse
import http.client
import http.server
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

KEY = "sk-bench-local-0123456789abcdef"  # llama-server without --api-key takes any key
KEY_VARIABLE = "STUDYBOT_BENCH_KEY"
CONTEXT = 16384  # tokens: the server's context, and studybot's window
MAX_TOKENS = 256  # studybot's max_output_tokens: about one answer in five is cut
ATTEMPT = "注意力分数矩阵是 n×n 的，随长度平方增长；KV 缓存随长度线性增长，只存 K 和 V。"
# The ends of the quiz's prompts, wherever a terminal wraps them (tests/cli/test_quiz_screen.py).
ATTEMPT_PROMPT = r"think,\s+then\s+reveal;"
MARKS_PROMPT = r"u\s+h\s+\?\s+q: "
RATE_PROMPT = r"f\s+h\s+\?\s+q: "
QUESTION_MARK = re.compile(r"第 (\d+) 题")
SUMMARY_ASK = "总结本段"  # in the last message of a segment's summary request


# -- the engine and the proxy -------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_engine(binary: str, model: str, port: int, log: Path) -> subprocess.Popen:
    """``llama-server`` with one slot and a 16K context, ready once /health answers."""
    command = [binary, "-m", model, "--host", "127.0.0.1", "--port", str(port)]
    command += ["-c", str(CONTEXT), "-np", "1", "--seed", "1"]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"llama-server exited with {process.returncode}; its log: {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return process
        except OSError:
            pass
        time.sleep(0.3)
    process.terminate()
    sys.exit(f"llama-server did not answer /health in 120 s; its log: {log}")


@dataclass
class Exchange:
    """One request the proxy passed to the engine, and what the engine said of it."""

    path: str
    body: dict
    status: int = 0
    usage: dict | None = None
    finish: str | None = None
    error: str = ""


@dataclass
class Proxy:
    """A reverse proxy that passes every request on and keeps each chat exchange."""

    upstream: int
    exchanges: list[Exchange] = field(default_factory=list)

    def serve(self) -> tuple[http.server.ThreadingHTTPServer, int]:
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy.forward(self, b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                proxy.forward(self, self.rfile.read(length))

            def log_message(self, *args) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server, server.server_address[1]

    def forward(self, handler: http.server.BaseHTTPRequestHandler, body: bytes) -> None:
        chat = handler.path.endswith("/chat/completions")
        exchange = Exchange(handler.path, json.loads(body) if chat and body else {})
        upstream = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=900)
        headers = {k: v for k, v in handler.headers.items() if k.lower() != "host"}
        upstream.request(handler.command, handler.path, body=body or None, headers=headers)
        response = upstream.getresponse()
        handler.send_response(response.status)
        skip = {"transfer-encoding", "content-length", "connection"}
        for name, value in response.getheaders():
            if name.lower() not in skip:
                handler.send_header(name, value)
        handler.send_header("connection", "close")
        handler.end_headers()
        seen = io.BytesIO()
        try:
            while chunk := response.read1(65536):
                seen.write(chunk)
                handler.wfile.write(chunk)
                handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            exchange.error = "the client closed the connection"
        finally:
            upstream.close()
        if chat:
            exchange.status = response.status
            read_reply(exchange, seen.getvalue().decode("utf-8", "replace"))
            self.exchanges.append(exchange)


def read_reply(exchange: Exchange, text: str) -> None:
    """Usage and finish reason of a whole JSON reply or of a stream's events."""
    events = [text]
    if exchange.body.get("stream"):
        events = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    for event in events:
        try:
            data = json.loads(event)
        except json.JSONDecodeError:
            continue
        if not isinstance(data, dict):
            continue
        if "error" in data:
            exchange.error = str(data["error"].get("message", data["error"]))[:120]
        if data.get("usage"):
            exchange.usage = data["usage"]
        for choice in data.get("choices") or []:
            exchange.finish = choice.get("finish_reason") or exchange.finish


# -- studybot, as a learner runs it ---------------------------------------------


def studybot_command() -> list[str]:
    """The installed CLI beside this Python, else ``python -m studybot``."""
    beside = Path(sys.executable).with_name("studybot")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("studybot")
    return [found] if found else [sys.executable, "-m", "studybot"]


def studybot_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.pop("TAOTOKEN_API_KEY", None)
    env |= {"STUDYBOT_HOME": str(home), KEY_VARIABLE: KEY, "NO_COLOR": "1"}
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"  # a pty under a script cannot answer the cursor query
    return env


def write_config(home: Path, proxy_port: int, model: str, max_tokens: int) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'base_url = "http://127.0.0.1:{proxy_port}/v1"\n'
        f'model = "{model}"\n'
        f'env_key = "{KEY_VARIABLE}"\n'
        f"context_window = {CONTEXT}\n"
        f"max_output_tokens = {max_tokens}\n",
        encoding="utf-8",
    )


def run_quiz(home: Path, first: int, last: int, transcript: Path) -> int:
    """``studybot run --quiz`` in a pseudo-terminal: type an attempt, confirm, take the rating."""
    import pexpect

    command = studybot_command()
    args = [*command[1:], "run", "--from", str(first), "--to", str(last), "--quiz"]
    with transcript.open("w", encoding="utf-8") as log:
        child = pexpect.spawn(
            command[0],
            args,
            env=studybot_env(home),
            encoding="utf-8",
            codec_errors="replace",
            timeout=600,
            dimensions=(50, 160),
        )
        child.logfile_read = log
        steps = [ATTEMPT_PROMPT, MARKS_PROMPT, RATE_PROMPT, pexpect.EOF]
        while (step := child.expect(steps)) != 3:
            if step == 0:
                child.expect("›")
                child.send(ATTEMPT + "\r\r")
            else:
                child.send("\r")  # confirm the grader's marks; take the suggested rating
        child.close()
    return child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)


def show_json(home: Path, session: int = 1) -> dict:
    command = [*studybot_command(), "show", str(session), "--json"]
    done = subprocess.run(command, env=studybot_env(home), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"studybot show failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


# -- the comparison -----------------------------------------------------------------


@dataclass
class Figures:
    requests: int = 0
    prompt: int = 0
    cached: int = 0
    answer: int = 0

    def add(self, other: Figures) -> None:
        self.requests += other.requests
        self.prompt += other.prompt
        self.cached += other.cached
        self.answer += other.answer

    def same_tokens(self, other: Figures) -> bool:
        return (self.prompt, self.cached, self.answer) == (other.prompt, other.cached, other.answer)


def usage_figures(usage: dict | None, requests: int = 1) -> Figures:
    if not usage:
        return Figures(requests=requests)
    # Chat Completions names, then those of the Responses API
    details = usage.get("prompt_tokens_details") or usage.get("input_tokens_details") or {}
    return Figures(
        requests=usage.get("requests", requests),
        prompt=usage.get("prompt_tokens", usage.get("input_tokens", 0)) or 0,
        cached=details.get("cached_tokens", usage.get("cached_tokens", 0)) or 0,
        answer=usage.get("completion_tokens", usage.get("output_tokens", 0)) or 0,
    )


def kind_of(exchange: Exchange, segments: list[list[int]], last_question: int | None):
    """(kind, key) of the reply an exchange was sent for: an answer's or grade's question
    id, a summary's segment index."""
    messages = exchange.body.get("messages") or []
    last = str(messages[-1].get("content", "")) if messages else ""
    if exchange.body.get("response_format"):
        return "grade", last_question  # a grade follows the answer of its question
    if SUMMARY_ASK in last:
        asked = [int(m) for msg in messages for m in QUESTION_MARK.findall(str(msg["content"]))]
        question = asked[-1] if asked else last_question
        index = next((i for i, ids in enumerate(segments) if question in ids), -1)
        return "summary", index
    marked = QUESTION_MARK.search(last)
    return ("answer", int(marked.group(1))) if marked else ("other", None)


def studybot_groups(show: dict) -> tuple[dict, Figures | None]:
    """studybot's stored figures per reply ((kind, key) -> Figures), and its grading total
    where it keeps grading only per session. Requests it records as sent and thrown away
    (a ``discarded`` usage beside a reply) are added to that reply."""
    groups: dict[tuple[str, int], Figures] = {}
    for turn in show["turns"]:
        figures = usage_figures(turn)
        figures.add(usage_figures(turn.get("discarded"), 0))
        groups["answer", turn["question_id"]] = figures
        for name in ("grading_usage", "grading"):
            if isinstance(turn.get(name), dict):
                groups["grade", turn["question_id"]] = usage_figures(turn[name])
    for segment in show["segments"]:
        if segment.get("summary_usage"):
            figures = usage_figures(segment["summary_usage"])
            figures.add(usage_figures(segment.get("summary_discarded"), 0))
            groups["summary", segment["index"]] = figures
    per_question = any(kind == "grade" for kind, _ in groups)
    grading = None if per_question else usage_figures(show.get("grading_usage"), 0)
    return groups, grading


def cell(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def row_note(kind: str, key, exchange: Exchange, last: bool, turns: dict) -> str:
    """What a row's reader needs beside the figures: a retry, an error, the grade's fate."""
    if exchange.error:
        return exchange.error[:40]
    if not last:
        return "asked again"
    if kind == "grade" and key in turns:
        source = turns[key].get("grade_source")
        return {"live": "grade parsed", "offline-fallback": "grade fell back"}.get(source, "")
    return ""


def report(exchanges: list[Exchange], show: dict, out) -> dict:
    """Print the table and the summary; return the totals (for the optional test)."""
    segments = [list(s["questions"]) for s in show["segments"]]
    turns = {t["question_id"]: t for t in show["turns"]}
    groups, grading = studybot_groups(show)
    keyed, last_question = [], None
    for exchange in exchanges:
        kind, key = kind_of(exchange, segments, last_question)
        if kind == "answer":
            last_question = key
        keyed.append((kind, key, exchange))
    last_of = {(kind, key): n for n, (kind, key, _) in enumerate(keyed)}

    engine_groups: dict[tuple[str, int], Figures] = {}
    engine, engine_grading = Figures(), Figures()
    local_equal = local_rows = 0
    print(
        f"{'#':>3} {'kind':<7} {'Q/seg':>5} {'http':>4} {'finish':<6} │ "
        f"{'engine: prompt':>14} {'cached':>7} {'answer':>6} │ "
        f"{'studybot: prompt':>16} {'cached':>7} {'answer':>6} {'local':>6}  note",
        file=out,
    )
    differences: list[str] = []
    for n, (kind, key, exchange) in enumerate(keyed):
        figures = usage_figures(exchange.usage)
        engine.add(figures)
        if kind == "grade":
            engine_grading.add(figures)
        engine_groups.setdefault((kind, key), Figures()).add(figures)
        last = last_of[kind, key] == n
        ours = groups.get((kind, key)) if last else None
        note = row_note(kind, key, exchange, last, turns)
        if ours is not None and not engine_groups[kind, key].same_tokens(ours):
            whole = engine_groups[kind, key]
            note = f"DIFFERS (engine Σ {whole.prompt:,}/{whole.cached:,}/{whole.answer:,})"
            differences.append(f"{kind} {key}: {note}")
        # studybot's own count of the prompt (its tokenizer), beside the engine's
        local = turns[key].get("local_prompt_tokens") if kind == "answer" and last else None
        if local is not None and exchange.usage:
            local_rows += 1
            local_equal += local == figures.prompt
        print(
            f"{n + 1:>3} {kind:<7} {key if key is not None else '':>5} {exchange.status:>4} "
            f"{exchange.finish or '':<6} │ {cell(exchange.usage and figures.prompt):>14} "
            f"{cell(exchange.usage and figures.cached):>7} "
            f"{cell(exchange.usage and figures.answer):>6} │ "
            f"{cell(ours and ours.prompt):>16} {cell(ours and ours.cached):>7} "
            f"{cell(ours and ours.answer):>6} {cell(local):>6}  {note}",
            file=out,
        )
    mine = Figures()
    for figures in groups.values():
        mine.add(figures)
    if grading is not None:
        mine.add(grading)
        if not engine_grading.same_tokens(grading) or engine_grading.requests != grading.requests:
            differences.append(
                f"grading (per session): engine {engine_grading.requests} requests "
                f"{engine_grading.prompt:,}/{engine_grading.cached:,}/{engine_grading.answer:,}, "
                f"studybot {grading.requests} {grading.prompt:,}/{grading.cached:,}/{grading.answer:,}"
            )
    for kind, key in sorted(set(groups) - set(engine_groups), key=str):
        differences.append(f"{kind} {key}: studybot has figures the engine never served")

    sources = [t.get("grade_source") for t in show["turns"]]
    parsed = sources.count("live")
    fallback = sources.count("offline-fallback")
    print(file=out)
    print(f"{'':<16} {'engine':>10} {'studybot':>10}", file=out)
    for label, a, b in (
        ("requests", engine.requests, mine.requests),
        ("prompt tokens", engine.prompt, mine.prompt),
        ("cached tokens", engine.cached, mine.cached),
        ("answer tokens", engine.answer, mine.answer),
    ):
        mark = "" if a == b else f"  DIFFERS by {b - a:+,}"
        print(f"{label:<16} {a:>10,} {b:>10,}{mark}", file=out)
    share = [f.cached / f.prompt if f.prompt else 0.0 for f in (engine, mine)]
    print(f"{'cached share':<16} {share[0]:>10.1%} {share[1]:>10.1%}", file=out)
    statuses = sorted({e.status for e in exchanges})
    cut = sum(e.finish == "length" for e in exchanges)
    print(
        f"engine: {len(exchanges)} chat requests, HTTP {statuses}, {cut} cut by the token limit",
        file=out,
    )
    print(
        f"grades: {parsed} parsed (live), {fallback} fell back to the offline grader, "
        f"{len(sources) - parsed - fallback} other, of {len(sources)} questions",
        file=out,
    )
    print(
        f"studybot's local prompt count equals the engine's on {local_equal} of {local_rows} "
        "answers (column local)",
        file=out,
    )
    if differences:
        print(f"{len(differences)} figures differ between the engine and studybot:", file=out)
        for line in differences:
            print(f"  {line}", file=out)
    else:
        print("every reply's figures agree", file=out)
    return {
        "engine": engine.__dict__,
        "studybot": mine.__dict__,
        "grades": {"parsed": parsed, "fallback": fallback, "questions": len(sources)},
        "local_prompt_equal": [local_equal, local_rows],
        "differences": differences,
    }


def bench(binary: str, model: str, first: int, last: int, max_tokens: int, work: Path) -> dict:
    """Run the whole bench in ``work``; print the table; return the totals."""
    engine_port = free_port()
    started = time.monotonic()
    engine = start_engine(binary, model, engine_port, work / "llama-server.log")
    proxy = Proxy(engine_port)
    server, proxy_port = proxy.serve()
    try:
        home = work / "home"
        write_config(home, proxy_port, Path(model).name.removesuffix(".gguf"), max_tokens)
        code = run_quiz(home, first, last, work / "terminal.log")
        show = show_json(home)
        with (work / "engine-requests.jsonl").open("w", encoding="utf-8") as kept:
            for exchange in proxy.exchanges:
                kept.write(json.dumps(exchange.__dict__, ensure_ascii=False) + "\n")
        (work / "studybot-show.json").write_text(json.dumps(show, ensure_ascii=False, indent=1))
    finally:
        server.shutdown()
        engine.terminate()
        engine.wait(timeout=30)
    print(
        f"studybot run --from {first} --to {last} --quiz: exit {code}, "
        f"{time.monotonic() - started:.0f} s; max_output_tokens {max_tokens}; "
        f"session {show['status']}, {show['answered']}/{show['total']} answered",
    )
    totals = report(proxy.exchanges, show, sys.stdout)
    totals["exit"] = code
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.environ.get("STUDYBOT_LLAMA_SERVER"))
    parser.add_argument("--model", default=os.environ.get("STUDYBOT_LLAMA_MODEL"))
    parser.add_argument("--from", dest="first", type=int, default=1)
    parser.add_argument("--to", dest="last", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=MAX_TOKENS, help="max_output_tokens")
    parser.add_argument("--keep", type=Path, help="keep the server log, transcript and home here")
    args = parser.parse_args()
    if not args.server or not Path(args.server).is_file():
        sys.exit("needs a llama-server binary: --server PATH or STUDYBOT_LLAMA_SERVER")
    if not args.model or not Path(args.model).is_file():
        sys.exit("needs a GGUF model: --model PATH or STUDYBOT_LLAMA_MODEL")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        bench(args.server, args.model, args.first, args.last, args.max_tokens, args.keep)
        return
    with tempfile.TemporaryDirectory(prefix="studybot-real-engine-") as work:
        bench(args.server, args.model, args.first, args.last, args.max_tokens, Path(work))


if __name__ == "__main__":
    main()
