"""The house keeps its shape: layered stages, one builder of requests, one boundary, one way in.

These read the source the way a reviewer would: a forbidden import, a
second place that builds messages or a second exit-code table fails here,
with the file that broke the rule named.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "studybot"
STAGES = ("bank", "study", "learn", "channel", "costs", "storage", "output", "cli")
# The modules that may sit at the package root, and why.
ROOT_MODULES = {
    "__init__.py",  # the version
    "__main__.py",  # python -m studybot
    "launch.py",  # the console script and the one error boundary (standard library only)
    "errors.py",  # the error hierarchy and the exit codes every stage raises
    "types.py",  # the values every stage passes (messages, replies, usage)
}


def sources(under: Path = PACKAGE) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in sorted(under.rglob("*.py"))}


def lint_imports(config_root: Path) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("lint-imports")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "importlinter.cli"]
    return subprocess.run(
        [*command, "--config", str(config_root / "pyproject.toml"), "--no-cache"],
        cwd=config_root,
        env={"PYTHONPATH": str(config_root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )


def test_only_the_shared_modules_sit_at_the_package_root():
    at_root = {p.name for p in PACKAGE.glob("*.py")}
    assert at_root == ROOT_MODULES
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"} >= set(
        STAGES
    )


def test_every_stage_says_what_it_owns_and_what_it_may_import():
    for stage in STAGES:
        text = (PACKAGE / stage / "__init__.py").read_text(encoding="utf-8")
        docstring = re.match(r'\s*"""(.*?)"""', text, re.S)
        assert docstring, f"studybot/{stage}/__init__.py has no docstring"
        assert "import" in docstring.group(1), f"{stage}: say what it may import"


def test_the_layer_contract_holds():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_the_layer_contract_catches_a_forbidden_import(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(PACKAGE, copy / "studybot", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    store = copy / "studybot" / "storage" / "store.py"
    store.write_text(
        store.read_text(encoding="utf-8") + "\nfrom studybot.study import session  # noqa\n",
        encoding="utf-8",
    )
    result = lint_imports(copy)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "studybot.storage.store" in result.stdout


def test_only_the_conversation_builds_request_messages():
    builders = re.compile(r"""["']role["']\s*:""")
    building = [
        str(path.relative_to(ROOT))
        for path, text in sources().items()
        if builders.search(text) and path.name != "conversation.py"
    ]
    assert building == []


def test_one_way_into_a_session_and_one_error_boundary():
    texts = sources()
    # Commands open a study only through open_study: no command builds a Study itself.
    for path, text in sources(PACKAGE / "cli").items():
        assert "Study(" not in text, path
        assert "providers.choose(" not in text, path
    # Exit codes are named once (errors.py) and mapped once (launch.handle).
    for path, text in texts.items():
        if path.name in {"errors.py"}:
            continue
        assert not re.search(r"\b130\b", text), f"{path}: the exit code 130 is errors.INTERRUPTED"
        assert "sys.exit(" not in text or path.name == "launch.py", path
        assert "SystemExit(" not in text or path.name == "launch.py", path


def test_nothing_asks_a_provider_its_name():
    asking = [
        str(path.relative_to(ROOT))
        for path, text in sources().items()
        if re.search(r"provider(\.name)?\s*[!=]=\s*[\"']offline[\"']", text)
    ]
    assert asking == []


@pytest.mark.parametrize("limit", [6])
def test_type_ignores_do_not_grow(limit):
    count = sum(text.count("type: ignore") for text in sources().values())
    assert count <= limit


# The packages whose docstrings name their modules; bank/importer's docstring is the
# importer's own (issue 34), checked once that issue lands.
MAPPED = (*STAGES, "channel/providers", "costs/cache", "costs/kv")
NAMED = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_.]*)?``")


def modules_of(package: Path) -> set[str]:
    """A package's modules and subpackages, by name."""
    found = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    return found | {p.name for p in package.iterdir() if (p / "__init__.py").exists()}


@pytest.mark.parametrize("package", MAPPED)
def test_each_package_docstring_names_exactly_its_modules(package):
    text = (PACKAGE / package / "__init__.py").read_text(encoding="utf-8")
    docstring = re.match(r'\s*"""(.*?)"""', text, re.S).group(1)
    # ``name`` or ``name.attribute`` in double backquotes names a module of this package.
    named = set(NAMED.findall(docstring))
    assert named == modules_of(PACKAGE / package), (
        f"studybot/{package}: names no such module {sorted(named - modules_of(PACKAGE / package))}"
        f", leaves out {sorted(modules_of(PACKAGE / package) - named)}"
    )


def test_the_architecture_page_names_every_package_and_the_provider_contract():
    from studybot.channel.providers.base import Provider

    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in (*MAPPED, "bank/importer"):
        assert f"`{package}/`" in page, f"docs/architecture.md does not name {package}/"
    methods = {
        name
        for name, value in vars(Provider).items()
        if callable(value) and not name.startswith("_")
    }
    assert methods == {"warm", "answer", "pose", "follow_up", "summarise", "grade", "probe"}
    contract = page.split("## Where to add")[1].split("- **an importer")[0]
    for method in methods:
        assert f"`{method}`" in contract, f"the provider contract on the page leaves out {method}"


