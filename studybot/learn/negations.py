"""A negation's reach: which words of a clause a negation bears on.

The negations themselves are words of the clause as cut (``words``); here
is how far each reaches: over the words after it with only auxiliaries
between ("不 会 被 读取"), across a short 把/被 phrase to its verb, a few
words on in English, the whole clause when it opens it ("并不是…"), the
verb before it for 不了 and 不动; two in a chain cancel, and a negation in
brackets speaks of the bracket alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from studybot.learn.words import AUXILIARIES, Clause, listed

ENGLISH_REACH = 4  # words an English negation reaches across to the words it negates


def negated(
    where: Clause,
    found: Sequence[Sequence[tuple[int, int]]],
    ignore: Sequence[tuple[int, int]] = (),
    through: Sequence[tuple[int, int]] = (),
) -> bool:
    """Whether a negation of ``where`` bears on an alternative's words, found at ``found``.

    ``found``: per word, the spans where it is. A negation among those words
    is theirs (不再 in "不再 更新"); one between them, or just before them
    with only auxiliaries in between ("不会 被 读取", "is not frozen"),
    negates them; one before another content word negates that word instead
    ("不缩放 softmax 会饱和": 缩放, not 饱和); an English one negates the
    next few words ("never silently drop it or default it", not "what you
    can't map goes into an unknown bucket"); 不了 and 不动 negate the word
    just before them ("改变不了"). Brackets and quotes are read apart: a
    negation inside one speaks of it alone, and when all the words are
    inside one pair, or all outside, that reading is taken. ``ignore``: words
    whose own negations do not count ("without a cache" negates no relation);
    ``through``: words a negation reaches across, like auxiliaries (the
    subject in "没有微批次重叠").
    """
    shared = set.intersection(*({where.group(s) for s, _ in spans} for spans in found))
    readings = [
        [span for spans in found for span in spans if where.group(span[0]) == group]
        for group in sorted(shared)
    ] or [[span for spans in found for span in spans]]
    return all(_negated(where, sorted(reading), ignore, through) for reading in readings)


def _negated(where: Clause, found: list[tuple[int, int]], ignore=(), through=()) -> bool:
    """``negated`` for one reading; "不…不行" (two negations, one closing the clause) cancels."""
    said = _negated_once(where, found, ignore, through)
    last = max((e for _, e in found), default=0)
    rest = where.joined[last:]
    mark = SCOPE_MARK.search(rest)  # "中文不分词是不行的：默认规则…": up to the colon
    closed = _MUST.search(rest[: mark.start()] if mark else rest)
    cancelled = closed or _THEN_NOT.match(rest) or _NOT_EVEN_NONE.match(rest)
    cancelled = cancelled or _NOT_THEN_NOT.search(where.joined[:last])
    cancelled = cancelled or _ONLY_WITH.fullmatch(where.joined)
    return not said if said and (cancelled or _both_sides_of_then(where, found)) else said


def _both_sides_of_then(where: Clause, found: list[tuple[int, int]]) -> bool:
    """ "不一致就不接受": a negation before the words and one after their 就, said as "一致才接受"."""
    first, last = found[0][0], max(e for _, e in found)
    then = [s for s, e in where.tokens if first < s < last and where.joined[s:e] == "就"]
    if not then:
        return False
    before = any(e <= first and _only_auxiliaries(where, e, first) for _, e in where.negations)
    return before and any(then[0] < s < last for s, _ in where.negations)


# "Not only": a negation before one of these denies the limit, not what follows it.
_LIMITER = re.compile(
    r"(?:是)?(?:的)?(?P<limit>仅仅|单单|单纯|简单地|简单|只|仅|光|止|单|无限|一味|盲目|无休止"
    r"|所有|全部|每个|每一个)"
)  # "不是无限重试" denies the endlessness, not the retry; "并非所有问题都能拆" the "all"


NOT_ONLY_REACH = 4  # characters between "不只" and the words it is about ("不只在输入层")


def not_only(where: Clause, first: int) -> bool:
    """Whether a "not only" (不只, 不仅, 不是单纯的) stands just before offset ``first``."""
    before = where.joined[max(0, first - 12) : first]
    return any(len(before) - m.end() <= NOT_ONLY_REACH for m in _NOT_ONLY.finditer(before))


_NOT_ONLY = re.compile(r"(?:不|并不|并非|不是|并不是)" + _LIMITER.pattern)
_DENIER = re.compile(r"(?:不|并不|并非|不是|并不是)(?:是)?(?:的)?$")


def only_denied(where: Clause, spans) -> bool:
    """Whether words at ``spans`` are said as not the whole truth: "不只在输入层" is no "只在输入层"
    and no "在输入层" either (a claim's own "only" denied, or a "not only" just before a word)."""
    for start, end in spans:
        if _LIMITER.fullmatch(where.joined[start:end]) and _DENIER.search(where.joined[:start]):
            return True
        if not_only(where, start):
            return True
    return False


def _limits_elsewhere(where: Clause, end: int, found) -> bool:
    """Whether the negation ending at ``end`` is "not only" and ``found`` is not its limit."""
    coverb = _FOR.match(where.joined, end)  # "不必给每个子词都打标签": not every one
    limit = _LIMITER.match(where.joined, coverb.end() if coverb else end)
    if limit is None:
        return False
    start, stop = limit.span("limit")
    return not any(s < stop and e > start for s, e in found)


_FOR = re.compile(r"给|为")  # the one each is done for
_SHORT = {"不够", "不行"}  # a whole predicate: "不够还可以…" is "if it is not enough, …"


# "不重新校准就不能当概率用", "不平衡就会互相拖累": without it, harm follows, so it is needed.
_THEN_NOT = re.compile(
    r"[^,:;就]{0,12}就(?:会|要)?(?:[^,:;]{0,3}?)"
    r"(?:不|没|无法|难以|出错|出问题|失效|拖累|变差|崩|发散|混乱|退化|失败)"
)
# "边界有一点不一样都不算对": not X, then not the words, so X is needed for them.
_NOT_THEN_NOT = re.compile(
    r"(?:不|没有?|无)[^,:;不没]{1,6}(?:就|都|也)\s*(?:不|没有?|无法)\S{0,3}$"
)
# "不经过多任务微调是反超不了的": without X, Y cannot be, so Y is said, after X.
_ONLY_WITH = re.compile(
    r"[^,:;不没]{0,16}?(?:如果|若|要是)?(?:不(?!是)|没有?|未)[^,:;不没]{2,16}(?:不了|不出|不动|不起)的?"
)
# "不是一点位置信号都没有": not even none, so some.
_NOT_EVEN_NONE = re.compile(r"\s*(?:都|也)(?:没有|没)")


def _describes(joined: str, start: int, end: int, found) -> bool:
    """Whether a one-character negation makes a word that describes a noun (不完整的字节,
    无意义的 token) and the words looked for are not that word."""
    if joined[start:end] not in ("不", "无", "未"):
        return False
    word = _DESCRIBING.match(joined, end)
    return word is not None and not any(end <= s < word.end() for s, _ in found)


_DESCRIBING = re.compile(r"(?![是会能要在用把被对让给])[\u4e00-\u9fff]{1,2}的(?=[\w\u4e00-\u9fff])")
_THEN = frozenset({"就", "时", "时候", "的话", "then"})  # words of their own: not 时 in 同时


def _whether(joined: str, start: int) -> bool:
    """Whether the negation at ``start`` is part of "whether": 是否不…, 有没有 (没 after 有)."""
    before = joined[:start]
    return before.endswith(("是否", "是不是", "whether")) or (
        before.endswith("有") and joined.startswith("没有", start)
    )


# "Not necessarily": it leaves the claim open, so it denies no claim of what can be.
_HEDGES = {"不一定", "未必", "不见得", "不必然"}
HEDGE_REACH = 2  # characters between a hedge and the words it is about ("不一定是固定的")


def hedged(where: Clause, first: int) -> bool:
    """Whether a "not necessarily" (不一定, 未必) stands just before offset ``first``."""
    return any(
        where.joined[s:e] in _HEDGES and 0 <= first - e <= HEDGE_REACH for s, e in where.negations
    ) or bool(re.search(r"not necessarily\s*$", where.joined[:first]))


# A clause closed by one of these after a negation says it must be so: "不按通道量化不行",
# "没验证过的轨迹不要" (a bracket after it aside: "…丢掉（拒绝采样）").
_MUST = re.compile(
    r"(?:是)?(?:不行|不成|不可以|不可|不要|丢掉|扔掉|丢弃|去掉|过滤掉|[训学做]不好|训练不好|学不会|训不出来"
    r"|(?:用不了|做不了|没法用)[^,]{0,6}?)"
    r"(?:的)?\s*(?:\([^()]*\))?$"
)


def _negated_once(where: Clause, found: list[tuple[int, int]], ignore=(), through=()) -> bool:
    if not found:
        return False
    first, last = found[0][0], max(e for _, e in found)
    groups = {where.group(s) for s, _ in found}
    # "并不能代替在自己数据上抽样检查": what is not replaced is still done.
    keeping = {n for n in where.negations if _keeps(where, n[1], found)}
    # "并非处处占优：…" and "量也不是越多越好——几百条就够" deny only what comes before the mark.
    scope = _scope_end(where, max(where.opening, 0))
    if 0 <= where.opening <= first < scope and not any(s < where.opening for s, _ in ignore):
        own = [n for n in where.negations if any(n[0] < e and n[1] > s for s, e in found)]
        opening = next((n for n in where.negations if n[1] == where.opening), None)
        limited = opening is not None and _limits_elsewhere(where, opening[1], found)
        limited = limited or opening in keeping
        if not any(e <= where.opening for _, e in own) and not limited:
            return True  # "并不是头数越多越好", "rather than proportional": the whole clause
    for start, end in where.negations:
        if (start, end) in keeping:
            continue
        if _limits_elsewhere(where, end, found):
            continue  # "不只在输入层", "不是单纯的权重文件": not only, so the rest is said
        if _describes(where.joined, start, end, found):
            continue  # "缓存不完整的字节": 不完整 describes the bytes, it denies no verb
        if where.joined[start:end] in _SHORT and where.joined[end : end + 1] in ("还", "就", "再"):
            continue  # "实在不够还可以卸载": 不够 is a condition of its own, not of what follows
        if _whether(where.joined, start):
            continue  # "看指令是否不够多样", "有没有遗漏": whether, asked, not said
        if end <= first and any(
            end <= s and e <= first and where.joined[s:e] in _THEN for s, e in where.tokens
        ):
            continue  # "被判为不可能就剪枝": the negation is the condition's, not the verb's
        if any(start < e and end > s for s, e in found):
            continue  # the alternative's own word
        if any(start < e and end > s for s, e in ignore):
            continue  # a part's own word
        if where.group(start) not in groups:
            continue  # a negation in brackets speaks of the bracket, and one outside of it
        if start in where.backward:
            if first < start and _only_auxiliaries(where, last, start):
                return True  # 改变不了: the verb before it
            continue
        if first <= start < last and not SCOPE_MARK.search(where.joined, start, last):
            return True  # a negation among the words, not across a colon or a dash
        english = end <= first and where.joined[start:end].isascii()
        if english and _near(where, end, first) and not _new_predicate(where, end, first):
            return True  # English: "never silently drop it or default it to a class"
        if where.joined[start:end] in _COPULA_NEGATIONS and _EITHER.match(where.joined, end):
            continue  # "不是报错就是截断": one or the other, neither denied
        if end <= first and _only_auxiliaries(where, end, first, through):
            # A chain of negations before the words: two cancel ("并不是不需要").
            return _chain(where, first) % 2 == 1
        copula = end <= first and where.joined[start:end] in _COPULA_NEGATIONS
        between = where.joined[end:first]
        if copula and _DOUBLE.match(between):
            continue  # "并非完全没有辅助损失": the nearer negation counts the chain, says some
        if copula and _MANNER.match(between):
            continue  # "v1 总分不是按任务类型平均": an average, of something else
        if end <= first and _coverb(where, end, first):
            if any(end <= s and e <= first for s, e in where.negations):
                continue  # "不能和线上不一样": the negation nearer the words counts the chain
            return True  # "不会把任何点标为离群点": 不会 governs 标为
        if copula and _KINDS.match(between) and any(end <= s < first for s, _ in where.negations):
            continue  # "不是两套不一样的模式": the nearer negation counts the chain
        if copula and not _COORDINATED.search(between) and first < _scope_end(where, end):
            return True  # "损失也不是 -log p_y 那种交叉熵": 不是 denies all it goes on to say
    return False


# "It is not …" denies the whole predicate after it in the clause, however long, up to a
# colon or a word that adds another predicate ("且", "and").
_COPULA_NEGATIONS = {"不是", "并不是", "而非"}
# ... but one followed by a way of doing it denies the way (the 是…的 focus).
_MANNER = re.compile(r"(?:按照|按|依据|根据|基于|通过|靠|用)\S")
# "不是没有", "并非完全没有": a second negation right after the copula's, the two cancel.
_DOUBLE = re.compile(r"(?:完全|全然|绝对|根本)?(?:没有?|无)")
_EITHER = re.compile(r"[^,:;]{1,24}?(?:就是|便是)")  # "不是 X 就是 Y": X or Y, none denied
_COORDINATED = re.compile(r":|—|,|且|同时|并且|而且|还|and")  # "," only inside brackets
SCOPE_MARK = re.compile(r":|—|--")  # a colon or a dash: what stands on its two sides is apart


def _scope_end(where: Clause, start: int) -> int:
    """Where a negation opening at ``start`` stops reaching: a colon or a dash, else the end;
    for "而不是…"/"instead of…", the predicate after what it turns down ("而不是硬标签的好处是鲁棒")."""
    mark = SCOPE_MARK.search(where.joined, start)
    end = mark.start() if mark else len(where.joined)
    if not _TURNING_DOWN.search(where.joined, 0, start):
        return end
    words = [s for s, e in where.tokens if start < s < end and where.joined[s:e] in _PREDICATES]
    return next((s for s in words if any(start <= a < s for a, _ in where.tokens)), end)


def _keeps(where: Clause, end: int, found) -> bool:
    """Whether the negation ending at ``end`` says "not replaced" of words after the found ones."""
    replacing = _NOT_REPLACING.match(where.joined, end)
    return replacing is not None and all(s >= replacing.end() for s, _ in found)


_THEN_WORD = re.compile(r"就|才|则|时")
_NOT_REPLACING = re.compile(r"(?:能|会|可以|能够)?(?:代替|取代|替代|替换|replace)")
_TURNING_DOWN = re.compile(r"(?:而不是|而非|ratherthan|insteadof)$")
_PREDICATES = listed("是 会 能 可以 让 使 make mak is are wa was were let give giv keep help")


COVERB_REACH = 8  # characters a negation reaches across a 把/被/随… phrase to its verb
_COVERBS = (
    "把",
    "被",
    "将",
    "给",
    "让",
    "对",
    "随",
    "按",
    "与",
    "和",
    "跟",
    "同",
    "用",
    "以",
    "从",
    "向",
)


def _coverb(where: Clause, start: int, end: int) -> bool:
    """A 把/被/随… phrase, short, between a negation and the words: "不会把任何点标为",
    "不随长度平方增长"."""
    between = where.joined[start:end]
    if not (0 < len(between) <= COVERB_REACH and between.startswith(_COVERBS)):
        return False
    if SCOPE_MARK.search(between):
        return False  # "并不对称：A 用随机高斯" ends at the colon
    # The coverb is a word of its own: 对 in "对称" is no coverb.
    return any(s == start and e - s == 1 for s, e in where.tokens)


def _chain(where: Clause, first: int) -> int:
    """How many negations stand right before offset ``first``, with only auxiliaries among them."""
    count, head = 0, first
    for start, end in reversed(where.tokens):
        if end > first:
            continue
        word = where.joined[start:end]
        if any(s == start and e == end for s, e in where.negations):
            count, head = count + 1, start
        elif word not in AUXILIARIES:
            break
    if count and any(
        e <= head and _coverb(where, e, head) and not _THEN_WORD.search(where.joined, e, head)
        for _, e in where.negations
    ):
        count += 1  # "也不能和线上不一样": a negation before a short 和/把 phrase chains on
    if count and any(
        where.joined[s:e] in _COPULA_NEGATIONS and _KINDS.fullmatch(where.joined, e, head)
        for s, e in where.negations
    ):
        count += 1  # "不是两套不一样的模式": it denies the kinds the negated word tells apart
    if count and _DENYING.search(where.joined, 0, head):
        count += 1  # "不等于不会判错": to deny that it never errs says it may
    return max(count, 1)


_DENYING = re.compile(r"不等于$")
_KINDS = re.compile(r"(?:两|二|几|多)(?:套|种|类|个|回|样)")


def _near(where: Clause, start: int, end: int) -> bool:
    """At most ``ENGLISH_REACH`` words between ``start`` and ``end``, and no dash or colon."""
    between = [where.joined[s:e] for s, e in where.tokens if s >= start and e <= end]
    return len(between) <= ENGLISH_REACH and not any(w in _STOPS for w in between)


def _new_predicate(where: Clause, end: int, first: int) -> bool:
    """Whether the words at ``first`` open a predicate of their own after "or"/"and": a verb
    that agrees by itself ("the loss doesn't go down or blows up": it blows up)."""
    between = where.text[where.at[end] : where.at[first]]
    after = where.text[where.at[first] :]
    return bool(_JOINED.search(between) and _FINITE.match(after))


_JOINED = re.compile(r"\b(?:or|and)\s*$", re.IGNORECASE)
_FINITE = re.compile(r"[a-z]+[^s]s\b", re.IGNORECASE)  # "blows", "goes"; not "loss", "is"


# An English negation reaches no further than these: "needs no retraining and gives control".
_STOPS = {"—", "–", ":", "(", ")", ";", "=", "->", "→", "and"}


def _only_auxiliaries(where: Clause, start: int, end: int, through=()) -> bool:
    between = [(s, e) for s, e in where.tokens if s >= start and e <= end]
    return all(
        where.joined[s:e] in AUXILIARIES or any(a <= s and e <= b for a, b in through)
        for s, e in between
    )


def scoped(found: list) -> list:
    """Phrases of one alias in a clause, a negation of one reaching those it overlaps.

    "单头并非只有一个注意力分布": 并非 negates 只有一个分布, and with it the
    shorter 一个注意力分布 inside it; but the 不 inside "帮助不大" negates
    nothing said after it ("帮助不大，只增加成本").
    """
    found = list(found)
    negated = [p for p in found if p.negated]
    if not negated:
        return found
    return [
        replace(p, negated=True) if not p.negated and any(_overlaps(p, q) for q in negated) else p
        for p in found
    ]


def _overlaps(one, other) -> bool:
    return one.first < other.last and other.first < one.last
