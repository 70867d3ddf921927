"""Grading attempts: the offline estimate on attempts a user would write, and live JSON grading."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from openai_server import OpenAIServer
from scripted import Scripted, learner_text, quiz

from studybot import bank
from studybot.bank import Question
from studybot.channel.providers.json_modes import unbounded
from studybot.learn import grading, live_grade
from studybot.storage.store import Store

KEY = "sk-grade-test-0123456789abcdef"
MODEL = "test-model"
GRADING = "请给用户对上面这道题的作答评分"

# Attempts written the way a user would answer, in their own words.
PARAPHRASES = {
    5: "上下文长度就是模型一次前向能处理的词元总数，生成每个输出词元都要看前面所有词元，"
    "所以要算历史加输入加输出。注意力分数矩阵是 n×n，计算随 n² 增长；KV 缓存随长度线性增长。"
    "位置编码超过训练长度就不可靠。多轮对话历史会反复发送，要分段用摘要。",
    23: "解码时新 token 只用当前的 q，但要用所有历史位置的 k 和 v；旧的 Q 以后不会再被读取，"
    "所以不存。K、V 每一步都会被复用，缓存后每步只算新 token 的 q k v 追加进去。"
    "代价是显存随长度线性增长，GQA、MLA 可以压缩。",
    1: "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer，参数几十亿以上，"
    "一个模型能做翻译问答写代码；传统 NLP 一个任务一个模型，要单独标注训练。"
    "能力来自规模放大，出现上下文学习。BERT 是编码器输出向量，GPT 解码器直接生成文本。",
}
OFF_TOPIC = {
    5: "幻觉就是模型编造事实，缓解靠检索增强和降低温度。",
    23: "我觉得今天天气不错，适合去公园散步，晚饭做红烧肉和番茄炒蛋。",
    1: "做菜的时候先放油再放盐，火候要小。",
}


@pytest.fixture(scope="module")
def grader():
    return grading.offline(bank.load())


@pytest.mark.parametrize("question_id", sorted(PARAPHRASES))
def test_a_correct_chinese_paraphrase_earns_credit_and_off_topic_none(grader, question_id):
    question = bank.load().get(question_id)
    good = grader.grade(question, PARAPHRASES[question_id])
    off = grader.grade(question, OFF_TOPIC[question_id])
    assert good.score >= 0.4, [(p.state, p.point[:20]) for p in good.points]
    assert good.contradicted == 0
    assert off.score <= 0.1 and off.contradicted == 0
    assert good.source == off.source == "offline" and good.grader == grading.RUBRIC
    assert good.total == len(question.key_points)
    assert all(p.evidence for p in good.points if p.state != grading.MISSED)


def test_an_empty_attempt_scores_zero_and_says_so(grader):
    result = grader.grade(bank.load().get(5), "   ")
    assert result.score == 0 and result.covered == 0
    assert "No attempt" in result.advice


def test_the_advice_names_the_first_point_not_covered(grader):
    question = bank.load().get(5)
    result = grader.grade(question, "KV 缓存随长度线性增长，位置编码超过训练长度就不可靠。")
    missed = [n for n, p in enumerate(result.points, start=1) if not p.covered]
    assert missed and f"point {missed[0]}" in result.advice


@dataclass(frozen=True)
class Imported(Question):
    """A question of an imported bank: no key points, a reference answer (issue 12's field)."""

    reference: str | None = None


def test_without_key_points_the_reference_answer_is_split_into_points(grader):
    question = Imported(
        id=1,
        chapter=1,
        question="KV 缓存为什么不存 Q？",
        reference="## 参考答案\n\n- 新 token 只用当前的 q。\n- 历史的 k 和 v 每步都要读。\n- 显存随长度线性增长。",
    )
    assert grading.reference_points(question) == (
        "新 token 只用当前的 q。",
        "历史的 k 和 v 每步都要读。",
        "显存随长度线性增长。",
    )
    estimate = grader.grade(question, "历史的 k 和 v 每步都要读，显存随长度线性增长")
    assert estimate.covered == 2 and estimate.grader == grading.TERM_ESTIMATE
    bare = Question(id=2, chapter=1, question="没有参考的题")
    assert grader.grade(bare, "随便写").score is None


def test_a_reference_with_fenced_code_is_graded_by_its_words_not_its_code_lines():
    illustrated = Imported(
        id=3,
        chapter=1,
        question="FlashAttention 为什么快？",
        reference="分块放进 SRAM 计算，少读写 HBM。\n```\nfor each block of Q:\n    update m, l, O\n```",
    )
    assert grading.reference_points(illustrated) == ("分块放进 SRAM 计算，少读写 HBM。",)
    code_only = Imported(
        id=4,
        chapter=1,
        question="手写 softmax",
        reference="```python\ne = x.exp()\ne / e.sum()\n```",
    )
    assert grading.reference_points(code_only) == ("e = x.exp()\ne / e.sum()",)


@pytest.mark.parametrize(
    "reply",
    [
        "not json",
        '{"points": [{"n": 1, "state": "covered", "evidence": "x"}], "advice": "ok"}',  # too few
        '{"points": [{"n": 1, "state": "yes", "evidence": ""}, {"n": 2, "state": "missed", '
        '"evidence": ""}], "advice": "ok"}',  # an unknown state
        '{"points": [{"n": 1, "covered": true}, {"n": 2, "covered": false}], "advice": "ok"}',
        '{"points": [{"n": 1, "state": "covered", "evidence": 3}, {"n": 2, "state": "missed", '
        '"evidence": ""}], "advice": "ok"}',  # evidence not text
        '{"points": [{"n": 1, "state": "covered", "evidence": ""}, {"n": 2, "state": "missed", '
        '"evidence": ""}]}',  # no advice
    ],
)
def test_a_malformed_grading_reply_is_refused(reply):
    with pytest.raises(live_grade.Malformed):
        live_grade.parse(reply, ["a", "b"])


def marks(*numbered: tuple) -> str:
    items = [{"n": n, "state": state, "evidence": quote} for n, state, quote in numbered]
    return json.dumps({"points": items, "advice": "再看第 2 点"}, ensure_ascii=False)


def test_one_mark_per_point_numbered_over_again_stands_in_the_order_asked():
    """A small model under llama.cpp's grammar wrote n = 1 for every point: with exactly
    one mark per point they are read in order, not thrown away as malformed."""
    reply = marks((1, "covered", "分块"), (1, "missed", ""), (1, "partly", "SRAM"))
    results, _ = live_grade.parse(reply, ["a", "b", "c"])
    assert [(r.point, r.state, r.evidence) for r in results] == [
        ("a", grading.COVERED, "分块"),
        ("b", grading.MISSED, None),
        ("c", grading.PARTLY, "SRAM"),
    ]


@pytest.mark.parametrize(
    "numbered",
    [
        ((1, "covered", "x"), (1, "missed", ""), (2, "missed", "")),  # a point marked twice
        ((1, "covered", "x"), ("2", "missed", "")),  # an n that is no integer
        ((1, "covered", "x"), (True, "missed", "")),
    ],
)
def test_marks_that_cannot_be_placed_are_still_malformed(numbered):
    with pytest.raises(live_grade.Malformed):
        live_grade.parse(marks(*numbered), ["a", "b"])


def test_a_well_formed_grading_reply_is_read_point_by_point():
    results, advice = live_grade.parse(
        json.dumps(
            {
                "points": [
                    {"n": 3, "state": "contradicted", "evidence": "KV 缓存和头数没有关系"},
                    {"n": 2, "state": "partly", "evidence": "各头独立"},
                    {"n": 1, "state": "covered", "evidence": "切成 h 个头"},
                ],
                "advice": " 补上 c ",
            },
            ensure_ascii=False,
        ),
        ["a", "b", "c"],
        ["", "", "KV 缓存与 K/V 头数成正比"],
    )
    assert [(r.point, r.state, r.evidence) for r in results] == [
        ("a", grading.COVERED, "切成 h 个头"),
        ("b", grading.PARTLY, "各头独立"),
        ("c", grading.CONTRADICTED, "KV 缓存和头数没有关系"),
    ]
    assert results[2].key == "KV 缓存与 K/V 头数成正比" and advice == "补上 c"


def test_the_schema_asked_for_is_strict_and_names_every_state():
    schema = live_grade.schema(4)
    point = schema["properties"]["points"]["items"]
    assert point["properties"]["state"]["enum"] == list(grading.STATES)
    assert schema["additionalProperties"] is False and point["additionalProperties"] is False
    assert sorted(point["required"]) == sorted(point["properties"])


# -- live grading against the local OpenAI-compatible server --------------------


class Grades:
    """Server answers: a JSON grade (or scripted malformed replies) for grading requests."""

    def __init__(self, malformed: int = 0, states: tuple[str, ...] = ("covered",)) -> None:
        self.malformed = malformed
        self.states = states  # the first points' states; the rest are missed

    def __call__(self, body: dict) -> str:
        last = (body.get("messages") or body.get("input"))[-1]["content"]
        if "总结" in last and GRADING not in last:
            return "Q1：小结"
        if GRADING not in last:
            return f"结论：{last.splitlines()[-1][:12]} 的回答。"
        if self.malformed:
            self.malformed -= 1
            return "当然！这是评分：covered 了两点"
        count = listed(last)
        quote = learner_text(last, "attempt")[:3]  # the attempt's own words
        points = [
            {
                "n": n,
                "state": self.states[n - 1] if n <= len(self.states) else "missed",
                "evidence": quote if n <= len(self.states) else "",
            }
            for n in range(1, count + 1)
        ]
        return json.dumps({"points": points, "advice": "先补第 2 点。"}, ensure_ascii=False)


def listed(ask: str) -> int:
    """The number of key points a grading ask lists."""
    return ask.count("\n", ask.index("参考要点"), ask.index("用户的作答")) - 2


def points_asked(request) -> int:
    return listed(request.messages[-1]["content"])


@pytest.fixture
def live(monkeypatch, studybot_home):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text("retry_backoff = 0.001\n", encoding="utf-8")

    def start(malformed: int = 0, wire_api: str = "chat", states: tuple[str, ...] = ("covered",)):
        server = OpenAIServer(key=KEY, models=[MODEL], answer=Grades(malformed, states)).start()
        args = ["--base-url", server.base_url, "--model", MODEL, "--wire-api", wire_api]
        return server, args

    servers = []

    def tracked(*a, **k):
        server, args = start(*a, **k)
        servers.append(server)
        return server, args

    yield tracked
    for server in servers:
        server.stop()


# Q1-Q3 as a learner answers them: two attempts and an empty one, rated 3, 2, 1.
ATTEMPTS = ["大模型是在海量文本上预测下一个词元训练的", "幻觉来自训练目标", ""]
RATINGS = [3, 2, 1]


def quizzed(args, last=3):
    """``run --from 1 --to LAST --quiz ARGS`` through the library loop (a quiz needs a terminal)."""
    flags = dict(zip((a[2:].replace("-", "_") for a in args[::2]), args[1::2], strict=True))
    learner = Scripted(ATTEMPTS, RATINGS)
    quiz(learner, first=1, last=last, flags=flags)
    return learner


def grading_requests(server):
    return [r for r in server.generations if GRADING in r.messages[-1]["content"]]


def main_requests(server):
    return [
        r
        for r in server.generations
        if GRADING not in r.messages[-1]["content"] and "总结" not in r.messages[-1]["content"]
    ]


def test_live_grading_is_a_json_side_request_and_the_main_prefix_stays_byte_stable(invoke, live):
    server, args = live()
    learner = quizzed(args)
    q1 = learner.grades[1]
    assert (q1.source, q1.covered, q1.total) == ("live", 1, 4)
    assert q1.advice == "先补第 2 点。"

    graders = grading_requests(server)
    assert len(graders) == 2  # the empty third attempt needs no request
    for r in graders:
        asked = r.body["response_format"]
        assert asked["type"] == "json_schema" and asked["json_schema"]["strict"] is True
        count = points_asked(r)
        # an endpoint not known to decode by grammar: the schema without length keywords
        assert asked["json_schema"]["schema"] == unbounded(live_grade.schema(count))
        assert r.body["max_tokens"] == live_grade.reply_tokens(count) < 2048
        assert r.body["temperature"] == 0 and not r.body.get("stream")
        assert "contradicted" in r.messages[-1]["content"]  # the states are explained
    answers = [r for r in main_requests(server)]
    assert all("temperature" not in r.body for r in answers)  # only the judgement is pinned
    mains = main_requests(server)
    assert len(mains) == 3
    system = {r.messages[0]["content"] for r in server.generations}
    assert len(system) == 1  # one byte-identical system prefix for every request
    for before, after in zip(mains, mains[1:], strict=False):
        assert after.messages[: len(before.messages)] == before.messages  # each extends the last
    for r in mains:
        text = json.dumps(r.messages, ensure_ascii=False)
        assert "海量文本上预测" not in text and GRADING not in text  # attempts stay off the thread

    data = json.loads(invoke("show", "1", "--json").stdout)
    q1, q2 = (len(bank.load().get(n).key_points) for n in (1, 2))
    assert [t["grade"] for t in data["turns"]] == [round(1 / q1, 3), round(1 / q2, 3), 0.0]
    assert [t["rating"] for t in data["turns"]] == [3, 2, 1]
    assert data["turns"][0]["attempt"] == "大模型是在海量文本上预测下一个词元训练的"
    usage = data["grading_usage"]
    assert usage["requests"] == 2 and usage["prompt_tokens"] > 0
    assert "grading: 2 requests" in invoke("show", "1").stdout


def test_a_malformed_grade_is_retried_once_then_the_offline_estimate_says_so(live):
    server, args = live(malformed=3)
    learner = quizzed(args)
    assert "malformed twice" in learner.grades[1].note
    assert "offline grade" in learner.grades[1].note
    assert len(grading_requests(server)) == 4  # Q1: two malformed; Q2: one malformed, one good
    rows = Store.open().grades(1)
    assert (rows[1].source, rows[1].requests) == ("offline-fallback", 2)
    assert (rows[2].source, rows[2].requests) == ("live", 2)


def test_the_responses_wire_api_asks_for_json_through_text_format(live):
    server, args = live(wire_api="responses")
    learner = quizzed(args)
    graders = grading_requests(server)
    assert graders
    for r in graders:
        asked = r.body["text"]["format"]
        assert asked["type"] == "json_schema" and asked["strict"] is True
        assert asked["schema"] == unbounded(live_grade.schema(points_asked(r)))
        assert r.body["temperature"] == 0
        assert r.body["max_output_tokens"] == live_grade.reply_tokens(points_asked(r))
    assert (learner.grades[1].source, learner.grades[1].covered) == ("live", 1)


def test_a_failed_grading_request_falls_back_and_the_session_goes_on(live):
    from openai_server import Fault

    server, args = live()
    server.script(None, *[Fault.server_error()] * 4)  # Q1's answer, then its grading fails
    learner = quizzed(args, last=2)
    assert "the grading request failed" in learner.grades[1].note
    assert "showing the offline grade" in learner.grades[1].note
    rows = Store.open().grades(1)
    assert rows[1].source == "offline-fallback" and rows[2].source == "live"
    assert Store.open().session(1).complete


def test_a_live_contradicted_point_is_stored_with_its_quote_and_suggests_again(invoke, live):
    server, args = live(states=("covered", "contradicted"))
    learner = quizzed(args, last=2)
    assert learner.grades[1].contradicted == 1 and learner.suggestions[1] == 1  # Again
    rows = Store.open().grades(1)
    marks = rows[1].points
    assert (marks[0].state, marks[1].state) == ("covered", "contradicted")
    assert marks[1].evidence == "大模型"
    data = json.loads(invoke("show", "1", "--json").stdout)
    assert data["turns"][0]["rating"] == 3  # the learner's own rating; the suggestion was Again


def test_the_local_server_refuses_a_strict_schema_a_real_api_would_refuse():
    import openai

    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        client = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
        loose = {"type": "object", "properties": {"n": {"type": "integer"}}}
        fmt = {"type": "json_schema", "json_schema": {"name": "x", "strict": True, "schema": loose}}
        with pytest.raises(openai.BadRequestError, match="additionalProperties"):
            client.chat.completions.create(
                model=MODEL, messages=[{"role": "user", "content": "hi"}], response_format=fmt
            )
        fine = {**fmt, "json_schema": {"name": "x", "strict": True, "schema": live_grade.schema(4)}}
        reply = client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}], response_format=fine
        )
        assert reply.choices[0].message.content


def test_the_advice_counts_missed_and_partly_apart_and_never_says_all_are_missing():
    """'6 of 6 not covered (4 partly)' read as nothing covered: say what each count is."""
    P = grading.PointResult
    partly = [P(f"p{n}", grading.PARTLY) for n in range(4)]
    missed = [P("p4", grading.MISSED), P("p5", grading.MISSED)]
    said = grading.advice([*partly, *missed], "我的作答")
    assert said.startswith("2 missed and 4 partly covered of 6; start with point 1: p0")
    assert grading.advice([P("a", grading.COVERED), P("b", grading.MISSED)], "x").startswith(
        "1 missed of 2; start with point 2"
    )
    assert grading.advice([P("a", grading.PARTLY), P("b", grading.COVERED)], "x").startswith(
        "1 partly covered of 2;"
    )
