"""Who a finding is credited to: an attempt that gives a point's finding to another work.

A key point may write whose work it states: "Wang 等（2022）…发现", "ULMFiT 的
逐步解冻", "推理轨迹由 Gemini 2.0 Flash Thinking 生成". Those names, when the
point's own sources (``bank.sources``) name them too, are its **credits**. An
attempt that gives the finding to another name instead ("Google 的 Raffel 等人在
T5 论文里做过这个对比", "BERT 原论文就提出了逐步解冻") contradicts the point.

A name beside a claim is seldom an attribution, and a candidate often cites a
second, right source the bank does not ("有研究（Hoyle 等 2021）发现…"), so it is
said only when all of these hold:
- the name is written as a source: "X 等人", "X 等（2021）", "X et al.", "X 论文",
  "X 提出", "来自 X", "according to X" (``_AFTER``, ``_SOURCE_BEFORE``);
- the question's own texts name it (T5 in a question about architectures) and
  it credits none of the question's points;
- it is in the sentence of a clause where the point's claims are said, and
  that clause names no credit;
- and the attempt writes none of the point's credits as a source.
So a name from outside the question ("由 DeepSeek-R1 生成" for Gemini) is not
caught: the grader cannot tell a wrong source from a second right one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from studybot.bank.sources import Source
from studybot.learn import words
from studybot.learn.reading import Attempt

# A Latin name as written: a capital or a digit in it (BERT, ULMFiT, T5, word2vec, s1K).
NAME = re.compile(r"(?<![\w.\-])(?=[\w.\-]*[A-Z0-9])[A-Za-z][\w.\-+]*[\w+]")
# Names that are no one's work: hardware, units, the field's abbreviations.
NOBODY = words.listed(
    "kv gpu gpus cpu tpu api llm llms nlp ai ml sft rl rlhf mlm moe qa rag ir id ok oom "
    "fp16 bf16 fp8 int8 int4 h100 a100 v100 top-k top-p k v q"
)
_YEAR = r"\s*(?:[(（]\s*\d{4}\s*[)）]|\d{4})?\s*"
# Written as a source: "Wang 等（2022）", "X 等人", "X 论文", "X 提出", "X et al.".
_AFTER = re.compile(
    _YEAR + r"(?:的\s*)?(?:原始\s*)?(?:等人|等\s*[(（]?\s*[,，]?\s*\d{4}|et\s+al|原?论文|paper"
    r"|技术报告|technical\s+report|(?:于\s*[\d\-年月]+\s*)?提出|最早|首先|proposed|introduced)",
    re.IGNORECASE,
)
# In a key point's own text a source may also be written "ULMFiT 的逐步解冻", "像 X 那样".
# Or "Chinchilla（Hoffmann 等，2022）": a name with its authors after it.
_OWN = re.compile(
    _AFTER.pattern + r"|\s*(?:的\s*\S|那样|生成|[(（]\s*[A-Z][\w\-]*\s*(?:等|et\s+al))",
    re.IGNORECASE,
)
_BEFORE = r"(?:来自|出自|源于|源自|according\s+to|proposed\s+by|introduced\s+by)"
_SOURCE_BEFORE = re.compile(_BEFORE + r"\s*(?:the\s+)?(?:原始\s*|original\s+)?$", re.IGNORECASE)
# "由 X 生成" names a source in a key point; in an attempt "由 Transformer 预测" names a part.
_OWN_BEFORE = re.compile(rf"(?:由|{_BEFORE})\s*$", re.IGNORECASE)


_NOT = r"(?:不是|并非|并不是|并不|不|非|没有|并没有|未|not|never|n't|isn't|wasn't)"
_DENIED_BEFORE = re.compile(
    _NOT + r"\s*(?:由|来自|出自|源于|源自|from|by)?\s*(?:the\s+)?$", re.IGNORECASE
)
_DENIED_AFTER = re.compile(
    r"\s*(?:的\s*)?(?:并|也|都)?\s*(?:没有|没|未|不是|并非|did\s+not|didn't)", re.IGNORECASE
)


def of_point(text: str, sources: Sequence[Source]) -> tuple[str, ...]:
    """The credits of a key point: the names it writes as a source that its sources name too."""
    names = _names(" ".join(s.cite for s in sources))
    cited = {*names, *(part for n in names for part in n.split("-"))}  # DeepSeek-V2 cites V2
    own = _written_as_source(text, _OWN, _OWN_BEFORE)
    return tuple(sorted({n for n in own if n in cited} - NOBODY))


def rivals(texts: Sequence[str], credits: Sequence[str]) -> tuple[str, ...]:
    """The names a question's texts hold that credit none of its points: one of them is
    what an attempt puts in a credit's place (T5 for Wang 等). A source an attempt
    cites besides (有研究（Hoyle 等 2021）发现…) is none of them.
    """
    taken = _families(credits)
    named = {n for text in texts for n in _names(text)} - NOBODY
    return tuple(sorted(n for n in named if _family(n) not in taken))


def misattributed(
    credits: Sequence[str], others: Sequence[str], attempt: Attempt, near: Iterable[int]
) -> int | None:
    """The clause of ``attempt`` that credits one of ``others`` with the point, if one does.

    ``near``: the clauses where the point's claims are said; the name may be
    in any clause of their sentences.
    """
    own = _families(credits)
    cited = [
        (name, n)
        for n, c in enumerate(attempt.clauses)
        for name in _written_as_source(c.text, _AFTER, _SOURCE_BEFORE)
    ]
    if not credits or any(_family(name) in own for name, _ in cited):
        return None
    sentences = {attempt.sentence[n] for n in near}
    for name, n in cited:
        if attempt.sentence[n] not in sentences or name not in others:
            continue
        if not any(_family(other) in own for other in _names(attempt.clauses[n].text)):
            return n
    return None


def shown(credits: Sequence[str], text: str) -> str:
    """The key beside a wrong credit: the point's credits as its text writes them ("出处：ULMFiT")."""
    written = [m.group() for m in NAME.finditer(text) if m.group().lower() in credits]
    return "出处：" + "、".join(dict.fromkeys(written))


