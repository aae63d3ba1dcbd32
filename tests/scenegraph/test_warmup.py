"""The warm-up's kernel groups: helper groups name the kernels called from Python, a kernel
of a group waits for its group and not after it ended, each group is claimed by one
process."""

from __future__ import annotations

import threading
import time

import pytest
from numba.core import caching

from scenegraph import _jit


def test_the_helper_groups_name_kernels_called_from_python():
    import importlib

    from scenegraph import _warmup
    assert set(_warmup.KERNEL_GROUPS.values()) == set(_warmup.GROUPS)
    for module, name in _warmup.KERNEL_GROUPS:
        kernel = getattr(importlib.import_module(module), name)
        assert isinstance(kernel, caching.numba.core.dispatcher.Dispatcher), (module, name)
    with pytest.raises(ValueError, match="unknown warm-up group 'rays'"):
        _warmup.run_group("rays")


class _FakeHelper:
    def __init__(self):
        self.ended = False

    def poll(self):
        return 0 if self.ended else None


def test_a_kernel_of_the_helpers_group_waits_for_it_and_not_after_it_ended(
        tmp_path, monkeypatch):
    helper = _FakeHelper()
    monkeypatch.setattr(_jit, "_HELPER", {"process": helper, "groups": ("hydroelastic",),
                                          "done": str(tmp_path), "own": set()})
    monkeypatch.setattr(_jit.COMPILE_REPORT, "quiet", True)
    timer = threading.Timer(0.2, lambda: (tmp_path / "hydroelastic.done").write_text(""))
    timer.start()
    start = time.perf_counter()
    assert _jit._wait_for("hydroelastic")
    assert time.perf_counter() - start >= 0.15
    helper.ended = True             # ended without writing the group: compile here
    assert not _jit._wait_for("point queries")


def test_each_group_is_claimed_by_one_process(tmp_path, monkeypatch):
    from scenegraph import _warmup
    monkeypatch.setattr(_jit, "_HELPER", {"process": _FakeHelper(), "groups": (),
                                          "done": str(tmp_path), "own": set()})
    assert _jit._claim("pair queries")
    assert _jit._claim("pair queries")      # still this process's
    assert not _warmup._claim(str(tmp_path), "pair queries")
    assert _warmup._claim(str(tmp_path), "hydroelastic")
    assert not _jit._claim("hydroelastic")
