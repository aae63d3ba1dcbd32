"""Fixtures for the meshcat tests: servers (the headless-Chromium fixtures
``chromium_executable`` and ``browser`` are in tests/conftest.py). Every
server started here is stopped in the fixture's teardown.
"""
from __future__ import annotations

import pytest

from scenegraph.visualization import Meshcat


@pytest.fixture
def meshcat():
    """A Meshcat on an ephemeral port, stopped at teardown."""
    m = Meshcat(port=0)
    yield m
    m._server.stop()
    assert not m._server._thread.is_alive()
