"""Two families of ``bench/crash_scan.py``: export targets and environments (#29 items 1, 2, 12, 17).

Besides a crash or a hang, each case checks what a user would find after it:

- exports: ``export -o`` and ``cache pack -o`` onto a new file, a file, a
  device, a FIFO, links (to a file, to nothing, to itself, to a device, to
  a folder), a folder, a path through a file, a long name and ``-``. The
  device, FIFO or link must still be what it was, no file named ``-``
  appears, and no Anki card (text or ``.apkg``, file or stdout) carries an
  attribute a card does not need or a URL that is not http(s) or relative;
  the session exported holds answers written to smuggle HTML in.
- environments: ``COLUMNS`` 0, 1, 19, -1, abc and 99999 under every report
  (each must print something), stdout closed under every report (none may
  exit 0), a home whose path holds escape codes (nothing on stdout a
  terminal would obey), a read-only home with no database (the reports
  read it), and a ``studybot.db`` that is a link to nothing, to itself, to a
  device or to a folder (never "check the permissions", nothing created at
  the far end).
"""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from crash_cases import Case, Streams

ROOT = Path(__file__).resolve().parents[1]

# Answers that try every way into a card's HTML (#29 item 1), as an imported bank.
HOSTILE_BANK = """# 题库

## 1. 图片里藏了什么？

![a]($x" onerror="alert(document.cookie)$) 以及 [点我]($x" onmouseover="alert(4)$)

## 2. 链接里藏了什么？

[js](javascript:alert(1)) [大写](JaVaScRiPt:alert(2)) [实体](&#106;avascript:alert(3))
<javascript:alert(5)> [vb](vbscript:msgbox(6)) [数据](data:text/html,<script>alert(7)</script>)
![图](data:image/png;base64,iVBORw0KGgo=) [邮件](mailto:a@b.c) [文件](file:///etc/passwd)
[标题](https://example.com "x $a" onclick="alert(8)$ y") [公式里]($javascript:alert(9)$)

## 3. 哪些链接可以留下？

[官网](https://example.com/a?b=1&c=2) [相对](notes/a.md) 公式 $a_i " b$ 照常。
"""
CARD_ATTRIBUTES = {"href", "src", "alt", "title", "class"}  # all a card's HTML may carry
URL_SCHEME = re.compile(r"[\x00-\x20]*([a-zA-Z][a-zA-Z0-9+.-]*):")
NULL_DEVICE = os.makedev(1, 3)
TRACE = '{"tokens": [1, 2, 3, 4]}\n{"tokens": [1, 2, 3, 5, 6]}\n'
# Run the command with "$0" (the home) bound read-only over itself, visible to it alone.
READ_ONLY_BIND = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


@dataclass(frozen=True)
class Node:
    """Something made at a scratch path before the run, which must still be there after it."""

    path: str  # under the case's scratch folder
    kind: str  # "fifo", "device", or "link" (to ``target``)
    target: str = ""  # a link's target; "{tmp}" stands for the scratch folder

    def make(self, tmp: Path) -> None:
        where = tmp / self.path
        where.parent.mkdir(parents=True, exist_ok=True)
        if self.kind == "fifo":
            os.mkfifo(where)
        elif self.kind == "device":
            if os.geteuid() == 0:  # as root, a rename would go over a real /dev/null
                os.mknod(where, stat.S_IFCHR | 0o666, NULL_DEVICE)
            else:
                where.symlink_to(os.devnull)
        else:
            where.symlink_to(self.target.replace("{tmp}", str(tmp)))

    def changed(self, tmp: Path) -> str | None:
        """How the node is no longer what was made; None when it still is."""
        where = tmp / self.path
        try:
            mode = os.lstat(where).st_mode
        except FileNotFoundError:
            return f"{self.path} ({self.kind}) is gone"
        if self.kind == "fifo" and not stat.S_ISFIFO(mode):
            return f"the FIFO {self.path} was replaced"
        if self.kind == "device" and not (stat.S_ISCHR(mode) or stat.S_ISLNK(mode)):
            return f"the device {self.path} was replaced"
        if self.kind == "link":
            if not stat.S_ISLNK(mode):
                return f"the link {self.path} was replaced by a file"
            if os.readlink(where) != self.target.replace("{tmp}", str(tmp)):
                return f"the link {self.path} points elsewhere now"
        return None


