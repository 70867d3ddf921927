"""The ``studybot`` entry point: Ctrl-C at any moment, start-up included, exits 130 quietly.

Only the standard library is imported here, so the handler is in place
before click, the CLI and everything they pull in are loaded.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C


def main() -> None:
    try:
        from studybot.cli import main as cli_main

        cli_main()
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        sys.exit(INTERRUPTED)