def _written_as_source(text: str, after: re.Pattern, before: re.Pattern) -> list[str]:
    """Each name in ``text`` written as a source: a cue after it, or one before it; not
    one said not to be ("并非来自 o1", "不是 BERT 提出的", "BERT 并没有提出")."""
    return [
        m.group().lower()
        for m in NAME.finditer(text)
        if not denied(text, m.span()) and _as_source(text, m.span(), after, before)
    ]


def denied(text: str, span: tuple[int, int]) -> bool:
    """Whether the name at ``span`` of ``text`` is said not to be the source ("并非来自 o1")."""
    return bool(
        _DENIED_BEFORE.search(text[: span[0]][-10:]) or _DENIED_AFTER.match(text[span[1] :])
    )


def as_source(text: str, span: tuple[int, int], own: bool = False) -> bool:
    """Whether the name at ``span`` of ``text`` is written as a source ("X 提出", "来自 X");
    ``own``: ``text`` is a key point's, where "X 的去噪思路", "由 X 生成" are sources too."""
    return _as_source(text, span, *((_OWN, _OWN_BEFORE) if own else (_AFTER, _SOURCE_BEFORE)))


def _as_source(text: str, span: tuple[int, int], after: re.Pattern, before: re.Pattern) -> bool:
    return bool(after.match(text[span[1] :]) or before.search(text[: span[0]][-12:]))


def _names(text: str) -> list[str]:
    return [n.lower() for n in NAME.findall(text)]


def _family(name: str) -> str:
    """A name's leading letters, three or more: deepseek-r1 and deepseek-v3 are one family; t5 is its own."""
    lead = re.match(r"[a-z]+", name.lower())
    return lead.group() if lead and len(lead.group()) >= 3 else name.lower()


def _families(names: Iterable[str]) -> set[str]:
    return {_family(n) for n in names}