def test_mypy_finds_no_error():
    # The whole package, the importer included (its reader state is declared: importer.state).
    found = subprocess.run(
        [sys.executable, "-m", "mypy", "studybot"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in found.stdout.splitlines() if ": error:" in line]
    assert found.returncode == 0 and errors == [], found.stdout + found.stderr


def test_no_test_module_imports_another():
    # Shared helpers live in tests/*.py modules that are not test files (terminal, imported, …).
    pattern = re.compile(r"^\s*(?:from|import)\s+test_\w+", re.M)
    importing = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert importing == []


# A basename that two modules share means one thing at two layers; each pair kept, and why.
SAME_MEANING = {
    "config": {"channel/config.py", "cli/config.py"},  # the settings; `config show` prints them
    "doctor": {"channel/doctor.py", "cli/doctor.py"},  # the diagnosis; `doctor` prints it
    "export": {"output/export.py", "cli/export.py"},  # notes and data; `export` writes them
    "interview": {"study/interview.py", "cli/interview.py"},  # the interview; its command
    "review": {"learn/review.py", "cli/review.py"},  # the FSRS schedule; `review`/`due` over it
    "recorded": {"study/recorded.py", "costs/cache/recorded.py"},  # a past session's requests,
    # rebuilt from the store (study) and replayed through a cache (costs)
    "rubric": {"bank/rubric.py", "learn/rubric.py"},  # the rubric as written; graded on
    "segments": {"study/segments.py", "storage/segments.py"},  # a session's segments, cut; kept
    "selection": {"bank/selection.py", "study/selection.py"},  # questions looked up; a
    # session's chosen from them
}


def module_names() -> set[str]:
    """Every studybot module's and package's basename."""
    names = {p.stem for p in PACKAGE.rglob("*.py") if p.stem not in {"__init__", "__main__"}}
    return names | {p.parent.name for p in PACKAGE.rglob("__init__.py")}


def aliases_naming_modules(path: Path, text: str, names: set[str]) -> list[str]:
    """``import x as y`` where y is another module's name: a reader takes y for that module."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                own = alias.name.rsplit(".", 1)[-1]
                if alias.asname in names and alias.asname != own:
                    found.append(f"{path}:{node.lineno}: {alias.name} as {alias.asname}")
    return found


def test_no_import_aliases_a_module_to_another_modules_name():
    names = module_names()
    assert aliases_naming_modules(Path("x.py"), "from a.b import grading as grade\n", names)
    found = [
        hit
        for folder in ("studybot", "tests", "bench")
        for path, text in sources(ROOT / folder).items()
        for hit in aliases_naming_modules(path.relative_to(ROOT), text, names)
    ]
    assert found == [], "import the module as itself (or its names):\n" + "\n".join(found)


def test_module_basenames_repeat_only_where_they_mean_the_same_thing():
    paths: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.stem not in {"__init__", "__main__"}:
            paths.setdefault(path.stem, set()).add(str(path.relative_to(PACKAGE)))
    repeated = {name: where for name, where in paths.items() if len(where) > 1}
    # A new repeat with another meaning gets its own name; one with the same meaning, a line above.
    assert repeated == SAME_MEANING


MODULE_LINES = 400  # the house rule: a module is read whole, in one sitting


def test_no_module_is_longer_than_a_reader_holds():
    long = {
        str(path.relative_to(ROOT)): text.count("\n")
        for path, text in sources().items()
        if text.count("\n") > MODULE_LINES
    }
    assert not long, long


# The importer and its commands: each rule (a regular expression) is written in one place.
IMPORT_CODE = (
    PACKAGE / "bank" / "importer",
    PACKAGE / "cli" / "importing.py",
    PACKAGE / "cli" / "bank_import.py",
)
RE_CALLS = {
    "compile",
    "match",
    "fullmatch",
    "search",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
}


def regex_literals(path: Path, text: str) -> list[tuple[str, str]]:
    """(pattern, place) of each ``re.<call>("literal", …)``: the call compiles that literal."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in RE_CALLS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.args[0].value, f"{path}:{node.lineno}"))
    return found


def rules_written_twice(texts: dict[Path, str]) -> dict[str, list[str]]:
    places: dict[str, list[str]] = {}
    for path, text in texts.items():
        for pattern, place in regex_literals(path, text):
            places.setdefault(pattern, []).append(place)
    return {pattern: where for pattern, where in places.items() if len(where) > 1}


def test_each_importer_rule_is_written_in_one_place():
    planted = {Path("a.py"): 'X = re.compile(r"\\d+")\n', Path("b.py"): 're.sub(r"\\d+", "", s)\n'}
    assert rules_written_twice(planted) == {r"\d+": ["a.py:1", "b.py:1"]}
    texts = {
        path.relative_to(ROOT): text
        for place in IMPORT_CODE
        for path, text in (sources(place) if place.is_dir() else {place: place.read_text()}).items()
    }
    twice = rules_written_twice(texts)
    # A rule used in two modules lives in one and is imported (shared ones: importer.draft).
    assert twice == {}, "one place per rule:\n" + "\n".join(f"{p!r}: {w}" for p, w in twice.items())
