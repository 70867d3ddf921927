"""Cutting Chinese into words: the grader's own lexicon, and jieba for the term estimate.

The rubric grader needs words only to find its own: an alias word must be
found as a word or a run of words, never as a piece of another, and a
negation must be a word (不断 is none). So it cuts a run of CJK characters
by the longest match against a small lexicon (``Lexicon``): the term
variants' spellings, the negations and the words that only look like one
(``lexicon``), and the CJK words of the rubric of the question being graded
(``Lexicon.extended``): one question's words never change how another's
answers are read. What the lexicon does not
know is cut a character at a time, which an alias word still finds as a
run. Building it takes milliseconds, where loading jieba's dictionary takes
most of a second.

The term estimate (banks without a rubric) compares character bigrams
inside real words, which needs a real dictionary: it keeps jieba
(``segmenter``), loaded on first use, its log lines silenced.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable

_CJK_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]+")
_WHOLE = "整善美全备"  # after 不完: 完整, 完善, 完美, 完全, 完备 are the words


class Lexicon:
    """The words the grader must see whole, cut by the longest match; thread-safe."""

    def __init__(self, words: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._words: set[str] = set()  # every word known
        self._added: set[str] = set()  # ... of them, those a rubric asked for
        self._longest = 1
        self._known(words)

    def _known(self, words: Iterable[str]) -> None:
        for word in words:
            for run in _CJK_RUN.findall(word):
                if len(run) > 1:
                    self._words.add(run)
                    self._longest = max(self._longest, len(run))

    def extended(self, words: Iterable[str]) -> Lexicon:
        """A new lexicon: this one's words and ``words`` (one question's rubric)."""
        out = Lexicon()
        out._words = set(self._words)
        out._added = set(self._added)
        out._longest = self._longest
        out.add(words)
        return out

    def add(self, words: Iterable[str]) -> None:
        """Make each CJK run of ``words`` (two characters or more) one word."""
        with self._lock:
            for word in words:
                for run in _CJK_RUN.findall(word):
                    if len(run) > 1:
                        self._added.add(run)
                        self._words.add(run)
                        self._longest = max(self._longest, len(run))

    def cut(self, run: str) -> list[str]:
        """``run`` (CJK characters) as words: the longest known word at each place, else one character."""
        out: list[str] = []
        i = 0
        while i < len(run):
            for j in range(min(len(run), i + self._longest), i, -1):
                if j == i + 1 or run[i:j] in self._words:
                    if run[i:j] == "不完" and run[j : j + 1] in _WHOLE:
                        j = i + 1  # 不完全 is 不 + 完全 (not entirely), no 用不完 (can't use up)
                    out.append(run[i:j])
                    i = j
                    break
        return out

    def added(self, word: str) -> bool:
        """Whether ``word`` is one of the rubric's words."""
        return word in self._added

    def known(self, word: str) -> bool:
        return word in self._words


_lexicon: Lexicon | None = None
_lexicon_lock = threading.Lock()


def lexicon() -> Lexicon:
    """The process's one lexicon: the grader's fixed words, and every rubric's words added."""
    global _lexicon
    with _lexicon_lock:
        if _lexicon is None:
            from studybot.learn import words
            from studybot.learn.variants import SPELLINGS

            _lexicon = Lexicon(
                (
                    *words.NEGATIONS,
                    *words.NOT_NEGATIONS,
                    *words.POST_NEGATIONS,
                    *words.AUXILIARIES,
                    *SPELLINGS,
                )
            )
        return _lexicon


class Segmenter:
    """jieba's default dictionary (the term estimate's words); thread-safe."""

    def __init__(self) -> None:
        import jieba

        logging.getLogger("jieba").setLevel(logging.CRITICAL)  # no "Building prefix dict" lines
        self._jieba = jieba.Tokenizer()
        self._lock = threading.Lock()
        self._jieba.initialize()

    def cut(self, run: str) -> list[str]:
        # Without the HMM, a run the dictionary does not know stays single characters.
        with self._lock:
            return self._jieba.lcut(run, HMM=False)


_segmenter: Segmenter | None = None
_segmenter_lock = threading.Lock()


def segmenter() -> Segmenter:
    """The process's one jieba (loading its dictionary takes a moment, once)."""
    global _segmenter
    with _segmenter_lock:
        if _segmenter is None:
            _segmenter = Segmenter()
        return _segmenter
