"""tools/compile_profile.py's listener: self and total compile time per
function, and the signatures each was compiled for."""
import pathlib
import sys

import numba

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tools"))
import compile_profile  # noqa: E402


@numba.njit(cache=False)
def _leaf(x):
    return x + 1


@numba.njit(cache=False)
def _caller(x):
    return _leaf(x) * 2


def test_self_time_excludes_callees_and_each_signature_is_listed():
    profile = compile_profile.Profile()
    profile.install()
    try:
        assert _caller(1) == 4          # int64: _caller and _leaf compile
        assert _caller(1.5) == 5.0      # float64: both compile again
    finally:
        profile.uninstall()
    name = f"{__name__}.{_caller.py_func.__qualname__}"
    leaf = profile.functions[f"{__name__}.{_leaf.py_func.__qualname__}"]
    caller = profile.functions[name]
    assert caller["signatures"] == ["int64", "float64"]
    assert leaf["signatures"] == ["int64", "float64"]
    assert caller["compiles"] == 2 and caller["top_level"] == 2 and leaf["top_level"] == 0
    # The caller's total holds the leaf's compiles; its self time does not.
    assert caller["total_cpu_s"] >= caller["self_cpu_s"] + leaf["self_cpu_s"] - 1e-3
    assert leaf["total_cpu_s"] >= leaf["self_cpu_s"] > 0.0
    assert profile.passes["nopython_type_inference"] > 0.0
    assert not profile.stack and not profile.pass_stack
