"""Session-wide test options.

``--fuzz-long`` runs the long fuzz profile of tests/robustness/test_query_fuzz.py
(2,000 hypothesis examples per shape pair, minutes instead of seconds); the
environment variable ``FUZZ_LONG=1`` does the same.
"""
import os


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the long fuzz profile (2,000 examples per shape pair)")


def pytest_configure(config):
    if config.getoption("--fuzz-long"):
        os.environ["FUZZ_LONG"] = "1"
