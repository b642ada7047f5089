"""The deploy files, tried as far as this machine allows (no Docker daemon here): the unit file
passes `systemd-analyze verify`, the entry point the image runs works, the image is built from
the lock file as a non-root user."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not on this machine")
def test_the_unit_file_verifies(tmp_path):
    # Point the unit at this checkout instead of /opt/keizerbot, and run it as root here.
    unit = (DEPLOY / "keizerbot.service").read_text(encoding="utf-8")
    unit = unit.replace("/opt/keizerbot/.venv", str(Path(sys.executable).parents[1]))
    unit = unit.replace("/opt/keizerbot", str(ROOT)).replace("/etc/keizerbot.env",
                                                             str(DEPLOY / "keizerbot.env"))
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
    assert "BotFather" in done.stderr and "keizerbot demo" in done.stderr


def test_the_image_is_slim_non_root_and_locked():
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert "uv sync --locked --no-dev" in dockerfile and "tzdata" in dockerfile
    assert "USER keizer" in dockerfile
    assert 'ENTRYPOINT ["/app/.venv/bin/keizerbot"]' in dockerfile
    compose = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    assert "keizer-data:/data" in compose and "restart: unless-stopped" in compose
