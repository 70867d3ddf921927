"""Imported banks offline: a reference answer is the answer; no answer at all waits for a live model."""

from __future__ import annotations

import json

from openai_server import OpenAIServer

from studybot.storage.store import Store

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"

MIXED = """# 注意力复习

### 1. 什么是自注意力？

每个词元用自己的 Q 去和所有词元的 K 打分，再按分数加权求和 V。

### 2. 多头注意力为什么要分多个头？

### 3. 为什么注意力分数要除以根号 d？

- 点积的方差随维度 d 增大
- 不缩放时 softmax 容易饱和，梯度变小

### 4. 因果掩码是怎么实现的？

### 5. KV 缓存为什么能加速解码？

历史位置的 K、V 不再重复计算，每一步只算新词元的那一份。
"""


def live_answer(body: dict) -> str:
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    return "在线总结。" if "总结" in last else "在线模型的回答。"


def test_offline_answers_with_the_reference_and_leaves_the_rest_for_a_live_resume(
    invoke, tmp_path, studybot_home, monkeypatch
):
    path = tmp_path / "mixed.md"
    path.write_text(MIXED, encoding="utf-8")
    imported = invoke("bank", "import", str(path), "--name", "mixed")
    assert imported.exit_code == 0, imported.stderr
    assert "2 question(s) have no reference answer or key points" in imported.stdout

    result = invoke("run", "--bank", "mixed", "--from", "1", "--to", "5")
    assert result.exit_code == 0, result.stderr
    assert "Q2: no reference answer; left for a live resume" in result.stderr
    assert "2 question(s) have no reference answer and were left unanswered offline (Q2, Q4)" in (
        result.stderr
    )
    store = Store.open()
    record = store.sessions()[0]
    turns = {t.question_id: t.answer for t in store.turns(record.id)}
    assert sorted(turns) == [1, 3, 5]  # nothing is recorded for Q2 and Q4
    assert turns[1] == "每个词元用自己的 Q 去和所有词元的 K 打分，再按分数加权求和 V。"
    assert turns[3] == "1. 点积的方差随维度 d 增大\n2. 不缩放时 softmax 容易饱和，梯度变小"
    assert record.status == "stopped at Q2"

    offline_again = invoke("resume", str(record.id))  # still no key: still unanswered
    assert offline_again.exit_code == 0
    assert sorted(t.question_id for t in store.turns(record.id)) == [1, 3, 5]

    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], answer=live_answer) as server:
        live = invoke("resume", str(record.id), "--base-url", server.base_url, "--model", MODEL)
        assert live.exit_code == 0, live.stderr
        asked = [r.messages[-1]["content"] for r in server.generations]
    answered = {t.question_id: t.answer for t in store.turns(record.id)}
    assert sorted(answered) == [1, 2, 3, 4, 5]
    assert answered[2] == answered[4] == "在线模型的回答。"
    assert store.session(record.id).complete
    assert any("多头注意力为什么要分多个头？" in text for text in asked)


def test_plan_projects_unanswerable_questions_at_the_live_answer_length(invoke, tmp_path):
    path = tmp_path / "mixed.md"
    path.write_text(MIXED, encoding="utf-8")
    assert invoke("bank", "import", str(path), "--name", "mixed").exit_code == 0
    data = json.loads(
        invoke("plan", "--bank", "mixed", "--from", "1", "--to", "5", "--json").stdout
    )
    assert data["live_answers"] == {
        "questions": 2,
        "answer_tokens": data["live_answers"]["answer_tokens"],
    }
    tokens = data["live_answers"]["answer_tokens"]
    answers = {
        r["question"]: r["completion_tokens"]
        for r in data["strategies"]["single"]["requests"]
        if r["kind"] == "answer"
    }
    assert answers[2] == answers[4] == tokens and answers[1] != tokens
    text = invoke("plan", "--bank", "mixed", "--from", "1", "--to", "5").stdout
    assert f"2 without one at the live length, {tokens} tokens" in " ".join(text.split())
