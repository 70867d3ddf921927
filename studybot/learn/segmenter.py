"""jieba, once per process: Chinese cut into words, with the rubric's words kept whole.

jieba's dictionary ships in its wheel; loading it takes a moment, so the
process has one segmenter (``segmenter``), built on first use and warmed
by ``grading.warm``. Its log lines are silenced: the learner never sees
"Building prefix dict".
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable

_CJK_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]+")


class Segmenter:
    """jieba's default dictionary plus the words the rubric needs whole; thread-safe."""

    def __init__(self) -> None:
        import jieba

        logging.getLogger("jieba").setLevel(logging.CRITICAL)  # no "Building prefix dict" lines
        self._jieba = jieba.Tokenizer()
        self._lock = threading.Lock()
        self._added: set[str] = set()  # every word asked for
        self._new: set[str] = set()  # ... that jieba's dictionary did not have
        self._jieba.initialize()

    def add(self, words: Iterable[str]) -> None:
        """Make each CJK run of ``words`` (two characters or more) one jieba word."""
        with self._lock:
            for word in words:
                for run in _CJK_RUN.findall(word):
                    if len(run) > 1 and run not in self._added:
                        self._added.add(run)
                        if not self._jieba.FREQ.get(run):
                            self._new.add(run)
                            self._jieba.add_word(run)

    def cut(self, run: str) -> list[str]:
        # Without the HMM, a run the dictionary does not know stays single
        # characters, which an alias word can still find as a run.
        return self._jieba.lcut(run, HMM=False)

    def added(self, word: str) -> bool:
        """Whether ``word`` is one of the rubric's words, added to jieba's own dictionary."""
        return word in self._new

    def known(self, word: str) -> bool:
        return bool(self._jieba.FREQ.get(word))


_segmenter: Segmenter | None = None
_segmenter_lock = threading.Lock()


def segmenter() -> Segmenter:
    """The process's one segmenter (loading jieba's dictionary takes a moment, once)."""
    global _segmenter
    with _segmenter_lock:
        if _segmenter is None:
            _segmenter = Segmenter()
        return _segmenter
