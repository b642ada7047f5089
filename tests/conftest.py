"""Suite-wide: an ERROR in the log fails the test that caused it."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture):
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, f"logged errors: {[r.getMessage() for r in errors]}"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="write the golden files in tests/data/golden anew (with -n 0: "
                          "and show the diff)")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
