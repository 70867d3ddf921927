"""How much code three user flows touch: distinct functions called and modules loaded.

The flows (issue 32's closing note): `run --quiz` of one question to the
rating row, `bank import` of a small Markdown file, and an `interview` of
one question with one probe. Each runs studybot in a child process (the
quiz and the interview in a pseudo-terminal, answered as a learner would),
with a profile hook that records every function called; at exit the child
writes what it saw. Prints, per flow: distinct studybot functions called,
distinct functions called in all, studybot modules loaded, modules loaded.

    python bench/flows.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect

QUIZ_ANSWER = "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer。"
PARTIAL_Q5 = "注意力分数矩阵是 n×n 的。多轮对话要用摘要。KV 缓存随长度线性增长。"
IMPORTED = "# 我的题库\n\n1. 什么是注意力？\n2. 什么是 KV 缓存？\n3. 为什么要分段？\n"

# The child: a profile hook around the real entry point; the report written at exit.
CHILD = """
import atexit, json, os, sys, threading
seen = set()
def hook(frame, event, arg):
    if event == "call":
        code = frame.f_code
        seen.add((code.co_filename, code.co_firstlineno, code.co_name))
def report():
    sys.setprofile(None)
    mine = {f for f in seen if "/studybot/" in f[0]}
    modules = list(sys.modules)
    with open(os.environ["FLOW_REPORT"], "w", encoding="utf-8") as out:
        json.dump({
            "studybot_functions": len(mine),
            "functions": len(seen),
            "studybot_modules": sum(1 for m in modules if m.split(".")[0] == "studybot"),
            "modules": len(modules),
        }, out)
atexit.register(report)
sys.setprofile(hook)
threading.setprofile(hook)
sys.argv = ["studybot", *sys.argv[1:]]
from studybot.launch import main
main()
"""


def environment(home: Path, report: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"TAOTOKEN_API_KEY", "COLUMNS"}}
    env |= {"STUDYBOT_HOME": str(home), "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"}
    return env | {"FLOW_REPORT": str(report)}


def spawn(home: Path, report: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-c", CHILD, *args],
        env=environment(home, report),
        encoding="utf-8",
        timeout=120,
        dimensions=(40, 140),
    )


def quiz(home: Path, report: Path) -> None:
    child = spawn(home, report, "run", "--ids", "1", "--quiz")
    child.expect(r"think,\s+then\s+reveal;")
    child.expect("›")
    child.send(QUIZ_ANSWER + "\r\r")
    child.expect(r"u\s+h\s+\?\s+q: ")  # the marks step: confirmed as they are
    child.send("\r")
    child.expect(r"f\s+h\s+\?\s+q: ")  # the rating row
    child.send("3")
    child.expect(pexpect.EOF)
    child.close()


def bank_import(home: Path, report: Path) -> None:
    source = home / "mine.md"
    source.write_text(IMPORTED, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-c", CHILD, "bank", "import", str(source), "--name", "mine"],
        env=environment(home, report),
        check=True,
        capture_output=True,
    )


def interview(home: Path, report: Path) -> None:
    child = spawn(home, report, "interview", "--ids", "5", "--followups", "1")
    for text in (PARTIAL_Q5, "序列长度翻倍时分数矩阵变为 4 倍。"):
        child.expect("Ctrl-C stops, your draft is kept")
        child.expect("›")
        child.send(text + "\r\r")
    child.expect("ratings ›")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()


FLOWS = {"run --quiz": quiz, "bank import": bank_import, "interview": interview}


def main() -> None:
    print(f"{'flow':<12} {'studybot fns':>12} {'all fns':>8} {'sb modules':>10} {'modules':>8}")
    for name, flow in FLOWS.items():
        with tempfile.TemporaryDirectory() as folder:
            home, report = Path(folder) / "home", Path(folder) / "report.json"
            home.mkdir()
            flow(home, report)
            seen = json.loads(report.read_text(encoding="utf-8"))
        print(
            f"{name:<12} {seen['studybot_functions']:>12} {seen['functions']:>8}"
            f" {seen['studybot_modules']:>10} {seen['modules']:>8}"
        )


if __name__ == "__main__":
    main()
