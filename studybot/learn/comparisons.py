"""A comparison the point writes, said the other way round by the attempt.

"ColBERT 式后期交互（更快）", "调好的 PPO 全部优于 DPO", "Gemma 把输入嵌入乘以 √d":
a point's clause holds a comparative (faster, more robust, better than,
multiplies) said of the thing written just before it ("head": the words
before it, or the whole clause before in its sentence when it opens the
clause), against the standard written after it ("tail", or the "比 X"
phrase). An attempt's clause that names the same head and says the
opposite comparative ("ColBERT 的后期交互……比交叉编码器更慢"), or the same
comparative with head and tail swapped ("DPO 甚至超过 PPO"), contradicts the
point, unless it also says the point's own word, says the opposite of
the head of another comparison the point makes, is negated before the word
("并不比……更慢"), asks, or names another standard than the point's.
Chinese and English words are one scale: "slower than" is 更慢. An extreme
("三者中的最大值", "max(a, b)") is said of its whole clause and the clause
before, against no standard, and names the point's thing with two terms.

An order the point writes ("先划分训练/验证/测试集再增强") is reversed by an
attempt's "先 X 再 Y" whose first part names more of the point's later part
than of its first, and whose later part more of the point's first than of its
later part (a Latin name counts twice: "answer 字段" crosses the point's
"reasoning 字段"). A placement is an order too: "把 X 放在 Y 之前/后面",
"在 Y 之后 X", "X before/after Y".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studybot.learn import words

# Each line a scale: the words up it | the words down it (``words.alternative`` spelling).
_SCALES = """
更快 越快 快于 加快 faster quicker | 更慢 越慢 慢于 减慢 slower
更稳健 更鲁棒 更稳定 morerobust | 更脆弱 更不稳定 morefragile morebrittle lessrobust
优于 胜过 超过 远超 好于 强于 领先 outperform beat surpass betterthan ahead | 不如 逊于 劣于 落后 差于 弱于 underperform worsethan behind lagbehind
乘以 乘上 multipl | 除以 divid
最大值 最大者 max maximum largest | 最小值 最小者 min minimum smallest
"""
_HEAD_CHARS = 12  # the head: this many characters before the word, in its clause
_TAIL_CHARS = 12
_LATIN_COST = 3  # a Latin word counts as this many characters of the head
_OPPOSITE = dict(
    pair
    for a, b in ("大小", "多少", "高低", "长短", "强弱", "快慢", "深浅")
    for pair in ((f"越{a}", f"越{b}"), (f"越{b}", f"越{a}"))
)
_RISING = re.compile("|".join(_OPPOSITE))
_TRANSITIVE = {2, 3}  # the scales whose words are verbs: 优于 X, 乘以 X
_EXTREME = 4  # "三者中的最大值": said of the subject of its sentence, against no standard
_STANDARD = re.compile(r"(?<![对相类])比(?![较如例率重特赛])|than")
_FUNCTION = set(
    "不过略稍的了是在和与就也都还要会能把将被比更越很得地着这那其它他个一并且而但或及对从给让使可"
)
_LATIN = re.compile(r"[a-z][a-z0-9]+")
# English words that name nothing compared ("which lags behind X": the head is the clause before).
_GRAMMAR = words.listed(
    "which that it its is are was were be been this these they and but also still even yet the "
    "an of on in at to for with by as so lag run runs"
)
_POINTING = frozenset(
    {"这", "那", "它", "此", "这样", "这么", "这种", "it", "this", "that", "which"}
)
_CJK = re.compile(f"[{words.CJK}]+")
# 不如 before a way to act is "better to": "不如直接换个模型" compares no two things
# (not 用: "不如用弱监督训练的模型" compares with that model).
_WAY = re.compile(r"\s*(?:把|将|让|去|先|改|换|花|干脆|直接|索性)")
_RATHER = re.compile(r"与其")


def _scales() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    out = []
    for line in _SCALES.strip().splitlines():
        up, down = line.split("|")
        out.append((tuple(up.split()), tuple(down.split())))
    return out


SCALES = _scales()
KEY_CHARS = 48  # the point's words shown as the key


@dataclass(frozen=True)
class Comparison:
    """A comparative the point writes: its scale, its direction, what it is said of and against."""

    scale: int
    up: bool
    head: frozenset[str]
    tail: frozenset[str]
    cause: str | None = None  # the "越大" its sentence sets before a "越慢"
    shown: str = ""  # the point's words that say it, the key shown beside the evidence


def of_point(point) -> tuple[Comparison, ...]:
    """The comparisons ``point`` (a key point read like an attempt) writes."""
    return tuple(
        Comparison(scale, up, head, tail, _cause(point, n), point.clauses[n].shown([at], KEY_CHARS))
        for n, at, scale, up in _said(point)
        for head, tail in [_sides(point, n, at, scale)]
        if head
    )


def reversed_in(found: tuple[Comparison, ...], attempt) -> tuple[int, str] | None:
    """The first clause of ``attempt`` saying one of ``found`` the other way round, and the
    point's words that say it the right way."""
    for n, at, scale, up in _said(attempt):
        clause = attempt.clauses[n]
        if not attempt.asserts[n] or any(e <= at[0] for _, e in clause.negations):
            continue
        head, tail = _sides(attempt, n, at, scale)
        for c in found:
            if c.scale != scale:
                continue
            same = _names(head, c.head, scale) and (not tail or not c.tail or bool(tail & c.tail))
            swapped = bool(c.tail) and _names(head, c.tail) and _names(tail, c.head, scale)
            if c.cause and _cause(attempt, n) == _OPPOSITE[c.cause]:
                continue  # "越小……越快" for "越大……越慢": said of the rival, it is the point
            turned = (c.up != up and same and not swapped) or (c.up == up and swapped and not same)
            if turned and not _also_true(found, head, scale, up) and not _both(clause, scale, up):
                return n, c.shown
    return None


