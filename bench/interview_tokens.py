"""What a 16-question live interview costs against the same 16 questions in ``run --quiz``.

Both run through the library loops (``study.interview.run``,
``study.session.run``) against the local OpenAI-compatible server
(tests/openai_server.py) with scripted learners: the same attempt per
question in both modes (the question's first key point, a partial answer),
and in the interview a probe answer that alternates good and poor. The
server's model answers a quiz question with the bank's answer key (a real
answer's length), puts an interview question in one sentence, writes a
probe in one, and grades in JSON.

Every request the server received is counted with studybot's tokenizer
(prompt, completion) and its cached prompt tokens simulated under the
OpenAI rule (1,024-token minimum, 128-token steps), so the figures are
tokens, not the server's characters; money at example prices.

    PYTHONPATH=$PWD python bench/interview_tokens.py
    PYTHONPATH=$PWD python bench/interview_tokens.py --from 20 --to 35 --followups 2
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from studybot.output.figures import percent

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

KEY = "sk-bench-0123456789abcdef"
MODEL = "bench-model"
PRICES = {"input": 2.0, "cached_input": 0.5, "output": 8.0, "currency": "CNY"}  # per million


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=20)
    parser.add_argument("--to", dest="last", type=int, default=35)
    parser.add_argument("--followups", type=int, default=2)
    args = parser.parse_args()
    results = {}
    for mode in ("quiz", "interview"):
        with tempfile.TemporaryDirectory() as home:
            os.environ["STUDYBOT_HOME"] = home
            os.environ["TAOTOKEN_API_KEY"] = KEY
            results[mode] = measure(mode, args.first, args.last, args.followups)
    quiz, interview = results["quiz"], results["interview"]
    print(
        f"Q{args.first}–Q{args.last} ({args.last - args.first + 1} questions), live, local server, "
        f"tokens by studybot's tokenizer, cached under the OpenAI rule; "
        f"interview with --followups {args.followups}"
    )
    print(f"{'mode':<22}{'requests':>9}{'prompt':>10}{'cached':>10}{'completion':>12}{'cost':>12}")
    for name, row in (("run --quiz", quiz), ("interview", interview)):
        print(
            f"{name:<22}{row['requests']:>9,}{row['prompt']:>10,}{row['cached']:>10,}"
            f"{row['completion']:>12,}{row['cost']:>12.4f}"
        )
    print(
        f"{'interview ÷ quiz':<22}"
        + "".join(
            f"{interview[k] / quiz[k]:>{w}.2f}×" if quiz[k] else f"{'—':>{w + 1}}"
            for k, w in (("requests", 8), ("prompt", 9), ("cached", 9), ("completion", 11))
        )
        + f"{interview['cost'] / quiz['cost']:>11.2f}×"
    )
    for name, row in (("run --quiz", quiz), ("interview", interview)):
        kinds = " · ".join(f"{k} {n}" for k, n in sorted(row["kinds"].items()))
        print(f"  {name}: {kinds}; cached share {percent(row['cached'] / row['prompt'])}")
    print(f"cost at {PRICES} per million tokens")


def measure(mode: str, first: int, last: int, followups: int) -> dict:
    from openai_server import OpenAIServer
    from scripted import Scripted, ScriptedInterview, interview, quiz

    from studybot import bank
    from studybot.channel import config
    from studybot.costs import tokens
    from studybot.costs.cache.rules import resolve
    from studybot.costs.prices import for_model

    questions = bank.load(None).select(first, last)
    attempts = {q.id: q.key_points[0] for q in questions}
    with OpenAIServer(key=KEY, models=[MODEL], answer=reply) as server:
        flags = {"base_url": server.base_url, "model": MODEL}
        if mode == "quiz":
            quiz(Scripted([attempts[q.id] for q in questions], [3] * len(questions)),
                 first=first, last=last, flags=flags)  # fmt: skip
        else:
            probes = ["补充：还要讲清楚公式和量级。", "不太清楚。"] * (len(questions) * followups)
            learner = ScriptedInterview(attempts, probes)
            interview(learner, first=first, last=last, followups=followups, flags=flags)
        sent = list(server.generations)
    cache = resolve("openai", config.load({"offline": True})).simulator()
    price = for_model(MODEL, {}, PRICES)
    row = {"requests": 0, "prompt": 0, "cached": 0, "completion": 0, "cost": 0.0, "kinds": {}}
    for request in sent:
        ids = tokens.request_ids(request.messages)
        output = tokens.encode(reply(request.body))
        hit = cache.request(ids, output)
        row["requests"] += 1
        row["prompt"] += len(ids)
        row["cached"] += hit
        row["completion"] += len(output)
        row["cost"] += price.cost(len(ids), hit, len(output)).total
        kind = kind_of(request.body)
        row["kinds"][kind] = row["kinds"].get(kind, 0) + 1
    return row


def kind_of(body: dict) -> str:
    from studybot.study.prompt import INTERVIEW_ASK

    last = (body.get("messages") or body.get("input"))[-1]["content"]
    if body.get("response_format") or (body.get("text") or {}).get("format"):
        return "grading"
    if last.startswith("（面试官的追问"):
        return "probe"
    if "总结" in last and "题：" not in last.splitlines()[0]:
        return "summary"
    return "ask" if INTERVIEW_ASK in last else "answer"


def reply(body: dict) -> str:
    """The bench's model: the interviewer's model of the tests, answering quiz questions in full."""
    import re

    from scripted import interviewer_reply

    from studybot import bank
    from studybot.bank.key import answer_text
    from studybot.study.prompt import INTERVIEW_ASK

    last = (body.get("messages") or body.get("input"))[-1]["content"]
    kind = kind_of(body)
    if kind == "answer":
        number = re.match(r"(?:上一段小结：[\s\S]*\n\n)?第 (\d+) 题", last)
        if number:
            return answer_text(bank.load(None).get(int(number.group(1))))
    if kind == "ask":
        assert INTERVIEW_ASK in last
    return interviewer_reply(body)


if __name__ == "__main__":
    main()
