"""The compiled kernels' on-disk cache (scenegraph/_jit.py): each kernel is
stamped with its module and every package module it imports, so a change to
a callee or to a constant compiled in recompiles it instead of loading stale
machine code; concurrent writers keep every entry; a read-only package folder
falls back to the user cache saying so; compiles are reported."""
from __future__ import annotations

import inspect
import io
import os
import subprocess
import sys
import threading

import pytest

from numba.core import caching

from scenegraph import _jit
from scenegraph.proximity.compiled import narrow_phase, pair_queries

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


def _package_file(*parts):
    return os.path.join(os.path.dirname(_jit.__file__), *parts)


def test_a_kernel_module_is_stamped_with_every_module_it_imports():
    closure = _jit.module_closure(_package_file("proximity", "compiled", "pair_queries.py"))
    names = {os.path.relpath(f, os.path.dirname(_jit.__file__)) for f in closure}
    # Its own callees, the shape kinds' numbers (packed_shapes.py) and the
    # shape data they are packed from (shape_data.py), and this module.
    assert {"_jit.py", "proximity/compiled/pair_queries.py",
            "proximity/compiled/narrow_phase.py", "proximity/compiled/epa.py",
            "proximity/compiled/packed_shapes.py", "proximity/shape_data.py"} <= names
    # Not the package's front modules (scenegraph/__init__ imports everything).
    assert "__init__.py" not in names and "scene_graph.py" not in names


def test_package_kernels_are_stamped_with_their_module_digest():
    py_func = narrow_phase.solve_pairs.py_func
    locator = _jit.PACKAGE_LOCATORS[1].from_function(py_func, inspect.getfile(py_func))
    assert locator is not None
    assert locator.get_source_stamp() == _jit.module_digest(inspect.getfile(py_func))
    assert _jit.module_digest(inspect.getfile(py_func)) != _jit.module_digest(
        inspect.getfile(pair_queries.select_pairs.py_func))


_KERNEL = """from scenegraph._jit import njit
from pkg.kinds import SCALE

@njit
def scaled(x):
    return SCALE * x
"""

# (scenegraph's __init__ is skipped: importing the whole library costs a
# second per process; a kernel module only needs _jit.)
_RUN = """import sys, types
package = types.ModuleType("scenegraph")
package.__path__ = [sys.argv[1] + "/scenegraph"]
sys.modules["scenegraph"] = package
from scenegraph import _jit
_jit._PACKAGE_DIR = sys.argv[2] + "/pkg"
_jit._PACKAGE = "pkg"
sys.path.insert(0, sys.argv[2])
from pkg.kernel import scaled
print(scaled(2.0))
"""


def _run(tmp_path, env):
    out = subprocess.run([sys.executable, str(tmp_path / "run.py"), REPO, str(tmp_path)],
                         capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()[0]


def test_a_changed_constant_in_an_imported_module_recompiles_its_kernels(tmp_path):
    (tmp_path / "pkg").mkdir()
    _write(tmp_path / "pkg" / "__init__.py", "")
    _write(tmp_path / "pkg" / "kinds.py", "SCALE = 3.0\n")
    _write(tmp_path / "pkg" / "kernel.py", _KERNEL)
    _write(tmp_path / "run.py", _RUN)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "SCENEGRAPH_COMPILE_REPORT": "0"}
    assert _run(tmp_path, env) == "6.0"
    assert _run(tmp_path, env) == "6.0"         # loaded from the cache
    assert any(name.endswith(".nbc") for _, _, files in os.walk(tmp_path / "cache")
               for name in files)
    _write(tmp_path / "pkg" / "kinds.py", "SCALE = 5.0\n")   # kernel.py unchanged
    assert _run(tmp_path, env) == "10.0"


def _cache_file(folder, stamp=b"stamp"):
    return _jit._IndexDataCacheFile(cache_path=str(folder), filename_base="f-1.py311",
                                    source_stamp=stamp)


