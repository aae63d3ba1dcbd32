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
