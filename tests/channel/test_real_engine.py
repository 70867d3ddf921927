"""A live quiz against llama.cpp's own ``llama-server``: every request counted, every grade read.

Optional: it runs only when ``STUDYBOT_LLAMA_SERVER`` names a ``llama-server``
binary and ``STUDYBOT_LLAMA_MODEL`` a GGUF model (docs/real-engine.md: the
build and the tiny random-weight Qwen2). Through ``bench/real_engine.py`` it
runs ``studybot run --from 1 --to 16 --quiz`` in a pseudo-terminal with
live grading and compares the engine's usage, request by request, with what
studybot stored, with ``token_counter = "server"`` (studybot counts with the
engine's /tokenize).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("STUDYBOT_LLAMA_SERVER", "")
MODEL = os.environ.get("STUDYBOT_LLAMA_MODEL", "")

pytestmark = pytest.mark.skipif(
    not (SERVER and Path(SERVER).is_file() and MODEL and Path(MODEL).is_file()),
    reason="needs STUDYBOT_LLAMA_SERVER (a llama-server binary) and STUDYBOT_LLAMA_MODEL",
)


def _bench():
    spec = importlib.util.spec_from_file_location("real_engine", ROOT / "bench" / "real_engine.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def totals(tmp_path_factory):
    work = tmp_path_factory.mktemp("real-engine")
    bench = _bench()
    return bench.bench(SERVER, MODEL, 1, 16, bench.MAX_TOKENS, work)


def test_the_quiz_finishes_and_every_question_is_graded(totals):
    assert totals["exit"] == 0
    assert totals["grades"]["questions"] == 16


def test_studybot_counts_every_request_and_token_the_engine_served(totals):
    engine, ours = totals["engine"], totals["studybot"]
    assert ours == engine  # requests, prompt, cached and answer tokens
    assert totals["differences"] == []


def test_with_the_server_tokenizer_every_prompt_count_equals_the_engines(totals):
    equal, rows = totals["prompt_count_equal"]
    assert rows >= 16  # an answer per question, and the summaries
    assert equal == rows


def test_the_tokenizer_calls_stay_out_of_the_request_table(totals):
    calls = totals["tokenizer_calls"]
    assert calls.get("run /props", 0) >= 1
    assert calls.get("run /tokenize", 0) >= 1
    assert totals["engine"]["requests"] == totals["studybot"]["requests"]


def test_every_live_grade_is_parsed_none_falls_back(totals):
    grades = totals["grades"]
    assert (grades["parsed"], grades["fallback"]) == (16, 0)
