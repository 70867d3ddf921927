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
from collections import Counter
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
GRADE_ASK = "请给用户对上面这道题的作答评分"  # opens the last message of a grade request


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
    text: str = ""  # what the engine answered (the content of its message or deltas)


@dataclass
class Proxy:
    """A reverse proxy that passes every request on and keeps each chat exchange."""

    upstream: int
    exchanges: list[Exchange] = field(default_factory=list)
    phase: str = "run"  # "run" while the quiz runs, "replay" while studybot replays it
    calls: Counter = field(default_factory=Counter)  # (phase, path) of every other request

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
        else:  # /props, /tokenize, /apply-template, /v1/models: forwarded, counted apart
            self.calls[self.phase, handler.path.split("?")[0]] += 1


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
            said = choice.get("delta") or choice.get("message") or {}
            exchange.text += said.get("content") or ""


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


def write_config(
    home: Path, proxy_port: int, model: str, max_tokens: int, token_counter: str = "server"
) -> None:
    """studybot's config for the proxy: with ``token_counter = "server"`` studybot counts
    with the engine's /apply-template and /tokenize (and /props picks the ``llamacpp``
    cache rule and its slots)."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'base_url = "http://127.0.0.1:{proxy_port}/v1"\n'
        f'model = "{model}"\n'
        f'env_key = "{KEY_VARIABLE}"\n'
        f"context_window = {CONTEXT}\n"
        f"max_output_tokens = {max_tokens}\n"
        f'token_counter = "{token_counter}"\n',
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
    return studybot_json(home, "show", str(session), "--json")


def replay_json(home: Path, session: int = 1) -> dict:
    """studybot's replay of the recorded session under its ``llamacpp`` rule, as a user runs it."""
    mode = ("--mode", "provider", "--cache-rule", "llamacpp", "--json")
    return studybot_json(home, "cache", "session", str(session), *mode)


