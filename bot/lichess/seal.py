"""The lichess tokens at rest: sealed with the deployment's key (`KEIZER_SECRET_KEY`), so a
copy of the database or of a backup holds no token anyone can use."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken


class Seal:
    def __init__(self, key: str) -> None:
        """`key`: one `Fernet.generate_key()` made (docs/deploy.md says how)."""
        self._fernet = Fernet(key.encode())

    def close(self, token: str) -> str:
        return self._fernet.encrypt(token.encode()).decode()

    def open(self, sealed: str) -> str | None:
        """The token, or None when it was sealed with another key (the key was changed: the
        member links again)."""
        try:
            return self._fernet.decrypt(sealed.encode()).decode()
        except InvalidToken:
            return None


def valid_key(key: str) -> bool:
    try:
        Fernet(key.encode())
    except ValueError:
        return False
    return True
