"""A share as a percentage: only an exact whole reads 100%, only an exact nothing 0%."""

from __future__ import annotations

import pytest

from studybot.output.figures import percent


@pytest.mark.parametrize(
    ("share", "decimals", "shown"),
    [
        (0.9955, 0, "99.5%"),  # the cache share: it was printed "100%"
        (0.99999, 0, "99.9%"),
        (0.99996, 1, "99.99%"),  # at one decimal the same rule adds a second
        (0.0004, 0, "0.1%"),  # some, however little, is not none
        (0.00004, 1, "0.01%"),
        (1.0, 0, "100%"),
        (1, 1, "100.0%"),
        (0.0, 0, "0%"),
        (0.5, 0, "50%"),
        (0.994, 0, "99%"),  # away from the ends a share rounds as usual
        (0.006, 0, "1%"),
        (0.123, 1, "12.3%"),
    ],
)
def test_a_share_reads_all_or_none_only_when_it_is(share, decimals, shown):
    assert percent(share, decimals) == shown


def test_every_report_writes_its_shares_through_the_one_rule():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    raw = re.compile(r":\.\d%\}|\* ?100\b.*%")  # f"{x:.0%}", or a share scaled by hand
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("studybot", "bench")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "figures.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if raw.search(line)
    ]
    assert found == []
