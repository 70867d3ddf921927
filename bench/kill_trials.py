"""SIGKILL a live 40-question run at a random moment, resume it, count what was lost or doubled.

Each trial uses a fresh STUDYBOT_HOME and the local OpenAI-compatible test
server (tests/openai_server.py). The run is killed with SIGKILL somewhere
in its life, then `studybot resume` finishes it. Afterwards:

- lost: questions of the range with no saved answer;
- duplicated: answer requests beyond one per question, less the one that
  may have been in flight when the kill landed (that answer was never
  saved, so asking it again is right).

    python bench/kill_trials.py            # 20 trials
    python bench/kill_trials.py --trials 5 --seed 7
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from openai_server import OpenAIServer  # noqa: E402

KEY = "sk-bench-0123456789abcdef"
MODEL = "bench-model"
FIRST, LAST = 1, 40
ANSWER_DELAY = 0.04  # seconds the server takes per answer: a live run of ~2.5 s


def answer(body: dict) -> str:
    time.sleep(ANSWER_DELAY)
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    return f"结论：{last.splitlines()[-1][:16]} 的回答。要点一，要点二。"


def studybot(home: Path, server: OpenAIServer, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home), TAOTOKEN_API_KEY=KEY)
    command = [sys.executable, "-m", "studybot", *args]
    command += ["--base-url", server.base_url, "--model", MODEL]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def trial(rng: random.Random) -> tuple[int, int, float]:
    """One kill and resume; returns (lost, duplicated, seconds after the first request)."""
    with (
        tempfile.TemporaryDirectory() as folder,
        OpenAIServer(key=KEY, models=[MODEL], answer=answer) as server,
    ):
        home = Path(folder)
        (home / "config.toml").write_text("retry_backoff = 0.01\n", encoding="utf-8")
        victim = studybot(home, server, "run", "--from", str(FIRST), "--to", str(LAST))
        while not server.generations and victim.poll() is None:
            time.sleep(0.01)  # the kill lands once the run is live, not during start-up
        started = time.perf_counter()
        time.sleep(rng.uniform(0.0, 2.0))
        delay = time.perf_counter() - started
        finished_first = victim.poll() is not None
        victim.send_signal(signal.SIGKILL)
        victim.communicate(timeout=60)
        resumed = studybot(home, server, "resume")
        _, err = resumed.communicate(timeout=300)
        if resumed.returncode not in (0, 2):  # 2: the kill came after the last summary
            raise SystemExit(f"resume failed ({resumed.returncode}): {err}")
        os.environ["STUDYBOT_HOME"] = str(home)
        from studybot.storage.store import Store

        store = Store.open(write=False)
        records = store.sessions()
        answered = {t.question_id for r in records for t in store.turns(r.id)}
        store.close()
        lost = len(set(range(FIRST, LAST + 1)) - answered) if records else LAST - FIRST + 1
        # A request the kill cut mid-upload reaches the server without a body.
        asked = Counter(
            r.messages[-1]["content"]
            for r in server.generations
            if r.messages and "总结" not in r.messages[-1]["content"]
        )
        extra = sum(n - 1 for n in asked.values())
        if finished_first:
            delay = -1.0  # the run ended before the kill: not a trial of anything
        return lost, max(0, extra - 1), delay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    lost_total = duplicated_total = 0
    started = time.perf_counter()
    for n in range(1, options.trials + 1):
        lost, duplicated, at = trial(rng)
        lost_total += lost
        duplicated_total += duplicated
        when = f"killed {at:.2f} s in" if at >= 0 else "finished before the kill"
        print(f"trial {n:2d}: {when} · lost {lost} · duplicated {duplicated}")
    print(
        f"{options.trials} SIGKILL trials of a live {LAST - FIRST + 1}-question run: "
        f"lost {lost_total}, duplicated {duplicated_total} "
        f"({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
