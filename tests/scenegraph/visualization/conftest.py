"""Fixtures for the meshcat tests: servers, and a real headless Chromium.

Chromium is Debian's ``chromium`` package; when it is missing and we are
root with apt-get (a clean CI machine), the session installs it, as
``.ci/run`` does. Every server and browser started here is stopped in the
fixture's teardown.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from scenegraph.visualization import Meshcat
from tests.scenegraph.visualization.browser import Browser, find_chromium


def _install_chromium() -> str:
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail("the browser tests need Debian's chromium, which is not installed and "
                    "cannot be installed here (needs root and apt-get): run "
                    "`apt-get install -y chromium` (as .ci/run does)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq"],
                    ["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq",
                     "chromium"]):
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1200)
        if result.returncode != 0:
            pytest.fail(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    path = find_chromium()
    if path is None:
        pytest.fail("apt-get installed chromium but no chromium executable is on PATH")
    return path


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    return find_chromium() or _install_chromium()


@pytest.fixture(scope="module")
def browser(chromium_executable):
    """One headless Chromium per test module, killed (process group) at teardown."""
    b = Browser(chromium_executable)
    yield b
    b.close()


@pytest.fixture
def meshcat():
    """A Meshcat on an ephemeral port, stopped at teardown."""
    m = Meshcat(port=0)
    yield m
    m._server.stop()
    assert not m._server._thread.is_alive()
