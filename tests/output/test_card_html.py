"""Anki cards hold no live HTML: every attribute is one a card needs, every URL http(s) or relative.

A card is a web page Anki draws, so an answer (from a bank or a model) that
smuggles an attribute or a script URL into it runs in Anki. The answers
below are imported as a bank, studied offline and exported through the
CLI; an HTML parser then lists every tag and attribute of every field.
"""

from __future__ import annotations

import re
import sqlite3
import zipfile
from html.parser import HTMLParser

import pytest

from studybot.output.markup import safe_url, to_html

# A formula put back into an attribute, a script URL in every spelling, an image loading
# one, and the links a card may keep.
HOSTILE = """# 题库

## 1. 图片里藏了什么？

![a]($x" onerror="alert(document.cookie)$) 以及 [点我]($x" onmouseover="alert(4)$)

## 2. 链接里藏了什么？

[js](javascript:alert(1)) [大写](JaVaScRiPt:alert(2)) [实体](&#106;avascript:alert(3))
<javascript:alert(5)> [vb](vbscript:msgbox(6)) [数据](data:text/html,<script>alert(7)</script>)
![图](data:image/png;base64,iVBORw0KGgo=) [邮件](mailto:a@b.c) [文件](file:///etc/passwd)
[标题](https://example.com "x $a" onclick="alert(8)$ y") [公式里]($javascript:alert(9)$)

## 3. 哪些链接可以留下？

[官网](https://example.com/a?b=1&c=2) [相对](notes/a.md) [锚点](#top) 公式 $a_i " b$ 照常。
"""
# What a card's HTML may carry: links and images, their text, and a code block's language.
ALLOWED = {"href", "src", "alt", "title", "class"}


class Attributes(HTMLParser):
    """Every (tag, attribute, value) of an HTML fragment, and its visible text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.found += [(tag, name, value or "") for name, value in attrs]

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def scheme(url: str) -> str | None:
    found = re.match(r"[\x00-\x20]*([a-zA-Z][a-zA-Z0-9+.-]*):", re.sub(r"[\t\n\r]", "", url))
    return found.group(1).lower() if found else None


def check_fields(fields: list[str]) -> list[tuple[str, str, str]]:
    """Every attribute of ``fields``, after asserting none could run anything."""
    found = [item for field in fields for item in Attributes(field).found]
    for tag, name, value in found:
        assert name in ALLOWED, (tag, name, value)
        if name in ("href", "src"):
            assert scheme(value) in (None, "http", "https"), (tag, name, value)
    return found


@pytest.fixture
def hostile_session(invoke, tmp_path):
    source = tmp_path / "hostile.md"
    source.write_text(HOSTILE, encoding="utf-8")
    imported = invoke("bank", "import", str(source), "--name", "hostile")
    assert imported.exit_code == 0, imported.stderr
    ran = invoke("run", "--bank", "hostile", "--from", "1", "--to", "3")
    assert ran.exit_code == 0, ran.stderr
    return "1"


def test_anki_text_cards_carry_no_attribute_an_answer_wrote(invoke, tmp_path, hostile_session):
    out = tmp_path / "cards.txt"
    assert invoke("export", hostile_session, "-f", "anki", "-o", str(out)).exit_code == 0
    rows = [
        line.split("\t") for line in out.read_text(encoding="utf-8").splitlines() if line[:1] != "#"
    ]
    assert len(rows) == 3
    found = check_fields([field for row in rows for field in row[1:3]])
    urls = {value for _tag, name, value in found if name in ("href", "src")}
    assert "https://example.com/a?b=1&c=2" in urls and "notes/a.md" in urls and "#top" in urls
    backs = "".join("".join(Attributes(row[2]).text) for row in rows)
    assert r'\(a_i " b\)' in backs  # a formula outside a link is still a formula
    assert "javascript:alert(1)" in backs  # a refused link stays as its text


def test_apkg_cards_carry_no_attribute_an_answer_wrote(invoke, tmp_path, hostile_session):
    out = tmp_path / "cards.apkg"
    result = invoke("export", hostile_session, "-f", "apkg", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with zipfile.ZipFile(out) as package:
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "collection.anki2")
    notes = [flds for (flds,) in db.execute("select flds from notes")]
    db.close()
    assert len(notes) == 3
    found = check_fields([field for flds in notes for field in flds.split("\x1f")])
    assert {"img", "a"} <= {tag for tag, _name, _value in found}


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://x.org", True),
        ("HTTP://x.org", True),
        ("notes/a.md", True),
        ("#top", True),
        ("//x.org/a", True),
        ("javascript:alert(1)", False),
        (" \x01java\tscript:alert(1)", False),
        ("data:image/png;base64,AAAA", False),
        ("mailto:a@b.c", False),
        ("file:///etc/passwd", False),
    ],
)
def test_only_http_and_relative_urls_are_safe(url, safe):
    assert safe_url(url) is safe


def test_a_placeholder_written_in_an_answer_stays_its_own_words():
    html = to_html("STUDYBOTMATH0X 与 $a$ 和 [x](STUDYBOTMATH7X)")
    assert "STUDYBOTMATH0X" in html and r"\(a\)" in html
    assert 'href="STUDYBOTMATH7X"' in html
