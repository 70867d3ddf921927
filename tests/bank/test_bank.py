"""The shipped bank's layout and content rules, and the loader's error reports."""

from __future__ import annotations

import re

import pytest

from studybot import bank
from studybot.errors import BadInput

CHAPTERS = [
    (1, 1, 8),
    (2, 9, 19),
    (3, 20, 39),
    (4, 40, 47),
    (5, 48, 58),
    (6, 59, 72),
    (7, 73, 87),
    (8, 88, 99),
    (9, 100, 117),
    (10, 118, 129),
    (11, 130, 141),
    (12, 142, 165),
    (13, 166, 179),
    (14, 180, 200),
]


def test_shipped_bank_has_200_questions_in_the_14_chapters(shipped):
    assert [q.id for q in shipped.questions] == list(range(1, 201))
    assert [(c.number, c.first, c.last) for c in shipped.chapters] == CHAPTERS
    for number, first, last in CHAPTERS:
        assert {q.chapter for q in shipped.questions if first <= q.id <= last} == {number}


def test_every_question_has_three_to_seven_key_points_and_chinese_text(shipped):
    for q in shipped.questions:
        assert 3 <= len(q.key_points) <= 7, q.id
        assert re.search(r"[\u4e00-\u9fff]", q.question), q.id
        assert all(len(point) >= 15 for point in q.key_points), q.id


def test_no_two_questions_are_the_same_once_normalised(shipped):
    seen = {}
    for q in shipped.questions:
        key = bank.normalise(q.question)
        assert key not in seen, f"Q{q.id} repeats Q{seen.get(key)}"
        seen[key] = q.id
    points = [bank.normalise(p) for q in shipped.questions for p in q.key_points]
    assert len(points) == len(set(points))


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (5, ["上下文", "输入", "输出"]),
        (23, ["KV", "K", "V", "Q"]),
        (34, ["8K", "32K", "KV"]),
        (76, ["多轮", "prefill", "KV"]),
    ],
)
def test_fixed_anchors_keep_their_numbers(shipped, number, words):
    text = shipped.get(number).question
    for word in words:
        assert word in text, (number, word)


def test_anchor_answers_carry_the_numbers_users_quote(shipped):
    q5 = " ".join(shipped.get(5).key_points)
    assert "n²" in q5 and "输出" in q5
    q34 = " ".join(shipped.get(34).key_points)
    assert "4 倍" in q34 and "16 倍" in q34
    q182 = " ".join(shipped.get(182).key_points)
    assert "70272" in q182 or "70,272" in q182
    assert " KB" not in q182 and " MB" not in q182  # binary units, one way


# -- the bank reads as one book ------------------------------------------------


def bank_text(shipped):
    """Every piece of the shipped bank a reader sees, with where it is."""
    for chapter in shipped.chapters:
        yield f"chapter {chapter.number}", chapter.title
    for q in shipped.questions:
        yield f"Q{q.id} question", q.question
        for n, point in enumerate(q.key_points, start=1):
            yield f"Q{q.id} point {n}", point
        yield f"Q{q.id} hint", q.hint or ""


def test_every_question_has_a_rubric_table_for_each_key_point(shipped):
    uneven = [(q.id, len(q.rubric), len(q.key_points)) for q in shipped.questions]
    assert [row for row in uneven if row[1] != row[2]] == []


LINT_FALSE_ALARMS: dict[str, str] = {}  # "Q<id> point <n>" -> why the lint is wrong there


def test_the_rubric_lints_clean_but_for_one_character_words(shipped):
    from studybot.bank.findings import NOTE
    from studybot.learn.rubric_lint import lint  # a wrong its own point says, a concept it lacks

    found = [f for f in lint(shipped) if f.level != NOTE]  # notes: one-character words
    assert [f for f in found if f"Q{f.question} point {f.point}" not in LINT_FALSE_ALARMS] == []


