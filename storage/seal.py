"""The tokens at rest: sealed with the deployment's key (`KEIZER_SECRET_KEY`), so that a copy
of the database, of a dump or of a backup holds no token anyone can use. A club's bot token
is full control of its bot; a member's lichess token plays his games."""

from __future__ import annotations

import hashlib

from cryptography.fernet import Fernet, InvalidToken


class Seal:
    def __init__(self, key: str) -> None:
        """`key`: one `Fernet.generate_key()` made (docs/deploy.md says how)."""
        self._fernet = Fernet(key.encode())

    def close(self, token: str) -> str:
        return self._fernet.encrypt(token.encode()).decode()

    def open(self, sealed: str) -> str | None:
        """The token, or None when it was sealed with another key (the key was changed
        without `keizerbot rekey`)."""
        try:
            return self._fernet.decrypt(sealed.encode()).decode()
        except InvalidToken:
            return None


class Rekey:
    """Tokens sealed with `old` (or left in the clear by an older release) sealed again with
    `new`: the move to a new key, or the first seal."""

    def __init__(self, new: Seal, old: Seal | None = None) -> None:
        self.new, self.old = new, old

    def __call__(self, stored: str) -> str | None:
        """`stored` sealed with the new key; None if no key here opens it."""
        if in_clear(stored):
            return self.new.close(stored)
        token = self.new.open(stored)
        if token is None and self.old is not None:
            token = self.old.open(stored)
        return None if token is None else self.new.close(token)


def in_clear(stored: str) -> bool:
    """A token an older release stored unsealed: a Telegram bot token starts with its bot's
    number, a sealed one never with a digit (a Fernet token starts `gAAAAA`)."""
    return stored[:1].isdigit()


def fingerprint(token: str) -> str:
    """What tells two clubs' tokens apart without opening them (one bot serves one club). A
    bot token's secret part is too long to guess from its hash."""
    return hashlib.sha256(token.encode()).hexdigest()


def valid_key(key: str) -> bool:
    try:
        Fernet(key.encode())
    except ValueError:
        return False
    return True
