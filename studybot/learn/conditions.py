"""Words a clause says only under a supposition: an if-part that opens after its topic.

"b 若初始化为 0，开头的损失会很大" supposes that b starts at 0 to say what
would follow; "KV 头数如果不能被并行度整除，就要复制 KV 头" supposes that
the heads do not divide. Neither is asserted, so a wrong claim or a denial
said there is no error. (An if-part that opens its clause is ``reading``'s:
the whole clause asserts nothing. What follows 否则 is asserted: the bank's
claims say "否则模型学不会停止".)
"""

from __future__ import annotations

import re

from studybot.learn.words import Clause

# An if-word after a short topic, at the clause's start or after a colon or a dash.
_IF_AFTER_TOPIC = re.compile(
    r"(?:^|[:—])([^,:;—]{1,12}?)(?:如果|假如|倘若|若(?!干))"
)  # not 要是: 主要是
_THEN = frozenset({"就", "则", "那么", "then"})  # the words that open what follows


def supposed(clause: Clause, goes_on: bool) -> list[tuple[int, int]]:
    """The spans of ``clause.joined`` said under a supposition.

    An if-part runs from its topic to a 就/则 in the clause, or to the
    clause's end when the sentence ``goes_on`` to say what follows.
    """
    out = []
    for found in _IF_AFTER_TOPIC.finditer(clause.joined):
        then = [s for s, e in clause.tokens if s >= found.end() and clause.joined[s:e] in _THEN]
        if then:
            out.append((found.start(1), then[0]))
        elif goes_on:
            out.append((found.start(1), len(clause.joined)))
    return out