# The bank's one word for each thing (docs/bank-format.md, "Writing for the
# shipped bank"; the notation of the prefix in study/prompt.py). A second
# spelling is allowed only inside the one gloss that introduces the term, in
# the question named.
ONE_WORD = [
    ("词元", "token 即「词元」", 1),  # always 「token」
    ("预填充", "prefill（预填充）", 33),  # always 「prefill」
    ("智能体", "Agent（智能体）", 66),  # always 「Agent」
    ("kv cache", None, None),  # always 「KV 缓存」
    ("kv缓存", None, None),
    ("键值缓存", None, None),
    ("词向量", None, None),  # 「词嵌入」: the bank's word for an embedding is 嵌入
    ("句向量", None, None),  # 「句子嵌入」
    ("文本向量", None, None),  # 「文本嵌入」
    ("图像向量", None, None),  # 「图像嵌入」
    ("文档向量", None, None),  # 「文档嵌入」
    ("隐状态", None, None),  # 「隐藏状态」
    ("首字延迟", None, None),  # 「首 token 延迟（TTFT）」
    ("首词元延迟", None, None),
]


@pytest.mark.parametrize(("word", "gloss", "number"), ONE_WORD)
def test_each_term_is_written_one_way_outside_its_one_gloss(shipped, word, gloss, number):
    glossed, elsewhere = [], []
    for where, text in bank_text(shipped):
        if gloss and gloss in text:
            glossed += [where.split()[0]] * text.count(gloss)
            text = text.replace(gloss, "")
        if word in text.lower():
            elsewhere.append(f"{where}: {text}")
    assert elsewhere == [], f"{word!r} outside its gloss:\n" + "\n".join(elsewhere)
    assert glossed == ([f"Q{number}"] if gloss else [])


def test_embedding_in_english_only_names_a_thing_in_brackets_after_its_chinese(shipped):
    """「句段嵌入（segment embedding）」, or in a name (text-embedding-3, Qwen3-Embedding)."""
    loose = []
    for where, text in bank_text(shipped):
        bare = re.sub(
            r"（[^）]*）|Gemini Embedding|[\w-]*[-_]embeddings?[\w-]*", "", text, flags=re.I
        )
        if re.search(r"embedding", bare, re.IGNORECASE):
            loose.append(f"{where}: {text}")
    assert loose == []


BYTES = re.compile(r"\d\s*(?:[KMGT]i?B|kB)(?![/\w])")


def test_kv_cache_sizes_are_in_binary_units(shipped):
    """The prefix's notation: a KV cache's size in KiB/MiB/GiB, read clause by clause."""
    decimal = []
    for where, text in bank_text(shipped):
        for clause in re.split(r"[，。；：]", text):
            sizes = BYTES.findall(clause)
            if "KV" in clause and any("i" not in size for size in sizes):
                decimal.append(f"{where}: {clause}")
    assert decimal == []


def test_every_question_has_a_hint_in_chinese(shipped):
    missing = [q.id for q in shipped.questions if not re.search(r"[\u4e00-\u9fff]", q.hint or "")]
    assert missing == []


LONGEST_POINT = 150  # characters; a longer point packs facts that are recalled apart


def test_every_key_point_is_short_enough_to_recall_on_its_own(shipped):
    long = [
        (q.id, len(point))
        for q in shipped.questions
        for point in q.key_points
        if len(point) > LONGEST_POINT
    ]
    assert long == []


def test_what_two_questions_share_is_written_alike(shipped):
    def points(number):
        return " ".join(shipped.get(number).key_points)

    # YaRN's attention temperature, in the YaRN paper's convention, in both places
    assert all("√(1/t) = 0.1·ln s + 1" in points(n) for n in (32, 192))
    assert all("数万到上百万条" in points(n) for n in (3, 142))  # SFT data scale
    kv_bytes = "2 × 层数 × kv_heads × head_dim × 每元素字节数"  # the prefix's KV formula
    assert all(kv_bytes in points(n) for n in (5, 23, 107))
    # Llama 3 8B's KV per token, from the same dated config, in the anchor and in Q76
    assert all(
        "Llama 3 8B（2024-04 公开配置" in points(n) and "128 KiB" in points(n) for n in (34, 76)
    )
    assert all("约 14 GB" in points(n) for n in (28, 33, 146))  # a 7B model's BF16 weights


