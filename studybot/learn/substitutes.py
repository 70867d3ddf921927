"""A name put in another's place: an attempt that says a point's claim of another model, paper or author.

A key point may name who or what its claim is about: "fastText 用字符 n-gram 部分缓解",
"HyDE（Gao 等，2022）", "SHARD_GRAD_OP 即 ZeRO-2". An attempt that says the same
thing of another name of the same kind ("GloVe 用字符 n-gram 做了部分缓解", "Lewis 等人
2020 年提出的", "SHARD_GRAD_OP 对应 ZeRO-1") contradicts the point. ``credits`` reads
the names the question's own texts hold; this reading knows every name the bank
writes, so it is said only when all of these hold:

- the name is one the bank's key points or claims write (``Names.of_bank``), of the
  kind of one the point writes: an author ("X 等", "X et al.", "X & Y") for an
  author, any other name for any other;
- the question's texts do not write it, nor a part of it or a name it is part of
  (DeepSeek for DeepSeek-V3): ``credits`` reads those; and the attempt writes it as
  a source ("X 提出", "X 论文", "X 等人", "来自 X") and does not turn it down
  ("不是 ColBERT 提出的");
- the clause says the name is where the claim comes from ("提出", "最早", "出自",
  "来自", "proposed", "introduced"): "In the original Wei et al. paper the gains…"
  cites a paper beside the claim and gives it to no one;
- the point writes its own name as a source ("RocketQA 的去噪思路", "（Gao 等，2022）");
- its clause takes the point's name's place: it shares two words or more of the
  point's clause around that name, and names it not; or it is in a sentence where
  the point's claims are said, and that sentence names none of the point's names
  of its kind.

A point's example may also be put in another's place with no word of origin ("Vicuna 的
52K 数据就是这么来的" where the point writes Alpaca's, "Llama 2 那种子层前后都归一化" for
Gemma 2's): ``stood_in`` reads a clause that names only that other name, a bank's name
the question's texts do not write, and after it says two words or more of the point's
clause around its own name, which the attempt never writes; a clause of the bank that
names the other name with those words, a negation in the clause, or a second name in it
("Alpaca 用它，Vicuna 用 ShareGPT") keeps it from being read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from studybot.learn import credits, words
from studybot.learn.reading import Attempt

# An author: "Gao 等，2022", "Wang 等（2022）", "Lewis 等人", "Lewis et al.", "Howard & Ruder".
_AUTHOR_AFTER = re.compile(r"\s*(?:等人|等\s*[,，(（]?\s*\d{4}|et\s+al|&\s*[A-Z])", re.IGNORECASE)
# Said to be where the claim comes from, not a source cited beside it ("Wei et al. 论文也显示").
_ORIGIN = re.compile(r"提出|最早|首先|出自|来自|源于|proposed|introduced|first", re.IGNORECASE)
_CITED = re.compile(r"([A-Z][a-z]+)\s+(?:et\s+al|&|and\s+[A-Z]|\d{4})")
_AUTHOR_BEFORE = re.compile(r"&\s*$")
# A point's example or owner: "如 MetaGPT", "像 X", "Gemma 2 那样", "Alpaca 的 52K 数据".
_EXAMPLE_BEFORE = re.compile(r"(?:如|像|比如|例如|e\.g\.|such\s+as)\s*$", re.IGNORECASE)
_OWNED = re.compile(r"\s*(?:[\d.]+\s*)?(?:的|那样|那种|'s\b)")
_OPENING_WORD = re.compile(r"[A-Z][a-z]+ [a-z]")
_FRAME_LEAST = 2  # words of the point's clause an attempt's clause must share to take its place
_PLAIN = words.listed("的 是 在 和 与 及 或 把 将 用 由 等 即 了 也 都 就 为 对 中 上 下 这 那 它")


@dataclass(frozen=True)
class Names:
    """The names a bank writes, by kind: authors and everything else."""

    authors: frozenset[str] = frozenset()
    others: frozenset[str] = frozenset()
    # Per name, what the bank says where it writes it: each text, lowered.
    about: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def of_bank(cls, texts: Iterable[str], cites: Iterable[str]) -> Names:
        """The names ``texts`` (a bank's key points and claims, in Chinese) write, and the
        authors its sources' ``cites`` open with ("Lewis et al. 2020, …", "Kalajdzievski 2023")."""
        authors: set[str] = set()
        others: set[str] = set()
        about: dict[str, list[str]] = {}
        for text in texts:
            for name, author in _named(text):
                (authors if author else others).add(name)
                about.setdefault(name, []).append(text.lower())
        for cite in cites:
            first = _CITED.match(cite)
            if first and first.group(1).lower() not in credits.NOBODY:
                authors.add(first.group(1).lower())
        said = {name: tuple(dict.fromkeys(t)) for name, t in about.items()}
        return cls(frozenset(authors), frozenset(others), said)

    def kind(self, name: str, author: bool) -> bool | None:
        """Whether ``name`` is a bank's author (True), another of its names (False), or none."""
        if author and name in self.authors:
            return True
        return False if name in self.others else None


NO_NAMES = Names()  # a bank's names unknown: the reading says nothing


@dataclass(frozen=True)
class Held:
    """A name a key point writes: its kind and the words of its clause around it."""

    name: str
    author: bool
    frame: frozenset[str]
    said: str  # the point's clause, shown as the key beside a name put in its place
    credited: bool  # one of the point's credits: a name an attempt may put another in
    example: bool = False  # written as the point's example or owner ("如 MetaGPT", "Alpaca 的")


def of_point(point: Attempt, credited: Sequence[str]) -> tuple[Held, ...]:
    """The names ``point`` (a key point read like an attempt) writes, with their clauses' words;
    ``credited``: its credits (``credits.of_point``), the names an attempt may put another in."""
    found = []
    for clause in point.clauses:
        named = _named_at(clause.text)
        names = {n for n, _, _ in named}
        for name, author, (start, end) in named:
            frame = {w for w in clause.words if w not in _PLAIN and len(w) > 1} - _parts({name})
            frame = frame - names | (names - {name})
            example = bool(
                _EXAMPLE_BEFORE.search(clause.text[:start]) or _OWNED.match(clause.text[end:])
            )
            held = Held(name, author, frozenset(frame), clause.text, name in credited, example)
            found.append(held)
    return tuple(found)


def written(texts: Iterable[str]) -> frozenset[str]:
    """The names ``texts`` (a question's own) write, with their parts (``credits`` reads those)."""
    return frozenset(_parts({n for text in texts for n in _names(text)}))


def substituted(
    held: Sequence[Held], bank: Names, asked: frozenset[str], attempt: Attempt, near: Iterable[int]
) -> tuple[int, str] | None:
    """The clause of ``attempt`` that names another in one of ``held``'s place, and the key.

    ``asked``: the names the question's texts write (``written``); ``near``: the clauses
    where the point's claims are said.
    """
    if not held:
        return None
    own = {h.name for h in held} | asked
    parts = _parts(own)
    sentences = {attempt.sentence[n] for n in near}
    for n, clause in enumerate(attempt.clauses):
        for name, author, at in _named_at(clause.text):
            kind = bank.kind(name, author)
            if (
                kind is None
                or name in parts
                or own & _parts({name})
                or credits.denied(clause.text, at)
                or not credits.as_source(clause.text, at)
                or not _ORIGIN.search(clause.text)
            ):
                continue
            rivals = [h for h in held if h.author == kind and h.credited]
            taken = next((h for h in rivals if _takes_place(h, clause)), None)
            if taken:
                return n, taken.said
            if rivals and attempt.sentence[n] in sentences:
                sentence = [
                    c
                    for c, s in zip(attempt.clauses, attempt.sentence, strict=True)
                    if s == attempt.sentence[n]
                ]
                if not any(_names(c.text) & {h.name for h in rivals} for c in sentence):
                    return n, rivals[0].said
    return None


def stood_in(
    held: Sequence[Held], bank: Names, asked: frozenset[str], attempt: Attempt
) -> tuple[int, str] | None:
    """The clause of ``attempt`` that says a point's example of another name, with no word of
    origin ("比如 AutoGen 就按软件开发流程设了产品、架构角色" for MetaGPT), and the key.

    The point writes its name as an example or an owner ("如 X", "X 那样", "X 的"). The
    clause opens on that other name, one the bank writes but the question's texts do not,
    and says after it two words or more of the point's clause around the point's name that
    no text of the bank says beside the other one; it names nothing else, asserts and
    turns nothing down, and the attempt never writes the point's own name.
    """
    written = {n for c in attempt.clauses for n in _names(c.text)}
    own = _parts({h.name for h in held} | asked)
    for n, clause in enumerate(attempt.clauses):
        named = _named_at(clause.text)
        if len(named) != 1 or not attempt.asserts[n] or clause.negations:
            continue
        name, author, at = named[0]
        if author or bank.kind(name, False) is not False or own & _parts({name}):
            continue
        if _OPENING_WORD.match(clause.text[: at[1] + 2]):
            continue  # "Mean pooling averages…": an English clause's first word, not a name
        for h in held:
            if h.author or not h.example or h.name in written:
                continue
            shared = [w for w in h.frame if _after(clause, w, at[1])]
            if len(shared) >= _FRAME_LEAST and not any(
                sum(w in text for w in shared) >= _FRAME_LEAST for text in bank.about.get(name, ())
            ):
                return n, h.said
    return None


def _after(clause, word: str, start: int) -> bool:
    """Whether ``word`` is found in ``clause`` after ``start`` (an offset of its text)."""
    return any(clause.at[s] >= start for s, _ in words.find(clause, word) if s < len(clause.at))


def _takes_place(held: Held, clause) -> bool:
    """Whether ``clause`` shares enough of the words around ``held`` and names it not."""
    if held.name in _names(clause.text):
        return False
    return sum(bool(words.find(clause, w)) for w in held.frame) >= _FRAME_LEAST


def _named(text: str) -> list[tuple[str, bool]]:
    return [(name, author) for name, author, _ in _named_at(text)]


def _named_at(text: str) -> list[tuple[str, bool, tuple[int, int]]]:
    """Each name in ``text``, lowered, whether it is written as an author, and where."""
    out = []
    for m in credits.NAME.finditer(text):
        name = m.group().lower()
        if name in credits.NOBODY:
            continue
        author = bool(
            _AUTHOR_AFTER.match(text[m.end() :]) or _AUTHOR_BEFORE.search(text[: m.start()])
        )
        out.append((name, author, m.span()))
    return out


def _names(text: str) -> set[str]:
    return {n for n, _ in _named(text)}


def _parts(names: Iterable[str]) -> set[str]:
    """The names and their parts: deepseek-v3 holds deepseek and v3."""
    return {p for n in names for p in (n, *re.split(r"[-_ ]", n)) if p}