def studybot_json(home: Path, *args: str) -> dict:
    command = [*studybot_command(), *args]
    done = subprocess.run(command, env=studybot_env(home), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"studybot {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
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
    if exchange.body.get("response_format") or last.startswith(GRADE_ASK):
        # a grade follows the answer of its question (plain instructions once a JSON mode
        # was refused)
        return "grade", last_question
    if SUMMARY_ASK in last:
        asked = [int(m) for msg in messages for m in QUESTION_MARK.findall(str(msg["content"]))]
        question = asked[-1] if asked else last_question
        index = next((i for i, ids in enumerate(segments) if question in ids), -1)
        return "summary", index
    marked = QUESTION_MARK.search(last)
    return ("answer", int(marked.group(1))) if marked else ("other", None)


def studybot_groups(show: dict) -> tuple[dict, Figures | None]:
    """studybot's stored figures per reply ((kind, key) -> Figures), every request included,
    and its grading total where it keeps grading only per session.

    A turn's own figures are its kept request's; ``discarded`` beside it holds the requests
    sent for it and thrown away (a cut answer asked again), so its ``requests`` is 1 plus
    those. ``grading_usage`` and the top-level ``requests`` already include thrown-away
    requests (``discarded_requests``, ``discarded``)."""
    groups: dict[tuple[str, int], Figures] = {}
    for turn in show["turns"]:
        figures = usage_figures(turn, 1)
        figures.requests = 1  # the kept request; ``requests`` counts the discarded ones too
        figures.add(usage_figures(turn.get("discarded"), 0))
        if figures.requests != turn.get("requests", figures.requests):
            sys.exit(f"show --json: Q{turn['question_id']} says {turn['requests']} requests")
        groups["answer", turn["question_id"]] = figures
        for name in ("grading_usage", "grading"):
            if isinstance(turn.get(name), dict):
                groups["grade", turn["question_id"]] = usage_figures(turn[name])
    for segment in show["segments"]:
        if segment.get("summary_usage") or segment.get("summary_discarded"):
            figures = usage_figures(
                segment.get("summary_usage"), 1 if segment.get("summary_usage") else 0
            )
            figures.requests = 1 if segment.get("summary_usage") else 0
            figures.add(usage_figures(segment.get("summary_discarded"), 0))
            groups["summary", segment["index"]] = figures
    per_question = any(kind == "grade" for kind, _ in groups)
    grading = None if per_question else usage_figures(show.get("grading_usage"), 0)
    return groups, grading


def studybot_total(show: dict) -> Figures:
    """The session's every request as ``show --json`` totals it (top-level ``requests``)."""
    sent = show.get("requests") or {}
    return Figures(
        requests=sent.get("sent", 0),
        prompt=sent.get("prompt_tokens", 0),
        cached=sent.get("cached_tokens", 0),
        answer=sent.get("completion_tokens", 0),
    )


def predictions(replay: dict) -> dict[tuple[str, int], tuple[int, int]]:
    """The replay's (predicted hit, prompt tokens) per reply, keyed as ``kind_of`` keys them."""
    out = {}
    for request in replay["requests"]:
        kind = request["kind"]
        key = request["segment"] - 1 if kind == "summary" else request["question"]
        out[kind, key] = (request["hit"], request["tokens"])
    return out


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


def engine_ids(port: int, path: str, body: dict) -> list:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def rule_over_every_request(exchanges: list[Exchange], port: int) -> list[int | None]:
    """studybot's ``llamacpp`` rule (its SlotCache, one slot) over every chat request the
    engine served, grades and retries included, in the engine's tokens: the prompt as the
    engine's /apply-template renders it, the reply as its /tokenize splits the text.

    Tells a rule that is wrong from a replay that misses requests. None for a request the
    engine served no usage for, or whose tokens differ in number from its ``prompt_tokens``.
    """
    from studybot.costs.cache.rules import SlotCache

    slots, out = SlotCache(1), []
    for exchange in exchanges:
        messages = exchange.body.get("messages") or []
        prompt = engine_ids(port, "/apply-template", {"messages": messages})["prompt"]
        body = {"content": prompt, "add_special": True, "parse_special": True}
        ids = engine_ids(port, "/tokenize", body)["tokens"]
        body = {"content": exchange.text, "add_special": False, "parse_special": True}
        reply = engine_ids(port, "/tokenize", body)["tokens"]
        hit = slots.request(ids, reply)
        served = usage_figures(exchange.usage).prompt if exchange.usage else None
        out.append(hit if served == len(ids) else None)
    return out


def engine_log_tasks(log: Path) -> list[list[str]]:
    """The server log's lines about each chat request, in the order it served them.

    A chat request starts with the slot choice (``get_availabl``); what follows up to the
    next one (the prompt it kept, the tokens it evaluated, any host-memory prompt cache
    line) belongs to it. /tokenize and /apply-template take no slot and leave no such line.
    """
    tasks: list[list[str]] = []
    if not log.is_file():
        return tasks
    keep = ("f_keep", "n_past", "prompt eval time", "cache", "restor", "load", "lcs", "lcp")
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if "get_availabl" in line or "get_available" in line:
            tasks.append([])
        if tasks and any(word in line.lower() for word in keep):
            tasks[-1].append(re.sub(r"^\S+ \w ", "", line).strip())
    return tasks


def evidence(lines: list[str]) -> str:
    """A request's server log in a few words: how the slot was chosen, what it evaluated."""
    out = []
    for line in lines:
        if found := re.search(r"f_sim_best = ([\d.]+).*f_keep = ([\d.]+)", line):
            out.append(f"slot f_sim {found[1]} f_keep {found[2]}")
        elif found := re.search(r"prompt eval time = .*/\s*(\d+) tokens", line):
            out.append(f"evaluated {found[1]}")
        elif "get_availabl" not in line and "n_past" not in line and "prompt eval" not in line:
            out.append(re.sub(r"^.*\| task -?\d+ \| ", "", line)[:90])
    return "; ".join(out)


def why_differs(n: int, keyed: list, last_of: dict) -> str:
    """Why the engine's cached tokens differ from the replay's prediction, from what came
    just before this request on the engine's one slot."""
    if n == 0:
        return "the first request"
    kind, key, _ = keyed[n - 1]
    this_kind, this_key, _ = keyed[n]
    if (kind, key) == (this_kind, this_key):
        return "a retried request: the slot held its cut first attempt (not in the replay)"
    if last_of[kind, key] != n - 1:
        return f"after a discarded {kind} request (not in the replay) took the slot"
    if kind == "grade":
        return f"after the grade side request of Q{key} (not in the replay) took the slot"
    return "the replay's slot held other tokens than the engine's"


def report(
    exchanges: list[Exchange],
    show: dict,
    out,
    replay: dict | None = None,
    log: Path | None = None,
    calls: Counter | None = None,
    every: list[int | None] | None = None,
) -> dict:
    """Print the table and the summary; return the totals (for the optional test)."""
    segments = [list(s["questions"]) for s in show["segments"]]
    turns = {t["question_id"]: t for t in show["turns"]}
    groups, grading = studybot_groups(show)
    replayed = predictions(replay) if replay else {}
    predicted = {key: hit for key, (hit, _) in replayed.items()}
    replay_tokens = {key: tokens for key, (_, tokens) in replayed.items()}
    tasks = engine_log_tasks(log) if log else []
    keyed, last_question = [], None
    for exchange in exchanges:
        kind, key = kind_of(exchange, segments, last_question)
        if kind == "answer":
            last_question = key
        keyed.append((kind, key, exchange))
    last_of = {(kind, key): n for n, (kind, key, _) in enumerate(keyed)}

    engine_groups: dict[tuple[str, int], Figures] = {}
    engine, engine_grading = Figures(), Figures()
    count_equal = count_rows = predicted_equal = predicted_rows = 0
    every = every or [None] * len(exchanges)
    every_equal = sum(
        e is not None and x.usage is not None and e == usage_figures(x.usage).cached
        for e, x in zip(every, exchanges, strict=True)
    )
    every_rows = sum(e is not None for e in every)
    every_differs = []
    for n, (e, x) in enumerate(zip(every, exchanges, strict=True)):
        if e is None or x.usage is None or e == usage_figures(x.usage).cached:
            continue
        why = ""
        before = usage_figures(exchanges[n - 1].usage) if n else None
        into = usage_figures(x.usage).cached - before.prompt if before else -1
        if before and 0 <= into < before.answer:
            why = (
                f": the slot holds the ids the engine generated for #{n}'s reply; its text, "
                f"tokenized again, agrees with only the first {into} of {before.answer}"
            )
        every_differs.append(f"#{n + 1} engine {usage_figures(x.usage).cached:,}, rule {e:,}{why}")
    not_replayed = Counter()
    print(
        f"{'#':>3} {'kind':<7} {'Q/seg':>5} {'http':>4} {'finish':<6} │ "
        f"{'engine: prompt':>14} {'cached':>7} {'answer':>6} │ "
        f"{'studybot: prompt':>16} {'cached':>7} {'answer':>6} {'count':>6} {'predicted':>9} {'every':>6}  note",
        file=out,
    )
    differences: list[str] = []
    mispredicted: list[str] = []
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
        # studybot's own count of this prompt (its token counter: the server's /tokenize)
        count = None
        if last and (kind, key) in replay_tokens:
            count = replay_tokens[kind, key]
        elif kind == "answer" and last:
            count = turns[key].get("local_prompt_tokens")
        if count is not None and exchange.usage:
            count_rows += 1
            count_equal += count == figures.prompt
        guess = predicted.get((kind, key)) if last else None
        if guess is None:
            not_replayed[f"discarded {kind}" if not last else kind] += 1
        elif exchange.usage:
            predicted_rows += 1
            if guess == figures.cached:
                predicted_equal += 1
            else:
                reason = why_differs(n, keyed, last_of)
                seen = evidence(tasks[n]) if n < len(tasks) else "no server log line"
                mispredicted.append(
                    f"#{n + 1} {kind} {key}: engine {figures.cached:,}, predicted {guess:,} "
                    f"({guess - figures.cached:+,}): {reason} [log: {seen}]"
                )
        print(
            f"{n + 1:>3} {kind:<7} {key if key is not None else '':>5} {exchange.status:>4} "
            f"{exchange.finish or '':<6} │ {cell(exchange.usage and figures.prompt):>14} "
            f"{cell(exchange.usage and figures.cached):>7} "
            f"{cell(exchange.usage and figures.answer):>6} │ "
            f"{cell(ours and ours.prompt):>16} {cell(ours and ours.cached):>7} "
            f"{cell(ours and ours.answer):>6} {cell(count):>6} {cell(guess):>9} {cell(every[n]):>6}  {note}",
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
    total = studybot_total(show)
    if total.__dict__ != mine.__dict__:
        differences.append(
            f"show --json: its top-level requests {total.__dict__} are not the sum of its "
            f"replies {mine.__dict__}"
        )

    sources = [t.get("grade_source") for t in show["turns"]]
    parsed = sources.count("live")
    fallback = sources.count("offline-fallback")
    print(file=out)
    print(f"{'':<16} {'engine':>10} {'studybot':>10}", file=out)
    for label, a, b in (
        ("requests", engine.requests, total.requests),
        ("prompt tokens", engine.prompt, total.prompt),
        ("cached tokens", engine.cached, total.cached),
        ("answer tokens", engine.answer, total.answer),
    ):
        mark = "" if a == b else f"  DIFFERS by {b - a:+,}"
        print(f"{label:<16} {a:>10,} {b:>10,}{mark}", file=out)
    share = [f.cached / f.prompt if f.prompt else 0.0 for f in (engine, total)]
    print(f"{'cached share':<16} {share[0]:>10.1%} {share[1]:>10.1%}", file=out)
    statuses = sorted({e.status for e in exchanges})
    cut = sum(e.finish == "length" for e in exchanges)
    print(
        f"engine: {len(exchanges)} chat requests, HTTP {statuses}, {cut} cut by the token limit",
        file=out,
    )
    calls = calls or Counter()
    for phase in ("run", "replay"):
        paths = {path: k for (when, path), k in sorted(calls.items()) if when == phase}
        listed = ", ".join(f"{path} {k}" for path, k in paths.items()) or "none"
        print(f"other calls during the {phase} (not in the table): {listed}", file=out)
    print(
        f"grades: {parsed} parsed (live), {fallback} fell back to the offline grader, "
        f"{len(sources) - parsed - fallback} other, of {len(sources)} questions",
        file=out,
    )
    print(
        f"studybot's prompt count equals the engine's on {count_equal} of {count_rows} "
        "requests (column count: the replay's, else the turn's own)",
        file=out,
    )
    if replay:
        left = ", ".join(f"{k} {kind}" for kind, k in sorted(not_replayed.items()))
        print(
            f"predicted cached (cache session --mode provider --cache-rule llamacpp) equals "
            f"the engine's on {predicted_equal} of {predicted_rows} replayed requests; "
            f"not in the replay: {left or 'none'}",
            file=out,
        )
        for line in mispredicted:
            print(f"  {line}", file=out)
    if every_rows:
        print(
            f"the same llamacpp rule over every request the engine served (column every: "
            f"grades and retries included, the engine's tokens) equals its cached tokens on "
            f"{every_equal} of {every_rows} requests",
            file=out,
        )
        for line in every_differs:
            print(f"  {line}", file=out)
    if differences:
        print(f"{len(differences)} figures differ between the engine and studybot:", file=out)
        for line in differences:
            print(f"  {line}", file=out)
    else:
        print("every reply's figures agree", file=out)
    return {
        "engine": engine.__dict__,
        "studybot": total.__dict__,
        "grades": {"parsed": parsed, "fallback": fallback, "questions": len(sources)},
        "prompt_count_equal": [count_equal, count_rows],
        "predicted_equal": [predicted_equal, predicted_rows],
        "every_request_rule_equal": [every_equal, every_rows],
        "mispredicted": mispredicted,
        "not_replayed": dict(not_replayed),
        "tokenizer_calls": {f"{phase} {path}": k for (phase, path), k in calls.items()},
        "differences": differences,
    }


def bench(
    binary: str,
    model: str,
    first: int,
    last: int,
    max_tokens: int,
    work: Path,
    token_counter: str = "server",
) -> dict:
    """Run the whole bench in ``work``; print the table; return the totals."""
    engine_port = free_port()
    started = time.monotonic()
    log = work / "llama-server.log"
    engine = start_engine(binary, model, engine_port, log)
    proxy = Proxy(engine_port)
    server, proxy_port = proxy.serve()
    try:
        home = work / "home"
        name = Path(model).name.removesuffix(".gguf")
        write_config(home, proxy_port, name, max_tokens, token_counter)
        code = run_quiz(home, first, last, work / "terminal.log")
        show = show_json(home)
        proxy.phase = "replay"  # the replay tokenizes with the engine: it must still be up
        replay = replay_json(home)
        every = rule_over_every_request(proxy.exchanges, engine_port)
        with (work / "engine-requests.jsonl").open("w", encoding="utf-8") as kept:
            for exchange in proxy.exchanges:
                kept.write(json.dumps(exchange.__dict__, ensure_ascii=False) + "\n")
        (work / "studybot-show.json").write_text(json.dumps(show, ensure_ascii=False, indent=1))
        (work / "studybot-cache.json").write_text(json.dumps(replay, ensure_ascii=False, indent=1))
        calls = {f"{phase} {path}": n for (phase, path), n in sorted(proxy.calls.items())}
        (work / "engine-calls.json").write_text(json.dumps(calls, indent=1))
    finally:
        server.shutdown()
        engine.terminate()
        engine.wait(timeout=30)
    print(
        f"studybot run --from {first} --to {last} --quiz: exit {code}, "
        f"{time.monotonic() - started:.0f} s; max_output_tokens {max_tokens}; "
        f"token_counter {token_counter}; "
        f"session {show['status']}, {show['answered']}/{show['total']} answered",
    )
    totals = report(proxy.exchanges, show, sys.stdout, replay, log, proxy.calls, every)
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
    parser.add_argument(
        "--token-counter",
        choices=("server", "local"),
        default="server",
        help="studybot's token_counter: the engine's /tokenize (default) or its local one",
    )
    args = parser.parse_args()
    if not args.server or not Path(args.server).is_file():
        sys.exit("needs a llama-server binary: --server PATH or STUDYBOT_LLAMA_SERVER")
    if not args.model or not Path(args.model).is_file():
        sys.exit("needs a GGUF model: --model PATH or STUDYBOT_LLAMA_MODEL")
    common = (args.server, args.model, args.first, args.last, args.max_tokens)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        bench(*common, args.keep, args.token_counter)
        return
    with tempfile.TemporaryDirectory(prefix="studybot-real-engine-") as work:
        bench(*common, Path(work), args.token_counter)


if __name__ == "__main__":
    main()
