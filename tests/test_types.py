"""``Reply.flag``: why an answer is not whole, as every report and export reads it."""

from __future__ import annotations

import pytest

from studybot.types import Reply, Usage


@pytest.mark.parametrize(
    ("text", "finish_reason", "flag"),
    [
        ("结论：KV 缓存随 n 线性增长。", "stop", None),
        ("结论：KV 缓存随 n 线性增长。", None, None),  # a provider that names no reason
        ("结论：KV 缓存随", "length", "truncated"),
        ("", "stop", "empty"),
        (" \n\t ", "stop", "empty"),  # whitespace is no answer either
        ("", "length", "empty"),  # nothing came at all: empty says more than truncated
    ],
)
def test_the_flag_says_why_an_answer_is_not_whole(text, finish_reason, flag):
    assert Reply(text, finish_reason=finish_reason).flag == flag


def test_a_reply_is_whole_by_default_and_keeps_the_usage_reported():
    reply = Reply("答")
    assert (reply.finish_reason, reply.usage, reply.flag) == ("stop", None, None)
    usage = Usage(prompt_tokens=120, completion_tokens=30)
    assert Reply("答", usage=usage).usage.cached_tokens == 0
