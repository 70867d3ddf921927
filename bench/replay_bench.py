"""Load and replay speed of the prefix-cache simulators on a multi-turn trace.

The trace is generated deterministically: 100 conversations of 15 turns
(1,500 requests, about 5 M tokens), each opening with one of 4 shared
system prompts, 20 of them in flight at a time so the tree branches the
way a busy server's does. Every request re-sends its conversation so far.
It is written as JSONL and loaded back with ``replay.load_trace``, the
loader ``studybot cache replay`` uses, so the load time printed is what
the command spends before its replay; each mode's replay is timed apart.
The packed load is the same trace after ``studybot cache pack``.

    python bench/replay_bench.py                      # 1,500 requests
    python bench/replay_bench.py --conversations 667  # about 10,000 requests
    python bench/replay_bench.py --write t.jsonl      # keep the trace
    studybot cache replay t.jsonl --json              # the same trace through the CLI
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from studybot.channel import config
from studybot.costs.cache import replay
from studybot.costs.cache.rules import resolve
from studybot.costs.cache.trace import write_packed

CONVERSATIONS = 100
TURNS = 15
IN_FLIGHT = 20
SYSTEM_PROMPTS = 4
VOCABULARY = 100_000


def trace(seed: int = 0, conversations: int = CONVERSATIONS) -> Iterator[list[int]]:
    """The requests in the order a server sees them, generated one at a time."""
    rng = random.Random(seed)

    def text(low: int, high: int) -> list[int]:
        return [rng.randrange(VOCABULARY) for _ in range(rng.randint(low, high))]

    systems = [text(600, 800) for _ in range(SYSTEM_PROMPTS)]
    waiting = list(range(conversations))
    history: dict[int, list[int]] = {}
    turns: dict[int, int] = {}
    while waiting or history:
        while waiting and len(history) < IN_FLIGHT:
            conversation = waiting.pop(0)
            history[conversation] = list(rng.choice(systems))
            turns[conversation] = 0
        conversation = rng.choice(sorted(history))
        request = history[conversation] + text(60, 160)  # the user's new message
        yield request
        turns[conversation] += 1
        if turns[conversation] == TURNS:
            del history[conversation]
        else:
            history[conversation] = request + text(150, 350)  # the answer joins the history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="keep the trace in this JSONL file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--conversations", type=int, default=CONVERSATIONS)
    args = parser.parse_args()

    total = 0
    with tempfile.TemporaryDirectory() as folder:
        path = args.write or Path(folder) / "trace.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for request in trace(args.seed, args.conversations):
                total += len(request)
                out.write(json.dumps({"tokens": request}) + "\n")
        size = path.stat().st_size
        started = time.perf_counter()
        requests = replay.load_trace(path)
        load_s = time.perf_counter() - started
        packed = Path(folder) / "trace.packed"  # what `studybot cache pack` writes
        write_packed(requests, packed)
        started = time.perf_counter()
        again = replay.load_trace(packed)
        packed_s = time.perf_counter() - started
        assert again == requests
        del again
    print(
        f"trace: {len(requests):,} requests, {total:,} tokens, {size / 2**20:,.0f} MiB JSONL "
        f"(seed {args.seed})"
    )
    # Parsing decimal text has a rate of its own (bytes/s); the radix and
    # provider replays skip most of each request with one memcmp per edge,
    # so they outrun any text parse of the same trace.
    print(
        f"load {load_s:.3f} s ({total / load_s:,.0f} tokens/s, "
        f"{size / 2**20 / load_s:,.0f} MiB/s of JSONL)"
    )
    print(f"packed load {packed_s:.3f} s (the same trace after `studybot cache pack`)")
    openai = resolve("openai", config.load())
    runs = [
        ("radix, page 1, unlimited", replay.make("radix")),
        ("radix, page 16, unlimited", replay.make("radix", page_size=16)),
        ("radix, page 1, 200 K tokens", replay.make("radix", capacity=200_000)),
        ("blocks of 16, unlimited", replay.make("blocks")),
        ("blocks of 16, 200 K tokens", replay.make("blocks", capacity=200_000)),
        ("provider rule openai", replay.make("provider", rule=openai)),
    ]
    print(
        f"{'mode':<30} {'hit rate':>9} {'replay s':>9} {'load ÷ replay':>14} "
        f"{'packed ÷ replay':>16} {'tokens/s':>14}"
    )
    replayed = 0.0
    for name, simulator in runs:
        result = replay.replay(requests, simulator)
        replayed += result.elapsed_s
        print(
            f"{name:<30} {result.hit_rate:>9.1%} {result.elapsed_s:>9.3f} "
            f"{load_s / result.elapsed_s:>14.2f} {packed_s / result.elapsed_s:>16.2f} "
            f"{result.tokens_per_s:>14,.0f}"
        )
    print(
        f"{'all six modes':<30} {'':>9} {replayed:>9.3f} {load_s / replayed:>14.2f} "
        f"{packed_s / replayed:>16.2f}"
    )


if __name__ == "__main__":
    main()
