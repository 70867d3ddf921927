"""Where answers come from: the one place that picks a provider.

The contract is ``base.Provider``: `warm` with what a resumed session
sent before, `answer` one question, `pose` it as an interviewer,
`follow_up` on the side, `summarise` a segment, `grade` and `probe`
as side requests a provider may decline (None); callers ask
`provider.live`, never its name. The providers: the bank's answer key
(``offline``) and any OpenAI-compatible endpoint (``openai_compat``, reading
replies off the wire in ``wire`` and ``replies``, timing a stream in
``watch``, failures in the user's terms in ``failures``, the JSON mode an
endpoint takes in ``json_modes``); grades and probes to another model
(``graded``). A reply's usage is what the provider itself reported (None
when it reported nothing); studybot keeps its own count beside it
(`costs.tokens.settle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybot.channel.providers.base import Provider, quiet
from studybot.types import Notify

if TYPE_CHECKING:  # annotations only: importing the contract must not load the bank
    from studybot.bank import Bank
    from studybot.channel.config import Settings

__all__ = ["Provider", "choose"]


OFFLINE_NOTICE = (
    "offline: answering from the bank's answer key; set {var}{empty}{model} for a live model"
    " · token, cache and KV figures are simulated"
)


def choose(settings: Settings, bank: Bank, notify: Notify = quiet) -> tuple[Provider, str | None]:
    """The provider these settings ask for, and a notice to print once (or None).

    ``notify`` receives the provider's notices (retries, waits) until the
    study loop connects its Listener.
    """
    provider, notice = _answering(settings, bank, notify)
    grader = _grader(settings, notify)
    if grader is None:
        return provider, notice
    from studybot.channel.providers.graded import WithGrader

    return WithGrader(provider, grader), notice


def _grader(settings: Settings, notify: Notify) -> Provider | None:
    """The provider of ``[grader]`` / ``--grader``; None without one, or when the answers are
    offline (the answer key's session is graded offline, as without a grader)."""
    from studybot.channel import checks
    from studybot.channel.grader import grader_settings
    from studybot.errors import ConfigError

    side = grader_settings(settings)
    if side is None or not settings.live:
        return None
    if side.api_key() is None:
        raise ConfigError(
            f"the grader ({settings.side_origin}) reads its key from {side.env_key}, "
            "which is not set",
            hint=f"export {side.env_key}='…' (any value for a local server that needs no key), "
            "or set env_key in the grader's profile",
        )
    checks.check(side)  # exit 2 on a known-bad URL or model, before any request
    from studybot.channel.providers.openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(side, notify=notify)


def _answering(settings: Settings, bank: Bank, notify: Notify) -> tuple[Provider, str | None]:
    from studybot.channel import checks

    if settings.live:
        from studybot.channel.providers.openai_compat import OpenAICompatProvider

        checks.check(settings)  # exit 2 on a known-bad URL, key or model, before any request
        return OpenAICompatProvider(settings, notify=notify), None
    from studybot.channel.providers.offline import OfflineProvider
    from studybot.costs.cache.rules import resolve

    cache = resolve(None, settings).simulator()  # the same rule plan and show use
    provider = OfflineProvider(bank, delay=settings.offline_delay, cache=cache, notify=notify)
    if settings.offline:
        where = checks.origin(settings, "offline")
        return provider, f"offline: answering from the bank's answer key ({where})"
    # The key alone is not enough: without a model ID the first live run stops.
    model = "" if settings.model else " and pass --model ID"
    # present but not live: the variable is empty
    empty = " (it is set but empty)" if checks.key_facts(settings).present else ""
    return provider, OFFLINE_NOTICE.format(var=settings.env_key, empty=empty, model=model)
