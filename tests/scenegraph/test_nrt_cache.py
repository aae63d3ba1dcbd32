"""scenegraph._nrt_cache: numba's runtime library is compiled once and loaded
from disk by later processes."""
import os
import subprocess
import sys
import textwrap


from scenegraph import _nrt_cache

PROBE = textwrap.dedent("""
    import sys
    import numpy as np
    import numba
    from scenegraph import _jit, _nrt_cache
    _nrt_cache._folders = lambda: [sys.argv[1]]
    from numba.core.registry import cpu_target
    from numba.core.runtime import rtsys
    rtsys.initialize(cpu_target.target_context)

    @numba.njit
    def filled_sum(n):
        values = np.empty(n)
        values[:] = 2.0
        return values.sum()

    print(type(rtsys.library).__name__, filled_sum(10))
""")


def _run_probe(folder):
    package_parent = os.path.dirname(os.path.dirname(_nrt_cache.__file__))
    env = dict(os.environ, PYTHONPATH=package_parent)
    done = subprocess.run([sys.executable, "-c", PROBE, str(folder)], env=env,
                          capture_output=True, text=True, cwd=folder)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


# Linux builds emit ELF objects; elsewhere the kept library loads through
# numba's own path (its own class), still without compiling.
ELF = sys.platform.startswith("linux")


def test_the_first_process_compiles_the_runtime_and_the_next_loads_it(tmp_path):
    # Compiled (the codegen's own library class), kept in one file; then
    # loaded from it (scenegraph._lazy_link's class).
    compiled = _run_probe(tmp_path)
    assert not compiled[0].startswith("LazyLink") and compiled[1] == "20.0"
    assert [p.name[:4] for p in tmp_path.iterdir() if p.suffix == ".pkl"] == ["nrt-"]
    loaded = _run_probe(tmp_path)
    assert loaded[0].startswith("LazyLink") == ELF and loaded[1] == "20.0"


def test_a_damaged_file_is_compiled_over(tmp_path):
    assert _run_probe(tmp_path)[1] == "20.0"
    (kept,) = [p for p in tmp_path.iterdir() if p.suffix == ".pkl"]
    kept.write_bytes(b"not a pickle")
    compiled = _run_probe(tmp_path)
    assert not compiled[0].startswith("LazyLink") and compiled[1] == "20.0"
    assert kept.read_bytes() != b"not a pickle"


class _Codegen:
    def __init__(self, magic):
        self._magic = magic

    def magic_tuple(self):
        return self._magic


def test_the_file_is_named_for_the_codegen_target():
    skylake = _Codegen(("x86_64-unknown-linux-gnu", "skylake", "+avx2"))
    haswell = _Codegen(("x86_64-unknown-linux-gnu", "haswell", "+avx2"))
    assert _nrt_cache._file_name(skylake) == _nrt_cache._file_name(skylake)
    assert _nrt_cache._file_name(skylake) != _nrt_cache._file_name(haswell)
