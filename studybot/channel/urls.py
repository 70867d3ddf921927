"""A base URL's parts: what may be a secret in it, shown masked everywhere, and its port.

An API root needs a scheme, a host, an optional port and a path. User info
(``https://user:KEY@host``), a query (``?auth=KEY``) and a fragment
(``#KEY``) are where pasted keys end up, so nothing studybot prints shows
them: ``masked`` replaces each with ``***``. It works on the text itself,
so a URL that does not even parse is masked the same way.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from studybot.errors import ConfigError

TAOTOKEN_HOST = "taotoken.net"
MASK = "***"
# Query parameters that always carry a key: refused when settings are read, even offline.
SECRET_PARAMS = {"key", "api_key", "apikey", "api-key", "token", "access_token", "secret", "auth"}


def masked(url: str) -> str:
    """``url`` with its user info, query values and fragment replaced by ``***``."""
    rest, hashed, fragment = url.partition("#")
    rest, asked, query = rest.partition("?")
    scheme, separator, tail = rest.partition("://")
    if not separator:
        scheme, tail = "", rest
    authority, slash, path = tail.partition("/")
    if "@" in authority:
        authority = f"{MASK}@{authority.rpartition('@')[2]}"
    shown = f"{scheme}{separator}{authority}{slash}{path}"
    if asked:
        shown += "?" + "&".join(_masked_param(p) for p in query.split("&"))
    if hashed:
        shown += "#" + (MASK if fragment else "")
    return shown


def _masked_param(param: str) -> str:
    name, equals, value = param.partition("=")
    if not equals:
        return MASK if name else ""  # a bare value may be the key itself
    return f"{name}={MASK if value else ''}"


def has_user_info(url: str) -> bool:
    """Whether the URL names a user (and maybe a password) before its host."""
    try:
        parts = urlsplit(url)
        return parts.username is not None or parts.password is not None
    except ValueError:
        return "@" in url.partition("://")[2].partition("/")[0]


def secret_params(url: str) -> set[str]:
    """The query's parameters (lower-cased) that are named like a key."""
    query = url.partition("#")[0].partition("?")[2]
    return {name.lower() for name, _ in parse_qsl(query, keep_blank_values=True)} & SECRET_PARAMS


def refuse_secrets(url: str, where: str, env_key: str) -> None:
    """A key pasted into the URL would be stored and printed: refuse it, without echoing it."""
    if has_user_info(url) or secret_params(url):
        raise ConfigError(
            f"{where} contains a key or password; studybot will not store or send it that way",
            hint="remove it from the URL and export it instead, e.g. "
            f"export {env_key}='…' (env_key names the variable)",
        )


def port_fits(url: str) -> bool:
    """False when the URL names a port that cannot be (``:99999999``, ``:0``, ``:-1``, ``:abc``)."""
    try:
        port = urlsplit(url).port
    except ValueError:
        return False
    return port is None or 1 <= port <= 65535


def host_fits(url: str) -> bool:
    """False when the host cannot be a DNS name (a label over 63 characters, an empty one…)."""
    try:
        host = urlsplit(url).hostname or ""
        if host.startswith("["):
            return True
        host.encode("idna")
    except (ValueError, UnicodeError):
        return False
    return True


def is_taotoken(base_url: str) -> bool:
    try:
        host = urlsplit(base_url).hostname or ""
    except ValueError:
        return False
    return host == TAOTOKEN_HOST or host.endswith("." + TAOTOKEN_HOST)