# -- facts that age say when they held -----------------------------------------

# A date: 「截至 2025 年」, a year-month (2025-09, 2024 年 11 月), a year that
# opens a bracket (「（2024-12 技术报告）」, 「Wang 等（2022）」) or a citation's
# year (「Sanh 等，2019」).
DATE = re.compile(
    r"截至 ?(?:19|20)\d\d ?年"
    r"|(?<!\d)(?:19|20)\d\d-[01]\d(?!\d)"
    r"|(?:19|20)\d\d ?年 ?\d{1,2} ?月"
    r"|[（(](?:19|20)\d\d(?!\d)"
    r"|等[，, ]?(?:19|20)\d\d(?!\d)"
)


def _words(*names: str) -> str:
    """ASCII names as whole words, also next to Chinese text (where \\b finds no edge)."""
    return r"(?<![A-Za-z0-9_])(?:" + "|".join(names) + r")(?![A-Za-z0-9_])"


# A model's name: a config or a context window belongs to a named model.
MODEL = (
    r"Llama|LLaMA|Qwen|DeepSeek|Mistral|Mixtral|Gemma|GPT-?[2-5]|Claude|Gemini|BERT|bert-"
    r"|RoBERTa|PaLM|Chinchilla|Gopher|GLM|LLaVA|CLIP|ViT|SigLIP|BLIP|Q-Former|InternVL|Flamingo"
    r"|Whisper|Kimi|" + _words("V2", "V3", "R1", "T5", "o1", "o3")
)
API_FIELDS = _words(
    "max_tokens", "max_completion_tokens", "tool_choice", "tool_calls?", "tool_call_id",
    "parallel_tool_calls", "reasoning_effort", "budget_tokens", "thinking_budget",
    "prompt_cache_retention", "cache_control", "cached_tokens", "cache_read_input_tokens",
    "cache_creation_input_tokens", "output_dimensionality", "logit_bias", "top_logprobs",
    "logprobs", "response_format", "json_schema", "system_fingerprint", "base_url", "seed",
)  # fmt: skip
BENCHMARKS = "MMLU|GPQA|AIME|MATH|GSM8K|HumanEval|LiveCodeBench|SWE-bench|MMMU|GLUE|MTEB|BEIR"

