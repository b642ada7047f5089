"""Suite-wide: an ERROR in the log fails the test that caused it; a bytecode cache for the
project's own modules and for pytest's, made once for the workers of a parallel run."""

from __future__ import annotations

import compileall
import difflib
import gc
import logging
import os
import sys
from pathlib import Path

import pytest
from _pytest.assertion import rewrite

# The project machine sets PYTHONDONTWRITEBYTECODE. Without a cache every test worker, and
# every keizerbot process the tests start, compiles core/, storage/ and bot/ again, and
# pytest rewrites every test module's asserts again (docs/performance.md). The cache is
# __pycache__, which git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from hypothesis import settings  # noqa: E402

FIXTURES = ("tests.postgres", "tests.bot.web", "tests.bot.hosting")
"""Fixtures that several test modules share, kept beside the helpers they use: a PostgreSQL
server and a database of it (`postgres`, `failover`), the club's pages served (`web_bot`),
a fake Telegram for each hosted club's bot (`telegram`). Plugins of the processes that run
tests (`pytest_configure`): the controller of a parallel run runs none, and importing them
(the bot, the store, aiohttp: a second) would hold up the start of every worker."""

# The command line speaks the shell's language (LANG); the tests read its Dutch, whatever
# the machine they run on speaks. A test of the English sets it for itself.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# Property tests try a third as many examples in a developer's run as in CI's, which sets
# HYPOTHESIS_PROFILE=ci (.ci/run): the same invariants every few minutes, the full search on
# every landing. A test that names its own count names CI's (`examples`), and so does a
# test of random writes that names its seeds.
THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile("ci" if THOROUGH else "dev")


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _compiled_once(config)
        return
    for name in FIXTURES:
        config.pluginmanager.import_plugin(name)


def _compiled_once(config: pytest.Config) -> None:
    """A fresh clone has no bytecode: each test worker would compile the project's modules,
    pytest and its plugins, and rewrite every test module's asserts itself, all of them side
    by side (8 s of CPU a first run, docs/performance.md). The controller does it once before
    they start, as the import hooks would, half of the files in a forked copy of itself: the
    second core waits otherwise. A cache already there is only checked."""
    jobs = sorted({*_project(), *_imported_uncached()}, key=lambda job: job[0].stat().st_size,
                  reverse=True)
    child = os.fork()
    try:
        for fn, rewritten in jobs[child == 0::2]:
            if rewritten:
                _rewritten(fn, config)
            else:
                compileall.compile_file(fn, quiet=1)
    finally:
        if child == 0:
            os._exit(0)
    os.waitpid(child, 0)


def _project() -> list[tuple[Path, bool]]:
    """Each module of the project, and whether pytest rewrites its asserts."""
    root = Path(__file__).resolve().parent.parent
    plugins = {root / (name.replace(".", "/") + ".py") for name in FIXTURES}
    return [(fn, folder == "tests" and (fn.name == "conftest.py" or fn.name.startswith("test_")
                                        or fn in plugins))
            for folder in ("core", "storage", "bot", "tests")
            for fn in (root / folder).rglob("*.py")]


def _imported_uncached() -> list[tuple[Path, bool]]:
    """What this process imported from a source file with no cache (pytest and its plugins,
    on a fresh clone or where PYTHONDONTWRITEBYTECODE was set), and whether pytest rewrote it."""
    found = []
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        if spec is None or not spec.has_location or not (spec.origin or "").endswith(".py"):
            continue
        fn, rewritten = Path(spec.origin), isinstance(spec.loader, rewrite.AssertionRewritingHook)
        if not os.path.exists(_pyc(fn) if rewritten else spec.cached or fn):
            found.append((fn, rewritten))
    return found


def _pyc(fn: Path) -> Path:
    """Where pytest's import hook keeps the rewritten code of `fn`."""
    return rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)


def _rewritten(fn: Path, config: pytest.Config) -> None:
    """The cache pytest's import hook reads for a test module, a conftest or a plugin. A
    module that does not compile is left to the worker that imports it, which reports it as
    any collection error."""
    pyc = _pyc(fn)
    if rewrite._read_pyc(fn, pyc) is None and rewrite.try_makedirs(pyc.parent):
        try:
            source_hash, code = rewrite._rewrite_test(fn, config)
        except SyntaxError:
            return
        rewrite._write_pyc(config.stash[rewrite.assertstate_key], code, source_hash, pyc)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the imports and the collection made lives as long as the test worker: frozen,
    the collector no longer walks it at each full collection (seconds of CPU in a run). The
    tests make objects by the million and keep few: collected every 20,000 allocations
    instead of 700, the collector's time in the four workers fell from 4.5 to 2.5 s
    (docs/performance.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def examples(thorough: int, *, least: int = 5) -> int:
    """How many examples (or seeds) a property test with CI's count `thorough` tries in this
    run: a third of it in a developer's, and no fewer than `least`."""
    return thorough if THOROUGH else max(least, thorough // 3)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each time the store looks the active season up from here on: the task that asked."""
    import asyncio

    from storage import seasons

    lookups: list[object] = []
    lookup = seasons.active_season

    async def counted(conn):
        lookups.append(asyncio.current_task())
        return await lookup(conn)

    monkeypatch.setattr(seasons, "active_season", counted)
    return lookups


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
def golden(request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]):
    """`golden(path, text)`: the text must be the golden file's; with --update-golden it
    becomes it, and the difference is shown."""
    update = bool(request.config.getoption("--update-golden"))

    def check(path: Path, text: str) -> None:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        diff = "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                            text.splitlines(keepends=True), str(path), "now"))
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            with capsys.disabled():
                print(diff or f"{path.name}: unchanged")
            return
        assert not diff, f"differs from {path} (refresh with --update-golden):\n{diff[:4000]}"

    return check
