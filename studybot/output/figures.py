"""How a share and a moment are written, the same in every report.

A moment stored as an ISO timestamp (UTC) is shown in the local time
zone, to the minute: "2026-12-07 08:49".

A share is shown at its precision, except that only an exact whole is
"100%" and only an exact nothing is "0%": a share that would round onto
either end gets one more decimal, rounded away from that end (99.55% is
"99.5%", 0.04% is "0.1%"), so a report never claims all or none of
something it did not see all or none of.
"""

from __future__ import annotations

import math


def percent(share: float, decimals: int = 0) -> str:
    """``share`` (1.0 is all) as a percentage with ``decimals`` places, never falsely 100% or 0%."""
    shown = f"{share:.{decimals}%}"
    hundred, zero = f"{1:.{decimals}%}", f"{0:.{decimals}%}"
    if shown not in (hundred, zero) or share in (0, 1):
        return shown
    places = decimals + 1
    scale = 10**places
    edge = math.floor if shown == hundred else math.ceil  # away from the end it rounded onto
    return f"{edge(round(share * 100 * scale, 6)) / scale:.{places}f}%"


def local_minute(stamp: str) -> str:
    """An ISO timestamp as local time to the minute ("2026-12-07 08:49"); as stored if unreadable."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return stamp
    if moment.tzinfo is None:  # stored without a zone: studybot writes UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
