"""Three families of ``bench/crash_scan.py`` (#29 items 4, 9, 10, 11, 13, 15, 16).

- newer: a database a newer studybot wrote, its interview tables changed
  (``grades.points`` an object, a point or probe state this version does
  not know, ``seconds`` as text, ``probes`` or ``interview_answers`` moved,
  a column gone), under show, export, sessions, progress, due, cache,
  doctor and the commands that would write (refused). Each report must
  end 0 and say the file comes from a newer studybot.
- encodings: outputs that cannot show Chinese (``PYTHONIOENCODING`` ascii,
  latin-1, cp1252, utf-16; the C locale without UTF-8 mode) under every
  report; a home and question files named with bytes that are not UTF-8.
- inputs: ``grade`` fed /dev/zero, /dev/urandom, 100 MB, binary bytes or
  one character too many; Markdown shapes that used to drop questions (an
  unclosed ``<details>``, lists nested thousands deep, a 10-deep item
  before a list) and files in UTF-32 or with a NUL, a CSV cell over the
  csv module's limit, a header alone; a config.toml that is a FIFO, a
  folder, a link to itself, to /dev/zero or to nothing, too big or too
  deep; and, where a private mount namespace can be had (root and
  ``unshare``), a home on a full disk under run, resume, doctor, sessions,
  show, export and bank import (each must say the disk is full, never
  "check the permissions").
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from crash_cases import Case
from crash_targets import Node, TargetCase

ROOT = Path(__file__).resolve().parents[1]

# -- newer interview tables ---------------------------------------------------------------

NEWER = "m042_interview_tables_v2"
CHANGES = {
    "points an object": 'update grades set points = \'{"version": 2, "marks": []}\'',
    "points odd items": 'update grades set points = \'[{"text": "x"}, 5, null]\'',
    "points not JSON": "update grades set points = 'covered,missed'",
    "a grade state unknown": "update grades set points = "
    'replace(points, \'"state": "missed"\', \'"state": "skipped"\')',
    "an estimate an object": "update grades set estimate = '{\"v\": 2}'",
    "a score as text": "update grades set score = 'high', estimate_score = 'low'",
    "a probe state unknown": "update probes set state_before = 'half-covered'",
    "a state after unknown": "update probes set state_after = 'evaded'",
    "seconds as text": "update interview_answers set seconds = '12.5 s'; "
    "update probes set seconds = 'fast'",
    "seconds a blob": "update interview_answers set seconds = x'00ff'",
    "probes moved": "alter table probes rename to interview_probes",
    "answers moved": "alter table interview_answers rename to interview_answers_v2",
    "a probe column gone": "alter table probes drop column point",
    "probe n as text": "update probes set n = 'first'",
    "an attempt a blob": "update interview_answers set attempt = x'e4b8ad'",
}
NEWER_READERS = [
    ("show", "1"),
    ("show", "1", "--json"),
    ("export", "1", "-f", "md"),
    ("export", "1", "-f", "json"),
    ("export", "1", "-f", "anki"),
    ("export", "1", "-f", "apkg", "-o", "{tmp}/cards.apkg"),
    ("export", "1", "-f", "md", "-o", "{tmp}/notes.md"),
]
NEWER_OTHERS = [
    ("sessions",),
    ("sessions", "--json"),
    ("progress",),
    ("due",),
    ("cache", "1"),
    ("doctor",),
    ("resume", "2"),
    ("run", "--from", "7", "--to", "8"),
]


@functools.cache
def interviewed_home() -> dict[str, bytes]:
    """A home with session 1, an offline interview of Q1 and Q2 (one probe each), and
    session 2, a run of Q3–Q6 begun and not answered."""
    script = (
        "from scripted import ScriptedInterview, interview\n"
        "from studybot.study import opening\n"
        "answers = {1: '预测下一个词元的 Transformer。', 2: '分词把文本切成词元。'}\n"
        "interview(ScriptedInterview(answers), ids=(1, 2), followups=1)\n"
        "study, _ = opening.open_study(opening.Options())\n"
        "opening.begin(study, opening.Choice(first=3, last=6), quiz=False, fresh=True)\n"
    )
    with tempfile.TemporaryDirectory(prefix="crash-home-") as folder:
        home = Path(folder) / "home"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
        env.pop("TAOTOKEN_API_KEY", None)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]), STUDYBOT_HOME=str(home)
        )
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, check=True, timeout=120
        )
        return {
            f"home/{path.relative_to(home)}": path.read_bytes()
            for path in home.rglob("*")
            if path.is_file() and path.relative_to(home).parts[0] not in ("locks", "cache")
        }


@dataclass(frozen=True)
class NewerCase(Case):
    sql: str = ""  # what the newer studybot changed, run on the home's database
    marked: bool = True  # the newer studybot's migration is recorded
    says_newer: bool = False  # a report that must end 0 and say the file is a newer one's

    def prepare(self, home: Path, tmp: Path, url: str = ""):
        prepared = super().prepare(home, tmp, url)
        with sqlite3.connect(home / "studybot.db") as db:
            db.executescript(self.sql)
            if self.marked:
                db.execute(
                    "insert into _migrations (name, applied_at, studybot_version) values (?, ?, ?)",
                    (NEWER, "2030-01-01", "0.9.0"),
                )
        db.close()
        return prepared

    def verify(self, home: Path, tmp: Path, rc: int | None, out: bytes, err: str) -> str | None:
        if not self.says_newer:
            return None
        if rc != 0:
            return f"exit {rc}: a newer file's readable part was not shown"
        said = "was written by studybot 0.9.0 or newer" if self.marked else "from a newer studybot?"
        if said not in err:
            return "the note that the file is a newer studybot's is missing"
        return None


def newer_cases() -> Iterator[Case]:
    home = interviewed_home()
    for name, sql in CHANGES.items():
        for command in NEWER_READERS:
            shown = " ".join(a for a in command if "{tmp}" not in a)
            yield NewerCase(
                f"newer: {name} · {shown}", command, files=home, sql=sql, says_newer=True
            )
        for command in NEWER_OTHERS:
            yield NewerCase(f"newer: {name} · {' '.join(command)}", command, files=home, sql=sql)
        yield NewerCase(
            f"unmarked: {name} · show 1",
            ("show", "1"),
            files=home,
            sql=sql,
            marked=False,
            says_newer=True,
        )


# -- encodings: outputs without Chinese, names that are not UTF-8 ---------------------------

QUESTIONS = "1. 什么是词元？\n2. 为什么要分词？\n3. KV 缓存为什么不存 Q？\n"
REPORTS = [
    ("bank", "show", "23"),
    ("bank", "list"),
    ("bank", "search", "注意力"),
    ("bank", "validate"),
    ("run", "--from", "1", "--to", "2"),
    ("sessions",),
    ("show", "1"),
    ("show", "1", "--json"),
    ("export", "1", "-f", "md"),
    ("export", "1", "-f", "anki"),
    ("doctor",),
    ("config", "show"),
    ("plan", "--from", "1", "--to", "8"),
    ("grade", "23", "--attempt", "只缓存 K 和 V：Q 只在当前步用一次"),
    ("due",),
    ("progress",),
    ("kv",),
    ("cache", "1"),
    ("run", "--help"),
]
OUTPUTS = {
    "PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii"},
    "PYTHONIOENCODING=latin-1": {"PYTHONIOENCODING": "latin-1"},
    "PYTHONIOENCODING=cp1252": {"PYTHONIOENCODING": "cp1252"},
    "PYTHONIOENCODING=utf-16": {"PYTHONIOENCODING": "utf-16"},
    "PYTHONIOENCODING=ascii:strict": {"PYTHONIOENCODING": "ascii:strict"},
    "the C locale, no UTF-8 mode": {
        "LC_ALL": "C",
        "LANG": "C",
        "PYTHONUTF8": "0",
        "PYTHONCOERCECLOCALE": "0",
    },
}
ODD_HOME_COMMANDS = [
    ("doctor",),
    ("doctor", "--json"),
    ("config", "show"),
    ("sessions",),
    ("run", "--from", "1", "--to", "2"),
    ("progress",),
    ("due",),
    ("bank", "import", "{tmp}/q.md", "--name", "mine"),
    ("bank", "banks"),
    ("plan", "--from", "1", "--to", "3"),
]
ODD_FILE = "{tmp}/q\udcff\udcfe.md"
ODD_FILE_COMMANDS = [
    ("bank", "import", ODD_FILE, "--preview"),
    ("bank", "import", ODD_FILE, "--preview", "--json"),
    ("bank", "import", ODD_FILE, "--name", "mine"),
    ("bank", "validate", ODD_FILE),
    ("bank", "list", "--bank", ODD_FILE),
    ("bank", "show", "1", "--bank", ODD_FILE),
    ("run", "--bank", ODD_FILE, "--from", "1", "--to", "2"),
    ("grade", "1", "--bank", ODD_FILE, "--attempt", "词元是模型读写文本的单位"),
    ("plan", "--bank", ODD_FILE, "--from", "1", "--to", "3"),
    ("due", "--bank", ODD_FILE),
    ("export", "1", "-f", "md", "-o", "{tmp}/notes\udcff.md"),
]


def encoding_cases() -> Iterator[Case]:
    home = interviewed_home()
    for name, env in OUTPUTS.items():
        for command in REPORTS:
            yield Case(f"{name} · {' '.join(command)}", command, env=env, files=home)
    odd_home = {"STUDYBOT_HOME": "{tmp}/h\udcfe\udcff"}
    for command in ODD_HOME_COMMANDS:
        yield Case(
            f"a home named with bytes not UTF-8 · {' '.join(command[:3])}",
            command,
            env=odd_home,
            files={"tmp/q.md": QUESTIONS},
        )
    for command in ODD_FILE_COMMANDS:
        shown = " ".join(a for a in command if "{tmp}" not in a)
        yield Case(
            f"a file named with bytes not UTF-8 · {shown}",
            command,
            files={**home, "tmp/q\udcff\udcfe.md": QUESTIONS},
        )


# -- inputs: grade's stdin, Markdown shapes, encodings, config files, a full disk -------------


@dataclass(frozen=True)
class InputCase(TargetCase):
    stdin: str | None = None  # a path ("{tmp}" for the scratch folder) read as stdin
    full_disk: bool = False  # the home is a tiny tmpfs, filled up (a private mount namespace)
    says_full: bool = False  # stderr must say the disk is full

    def prepare(self, home: Path, tmp: Path, url: str = ""):
        args, env, _, streams = super().prepare(home, tmp, url)
        stdin = open(self.stdin.replace("{tmp}", str(tmp)), "rb") if self.stdin else None  # noqa: SIM115
        return args, env, stdin, streams

    def launcher(self, home: Path) -> list[str]:
        if self.full_disk:
            return ["unshare", "-m", "sh", "-c", FULL_HOME, str(home)]
        return super().launcher(home)

    def verify(self, home: Path, tmp: Path, rc: int | None, out: bytes, err: str) -> str | None:
        problems = [super().verify(home, tmp, rc, out, err)]
        if self.says_full and not any(w in err for w in ("is full", "free some disk space")):
            problems.append("the full disk was not named")
        found = [p for p in problems if p]
        return "; ".join(found) if found else None


# The home copied onto a 2 MB tmpfs mounted over it, the rest of the tmpfs filled: a full disk
# for this command alone (a private mount namespace), whatever the machine's disks hold.
FULL_HOME = (
    'keep=$(mktemp -d) && cp -a "$0/." "$keep/" && '
    'mount -t tmpfs -o size=2m tmpfs "$0" && cp -a "$keep/." "$0/" && rm -rf "$keep" && '
    '{ dd if=/dev/zero of="$0/.fill" bs=4096 2>/dev/null; true; } && exec "$@"'
)
FULL_DISK_COMMANDS = [
    ("run", "--from", "7", "--to", "8"),
    ("resume", "2"),
    ("doctor",),
    ("sessions",),
    ("show", "1"),
    ("export", "1", "-f", "md", "-o", "{tmp}/home/notes.md"),
    ("bank", "import", "{tmp}/big.md", "--name", "big"),
    ("progress",),
]
SAYS_FULL = {"run", "resume", "doctor", "bank"}


def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL_HOME, tempfile.mkdtemp(), "true"], capture_output=True
    )
    return probe.returncode == 0


def _nested(depth: int, step: str = "  ") -> str:
    return "".join(f"{step * d}- 第 {d} 层的问题是什么？\n" for d in range(depth))


IMPORT_SHAPES: dict[str, tuple[str | bytes, str]] = {
    "an unclosed details after Q1": (
        "1. 什么是注意力？\n\n<details>\n<summary>答案</summary>\n\n加权求和。\n\n"
        "2. 什么是 KV 缓存？\n\n3. 为什么不缓存 Q？\n",
        "md",
    ),
    "an unclosed details that asks": (
        "<details>\n<summary>什么是注意力？</summary>\n\n加权。\n\n## 2. 什么是词元？\n",
        "md",
    ),
    "a 10-deep item before a list": (_nested(10) + "\n1. 什么是词元？\n2. 什么是嵌入？\n", "md"),
    "a 3,000-level list": (_nested(3000), "md"),
    "a 2,000-level list of tabs": (_nested(2000, "\t"), "md"),
    "5,000 list markers on a line": ("- " * 5000 + "问题是什么？\n\n1. 什么是词元？\n", "md"),
    "5,000 quote marks on a line": ("> " * 5000 + "问题是什么？\n\n1. 什么是词元？\n", "md"),
    "mixed markers 300 deep": ("".join("> - 1. " * d + f"第{d}层？\n\n" for d in range(300)), "md"),
    "UTF-32": (QUESTIONS.encode("utf-32"), "md"),
    "UTF-32-BE without a mark": (QUESTIONS.encode("utf-32-be"), "md"),
    "UTF-8 with one NUL": (QUESTIONS.replace("分词", "分\x00词").encode(), "md"),
    "a CSV cell over the limit": ('question,answer\n什么？,"' + "长" * 140_000 + "\n", "csv"),
    "a TSV header alone": ("question\tanswer\n", "tsv"),
    "a CSV header alone": ("question,answer\n", "csv"),
}
CONFIG_SHAPES: dict[str, dict] = {
    "a FIFO": {"nodes": (Node("home/config.toml", "fifo"),)},
    "a folder": {"files": {"home/config.toml/x": ""}},
    "a link to itself": {"nodes": (Node("home/config.toml", "link", "{tmp}/home/config.toml"),)},
    "a link to /dev/zero": {"nodes": (Node("home/config.toml", "link", "/dev/zero"),)},
    "a link to nothing": {"nodes": (Node("home/config.toml", "link", "{tmp}/gone.toml"),)},
    "2 MB": {"files": {"home/config.toml": "#" * 2_000_000}},
    "a 100,000-part header": {
        "files": {"home/config.toml": "[" + ".".join(["a"] * 100_000) + "]\n"}
    },
    "a 100,000-part key": {"files": {"home/config.toml": ".".join(["a"] * 100_000) + " = 1\n"}},
    "a 100,000-part key in a table": {
        "files": {"home/config.toml": "x = {" + ".".join(["a"] * 100_000) + " = 1}\n"}
    },
}
CONFIG_COMMANDS = [("config", "show"), ("doctor",), ("run", "--from", "1", "--to", "1")]


def input_cases() -> Iterator[Case]:
    big = {"tmp/big.txt": b"x" * (100 * 2**20)}
    stdins = {
        "/dev/zero": ("/dev/zero", {}),
        "/dev/urandom": ("/dev/urandom", {}),
        "100 MB": ("{tmp}/big.txt", big),
        "a PNG": ("{tmp}/a.png", {"tmp/a.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10}),
        "20,001 characters": ("{tmp}/a.txt", {"tmp/a.txt": "长" * 20_001}),
        "UTF-16": ("{tmp}/a.txt", {"tmp/a.txt": "只缓存 K 和 V".encode("utf-16")}),
    }
    for name, (path, files) in stdins.items():
        for command in (("grade", "23"), ("grade", "23", "--json")):
            yield InputCase(
                f"grade < {name} · {' '.join(command)}", command, files=files, stdin=path
            )
    yield InputCase(
        "grade --attempt 20,001 characters", ("grade", "23", "--attempt", "长" * 20_001)
    )
    for name, (content, suffix) in IMPORT_SHAPES.items():
        for mode in (("--preview",), ("--preview", "--json"), ("--name", "mine")):
            yield InputCase(
                f"import {name} · {' '.join(mode)}",
                ("bank", "import", f"{{tmp}}/f.{suffix}", *mode),
                files={f"tmp/f.{suffix}": content},
            )
    for name, shape in CONFIG_SHAPES.items():
        for command in CONFIG_COMMANDS:
            yield InputCase(f"config.toml {name} · {' '.join(command)}", command, **shape)
    if _can_mount():
        home = interviewed_home()
        bank = "".join(f"{n}. 第 {n} 个问题是什么意思呢，请详细解释？\n" for n in range(1, 9001))
        for command in FULL_DISK_COMMANDS:
            shown = " ".join(a for a in command if "{tmp}" not in a)
            yield InputCase(
                f"a full disk · {shown}",
                command,
                files={**home, "tmp/big.md": bank},
                full_disk=True,
                says_full=command[0] in SAYS_FULL,
                not_said=("permission",),
            )
