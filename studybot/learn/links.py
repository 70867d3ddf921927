"""How the words a clause holds link up: a list's items, a pronoun, a dash, a 不如.

Small readings the statements of a claim rest on (``statements``): whether a
relation and its parts make one statement or items of a list ("KV 缓存、线性
增长"), whether a subject is only "它" and what it points at, whether a dash turns
to something else, whether the subject stands after 不如 (ahead of the other) or
after 比 (outdone), whether a comma in brackets sets two links apart, whether two
links lie in different stretches of a clause, whether a clause only says a figure
again, and whether words are replaced ("代替"), supposed ("——没有…时"), set aside in
brackets or part of a way turned down ("不用…那种…的做法").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from studybot.learn import contrasts, negations, presumed
from studybot.learn.reading import Phrase
from studybot.learn.words import listed

_PRONOUNS = listed("它 它们 其 该 这 这个 此 it its they this")


def across(clause, subject: Phrase, link: Phrase) -> bool:
    """Whether the subject stands after a dash that follows the relation: what
    comes after the mark is said of something new ("X：并非 Y" still denies Y of X)."""
    return link.first < subject.first and bool(
        _DASH.search(clause.joined, link.first, subject.first)
    )


_DASH = re.compile(r"—")  # a dash turns to something else; a colon elaborates


def pronoun(clause, subject: Phrase) -> bool:
    """Whether the subject is named only by a pronoun, which may point at anything."""
    return all(clause.joined[s:e] in _PRONOUNS for s, e in subject.spans)


def short_of(clause, phrase: Phrase, subject: Phrase, named: Sequence[Phrase]) -> bool:
    """Whether the subject stands after a 不如 that opens or is the opposite's words:
    "用得不如 LoRA 多", "单取头都不如头 128 + 尾 382 的组合" (the subject is ahead)."""
    if clause.joined[: subject.first].endswith("不如"):
        return True
    at = next((s for s, e in phrase.spans if clause.joined[s:e] == "不如"), None)
    return at is not None and any(all(s > at for s, _ in p.spans) for p in named)


def apart(clause, one, other) -> bool:
    """Whether a comma (inside brackets: elsewhere it ends the clause) stands between two links,
    or a copula negation after ``one`` denies what follows it, not ``one`` (``presumed``)."""
    topic, denied = min(s for s, _ in one), min(s for s, _ in other)
    if any(topic < edge for edge in presumed.topic_edges(clause, denied)):
        return True  # "TTFT 变长并不是模型变慢了": TTFT 变长 is said
    said = {clause.joined[s:e] for s, e in one}
    if not said & {clause.joined[s:e] for s, e in other}:
        return False  # a correction says the same verb again: "不是从零初始化，用奖励模型初始化"
    low, high = sorted((min(s for s, _ in one), min(s for s, _ in other)))
    group = clause.group(low)
    return any(
        clause.joined[i] == "," and clause.group(i) == group and group == clause.group(high)
        for i in range(low, high)
    )


def standard(clause, part: Phrase) -> bool:
    """Whether ``part`` is what something is compared with: "比 B", "than B"."""
    before = clause.joined[max(0, part.first - 4) : part.first]
    return before.endswith("比") or before.endswith("than")


def outdone(clause, link: Phrase, subject: Phrase | None, named: Sequence[Phrase]) -> bool:
    """Whether a comparative relation is said of another thing, with the subject what it is
    compared with: "[CLS] 比 mean pooling 效果更好" says no "mean pooling 更好" (but
    "成对比胜率更靠谱" names the subject before its 比: it is still the subject's)."""
    if subject is None or not standard(clause, subject):
        return False
    if any(p.first < subject.first - 1 for p in named):
        return False
    if any(s < subject.first <= e or s <= subject.first - 1 < e for s, e in link.spans):
        return False  # the rubric's own comparison: "比 PCA 更能保留非线性" is PCA's relation
    return any(_COMPARATIVE.search(clause.joined[s:e]) for s, e in link.spans)


_COMPARATIVE = re.compile(
    r"更|优于|好于|胜过|强于|高于|低于|大于|小于|快于|慢于|多于|少于|"
    r"better|worse|more|less|fewer|faster|slower|higher|lower|larger|smaller|outperform|beats"
)


BARE_CHARS = 2  # a list item holding the relation and at most this much more is a bare term


def linked(clause, link: Sequence[tuple[int, int]], parts: Sequence[Sequence]) -> bool:
    """Whether the relation's words and the parts' make one statement, not items of a list.

    A list mark (、 | · or a slash with a space beside it, outside brackets)
    cuts a clause into items. The relation standing alone as an item, with
    its parts in other items, is a term listed: "KV 缓存、线性增长"; a list
    inside a statement is not: "在医疗、法律等领域效果下降", "E5、BGE 这些模型都是
    两阶段训练".
    """
    edges = items(clause)
    if not edges:
        return True
    item = bisect.bisect_right(edges, min(s for s, _ in link))
    outside = [
        span for spans in parts for span in spans if bisect.bisect_right(edges, span[0]) != item
    ]
    if not outside:
        return True
    start = edges[item - 1] if item else 0
    end = edges[item] if item < len(edges) else len(clause.joined)
    covered = {i for s, e in (*link, *clause.negations) for i in range(s, e) if start <= i < end}
    return (end - start) - len(covered) > BARE_CHARS


def one_item(clause, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``spans`` all lie in one item of the clause's lists."""
    edges = items(clause)
    return len({bisect.bisect_right(edges, s) for s, _ in spans}) <= 1


def items(clause) -> list[int]:
    """Where the clause's list items begin (offsets in ``joined``), list marks in brackets aside."""
    return sorted(b for b in clause.breaks if b >= len(clause.joined) or clause.group(b) < 0)


def beyond(clause, stated, denied) -> bool:
    """Whether a statement's words lie in one stretch of the clause and a denial's in
    another, stretches ending at a colon, a dash or a list mark."""
    edges = sorted(
        {*items(clause), *(m.start() for m in negations.SCOPE_MARK.finditer(clause.joined))}
    )
    own = {bisect.bisect_right(edges, s) for s, _ in stated}
    return len(own) == 1 and all(bisect.bisect_right(edges, s) not in own for s, _ in denied)


# A clause that is a figure and little else, or opens "也就是", says the clause before again:
# "20 步全部成功的概率是 0.95^20，大约 64%", "每 2 秒采 1 帧，也就是 0.5 fps".
_AGAIN = re.compile(r"^\s*(?:也就是|也即|亦即|即(?!使|便)|换句话说|相当于|i\.e\.|that is|that's)")
AGAIN_CHARS = 4  # ... besides its figures, at most this many characters


def figure_again(clause, found) -> bool:
    """Whether a clause only says a figure of the clause before again."""
    if _AGAIN.match(clause.normal):
        return True
    digits = sum(1 for c in clause.normal if c.isdigit() or c in ".%")
    return len(clause.normal.replace(" ", "")) - digits <= AGAIN_CHARS + 2 * len(found)


def negating_parts(clause, finds) -> list[tuple[int, int]]:
    """The words of a claim's parts, each part found in one run, that hold a negation of the
    clause: it is the part's own wherever the part stands ("没有支持的句子和错误引用删掉",
    though the subject nearest the relation is 错误引用)."""
    return [
        (s, e)
        for found in finds
        if all(one[1] == two[0] for one, two in zip(found.spans, found.spans[1:], strict=False))
        for s, e in found.spans
        if any(ns < e and s < ne for ns, ne in clause.negations)
    ]


def framing(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` sits in a stretch after a colon or dash that ends as a condition does
    ("有效的前提是有外部反馈——没有外部信号时"): what a condition negates is not denied."""
    if not negations.SCOPE_MARK.search(clause.joined, 0, phrase.first):
        return False
    mark = negations.SCOPE_MARK.search(clause.joined, phrase.last)
    stretch = clause.joined[phrase.last : mark.start() if mark else len(clause.joined)]
    return bool(_CONDITION_END.search(stretch))


_CONDITION_END = re.compile(r"(?<![同及实按])时$|时候$|的话$")  # not 同时, 实时


def not_denied(clause, phrase: Phrase, subject: Phrase | None, core: bool = False) -> bool:
    """Whether a negated ``phrase`` denies nothing: it sits in a condition (``framing``), in
    a clause about how things were before ("以前不是一个模型管所有任务"), or describes the
    claim's own subject right after it ("而不是计算受限的 prefill": the thing is turned
    down, not what it is said to be). A ``core`` (a negated relation's leftover) is stated by
    its negation, presumed or not: "MLP 就不再需要了" says "不要了"."""
    if framing(clause, phrase) or _PAST.search(clause.normal):
        return True
    if not core and presumed.not_denied(clause, phrase, subject):
        return True  # "不再用 softmax", "不能太小", "能用 enum 就别用…" (``presumed``)
    if subject is None or not replaced(clause, phrase):
        return False
    return bool(_OF.fullmatch(clause.joined, phrase.last, subject.first))


_PAST = re.compile(
    r"(?:^|[:：])\s*(?:[而但]\s*)?(?:以前|从前|传统上|过去(?!的)|previously|traditionally)"
)
_OF = re.compile(r"\s*的\s*")


def replaced(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` is what something takes the place of ("代替梯度更新", "instead of
    fine-tuning"): it is not said to be done."""
    before = clause.joined[max(0, phrase.first - 12) : phrase.first]
    return bool(_REPLACES.search(before)) or contrasts.after_than(clause, phrase.first)


_REPLACES = re.compile(r"(?:代替|取代|替代|替换|而不是|而非|insteadof|ratherthan|zero|零)\S{0,2}$")


def aside(clause, phrase: Phrase, parts: Sequence[Phrase]) -> bool:
    """Whether ``phrase`` sits in brackets or quotes that hold none of ``parts``."""
    group = clause.group(phrase.first)
    return group >= 0 and not any(clause.group(p.first) == group for p in parts)


def named_last(attempt, n: int, others, own) -> bool:
    """Whether what a pronoun in clause ``n`` points at is one of ``others``, not ``own``: the
    first name of its sentence, or of the sentence before when the pronoun opens its own
    ("RoPE 则不同。它直接外推并不好" is about RoPE)."""
    sentence = attempt.sentence[n]
    before = [m for m in range(n) if attempt.sentence[m] == sentence]
    if not before:
        before = [m for m in range(n) if attempt.sentence[m] == sentence - 1]
    for m in before:  # "PPO 胜过 DPO。但它并不便宜": the one named first in the clause
        at = min((p.first for p in attempt.words_of(m, own)), default=None)
        other = min((p.first for o in others for p in attempt.words_of(m, o)), default=None)
        if at is not None or other is not None:
            return other is not None and (at is None or other < at)
    return False


def described(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` describes a way a negation before it turns down ("不用 delayed
    scaling 那种依赖前几步最大值的做法"): said of the way, not done."""
    start = max(
        (m.end() for m in negations.SCOPE_MARK.finditer(clause.joined, 0, phrase.first)), default=0
    )
    turned = any(start <= s and e <= phrase.first for s, e in clause.negations)
    return turned and bool(_A_WAY.match(clause.joined, phrase.last))


_A_WAY = re.compile(r"[^:：,，]{0,10}?的(?:做法|方法|方式|方案|办法|思路|策略|设计)")