# What ages, each as (the words that name it, what must stand beside them in the
# same text for it to be that fact, or None).
AGEING = {
    "a price": (
        r"美元 ?/ ?(?:百万|千|M\b|GPU)|每 ?GPU ?小时 ?\d[\d.]* ?美元|每百万[^。；，]{0,12}?\d[\d.]* ?美元"
        r"|输入价|输出价|[一二三四五六七八九]折|\d(?:\.\d+)? ?折(?!叠|线)",
        None,
    ),
    "a cache TTL": (
        r"(?:缓存|cache)[^。；]{0,30}?\d+(?:\.\d+)? ?(?:分钟|小时|min\b|h\b)"
        r"|\d+ ?(?:分钟|小时)[^。；]{0,12}(?:缓存|cache)|存活时间|(?:缓存|cache) ?TTL",
        None,
    ),
    "an API parameter or default": (
        API_FIELDS + r"|(?:推荐|建议)[^。；]{0,16}(?:温度|T ?[≈=]|top-p)"
        r"|默认[^。；，]{0,6}\d|默认 ?(?:等于 ?)?[a-z]+(?:_[a-z]+)+|[a-z]+(?:_[a-z]+)+ ?默认"
        r"|（默认）|默认 ?[a-z_]+ ?=",
        None,
    ),
    "a benchmark leaderboard or score": (
        r"榜单|排行榜|leaderboard|LMArena|Chatbot Arena|Arena-Hard|SOTA|榜首|登顶"
        r"|(?:常用|主流|前沿)[^。；，]{0,6}(?:基准|benchmark|评测)"
        rf"|(?:{BENCHMARKS})[^。；]{{0,24}}?\d+(?:\.\d+)? ?(?:%|个百分点)(?! ?的?参数)",
        None,
    ),
    "a context window": (
        r"(?:上下文|窗口|context)[^。；]{0,16}?\d+(?:\.\d+)? ?(?:K|k|M|万|百万)(?![A-Za-z])"
        r"|\d+(?:\.\d+)? ?[KM](?![A-Za-z]) ?(?:token ?)?的?(?:上下文|窗口)"
        r"|(?:上下文|窗口)[^。；]{0,10}(?:几十万|数十万|上百万|百万)"
        r"|最长 ?\d{3,}|扩到 ?\d+(?:\.\d+)? ?[KkM]|支持 ?\d{3,} ?长度|窗口 ?\d{3,}",
        MODEL + r"|主流|目前|当前|常见|商用",
    ),
    "a claim about current practice": (
        r"(?:当前|目前|如今|今天)的?(?:主流|大模型|开源|商用)|现在的大模型|目前(?:还)?没有"
        r"|主流(?:开源|商用|闭源)?(?:模型|大模型|推理模型|LLM)[^。；]{0,12}(?:都|多为|大多|几乎|普遍|仍)",
        None,
    ),
    "a model config": (
        r"\d+ ?(?:层|个头|个 KV 头|个查询头|头|个专家|个路由专家|个共享专家)"
        r"|head_dim|d_head ?=|d_model ?=|d_ff ?[=为]|vocab_size|hidden_size|hidden \d|kv_lora_rank"
        r"|(?<![A-Za-z_])[dDLV] ?= ?\d|词表[^。；]{0,8}?\d|中间维度?[^。；]{0,6}\d"
        r"|base[^。；]{0,30}?(?:用|为|调到|=) ?(?:\d{4,}|10[⁰-⁹])|patch[^。；]{0,4}\d+"
        r"|\d+ ?个 ?视觉 ?token|码本 ?\d+|\d+ ?路(?:流水线|专家|张量|数据)并行|(?:EP|TP|DP)\d+",
        MODEL,
    ),
}
PREMISE = re.compile(r"某[\u4e00-\u9fff]{0,4}模型")  # a made-up model's price is a premise


def undated_facts(text: str) -> list[tuple[str, str]]:
    """The ageing facts ``text`` names, as (kind, the words that name it), when it gives no date.

    A text that asks (ends in ？) and holds no figure states nothing that can
    age: 「为什么不能只看 MTEB 榜单排名？」.
    """
    if DATE.search(text) or PREMISE.search(text):
        return []
    if re.search(r"[？?]\s*$", text) and not re.search(r"\d", text):
        return []
    found = []
    for kind, (words, beside) in AGEING.items():
        match = re.search(words, text)
        if match and (beside is None or re.search(beside, text)):
            found.append((kind, match.group(0)))
    return found