def _cause(text, n: int) -> str | None:
    """The "越" word of the clause before clause ``n`` in its sentence ("越大" of "RM 越大，……越慢")."""
    if n == 0 or text.sentence[n - 1] != text.sentence[n]:
        return None
    found = _RISING.search(text.clauses[n - 1].joined)
    return found.group() if found else None


def _names(said: frozenset[str], point: frozenset[str], scale: int = 0) -> bool:
    """Whether ``said`` names what ``point`` does: two terms in common (a Latin word counts
    twice), or all of a point's one term ("明显" alone names nothing; an extreme's whole
    sentence, always two)."""
    return _weight(said & point) >= min(2, _weight(point) if scale != _EXTREME else 2)


def _weight(terms: frozenset[str]) -> int:
    return sum(2 if _LATIN.fullmatch(t) else 1 for t in terms)


def _also_true(found, head: frozenset[str], scale: int, up: bool) -> bool:
    """Whether the point says this direction of another thing the attempt's head names."""
    return any(c.scale == scale and c.up == up and head & c.head for c in found)


def _both(clause, scale: int, up: bool) -> bool:
    """Whether the clause says the point's own word too (a contrast, not a reversal)."""
    return any(w in clause.joined for w in SCALES[scale][0 if not up else 1])


def _said(text):
    """(clause, span, scale, up) for each comparative word of ``text``."""
    out = []
    for n, clause in enumerate(text.clauses):
        for scale, sides in enumerate(SCALES):
            for up, ladder in ((True, sides[0]), (False, sides[1])):
                for word in ladder:
                    for start in _starts(clause, word):
                        if word == "不如" and _preferred(text, n, start + len(word)):
                            continue
                        if scale != _EXTREME or _of_values(clause, word, start + len(word)):
                            out.append((n, (start, start + len(word)), scale, up))
    return out


def _preferred(text, n: int, end: int) -> bool:
    """Whether the 不如 ending at ``end`` of clause ``n`` says which way is better to take,
    no comparison: a way to act follows it ("还不如把算力花在大模型上"), or its sentence
    opened the way turned down with 与其 ("与其多采样，不如串行修订")."""
    if _WAY.match(text.clauses[n].joined, end):
        return True
    first = n
    while first and text.sentence[first - 1] == text.sentence[n]:
        first -= 1
    return any(_RATHER.search(text.clauses[m].joined) for m in range(first, n + 1))


