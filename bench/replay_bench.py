"""Replay speed of the prefix-cache simulators on a multi-turn trace.

The trace is generated deterministically: 100 conversations of 15 turns
(1,500 requests, about 5 M tokens), each opening with one of 4 shared
system prompts, 20 of them in flight at a time so the tree branches the
way a busy server's does. Every request re-sends its conversation so far.

    python bench/replay_bench.py                # tokens per second, each mode
    python bench/replay_bench.py --write t.jsonl  # also save the trace
    studybot cache replay t.jsonl --json        # the same trace through the CLI
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from studybot.cache import replay

CONVERSATIONS = 100
TURNS = 15
IN_FLIGHT = 20
SYSTEM_PROMPTS = 4
VOCABULARY = 100_000


def trace(seed: int = 0) -> list[list[int]]:
    rng = random.Random(seed)

    def text(low: int, high: int) -> list[int]:
        return [rng.randrange(VOCABULARY) for _ in range(rng.randint(low, high))]

    systems = [text(600, 800) for _ in range(SYSTEM_PROMPTS)]
    waiting = list(range(CONVERSATIONS))
    history: dict[int, list[int]] = {}
    turns: dict[int, int] = {}
    requests: list[list[int]] = []
    while waiting or history:
        while waiting and len(history) < IN_FLIGHT:
            conversation = waiting.pop(0)
            history[conversation] = list(rng.choice(systems))
            turns[conversation] = 0
        conversation = rng.choice(sorted(history))
        request = history[conversation] + text(60, 160)  # the user's new message
        requests.append(request)
        turns[conversation] += 1
        if turns[conversation] == TURNS:
            del history[conversation]
        else:
            history[conversation] = request + text(150, 350)  # the answer joins the history
    return requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="also write the trace as JSONL")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    requests = trace(args.seed)
    total = sum(len(r) for r in requests)
    print(f"trace: {len(requests)} requests, {total:,} tokens (seed {args.seed})")
    if args.write:
        with args.write.open("w", encoding="utf-8") as out:
            for request in requests:
                out.write(json.dumps({"tokens": request}) + "\n")
        print(f"wrote {args.write}")

    runs = [
        ("radix, page 1, unlimited", replay.make("radix")),
        ("radix, page 16, unlimited", replay.make("radix", page_size=16)),
        ("radix, page 1, 200 K tokens", replay.make("radix", capacity=200_000)),
        ("blocks of 16, unlimited", replay.make("blocks")),
        ("blocks of 16, 200 K tokens", replay.make("blocks", capacity=200_000)),
        ("provider rule (1024 / 128)", replay.make("provider")),
    ]
    print(f"{'mode':<30} {'hit rate':>9} {'seconds':>8} {'tokens/s':>14}")
    for name, simulator in runs:
        result = replay.replay(requests, simulator)
        print(
            f"{name:<30} {result.hit_rate:>9.1%} {result.elapsed_s:>8.3f} "
            f"{result.tokens_per_s:>14,.0f}"
        )


if __name__ == "__main__":
    main()
