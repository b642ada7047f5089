"""One TLS context for every HTTP client of the process (Telegram's and lichess's): httpx
loads the certificate bundle for each client it makes otherwise, about 20 ms of CPU each time,
and a lichess call makes one."""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls() -> ssl.SSLContext:
    return httpx.create_ssl_context()
