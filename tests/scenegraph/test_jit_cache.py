"""The compiled kernels' on-disk cache is stamped with all kernel sources of
the package, so a change to a callee in another module recompiles its
callers instead of loading stale machine code (scenegraph/_jit.py)."""
from __future__ import annotations

import inspect

import pytest

from numba.core import caching

from scenegraph import _jit
from scenegraph.proximity.compiled import narrow_phase


def _write(path, text):
    path.write_text(text)
    return path


def test_digest_changes_when_any_kernel_source_changes(tmp_path):
    _write(tmp_path / "a.py", "from scenegraph._jit import njit\n@njit\ndef f(x):\n    return x\n")
    _write(tmp_path / "b.py", "from scenegraph._jit import njit\n@njit\ndef g(x):\n    return 2 * x\n")
    before = _jit.sources_digest(str(tmp_path))
    _write(tmp_path / "b.py", "from scenegraph._jit import njit\n@njit\ndef g(x):\n    return 3 * x\n")
    assert _jit.sources_digest(str(tmp_path)) != before


def test_digest_ignores_files_without_kernels(tmp_path):
    _write(tmp_path / "a.py", "from scenegraph._jit import njit\n@njit\ndef f(x):\n    return x\n")
    before = _jit.sources_digest(str(tmp_path))
    _write(tmp_path / "notes.py", "VALUE = 1\n")
    assert _jit.sources_digest(str(tmp_path)) == before


def test_package_kernels_are_stamped_with_the_package_digest():
    py_func = narrow_phase.solve_pairs.py_func
    locator = _jit.PACKAGE_LOCATORS[1].from_function(py_func, inspect.getfile(py_func))
    assert locator is not None
    assert locator.get_source_stamp() == _jit.kernel_sources_digest()


def test_package_locators_are_consulted_first_and_decline_other_files(tmp_path):
    assert tuple(caching.CacheImpl._locator_classes[:3]) == _jit.PACKAGE_LOCATORS
    other = _write(tmp_path / "other.py", "def h():\n    return 1\n")
    namespace = {}
    exec(compile(other.read_text(), str(other), "exec"), namespace)
    for locator in _jit.PACKAGE_LOCATORS:
        assert locator.from_function(namespace["h"], str(other)) is None


def test_kernels_compile_without_any_writable_cache_folder(tmp_path, monkeypatch):
    module = _write(tmp_path / "kernel_module.py", "def twice(x):\n    return 2 * x\n")
    namespace = {}
    exec(compile(module.read_text(), str(module), "exec"), namespace)
    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])
    with pytest.warns(RuntimeWarning, match="NUMBA_CACHE_DIR"):
        kernel = _jit.njit(namespace["twice"])
    assert kernel(21) == 42


def test_entry_point_computes_what_the_dispatcher_computes():
    import numpy as np

    from scenegraph.kinematics_kernels import world_poses

    parent = np.array([-1, 0, 1], dtype=np.int64)
    R_in = np.vstack([np.eye(3), np.eye(3)[[1, 2, 0]]])
    p_in = np.array([1.0, 2.0, 3.0, -1.0, 0.5, 0.25])
    rows = np.array([1, 2], dtype=np.int64)
    frame_of = np.array([2], dtype=np.int64)
    R_FG, p_FG = np.eye(3)[None].copy(), np.array([[0.0, 0.0, 1.0]])

    def outputs():
        return (np.empty((3, 3, 3)), np.empty((3, 3)), np.empty((1, 3, 3)), np.empty((1, 3)))

    a, b = outputs(), outputs()
    args = (parent, R_in, p_in, rows, frame_of, R_FG, p_FG, True)
    assert world_poses(*args, *a) == 0
    assert _jit.entry_point(world_poses, args + b)(*args, *b) == 0
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    # p_WG = p_W1 + R_W1·(p_12 + R_12·p_2G) with R_W1 = I, R_12 the row permutation
    # [[0,1,0],[0,0,1],[1,0,0]]: (1, 2, 3) + (-1, 0.5, 0.25) + (0, 1, 0).
    np.testing.assert_array_equal(b[3][0], [0.0, 3.5, 3.25])