@dataclass(frozen=True)
class TargetCase(Case):
    nodes: tuple[Node, ...] = ()
    must_not_exist: tuple[str, ...] = ()  # scratch paths nothing may create (a link's far end)
    read_only_home: bool = False
    wants: str = "any"  # "output": exit 0 with something on stdout; "failure": not exit 0
    no_escapes: bool = False  # nothing on stdout or stderr that a terminal obeys
    not_said: tuple[str, ...] = ()  # words stderr must not hold

    def prepare(self, home: Path, tmp: Path, url: str = ""):
        prepared = super().prepare(home, tmp, url)
        for node in self.nodes:
            node.make(tmp)
        if self.read_only_home and os.geteuid() != 0:
            home.chmod(0o500)  # as root a bind mount does it (``launcher``): chmod stops no root
        return prepared

    def launcher(self, home: Path) -> list[str]:
        if self.read_only_home and os.geteuid() == 0:
            return ["unshare", "-m", "sh", "-c", READ_ONLY_BIND, str(home)]
        return []

    def verify(self, home: Path, tmp: Path, rc: int | None, out: bytes, err: str) -> str | None:
        if self.read_only_home:
            home.chmod(0o700)  # the scratch folder must be removable again
        problems = [node.changed(tmp) for node in self.nodes]
        problems += [f"{name} was created" for name in self.must_not_exist if _there(tmp / name)]
        if _there(tmp / "-"):
            problems.append("a file named - was written")
        problems += [f"live HTML in {where}: {what}" for where, what in _live_cards(tmp, out)]
        if self.wants == "output" and (rc != 0 or not out.strip()):
            problems.append(f"exit {rc} with {len(out)} bytes on stdout")
        if self.wants == "failure" and rc == 0:
            problems.append("exit 0 with stdout closed: nothing was shown")
        if self.no_escapes and (b"\x1b" in out or "\x1b" in err or "\x07" in err):
            problems.append("an escape code reached the terminal")
        problems += [f"said {word!r}" for word in self.not_said if word in err]
        found = [p for p in problems if p]
        return "; ".join(found) if found else None


def _there(path: Path) -> bool:
    return os.path.lexists(path)


# -- what a card may hold ----------------------------------------------------------------


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.found += [(tag, name, value or "") for name, value in attrs]

    handle_startendtag = handle_starttag


def _unsafe(fields: list[str]) -> list[str]:
    """Every attribute of the fields a card must not carry, as tag.name=value."""
    bad = []
    for html in fields:
        parser = _Attributes()
        parser.feed(html)
        parser.close()
        for tag, name, value in parser.found:
            scheme = URL_SCHEME.match(re.sub(r"[\t\n\r]", "", value))
            unsafe_url = (
                name in ("href", "src")
                and scheme
                and scheme[1].lower()
                not in (
                    "http",
                    "https",
                )
            )
            if name not in CARD_ATTRIBUTES or unsafe_url:
                bad.append(f"{tag}.{name}={value[:60]!r}")
    return bad


def _card_fields(data: bytes) -> list[str] | None:
    """The HTML fields of an Anki text export or an .apkg; None when ``data`` is neither."""
    if data.startswith(b"#separator:tab"):
        rows = [line.split("\t") for line in data.decode("utf-8", "replace").splitlines()]
        return [field for row in rows if row and not row[0].startswith("#") for field in row[1:3]]
    if not data.startswith(b"PK"):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            collection = package.read("collection.anki2")
    except (zipfile.BadZipFile, KeyError):
        return None
    with tempfile.NamedTemporaryFile(suffix=".anki2") as copy:
        copy.write(collection)
        copy.flush()
        db = sqlite3.connect(copy.name)
        try:
            notes = [flds for (flds,) in db.execute("select flds from notes")]
        finally:
            db.close()
    return [field for flds in notes for field in flds.split("\x1f")]


