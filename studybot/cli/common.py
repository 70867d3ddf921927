"""Small pieces every command shares: JSON output, option sets, the store."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def stderr_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def stdout_console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def is_interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def human_bytes(value: float | None) -> str:
    if value is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TiB"