def test_facts_that_age_say_when_they_held(shipped):
    undated = [
        f"{where} names {kind} ({words!r}) without a date: {text}"
        for where, text in bank_text(shipped)
        for kind, words in undated_facts(text)
    ]
    assert undated == [], "\n".join(undated)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("GPT-4o 的输入为 2.5 美元/百万 token。", "a price"),
        ("离线任务用批处理接口，OpenAI、Anthropic 约为五折。", "a price"),
        ("OpenAI 的提示缓存空闲 5–10 分钟后清除。", "a cache TTL"),
        ("Anthropic 的缓存存活时间可选 1 小时。", "a cache TTL"),
        ("OpenAI 的 reasoning_effort 是 low/medium/high 档位。", "an API parameter or default"),
        ("hdbscan 中 min_samples 默认等于 min_cluster_size。", "an API parameter or default"),
        ("Chatbot Arena 公布的是类 Elo 分数。", "a benchmark leaderboard or score"),
        ("R1 在 AIME 2024 上 pass@1 约 79.8%。", "a benchmark leaderboard or score"),
        ("GPT-4.1 的上下文窗口为 1M token。", "a context window"),
        ("主流商用模型的窗口约 20 万到 100 万 token。", "a context window"),
        ("Llama 3 8B 有 32 层、8 个 KV 头。", "a model config"),
        ("V3 中 d = 7168、128 个头。", "a model config"),
    ],
)
def test_the_ageing_patterns_find_each_kind_of_fact(text, kind):
    assert kind in [found for found, _ in undated_facts(text)]
    assert undated_facts(f"截至 2025 年，{text}") == []
    assert undated_facts(text.replace("。", "（2024-12）。")) == []


@pytest.mark.parametrize(
    "text",
    [
        "API 按 token 计费，用量少的时候最省。",  # no price quoted
        "某推理模型输出价格为每百万 token 8 美元，估算这次请求的费用。",  # a premise
        "对过期或低价值记忆设置衰减或 TTL。",  # an Agent's memory, not a provider's cache
        "把 8K 的序列扩展到 32K，KV 缓存变为 4 倍。",  # no model's window
        "每层约 12d²，总参数 ≈ 12·L·d² + 嵌入参数。",  # no model's config
        "Houlsby 等在 GLUE 上只增加约 3.6% 参数就接近全量微调。",  # a share of parameters
        "选择嵌入模型时为什么不能只看 MTEB 榜单排名？",  # asks, states nothing
        "用 d_k = 128 时 logits 的典型幅度约为 ±11。",  # a symbol, no model
    ],
)
def test_the_ageing_patterns_leave_timeless_text_alone(text):
    assert undated_facts(text) == []


@pytest.mark.parametrize(
    ("number", "fact"),
    [
        (4, "15T token"),  # Llama 3 8B's pretraining data
        (8, "Bradley–Terry"),  # Chatbot Arena's fit since Dec 2023
        (12, "152064"),  # Qwen2.5 7B-72B vocab_size
        (41, "两边都加「query: 」"),  # e5's prefix rule for symmetric use
        (133, "0.9^11 ≈ 0.31"),  # bottom Transformer layer, not the embedding layer
        (135, "5e-4"),  # DAPT's peak learning rate
        (182, "68.6 KiB"),
        (193, "77.9%"),  # the journal version's R1-Zero AIME figure
        (200, "EP144"),  # the published decode layout
    ],
)
def test_corrected_facts_stay_corrected(shipped, number, fact):
    assert fact in " ".join(shipped.get(number).key_points)


def test_q13_quotes_the_tokens_per_character_the_bank_itself_measures(shipped):
    from studybot.costs import tokens

    runs = [
        run
        for _, text in bank_text(shipped)
        for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]+", text)
    ]
    chars = sum(len(run) for run in runs)
    measured = sum(tokens.count(run) for run in runs) / chars
    q13 = " ".join(shipped.get(13).key_points)
    quoted = re.search(r"cl100k 约 (\d\.\d+) token/字", q13)
    assert quoted and abs(float(quoted.group(1)) - measured) <= 0.05, measured
    size = re.search(r"本题库约 (\d+\.\d) 万个汉字", q13)  # the text it was measured on
    assert size and abs(float(size.group(1)) * 10_000 / chars - 1) <= 0.05, chars


def test_select_validates_ranges(shipped):
    assert [q.id for q in shipped.select(20, 27)] == list(range(20, 28))
    with pytest.raises(BadInput, match="after --to"):
        shipped.select(9, 3)
    with pytest.raises(BadInput, match="outside"):
        shipped.select(195, 205)