def _live_cards(tmp: Path, out: bytes) -> Iterator[tuple[str, str]]:
    """(where, what) for each card, in a file of the scratch folder or on stdout, with live HTML."""
    written = [("stdout", out)]
    for folder, folders, names in os.walk(tmp):  # links are not followed (one leads to tmp)
        if Path(folder) == tmp:
            folders[:] = [name for name in folders if name != "home"]
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                with path.open("rb") as handle:
                    written.append((name, handle.read(50_000_000)))
    for where, data in written:
        fields = _card_fields(data)
        bad = _unsafe(fields) if fields else []
        if bad:
            yield where, ", ".join(bad[:3])


# -- a home with sessions to export -----------------------------------------------------


@functools.cache
def studied_home() -> dict[str, bytes]:
    """Files of a home with session 1 over the hostile bank and session 2 over the shipped one."""
    with tempfile.TemporaryDirectory(prefix="crash-home-") as folder:
        home = Path(folder) / "home"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
        env.pop("TAOTOKEN_API_KEY", None)
        env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
        source = Path(folder) / "hostile.md"
        source.write_text(HOSTILE_BANK, encoding="utf-8")
        for args in (
            ("bank", "import", str(source), "--name", "hostile"),
            ("run", "--bank", "hostile", "--from", "1", "--to", "3"),
            ("run", "--from", "1", "--to", "3"),
        ):
            subprocess.run(
                [sys.executable, "-m", "studybot", *args],
                env=env,
                capture_output=True,
                check=True,
                timeout=120,
            )
        return {
            f"home/{path.relative_to(home)}": path.read_bytes()
            for path in home.rglob("*")
            if path.is_file() and path.relative_to(home).parts[0] not in ("locks", "cache")
        }


# -- export targets ---------------------------------------------------------------------

# name: (the -o argument, files made first, nodes made first, paths nothing may create)
TARGETS: dict[str, tuple[str, dict[str, str], tuple[Node, ...], tuple[str, ...]]] = {
    "a new file": ("{tmp}/new.out", {}, (), ()),
    "a regular file": ("{tmp}/old.out", {"tmp/old.out": "my notes\n"}, (), ()),
    "a device": ("{tmp}/dev", {}, (Node("dev", "device"),), ()),
    "a FIFO": ("{tmp}/pipe", {}, (Node("pipe", "fifo"),), ()),
    "a link to a file": (
        "{tmp}/lnk",
        {"tmp/real/old.out": "my notes\n"},
        (Node("lnk", "link", "{tmp}/real/old.out"),),
        (),
    ),
    "a link to nothing": ("{tmp}/lnk", {}, (Node("lnk", "link", "{tmp}/gone/x.out"),), ("gone",)),
    "a link to nothing in a folder": (
        "{tmp}/lnk",
        {"tmp/there/keep": ""},
        (Node("lnk", "link", "{tmp}/there/x.out"),),
        ("there/x.out",),
    ),
    "a link to itself": ("{tmp}/lnk", {}, (Node("lnk", "link", "{tmp}/lnk"),), ()),
    "a link to a device": (
        "{tmp}/lnk",
        {},
        (Node("dev", "device"), Node("lnk", "link", "{tmp}/dev")),
        (),
    ),
    "a link to a folder": ("{tmp}/lnk", {}, (Node("lnk", "link", "{tmp}"),), ()),
    "a folder": ("{tmp}", {}, (), ()),
    "a path through a file": ("{tmp}/f/x.out", {"tmp/f": "a file"}, (), ()),
    "a missing folder": ("{tmp}/no/such/x.out", {}, (), ()),
    "a 300-character name": ("{tmp}/" + "n" * 300, {}, (), ()),
    "-": ("-", {}, (), ()),
}
FORMATS = ("md", "json", "anki", "apkg")