def test_concurrent_writers_keep_every_entry_and_each_file_holds_its_own_key(tmp_path):
    keys = [(f"sig{n}", "cpu") for n in range(40)]

    def writer(part):
        cache_file = _cache_file(tmp_path)
        for key in part:
            cache_file.save(key, ("machine code of", key))

    threads = [threading.Thread(target=writer, args=(keys[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reader = _cache_file(tmp_path)
    for key in keys:
        assert reader.load(key) == ("machine code of", key)
    assert len({reader.data_name_for(key) for key in keys}) == len(keys)


def test_a_new_stamp_replaces_the_stale_entries_and_their_files(tmp_path):
    old = _cache_file(tmp_path, b"old")
    old.save(("sig", "cpu"), "old code")
    new = _cache_file(tmp_path, b"new")
    assert new.load(("sig", "cpu")) is None
    new.save(("sig", "cpu"), "new code")
    assert new.load(("sig", "cpu")) == "new code"
    assert sorted(n for n in os.listdir(tmp_path) if n.endswith(".nbc")) == [
        new.data_name_for(("sig", "cpu"))]


def test_a_read_only_package_folder_falls_back_to_the_user_cache_with_a_warning(
        tmp_path, monkeypatch):
    monkeypatch.setattr(caching.config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))

    def read_only(self):
        raise PermissionError(f"read-only: {self.get_cache_path()}")

    monkeypatch.setattr(_jit.PACKAGE_LOCATORS[1], "ensure_cache_path", read_only)
    monkeypatch.setattr(_jit, "_WARNED", set())
    py_func = pair_queries.select_pairs.py_func
    with pytest.warns(_jit.CacheLocationWarning, match="not writable.*NUMBA_CACHE_DIR"):
        impl = caching.CompileResultCacheImpl(py_func)
    assert isinstance(impl.locator, _jit.PACKAGE_LOCATORS[2])
    assert impl.locator.get_cache_path().startswith(str(tmp_path / "user-cache"))


def test_compiles_are_reported_with_counts(tmp_path):
    stream = io.StringIO()
    report = _jit.CompileReport(stream=stream, after=0.0, every=0.0)
    from numba.core import event
    event.register("numba:compile", report)
    try:
        kernel = _jit.njit(cache=False)(pair_queries._in_frame.py_func)
        kernel(__import__("numpy").zeros((1, 3, 3)), __import__("numpy").zeros((1, 3)), 0,
               1.0, 2.0, 3.0)
    finally:
        event.unregister("numba:compile", report)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("scenegraph: compiling _in_frame (scenegraph.proximity")
    assert "0/1 functions" in lines[0]
    assert lines[-1].startswith("scenegraph: compiled _in_frame") and "cached" in lines[-1]


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
    kernel = _jit.njit(namespace["twice"])
    with pytest.warns(RuntimeWarning, match="cannot cache twice.*NUMBA_CACHE_DIR"):
        assert kernel(21) == 42
    assert kernel(4) == 8


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


def _counting_parser(monkeypatch):
    """Replace the import parser by a counting wrapper; return the counts."""
    calls = []
    parse = _jit._import_names

    def counted(path, source):
        calls.append(os.path.basename(path))
        return parse(path, source)

    monkeypatch.setattr(_jit, "_import_names", counted)
    return calls


def test_a_new_process_reads_the_import_lists_from_the_index_without_parsing(
        tmp_path, monkeypatch):
    calls = _counting_parser(monkeypatch)
    source = _package_file("proximity", "compiled", "pair_queries.py")
    first = _jit._ImportIndex([tmp_path])
    names = first.names(source)
    first.save()
    assert "scenegraph.proximity.compiled.narrow_phase" in names and calls == ["pair_queries.py"]
    again = _jit._ImportIndex([tmp_path])      # what the next process builds
    assert again.names(source) == names
    assert calls == ["pair_queries.py"]        # not parsed a second time


def test_an_edited_file_is_parsed_again_never_read_from_a_stale_entry(tmp_path, monkeypatch):
    calls = _counting_parser(monkeypatch)
    module = _write(tmp_path / "kernel_module.py", "import scenegraph.shapes\n")
    index = _jit._ImportIndex([tmp_path / "index"])
    assert index.names(str(module)) == ("scenegraph.shapes",)
    index.save()
    _write(module, "from scenegraph import identifiers\n")
    assert _jit._ImportIndex([tmp_path / "index"]).names(str(module)) == (
        "scenegraph", "scenegraph.identifiers")
    assert calls == ["kernel_module.py", "kernel_module.py"]


def test_an_unreadable_index_file_is_ignored(tmp_path):
    (tmp_path / _jit._ImportIndex.FILE_NAME).write_text("{not json")
    module = _write(tmp_path / "kernel_module.py", "import scenegraph.shapes\n")
    index = _jit._ImportIndex([tmp_path])
    assert index.names(str(module)) == ("scenegraph.shapes",)
    index.save()                                # replaced by a good one
    assert _jit._ImportIndex([tmp_path]).names(str(module)) == ("scenegraph.shapes",)


def test_a_new_process_loads_cached_kernels_without_refreshing_numba():
    """Loading machine code skips numba's context refresh (its typing
    registries, and scipy.linalg for the BLAS check); a later compile in the
    same process still works (the compiler refreshes before compiling)."""
    import numpy as np

    from scenegraph.math import math_kernels

    math_kernels.rotation_status(np.eye(3))     # compiled and cached, if it was not
    code = """
import sys
import numpy as np
from scenegraph import _jit
from scenegraph.math import math_kernels
loaded = _jit.load_cached(math_kernels.rotation_status)
again = _jit.load_cached(math_kernels.rotation_status)
refreshed = "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules
status = math_kernels.rotation_status(np.diag([1.0, 1.0, -1.0]))
def total(x):
    return np.sum(x) + len(x)
compiled = _jit.njit(cache=False)(total)(np.arange(4.0))
print(loaded >= 1, again == loaded, refreshed, status != 0, compiled)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout.split()
    # loaded (at least the one signature compiled above), not twice; no refresh;
    # the loaded kernel answers (a reflection is not a rotation); a compile works
    assert out == ["True", "True", "False", "True", "10.0"]


def test_load_cached_loads_nothing_for_a_kernel_without_a_cache():
    kernel = _jit.njit(cache=False)(pair_queries._in_frame.py_func)
    assert _jit.load_cached(kernel) == 0
    assert kernel.signatures == []


INLINED_SOURCE = '''
def scale(x, k):
    return x * k

def use(values):
    total = 0.0
    for x in values:
        total += scale(x, 2) + scale(x, 3)
    return total
'''


def test_inline_always_compiles_the_helper_once_and_llvm_inlines_it_into_its_caller(
        tmp_path):
    import numpy as np
    path = _write(tmp_path / "inlined_kernels.py", INLINED_SOURCE)
    namespace = {"__name__": "inlined_kernels"}
    exec(compile(INLINED_SOURCE, str(path), "exec"), namespace)
    scale = _jit.njit(inline="always")(namespace["scale"])
    namespace["scale"] = scale
    use = namespace["use"] = _jit.njit(namespace["use"])
    assert use(np.array([1.0, 2.0])) == 15.0        # (2 + 3) * (1 + 2)
    # typed once, for int64 (not once per literal 2 and 3), as a function
    # of its own with LLVM's alwaysinline attribute ...
    (signature,) = scale.overloads
    assert [str(t) for t in signature] == ["float64", "int64"]
    cres = scale.overloads[signature]
    function = cres.library._final_module.get_function(cres.fndesc.llvm_func_name)
    assert b"alwaysinline" in b" ".join(function.attributes)
    # ... and none of the caller's code calls it: LLVM inlined it.
    (caller,) = use.overloads.values()
    assert "call" not in "\n".join(
        line for line in caller.library.get_llvm_str().splitlines()
        if cres.fndesc.llvm_func_name in line and not line.startswith(("define", "declare")))


def test_numba_error_text_is_not_marked_up_through_colorama():
    from numba.core import errors, typeinfer
    assert errors.termcolor().errmsg("no match") == "no match"
    assert typeinfer._termcolor.errmsg("no match") == "no match"
    assert type(errors.termcolor()).__name__ == "_PlainErrorText"
