"""Text as the offline grader reads it: a clause's words, its negations, list items.

- **One spelling** first (``spelling``): half-width, lower case, the
  grader's term variants, so that "KV cache", "键值缓存" and "KV缓存" are one thing.
- **Clauses** (``clauses.py``): a claim's parts must meet in one clause.
- **Words.** Chinese is cut by the longest match against the grader's own
  lexicon (``segmenter.Lexicon``: the CJK words of the question's rubric,
  the term variants, negations and the words that only look like one), a
  character at a time elsewhere; English by whole words with plural, -ed,
  -ing and -ly folded. A clause keeps its words joined into one string with
  the offsets where a word may begin and end: a word's own span, and the
  span of a lexicon word inside a longer one (参数 in 参数量), so an alias
  word is found as a word, a run of words or a word inside one, never as a
  piece straddling a word's edge; a one-character alias word is found
  wherever its character is. Each offset maps back to
  the clause as written, so the evidence shown is the words that decided.
- **Negations** are words (不 没有 无关 未必 不够 not never …), never
  characters inside other words (不断 不同 无论 stay what they are); 不了
  and 不动 negate the verb before them (改变不了), and 对不对, 是不是 ask.
  How far each reaches is ``negations``.
- **Groups**: brackets and quotes. A negation inside one speaks of it alone.
- **Breaks**: 、 · (and a slash or a bar with a space beside it: "|u−v|" is
  a formula) cut a clause into list items.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studybot.learn.clauses import CLOSE, OPEN, sentences, split
from studybot.learn.segmenter import Lexicon, lexicon
from studybot.learn.spelling import fold, normalise, normalise_mapped

__all__ = ["Lexicon", "lexicon", "sentences", "split"]  # re-exported: a clause's helpers

CJK = "\u3400-\u4dbf\u4e00-\u9fff"


def listed(words: str) -> frozenset[str]:
    """The space-separated words of ``words``: word lists read as text."""
    return frozenset(words.split())


_CJK_RUN = re.compile(f"[{CJK}]+")

# Tokens that negate what their clause says (Chinese words and English words).
NEGATIONS = listed(
    "不 没 没有 无 非 未 别 无关 无需 无须 不用 不必 不能 不会 不是 并非 并不 并不是 并没有 "
    "不再 从不 从未 不需要 无法 不可 不可能 不要 毫无 绝不 决不 不应 不该 没法 未必 不一定 "
    "不够 不太 并未 尚未 未曾 从没 从没有 从来没 从来没有 从来不 不做 没做 不进行 没进行 不许 不准 "
    "not no never without cannot none neither nor nothing nobody nowhere"
)
# Negations that follow their verb: 改变不了, 算不出, 跑不动.
POST_NEGATIONS = listed("不了 不动 不住 不完 不出 不起 不进 不下")

# Negations of two characters or more are negations inside a longer word too
# (与头数无关 says 无关); a lone 不 or 无 inside a word is part of the word.
_INNER_NEGATIONS = tuple(n for n in NEGATIONS if len(n) > 1 and not n.isascii())
# Words that begin like a negation and are none (不断 goes on, 不同 differs), and
# the questions said as A-not-A (对不对: whether it is right) or 是否.
NOT_NEGATIONS = listed(
    "不断 不仅 不同 不少 不过 无论 不管 毫无疑问 不但 不得不 非常 无数 不久 "
    "不止 不只 不光 无限 无穷 无损 未来 别的 别人 区别 不等式 无疑 并不少见 "
    "无监督 无标注 非线性 非零 无偏 无状态 无损压缩 不然 要不然 要不 "
    "对不对 是不是 有没有 会不会 能不能 要不要 好不好 行不行 可不可以 是否 用不用 需不需要 "
    "算不算 够不够 有无 不如 毋宁 类别 级别 差别 识别 个别 分别 特别 告别 性别 鉴别 辨别 判别 "
    "甄别 未知 未知数 无人 无线 无缝 无序 无穷大 非结构化 非对称 非凸 非负 无参数 不确定性 "
    "未登录 未登录词 无损 无穷小 无条件 无关紧要 从不同 不下于 不亚于 除非"
)
_NEGATION_CHARS = set("不没无非未别")
NOT_NEGATED_BY = {"only", "just", "merely", "simply", "matter"}  # "not only", "no matter"
# Latin tokens that are several symbols written together: "kv" is K and V.
_COMPOUNDS = {"kv": (1,), "qk": (1,), "qkv": (1, 2)}
_PIECE = re.compile(rf"([{CJK}]+)|([a-z]+)|(\d+(?:[.,]\d+)*)|(\S)")
_DROPPED = set("_`'$*.…‘’《》【】~")


# -- a clause's words -------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    """One clause of an attempt, ready for alias words to be looked up in it."""

    text: str  # as written (NFKC, nothing invisible), the evidence shown for it
    normal: str  # in the grader's one spelling (``normalise``)
    joined: str  # its words, normalised and folded, written together
    starts: frozenset[int]  # offsets in ``joined`` where a word may begin
    ends: frozenset[int]  # ... and end
    sealed: frozenset[int]  # offsets inside a grammar word after its first character (会 of 不会)
    negations: tuple[tuple[int, int], ...]  # spans of its negation words in ``joined``
    tokens: tuple[tuple[int, int], ...]  # the span of each word as cut, in order
    at: tuple[int, ...] = ()  # per character of ``joined`` (and one past it): its place in ``text``
    normal_at: tuple[int, ...] = ()  # per character of ``normal``: its place in ``text``
    breaks: frozenset[int] = frozenset()  # offsets in ``joined`` where 、 / | · stood: a list
    backward: frozenset[int] = frozenset()  # starts of negations that follow their verb (不了)
    asks: bool = False  # the clause ends in ？: it asks, it asserts nothing
    opening: int = (
        -1
    )  # where a negation that opens the clause ends ("并不是头数越多越好"); -1: none

    @property
    def words(self) -> frozenset[str]:
        """Its words as cut (the question's words tell a restatement)."""
        return frozenset(self.joined[s:e] for s, e in self.tokens)

    def group(self, at: int) -> int:
        """Where the innermost bracket or quote holding offset ``at`` opens (-1: none)."""
        return self._groups[at] if at < len(self._groups) else -1

    TAIL = 8  # characters shown after the deciding words, when the window ends there

    def shown(self, spans: Sequence[tuple[int, int]], limit: int) -> str:
        """The clause as written, cut to about ``limit`` characters around ``spans``."""
        text = " ".join(self.text.split())
        if len(text) <= limit or not spans or not self.at:
            return text if len(text) <= limit else text[:limit] + "…"
        raw = " ".join(self.text.split(" "))  # offsets of ``at`` are in the unsplit text
        first = self.at[min(s for s, _ in spans)]
        last = self.at[min(max(e for _, e in spans), len(self.at) - 1)]
        room = max(0, limit - (last - first))
        # Too wide to show whole: its end, where the relation or the figure that decided is.
        begin = last + self.TAIL - limit if last - first >= limit else first - room // 3
        begin = max(0, min(begin, len(raw) - limit))
        piece = " ".join(raw[begin : begin + limit].split())
        return ("…" if begin else "") + piece + ("…" if begin + limit < len(raw) else "")

    @functools.cached_property
    def _groups(self) -> tuple[int, ...]:
        out: list[int] = []
        stack: list[int] = []
        for i, char in enumerate(self.joined):
            if char in CLOSE and stack:
                stack.pop()
            out.append(stack[-1] if stack else -1)
            if char in OPEN:
                stack.append(i)
        return tuple(out)


def clause(text: str, asks: bool = False, cutter: Lexicon | None = None) -> Clause:
    """``text`` (one clause) read: its words cut by ``cutter`` (the fixed lexicon by default)."""
    cutter = cutter or lexicon()
    joined: list[str] = []
    spans: list[tuple[int, int]] = []
    primary: list[tuple[int, int]] = []
    sealed: set[int] = set()
    negations: list[tuple[int, int]] = []
    backward: set[int] = set()
    breaks: set[int] = set()
    at_text: list[int] = []
    at = 0
    normal, where = normalise_mapped(text)
    tokens = list(_tokens(normal, cutter, lambda place: _spaced(text, where[place])))
    for n, (token, kind, place) in enumerate(tokens):
        if kind == "break":
            breaks.add(at)
            continue
        form = _form(token, kind)
        begin, at = at, at + len(form)
        joined.append(form)
        primary.append((begin, at))
        at_text.extend(where[min(place + i, len(where) - 1)] for i in range(len(form)))
        if kind == "cjk":
            if len(form) > 1 and form in NOT_NEGATIONS:
                sealed.update(range(begin, at))  # 不 of 不过 is no 不
            elif len(form) > 1 and form in GRAMMAR:
                sealed.update(range(begin + 1, at))  # 会 of 不会 is no 会
            spans.extend((begin + i, begin + j) for i, j in _inner_words(form, cutter))
            for i, j in _negations_in(form, cutter):
                if form[i:j] == "不完" and form[j : j + 1] in "整善美全备":
                    j = i + 1  # 不完整 is 不 + 完整 (incomplete), no 缓存不完 (can't finish)
                negations.append((begin + i, begin + j))
                if form[i:j] in POST_NEGATIONS:
                    backward.add(begin + i)
        elif kind == "latin":
            spans.extend((begin + cut, begin + cut) for cut in _COMPOUNDS.get(form, ()))
            following = tokens[n + 1][0] if n + 1 < len(tokens) else ""
            glued = normal[place - 1 : place] in "/_-" and place > 0  # "/no_think" is a name
            glued = glued or normal[place + len(token) : place + len(token) + 1] in ("_", "-")
            if token in NEGATIONS and following not in NOT_NEGATED_BY and not glued:
                negations.append((begin, at))
    spans.extend(primary)
    at_text.append(len(text))
    written = "".join(joined)
    # 相不相关, 靠不靠前: a question asked as A-not-A, no negation.
    negations = [
        (s, e)
        for s, e in negations
        if not (
            written[s:e] == "不" and s > 0 and e < len(written) and written[s - 1] == written[e]
        )
    ]
    opening = _opening(written, primary, negations)
    return Clause(
        text=text,
        normal=normal,
        joined=written,
        starts=frozenset(s for s, _ in spans),
        ends=frozenset(e for _, e in spans),
        sealed=frozenset(sealed),
        negations=tuple(negations),
        tokens=tuple(primary),
        at=tuple(at_text),
        normal_at=tuple(where),
        opening=opening,
        breaks=frozenset(breaks),
        backward=frozenset(backward),
        asks=asks,
    )


# What may stand before a negation that opens a clause: "其实并不是…", "but not …".
_LEADING = listed(
    "也 其实 但 但是 而 所以 因此 因为 这 那 可 可是 它 其 就 也就 and but so it this that"
)
# Negations that, opening a clause, deny all of it; English "rather than", "instead of",
# "unlike" and "as opposed to" too.
_OPENERS = listed("不是 并不 并不是 未必 不一定 并没有 没有 而非 not")


def _opening(joined: str, tokens: Sequence[tuple[int, int]], negations) -> int:
    """Where a negation opening the clause ends, or -1."""
    words = [joined[s:e] for s, e in tokens]
    i = 0
    while i < len(words) and words[i] in _LEADING:
        i += 1
    if i < len(words) and words[i] in _OPENERS and tokens[i] in negations:
        return tokens[i][1]
    if words[i : i + 1] in (["不能"], ["不是"], ["并不是"]) and words[i + 1 : i + 2] == ["说"]:
        return tokens[i + 1][1]  # "不能说标签无所谓": what one cannot say is denied, all of it
    if words[i : i + 2] in (["rather", "than"], ["instead", "of"]):
        return tokens[i + 1][1]
    if words[i : i + 1] == ["unlik"] or words[i : i + 3] == ["as", "oppos", "to"]:
        return tokens[i + (0 if words[i] == "unlik" else 2)][1]  # what it is set against
    return -1


# Words a negation reaches across: "不 会 被 读取", "does not always hold".
AUXILIARIES = frozenset(
    fold(word)
    for word in listed(
        "会 能 能够 要 需 需要 应 应该 该 必 必须 再 太 很 那么 这么 是 被 用 一定 就 都 也 还 可 "
        "可以 得 只 仅 真 完全 根本 总 总是 一直 从来 算 算是 怎么 让 使 把 对 给 随 随着 因 用来 指望 "
        "更 更加 越 越来越 比较 相对 特别 十分 最 有点 有些 稍微 略 较 再次 同样 也就 什么 任何 "
        "be is are was were been do doe did will would can could should may might must has have "
        "had to the a an that it always necessarily really at all any much more than"
    )
)
# Words of grammar: a one-character alias word is never found inside one (会 in 不会).
GRAMMAR = (NEGATIONS | NOT_NEGATIONS | POST_NEGATIONS | AUXILIARIES) - {""}
# Between two words of a clause, these make a list of terms ("KV 缓存、线性、n²"), not a statement.
BREAKS = set("、/|·•")
_OPENING_QUOTES, _CLOSING_QUOTES = "「『“", "」』”"
_ALIAS_DROPPED = set('、"「」『』“”')  # an alias word never holds 、 or a quote ("1/4" keeps its /)


def _tokens(text: str, cutter: Lexicon, spaced) -> Iterable[tuple[str, str, int]]:
    """The words of a normalised clause: (word, kind, its place in ``text``).

    ``spaced(place)``: whether the character at ``place`` has a space beside
    it as written (the spelling puts spaces around the terms it merges).
    """
    straight = 0  # straight double quotes seen: they open and close in turn
    for match in _PIECE.finditer(text):
        cjk, latin, number, symbol = match.groups()
        place = match.start()
        if cjk:
            for word in cutter.cut(cjk):
                yield word, "cjk", place
                place += len(word)
        elif latin:
            yield latin, "latin", place
        elif number:
            yield number, "number", place
        elif symbol in BREAKS and (symbol not in "/|·" or spaced(place)):
            yield symbol, "break", place
        elif symbol == '"':
            straight += 1
            yield ("「" if straight % 2 else "」"), "symbol", place
        elif symbol in _OPENING_QUOTES:
            yield "「", "symbol", place
        elif symbol in _CLOSING_QUOTES:
            yield "」", "symbol", place
        elif symbol not in _DROPPED:
            yield symbol, "symbol", place


def _spaced(text: str, place: int) -> bool:
    """A slash with a space beside it lists ("部署 / API"); "字节/token" and "K/V" do not."""
    return text[place - 1 : place].isspace() or text[place + 1 : place + 2].isspace()


def _inner_words(token: str, cutter: Lexicon) -> Iterable[tuple[int, int]]:
    """Lexicon words inside a word of three characters or more: 参数 and 数量 in 参数量."""
    if len(token) < 3:
        return
    for i in range(len(token)):
        for j in range(i + 2, len(token) + 1):
            if (i, j) != (0, len(token)) and cutter.known(token[i:j]):
                yield i, j


def _negations_in(token: str, cutter: Lexicon) -> Iterable[tuple[int, int]]:
    if token in NOT_NEGATIONS:
        return
    if token in NEGATIONS or token in POST_NEGATIONS:
        yield 0, len(token)
        return
    if token[0] in _NEGATION_CHARS and cutter.added(token):
        # A rubric word made one word for the grader ("不丢弃") still says 不.
        yield 0, 1
    for negation in _INNER_NEGATIONS:
        start = token.find(negation)
        if start >= 0:
            yield start, start + len(negation)


def _form(token: str, kind: str) -> str:
    if kind == "latin":
        return fold(token)
    return token.replace(",", "") if kind == "number" else token


def alternative(text: str, formulas: bool = False) -> tuple[str, ...]:
    """An alias alternative's words ("KV cache 头数"), each as a clause's ``joined`` holds it.

    ``formulas``: a word of symbols only (``/``, ``×``, ``=``) glues its
    neighbours into one formula, "224 / 14" being the expression 224/14 and
    not three words anywhere (a ``wrong`` alternative is read so).
    """
    # A list mark standing alone ("d_model / h") is no word: spaced, it is no word in an answer either.
    words = [w for w in (_word(w) for w in normalise(text).split()) if w and w not in BREAKS]
    if not formulas:
        return tuple(words)
    out: list[str] = []
    glue = False
    for word in words:
        symbol = not any(c.isalnum() for c in word)
        if out and (glue or symbol):
            out[-1] += word
        else:
            out.append(word)
        glue = symbol
    return tuple(out)


def _word(word: str) -> str:
    # Joined, a word reads the same however jieba cuts it: no segmenter needed.
    out = []
    for match in _PIECE.finditer(word):
        cjk, latin, number, symbol = match.groups()
        if cjk:
            out.append(cjk)
        elif latin:
            out.append(fold(latin))
        elif number:
            out.append(number.replace(",", ""))
        elif symbol not in _DROPPED and symbol not in _ALIAS_DROPPED:
            out.append(symbol)
    return "".join(out)


def find(where: Clause, word: str) -> list[tuple[int, int]]:
    """Spans of ``word`` (an ``alternative`` word) in ``where``: a word, a run, a word inside one.

    A word of one Chinese character is found wherever the character is (每 in
    每步): the lexicon knows only the rubric's words, so a character's
    neighbours say nothing of where a word ends; but never inside a word of
    grammar after its first character (会 is not in 不会), nor anywhere in a
    word that only looks like a negation (不 is not in 不过, 同 not in 不同).
    """
    if not word:
        return []
    lone = len(word) == 1 and bool(_CJK_RUN.fullmatch(word))
    found = []
    start = where.joined.find(word)
    while start >= 0:
        end = start + len(word)
        if (start not in where.sealed) if lone else (start in where.starts and end in where.ends):
            found.append((start, end))
        start = where.joined.find(word, start + 1)
    return found
