"""Chinese tokens per character, measured on the shipped bank's own text.

Encodes every run of Chinese characters in the bank (questions, key
points, hints) with each byte-level BPE encoding that is available
without a network and prints tokens per character. Runs are encoded on
their own so that English words and formulas in the same sentence do not
blur the figure; the whole text, mixed as it is, is printed too.

- cl100k (GPT-4, GPT-3.5): the project's own counter, ``studybot.costs.tokens``.
- o200k (GPT-4o): tiktoken's cached copy if one exists; otherwise the
  o200k data file that the ``bpe-openai`` package ships, loaded by tiktoken
  under its own published hash. Skipped, and said so, when neither is there.

GPT-2 and LLaMA vocabularies are not shipped by any installed package, so
they are not measured here.

    python bench/zh_tokens.py
    PYTHONPATH=/path/with/bpe_openai python bench/zh_tokens.py
"""

from __future__ import annotations

import gzip
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from studybot import bank
from studybot.costs import tokens

CHINESE_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")

Counter = Callable[[str], int]


def bank_text() -> list[str]:
    shipped = bank.load()
    texts = []
    for q in shipped.questions:
        texts.append(q.question)
        texts.extend(q.key_points)
        if q.hint:
            texts.append(q.hint)
    return texts


def o200k_counter() -> tuple[Counter | None, str]:
    """o200k without a network: tiktoken's cache, else bpe-openai's data file."""
    import tiktoken

    try:
        encoding = tiktoken.get_encoding("o200k_base")
        return (lambda text: len(encoding.encode(text, disallowed_special=()))), "tiktoken cache"
    except Exception:  # no cached copy and no network: try the packaged file
        pass
    try:
        import bpe_openai
    except ImportError:
        return None, "not available offline (no tiktoken cache, bpe-openai not installed)"
    with gzip.open(Path(bpe_openai.__file__).parent / "data" / "o200k_base.tiktoken.gz") as f:
        data = f.read()
    # tiktoken builds the encoding itself (its own pattern, its own hash check
    # on the bytes); only the download is served from the packaged file, into
    # a throw-away cache so that nothing is left behind.
    import tiktoken.load

    fetch = tiktoken.load.read_file
    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TIKTOKEN_CACHE_DIR"] = cache
        tiktoken.load.read_file = lambda path: (
            data if path.endswith("o200k_base.tiktoken") else fetch(path)
        )
        try:
            encoding = tiktoken.get_encoding("o200k_base")
        finally:
            tiktoken.load.read_file = fetch
            if before is None:
                del os.environ["TIKTOKEN_CACHE_DIR"]
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = before
    return (lambda text: len(encoding.encode(text, disallowed_special=()))), (
        f"bpe-openai {bpe_openai.__version__} data file, tiktoken's hash check passed"
    )


def measure(name: str, count: Counter, texts: list[str]) -> None:
    runs = [run for text in texts for run in CHINESE_RUN.findall(text)]
    chars = sum(len(run) for run in runs)
    run_tokens = sum(count(run) for run in runs)
    all_chars = sum(len(text) for text in texts)
    all_tokens = sum(count(text) for text in texts)
    print(
        f"{name:7} Chinese runs: {run_tokens:6d} tokens / {chars:6d} chars = "
        f"{run_tokens / chars:.2f} tokens/char | whole text: {all_tokens} tokens / "
        f"{all_chars} chars = {all_tokens / all_chars:.2f}"
    )


def main() -> None:
    texts = bank_text()
    measure("cl100k", tokens.count, texts)
    count, source = o200k_counter()
    if count is None:
        print(f"o200k   {source}")
    else:
        measure("o200k", count, texts)
        print(f"        (o200k from: {source})")


if __name__ == "__main__":
    main()
