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


def test_the_hydroelastic_group_in_the_helper_compiles_no_pair_query_kernel(monkeypatch):
    # The helper process compiles the hydroelastic group while the first
    # process compiles the pair queries: the group must not need their
    # compiled entry (neither the broadphase's candidates nor the loading at
    # context creation), or both cores compile it.
    from scenegraph import _warmup
    from scenegraph.hydroelastic import contact_kernels
    from scenegraph.proximity.scene import ProximityScene

    called = []

    def refuse(what):
        def call(*args, **kwargs):
            called.append(what)     # (prepare_pair_queries swallows errors)
            raise AssertionError(f"the hydroelastic warm-up called {what}")
        return call

    monkeypatch.setenv("SCENEGRAPH_WARMUP_HELPER", "1")
    monkeypatch.setattr(_warmup, "_PREPARED", {"pair queries": False})
    monkeypatch.setattr(_warmup, "prepare_group", refuse("prepare_group"))
    monkeypatch.setattr(ProximityScene, "candidates", refuse("the broadphase"))
    _warmup.run_group("hydroelastic")
    assert called == []
    assert contact_kernels.soft_rigid_polygons.signatures
    assert contact_kernels.soft_soft_polygons.signatures
