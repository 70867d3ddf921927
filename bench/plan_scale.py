"""``plan`` at scale: time and peak memory of the projection at 200, 2,000 and 20,000 questions.

Banks of N questions are made by cycling the shipped bank's 200 questions
under new ids, in chapters of 20. Each size runs in a fresh child process,
so the peak resident memory printed is that projection's alone (the
interpreter and imports included). The one-long-chat strategy is computed
from lengths, so time and memory grow linearly with N.

    python bench/plan_scale.py
    python bench/plan_scale.py --sizes 200,2000
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from dataclasses import replace

SIZES = (200, 2_000, 20_000)
CHAPTER = 20


def scaled_bank(size: int):
    from studybot import bank

    shipped = bank.load()
    questions = [
        replace(shipped.questions[i % len(shipped.questions)], id=i + 1, chapter=i // CHAPTER + 1)
        for i in range(size)
    ]
    chapters = tuple(
        bank.Chapter(
            number=n + 1, title=f"第 {n + 1} 组", first=start + 1, last=min(start + CHAPTER, size)
        )
        for n, start in enumerate(range(0, size, CHAPTER))
    )
    return replace(shipped, name=f"scaled-{size}", chapters=chapters, questions=tuple(questions))


def measure(size: int, out) -> None:
    from studybot.channel import config
    from studybot.study import projection

    loaded = scaled_bank(size)
    settings = config.load({"offline": True})
    started = time.perf_counter()
    projection = projection.project(loaded, 1, size, settings, rule="openai")
    elapsed = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    seg, single = projection.segmented, projection.single
    out.send(
        (
            elapsed,
            peak_kib,
            seg.uncached_prompt_tokens / projection.floor,
            single.prompt_tokens,
            single.uncached_prompt_tokens >= projection.floor,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    context = multiprocessing.get_context("spawn")
    print(
        f"{'questions':>10} {'seconds':>9} {'peak MiB':>9} {'seg ÷ floor':>12} {'single prompt':>16}"
    )
    for size in sizes:
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=measure, args=(size, send))
        child.start()
        elapsed, peak_kib, ratio, single_prompt, above = receive.recv()
        child.join()
        flag = "" if above else "  (single under the floor!)"
        print(
            f"{size:>10,} {elapsed:>9.2f} {peak_kib / 1024:>9.0f} {ratio:>12.3f} "
            f"{single_prompt:>16,}{flag}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