def _of_values(clause, word: str, end: int) -> bool:
    """Whether an English extreme takes values: "max(a, b)", "the minimum of them" (not
    "minimum spanning tree", "max E[r]")."""
    if not _LATIN.match(word):
        return True
    return clause.joined.startswith("(", end) or any(
        s == end and clause.joined[s:e] == "of" for s, e in clause.tokens
    )


def _starts(clause, word: str) -> list[int]:
    """Where ``word`` is written in ``clause``; a Latin one only as whole words (not in lookahead)."""
    if word not in clause.joined:  # most words are in no clause: skip the search
        return []
    found = [m.start() for m in re.finditer(re.escape(word), clause.joined)]
    if not _LATIN.match(word):
        return found
    return [s for s in found if s in clause.starts and s + len(word) in clause.ends]


def _sides(text, n: int, at: tuple[int, int], scale: int) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of what a comparative at ``at`` of clause ``n`` is said of, and against.

    A verb (优于 DPO) takes its standard after it; an adjective (更快) only in a
    "比 X" or "than X" phrase.
    """
    clause = text.clauses[n]
    if scale == _EXTREME:
        return _subject(text, n, at[0]), frozenset()
    tail = at[1] + _TAIL_CHARS if scale in _TRANSITIVE else at[1]
    before, after = (0, at[0]), (at[1], tail)
    standard = [m for m in _STANDARD.finditer(clause.joined[: at[0]])]
    if standard:
        before, after = (0, standard[-1].start()), (standard[-1].end(), at[0])
    else:
        than = _STANDARD.match(clause.joined, at[1])
        if than:
            after = (than.end(), than.end() + _TAIL_CHARS)
    head = _terms(clause, (_reach(clause, before[1]), before[1]))
    if n > 0 and text.sentence[n - 1] == text.sentence[n] and (not head or _pointing(clause)):
        prior = text.clauses[n - 1]
        head |= _terms(prior, (0, len(prior.joined)))
    return head, _terms(clause, after)


def _subject(text, n: int, end: int) -> frozenset[str]:
    """The terms of clause ``n`` up to ``end`` and of the clause before it in its sentence
    ("互达距离定义为 core(a)、core(b) 和 d 三者中的最小值": the list cut it in two)."""
    head = _terms(text.clauses[n], (0, end))
    if n > 0 and text.sentence[n - 1] == text.sentence[n]:
        head |= _terms(text.clauses[n - 1], (0, len(text.clauses[n - 1].joined)))
    return head


def _pointing(clause) -> bool:
    """Whether the clause opens on a word pointing at the clause before ("这比……", "it beats")."""
    if not clause.tokens:
        return False
    s, e = clause.tokens[0]
    return clause.joined[s:e] in _POINTING


def _reach(clause, end: int) -> int:
    """Where the head before ``end`` starts: about ``_HEAD_CHARS`` characters, a Latin word as 3."""
    spent, start = 0, end
    for s, e in reversed(clause.tokens):
        if e > end:
            continue
        if spent >= _HEAD_CHARS:
            break
        spent += _LATIN_COST if _LATIN.fullmatch(clause.joined[s:e]) else e - s
        start = s
    return start


def _terms(clause, span: tuple[int, int]) -> frozenset[str]:
    """Latin words and Chinese character pairs (no function characters) within ``span``."""
    out = set()
    for s, e in clause.tokens:
        word = clause.joined[s:e]
        if e > span[0] and s < span[1] and _LATIN.fullmatch(word) and word not in _GRAMMAR:
            out.add(word)
    for run in _CJK.finditer(clause.joined[span[0] : span[1]]):
        chars = run.group()
        out |= {
            chars[i : i + 2] for i in range(len(chars) - 1) if not set(chars[i : i + 2]) & _FUNCTION
        }
    return frozenset(out)


@dataclass(frozen=True)
class Order:
    """A "先 X 再 Y" the point writes: the terms of what comes first, and of what comes after."""

    first: frozenset[str]
    then: frozenset[str]
    shown: str = ""  # the point's clause that says it


_FIRST = re.compile(r"(?<![首优领原预事祖])先(?![验前进])")
_THEN = re.compile(r"再|然后|之后|随后|以后|后期|接着|才|剩下|剩余|其余")


def orders_of(point) -> tuple[Order, ...]:
    """The orders ``point`` (a key point read like an attempt) writes, each side's own terms."""
    out = []
    for n, (first, then), _placed in _read_orders(point):
        if first - then and then - first:
            out.append(Order(first - then, then - first, point.clauses[n].shown((), KEY_CHARS)))
    return tuple(out)


