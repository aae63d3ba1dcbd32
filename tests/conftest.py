"""Session-wide test options and the headless-browser fixtures.

``--fuzz-long`` runs the long fuzz profile of tests/robustness/test_query_fuzz.py
(2,000 hypothesis examples per shape pair, minutes instead of seconds); the
environment variable ``FUZZ_LONG=1`` does the same.

Browser tests (the ``browser`` fixture: a real headless Chromium) need a
Chromium on PATH (``chromium``, ``chromium-browser`` or ``google-chrome``).
The test session never installs system packages: without one, those tests
skip with a one-line reason, unless ``SCENEGRAPH_REQUIRE_BROWSER=1`` is set
(``.ci/run`` sets it after installing chromium itself), in which case they
fail.
"""
import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the long fuzz profile (2,000 examples per shape pair)")


def pytest_configure(config):
    if config.getoption("--fuzz-long"):
        os.environ["FUZZ_LONG"] = "1"


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """Path of a Chromium; skips (or fails, if SCENEGRAPH_REQUIRE_BROWSER=1)
    when there is none. Never installs anything."""
    from tests.scenegraph.visualization.browser import find_chromium
    path = find_chromium()
    if path is None:
        reason = ("no Chromium on PATH (chromium, chromium-browser or google-chrome); "
                  "install one to run the browser tests")
        if os.environ.get("SCENEGRAPH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"SCENEGRAPH_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def browser(chromium_executable):
    """One headless Chromium per test module, killed (process group) at teardown."""
    from tests.scenegraph.visualization.browser import Browser
    b = Browser(chromium_executable)
    yield b
    b.close()