def export_target_cases() -> Iterator[Case]:
    home = studied_home()
    for name, (target, files, nodes, untouched) in TARGETS.items():
        for force in (False, True):
            forced = ("--force",) * force
            for fmt in FORMATS:
                yield TargetCase(
                    f"export -f {fmt} -o {name}{' --force' * force}",
                    ("export", "1", "-f", fmt, "-o", target, *forced),
                    files={**home, **files},
                    nodes=nodes,
                    must_not_exist=untouched,
                )
            yield TargetCase(
                f"cache pack -o {name}{' --force' * force}",
                ("cache", "pack", "{tmp}/trace.jsonl", "-o", target, *forced),
                files={**files, "tmp/trace.jsonl": TRACE},
                nodes=nodes,
                must_not_exist=untouched,
            )
    yield TargetCase(
        "export -f apkg -o - with stdout closed",
        ("export", "1", "-f", "apkg", "-o", "-"),
        files=home,
        streams=Streams(stdout="closed"),
        wants="failure",
    )


# -- environments -----------------------------------------------------------------------

REPORTS = [
    ("bank", "show", "23"),
    ("bank", "list"),
    ("plan", "--from", "1", "--to", "8"),
    ("progress",),
    ("kv",),
    ("sessions",),
    ("show", "2"),
    ("due",),
    ("config", "show"),
]
READERS = [("sessions",), ("progress",), ("due",)]
DATABASE_USERS = [("sessions",), ("progress",), ("run", "--from", "1", "--to", "1"), ("doctor",)]
# name: the link studybot.db is, made in the home ("{tmp}" the scratch folder)
DATABASE_LINKS = {
    "to nothing": "{tmp}/gone/studybot.db",
    "to nothing in a folder": "{tmp}/there/studybot.db",
    "to itself": "{tmp}/home/studybot.db",
    "to a folder": "{tmp}",
    "to a device": "/dev/null",
}


def _can_bind() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return os.geteuid() != 0  # chmod does it for anyone but root
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", READ_ONLY_BIND, "/tmp", "true"], capture_output=True
    )
    return probe.returncode == 0


def environment_cases() -> Iterator[Case]:
    home = studied_home()
    for columns in ("0", "1", "19", "-1", "abc", "99999"):
        for command in REPORTS:
            yield TargetCase(
                f"COLUMNS={columns} · {' '.join(command)}",
                command,
                env={"COLUMNS": columns},
                files=home,
                wants="output",
            )
    for command in REPORTS:
        yield TargetCase(
            f"stdout closed · {' '.join(command)}",
            command,
            files=home,
            streams=Streams(stdout="closed"),
            wants="failure",
        )
    for command in (("config", "show"), ("doctor",), ("sessions",), ("progress",)):
        yield TargetCase(
            f"a home named with escape codes · {' '.join(command)}",
            command,
            env={"STUDYBOT_HOME": "{tmp}/home\x1b]0;pwned\x07\x1b[31m"},
            no_escapes=True,
        )
    if _can_bind():
        for command in READERS:
            yield TargetCase(
                f"a read-only home without a database · {' '.join(command)}",
                command,
                read_only_home=True,
                wants="output",
            )
    for name, target in DATABASE_LINKS.items():
        for command in DATABASE_USERS:
            yield TargetCase(
                f"studybot.db a link {name} · {' '.join(command)}",
                command,
                files={"tmp/there/keep": ""},
                nodes=(Node("home/studybot.db", "link", target),),
                must_not_exist=("gone", "there/studybot.db"),
                not_said=("permission",),
            )