def reordered(found: tuple[Order, ...], attempt) -> tuple[int, str] | None:
    """The first clause of ``attempt`` putting first what a point's order puts after, and back.

    Each side of the attempt's order names more of the point's other side than of its own
    ("先增强再切出训练、验证集" for "先划分训练/验证集再增强"); a longer process
    whose next step is the point's first ("先预分词，再拆成基础符号") crosses one side only.
    """
    for n, (first, then), placed in _read_orders(attempt):
        for o in found:
            if placed:  # one thing before another: the sides weighed
                ahead = _weight(first & o.then) > _weight(first & o.first)
                crossed = ahead and _weight(then & o.first) > _weight(then & o.then)
            else:
                crossed = bool(first & o.then and then & o.first)
                crossed = crossed and not first & o.first and not then & o.then
            if crossed:
                return n, o.shown
    return None


def _read_orders(text) -> list[tuple[int, tuple[frozenset[str], frozenset[str]], bool]]:
    """(clause of 先, (terms between 先 and the next 再/然后/才, terms after that to its clause's end)).

    Only in asserting clauses with no negation ("不是先下结论再找理由").
    """
    out = []
    for n, clause in enumerate(text.clauses):
        if not text.asserts[n] or clause.negations or _supposed(clause):
            continue
        out += [(n, sides, True) for sides in _placed(clause)]
        for opened in _FIRST.finditer(clause.joined):
            first: set[str] = set()
            m, at = n, opened.end()
            while m < len(text.clauses) and text.sentence[m] == text.sentence[n]:
                joined = text.clauses[m].joined
                mark = _THEN.search(joined, at)
                if mark:
                    first |= _terms(text.clauses[m], (at, mark.start()))
                    then = _terms(text.clauses[m], (mark.end(), len(joined)))
                    out.append((n, (frozenset(first), then), False))
                    break
                first |= _terms(text.clauses[m], (at, len(joined)))
                m, at = m + 1, 0
    return out


_SUPPOSED = re.compile(r"的话|如果|假如|要是|倘若|若是")


def _supposed(clause) -> bool:
    """Whether the clause supposes its order ("先重采样再划分的话……会泄漏"): it says no order."""
    return bool(_SUPPOSED.search(clause.joined)) or any(
        clause.joined[s:e] == "if" for s, e in clause.tokens
    )


_PLACED = re.compile(r"在(.{1,24}?)(?:之|以)?(前面|前|后面|后)(?![者期端台缀置])")
_PUT = re.compile(r"把|将")
_BEFORE = {"befor": False, "after": True}  # the English word: whether the thing after it is first
_PUT_LATIN = frozenset({"put", "place", "move", "insert"})


def _placed(clause) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(what comes first, what comes after) of each "（把 X 放）在 Y 之前/后面" and "X before/after Y".

    The thing placed is the object of 把 when there is one, else the rest of the clause.
    """
    out = []
    joined = clause.joined
    for m in _PLACED.finditer(joined):
        put = [p for p in _PUT.finditer(joined, 0, m.start())]
        if put:
            outside = _terms(clause, (put[-1].end(), m.start() - 1))
        else:
            outside = _terms(clause, (0, m.start())) | _terms(clause, (m.end(), len(joined)))
        inside = _terms(clause, m.span(1))
        out.append((inside, outside) if m.group(2).startswith("后") else (outside, inside))
    for i, (s, e) in enumerate(clause.tokens):
        if i == 0 or joined[s:e] not in _BEFORE:
            continue
        start = max((ps for ps, pe in clause.tokens[:i] if joined[ps:pe] in _PUT_LATIN), default=0)
        ahead, behind = _terms(clause, (start, s)), _terms(clause, (e, len(joined)))
        out.append((behind, ahead) if _BEFORE[joined[s:e]] else (ahead, behind))
    return out
