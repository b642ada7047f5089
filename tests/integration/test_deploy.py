"""The deploy files, tried as far as this machine allows (no Docker daemon here): the unit file
passes `systemd-analyze verify`, the entry point the image runs works, the image is built from
the lock file as a non-root user."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from core.season import Season, read_season
from storage.address import password_of
from storage.seasons import import_season
from storage.store import open_store
from tests.meaning import fits
from tests.postgres import STORE_ROLE, admin, as_superuser, binaries, one_value

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not on this machine")
def test_the_unit_file_verifies(tmp_path):
    # Point the unit at this checkout instead of /opt/keizerbot, and run it as root here.
    unit = (DEPLOY / "keizerbot.service").read_text(encoding="utf-8")
    unit = unit.replace("/opt/keizerbot/.venv", str(Path(sys.executable).parents[1]))
    unit = unit.replace("/opt/keizerbot", str(ROOT))
    unit = unit.replace("User=keizer", "User=root").replace("Group=keizer", "Group=root")
    path = tmp_path / "keizerbot.service"
    path.write_text(unit, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_image_entry_point_explains_a_missing_token(tmp_path):
    """The Dockerfile's ENTRYPOINT is the venv's keizerbot; without a token it says how to
    get one (and points to the demo) instead of crashing."""
    entry = Path(sys.executable).parent / "keizerbot"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "KEIZER_"))}
    done = subprocess.run([str(entry)], capture_output=True, text=True, cwd=tmp_path, env=env,
                          check=False)
    assert done.returncode == 1
    assert fits(done.stderr, "NO_TOKEN")


def test_the_image_is_slim_non_root_and_locked():
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert "uv sync --locked --no-dev" in dockerfile and "tzdata" in dockerfile
    assert "USER keizer" in dockerfile
    assert 'ENTRYPOINT ["/app/.venv/bin/keizerbot"]' in dockerfile
    compose = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    assert "keizer-data:/data" in compose and "restart: unless-stopped" in compose


def _strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _settings_of(path: Path) -> set[str]:
    """The settings an env file names, set or shown commented out."""
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", path.read_text(encoding="utf-8"), re.M))


def test_the_hosted_compose_file_takes_every_setting_from_hosted_env():
    """Issue 46: Compose reads `${...}` from the shell or deploy/.env, never from an
    env_file: the file interpolates nothing, and every service's settings come from the
    hosted.env the guide makes (in the repository's folder), which neither git nor the image
    holds."""
    compose = yaml.safe_load((DEPLOY / "docker-compose.hosted.yml").read_text(encoding="utf-8"))
    assert not [s for s in _strings(compose) if re.search(r"\$(?!\$)", s)]
    services = compose["services"]
    for name, service in services.items():
        assert (DEPLOY / service["env_file"]).resolve() == ROOT / "hosted.env", name
    address = services["host"]["environment"]["KEIZER_DB"]
    assert address.startswith("postgresql://keizerbot@postgres/") and password_of(address) == ""
    assert "--host" in services["postgres"]["healthcheck"]["test"]  # not the socket
    needed = {"PGPASSWORD", "POSTGRES_PASSWORD", "KEIZER_SECRET_KEY", "KEIZER_PUBLIC_URL",
              *re.findall(r"\{\$([A-Z_]+)\}", (DEPLOY / "Caddyfile").read_text(encoding="utf-8"))}
    needed -= {"KEIZER_UPSTREAM", "KEIZER_WEB_PORT"}  # the compose file's own
    assert needed <= _settings_of(DEPLOY / "hosted.env.example")
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert "install -m 600 deploy/hosted.env.example hosted.env" in guide
    assert subprocess.run(["git", "check-ignore", "-q", "hosted.env"], cwd=ROOT,
                          check=False).returncode == 0
    assert "hosted.env" in (ROOT / ".dockerignore").read_text(encoding="utf-8").split()


def test_env_example_lists_every_setting_and_the_image_listens_in_its_container():
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', (ROOT / "bot" / "config.py").read_text(
        encoding="utf-8")))
    assert read and read <= _settings_of(ROOT / ".env.example")
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert "EXPOSE 8080" in dockerfile and "KEIZER_WEB_HOST=0.0.0.0" in dockerfile
    unit = (DEPLOY / "keizerbot.service").read_text(encoding="utf-8")
    assert "WorkingDirectory=/opt/keizerbot\n" in unit  # whose .env it reads
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for step in ("chown -R keizer: /opt/keizerbot", "sudo -u keizer install -m 600 .env.example"
                 " .env", "/var/lib/keizer/.local/bin/uv sync --locked"):
        assert step in guide, step
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "install -m 600 .env.example .env" in readme and "cp .env.example" not in readme


def test_the_documented_backups_run_as_written_and_are_their_owners_only(
        postgres, postgres_server, tmp_path):
    """The guide's cron line (cron ends a command at a bare `%`), run as written by the
    server's superuser on a store holding a season, and its restore, its steps in order,
    bring every member back and keep the database it replaces; the store's own role cannot
    dump it (forced row level security), which is why the guide does not use it. Compose
    dumps as the image's superuser, the database its set-up makes."""
    season = read_season((ROOT / "examples" / "sliedrecht.json").read_text(encoding="utf-8"))
    asyncio.run(_stored(postgres, season))
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    [cron] = [line.strip() for line in guide.splitlines()
              if re.match(r"^\s+(\S+\s+){5}.*pg_dump", line)]
    command = cron.split(None, 5)[5]
    assert "%" not in command.replace("\\%", "")
    command = command.replace("\\%", "%").replace(
        "pg_dump -Fc keizer", f"pg_dump -Fc '{as_superuser(postgres)}'").replace(
        "/var/lib/postgresql/keizer-backups", str(tmp_path))
    subprocess.run(["sh", "-c", command], check=True, cwd=tmp_path)
    [dump] = tmp_path.glob("keizer-*.dump")
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    for step in ("psql -c 'ALTER DATABASE keizer RENAME TO keizer_before'",
                 "createdb -O keizer keizer", "pg_restore -d keizer /var/lib/postgresql/"):
        assert f"    sudo -u postgres {step}" in guide, step
    name = postgres.split("@/", 1)[1].split("?", 1)[0]
    before = postgres.replace(f"/{name}?", f"/{name}_before?")
    admin(postgres_server, f"ALTER DATABASE {name} RENAME TO {name}_before")
    try:
        admin(postgres_server, f"CREATE DATABASE {name} OWNER {STORE_ROLE}")
        subprocess.run([str(binaries() / "pg_restore"), "-d", as_superuser(postgres),
                        str(dump)], check=True, capture_output=True)
        for restored in (postgres, before):
            assert asyncio.run(one_value(as_superuser(restored),
                                         "SELECT count(*) FROM player")) == len(season.players)
    finally:
        admin(postgres_server, f"DROP DATABASE IF EXISTS {name}_before WITH (FORCE)")
    own = subprocess.run([str(binaries() / "pg_dump"), "-Fc", "-f", str(tmp_path / "own"),
                          postgres], capture_output=True, text=True)
    assert own.returncode != 0 and "row-level security" in own.stderr
    init = (DEPLOY / "postgres-init.sh").read_text(encoding="utf-8")
    database_name = re.search(r"CREATE DATABASE (\w+)", init)[1]
    assert "POSTGRES_USER" not in (DEPLOY / "hosted.env.example").read_text(encoding="utf-8")
    assert f"exec -T postgres \\\n        pg_dump -U postgres -Fc {database_name}" in guide


async def _stored(dsn: str, season: Season) -> None:
    db = await open_store(dsn)
    try:
        await import_season(db, season)
    finally:
        await db.close()
