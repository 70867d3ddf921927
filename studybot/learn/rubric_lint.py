"""What a machine can see in a rubric at a glance: the findings of ``bank validate``.

Never a reason to refuse the bank (how each claim grades is the self-tests'
job, ``selftest``). Warnings, a rubric that grades worse than its writer meant:

- a relation or opposite alternative that is one Latin letter or one
  figure ("h", "2"): nearly every answer holds it;
- an opposite alternative that is also one of the claim's relation
  alternatives: the claim would deny itself.

A note, a matter of style: an alias word of one CJK character that is not a
function word (in a subject or an object, or alone as an alternative) is
found wherever that character stands (头 in 开头). A claim is credited only
when its parts and its relation stand in one clause, so such a word widens
what names a part and never credits a point by itself; the shipped bank
has hundreds, on purpose (它, 头, 层).
"""

from __future__ import annotations

from studybot.bank import Bank
from studybot.bank.findings import NOTE, WARNING, Finding, Places
from studybot.bank.rubric import PointRubric
from studybot.learn import words
from studybot.learn.aliases import Alias


def lint(bank: Bank, places: Places | None = None) -> list[Finding]:
    """Every finding of the bank's rubric, at its ``file:line`` where ``places`` has it.

    Read from the rubric as written: only the relations and opposites are put
    in the grader's spelling (``Alias.of``), not the whole rubric compiled.
    """
    places = places or {}
    out: list[Finding] = []
    for question in bank.questions:
        for n, point in enumerate(question.rubric, start=1):
            for level, claim, message in _point(point):
                at = (question.id, n, claim)
                file, line = places.get(at) or places.get(at[:2] + (0,)) or (None, None)
                out.append(Finding(level, message, file, line, question.id, n))
    return out


def _point(point: PointRubric) -> list[tuple[str, int, str]]:
    """(level, the claim or 0 for the point, message) of each finding of one point."""
    out: list[tuple[str, int, str]] = []
    parts = [a for c in point.claims for a in (c.subject, c.object) if a]
    phrases = [a for c in point.claims for a in (c.relation, c.opposite) if a] + [*point.wrong]
    lone = {w for alias in parts for w in _lone_characters(alias)}
    # In a relation, an opposite or a wrong claim, only a character alone: "变" in "不 变" is fine.
    lone |= {
        w for alias in phrases for part in alias.split("|") for w in [part.strip()] if _one_cjk(w)
    }
    if lone:
        listed = " ".join(sorted(lone))
        out.append((NOTE, 0, f"alias words of one character ({listed}) are found inside any word"))
    for c, claim in enumerate(point.claims, start=1):
        relation = Alias.of(claim.relation) if claim.relation else None
        opposite = Alias.of(claim.opposite) if claim.opposite else None
        for alias in filter(None, (relation, opposite)):
            tiny = [a[0] for a in alias.alternatives if len(a) == 1 and _tiny(a[0])]
            if tiny:
                out.append(
                    (WARNING, c, f"claim {c}: {' '.join(tiny)!r} alone is in nearly any answer")
                )
        if relation and opposite:
            both = set(relation.alternatives) & set(opposite.alternatives)
            if both:
                shown = " | ".join(" ".join(a) for a in sorted(both))
                out.append(
                    (WARNING, c, f"claim {c}: {shown!r} is both its relation and its opposite")
                )
    return out


def _tiny(word: str) -> bool:
    return len(word) == 1 and word.isascii() and word.isalnum()


def _lone_characters(alias: str) -> list[str]:
    lone = {w for part in alias.split("|") for w in part.split() if _one_cjk(w)}
    return sorted(lone)


def _one_cjk(word: str) -> bool:
    # A negation or a function character stands alone by nature: 不 变, 只 用.
    return len(word) == 1 and "\u3400" <= word <= "\u9fff" and word not in STANDALONE


STANDALONE = (
    words.NEGATIONS
    | words.AUXILIARIES
    | frozenset("只和与或及的了在对比更最越每各一两多少大小高低前后上下新旧长短先再又")
)
