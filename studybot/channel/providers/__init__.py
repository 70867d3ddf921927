"""Where answers come from: the one place that picks a provider.

The contract is ``base.Provider``: ``answer`` one question, ``follow_up``
on the side, ``summarise`` a segment, ``grade`` and ``probe`` as side
requests a provider may decline, ``warm`` with what a resumed session sent
before; callers ask ``provider.live``, never its name. A reply's ``usage``
is what the provider itself reported (None when it reported nothing);
studybot keeps its own count beside it (``costs.tokens.settle``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybot.channel.providers.base import Provider, quiet
from studybot.types import Notify

if TYPE_CHECKING:  # annotations only: importing the contract must not load the bank
    from studybot.bank import Bank
    from studybot.channel.config import Settings

__all__ = ["Provider", "choose"]


OFFLINE_NOTICE = "offline: answering from the bank's answer key; set {var} for a live model"


def choose(settings: Settings, bank: Bank, notify: Notify = quiet) -> tuple[Provider, str | None]:
    """The provider these settings ask for, and a notice to print once (or None).

    ``notify`` receives the provider's notices (retries, waits) until the
    study loop connects its Listener.
    """
    from studybot.channel import checks as channel

    if settings.live:
        from studybot.channel.providers.openai_compat import OpenAICompatProvider

        channel.check(settings)  # exit 2 on a known-bad URL, key or model, before any request
        return OpenAICompatProvider(settings, notify=notify), None
    from studybot.channel.providers.offline import OfflineProvider
    from studybot.costs.cache.rules import resolve

    cache = resolve(None, settings).simulator()  # the same rule plan and show use
    provider = OfflineProvider(bank, delay=settings.offline_delay, cache=cache, notify=notify)
    if settings.offline:
        where = channel.origin(settings, "offline")
        return provider, f"offline: answering from the bank's answer key ({where})"
    notice = OFFLINE_NOTICE.format(var=settings.env_key)
    if channel.key_facts(settings).present:  # present but not live: the variable is empty
        notice += f" ({settings.env_key} is set but empty)"
    return provider, notice
