"""Work on a whole bank at once: reading a file of 20,000 questions, writing the bank.

Such work makes millions of small objects and no reference cycles, and
Python's cyclic collector would walk the growing heap again and again: a
tenth of the time of a large import. ``steady()`` holds the collector off for
the duration; reference counting still frees what is dropped.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def steady() -> Iterator[None]:
    """No cyclic garbage collection inside the block (as it was after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
