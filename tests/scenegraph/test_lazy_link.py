"""scenegraph._lazy_link: a cached kernel loads from its machine code alone;
its bitcode is parsed only when a compile links it into another kernel."""
import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest
from llvmlite import binding as ll

from scenegraph import _jit, _lazy_link

KERNEL_MODULE = textwrap.dedent("""
    import numba

    @numba.njit(cache=True)
    def plus_one(x):
        return x + 1.0
""")

RAMP_MODULE = textwrap.dedent("""
    import numpy as np
    from scenegraph._jit import njit

    @njit(cache=True)
    def ramp(n):
        out = np.zeros(n)
        for i in range(n):
            out[i] = i
        return out
""")

PROBE = textwrap.dedent("""
    import sys
    import llvmlite.binding as ll
    from numba.core import codegen as numba_codegen
    from numba.core.registry import cpu_target
    from scenegraph import _lazy_link

    parsed = []
    original = ll.parse_bitcode
    def counting(data):
        parsed.append(len(data))
        return original(data)
    ll.parse_bitcode = numba_codegen.ll.parse_bitcode = counting

    import numba
    import kernels
    _lazy_link.install(cpu_target.target_context.codegen())
    with _lazy_link.loading():
        kernels.plus_one.compile((numba.float64,))
    loaded = (sum(kernels.plus_one.stats.cache_hits.values()), len(parsed),
              kernels.plus_one(2.0))

    @numba.njit
    def twice_plus_one(x):
        return 2.0 * kernels.plus_one(x)
    linked = twice_plus_one(2.0)
    print(loaded, len(parsed), linked)
""")

RAMP_PROBE = textwrap.dedent("""
    import sys
    import numba
    import numpy as np
    from scenegraph._jit import load_cached
    import ramp_kernels
    loaded = (load_cached(ramp_kernels.ramp), "numba.np.arrayobj" in sys.modules,
              ramp_kernels.ramp(3).tolist())

    @numba.njit
    def doubled_ramp(n):
        return 2.0 * ramp_kernels.ramp(n) + np.zeros(n)
    print(loaded, doubled_ramp(3).tolist())
""")


def _compiled():
    @numba.njit
    def kernel(a):
        return a.sum() * 2.0
    kernel(np.ones(3))
    result = kernel.overloads[kernel.signatures[0]]
    _, kind, (object_code, bitcode) = result.library.serialize_using_object_code()
    assert kind == "object"
    return object_code, bitcode, result.fndesc


# Linux builds emit ELF objects; elsewhere (Mach-O, COFF) the loader takes
# numba's own path, which the tests below expect there instead.
ELF = sys.platform.startswith("linux")


def test_elf_symbols_are_the_global_definitions_of_the_module():
    object_code, bitcode, fndesc = _compiled()
    if not ELF:
        assert _lazy_link.elf_defined_symbols(object_code) is None
        return
    module = ll.parse_bitcode(bitcode)
    defined = {v.name for group in (module.functions, module.global_variables)
               for v in group if not v.is_declaration}
    names = _lazy_link.elf_defined_symbols(object_code)
    # Every global name numba would look up is listed; what the object file
    # leaves out are private constants and tables (never looked up by name).
    assert names <= defined
    assert all(n.startswith((".const.", "switch.table.")) for n in defined - names)
    # Among them the two entries numba asks the engine for: the Python wrapper
    # and the native function.
    assert {fndesc.llvm_cpython_wrapper_name, fndesc.llvm_func_name} <= names


def test_data_that_is_not_an_elf_object_reads_as_none():
    assert _lazy_link.elf_defined_symbols(b"") is None
    assert _lazy_link.elf_defined_symbols(b"\xcf\xfa\xed\xfe" + bytes(60)) is None  # Mach-O
    assert _lazy_link.elf_defined_symbols(b"\x7fELF\x02\x01" + bytes(10)) is None  # cut short


def test_a_cached_kernel_loads_unparsed_and_links_into_a_new_compile(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNEL_MODULE)
    (tmp_path / "ramp_kernels.py").write_text(RAMP_MODULE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), os.path.dirname(os.path.dirname(_jit.__file__))]),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    fill = subprocess.run([sys.executable, "-c", "import kernels, ramp_kernels; "
                           "kernels.plus_one(1.0); ramp_kernels.ramp(1)"],
                          cwd=tmp_path, env=env, capture_output=True, text=True)
    assert fill.returncode == 0, fill.stderr
    probe = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    # Loaded from the cache with no bitcode parsed, and it runs; the new
    # kernel's compile parses it once to link it, and the result is right
    # (numba's own load parses it at once where objects are not ELF).
    # The package's load of `ramp` (np.zeros' environment in its data) does
    # not import numba.np.arrayobj (ELF); a later compile calling it and
    # np.zeros imports it and is right.
    assert probe.stdout.split() == (["(1,", "0,", "3.0)", "1", "6.0"] if ELF
                                    else ["(1,", "1,", "3.0)", "1", "6.0"])
    ramp = subprocess.run([sys.executable, "-c", RAMP_PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert ramp.returncode == 0, ramp.stderr
    assert ramp.stdout.strip() == f"(1, {not ELF}, [0.0, 1.0, 2.0]) [0.0, 2.0, 4.0]"


@pytest.mark.parametrize("value", [
    np.zeros(3), np.zeros((3, 3)), np.zeros((3, 3))[:, :2], np.zeros((3, 3)).T,
    np.zeros(3, dtype=np.int64), np.zeros((0, 3)), np.zeros(4)[::2],
    (np.zeros(2), np.zeros(2, dtype=np.int64)), 1.0, 3, True])
def test_entry_point_types_arguments_as_numba_does(value):
    assert _jit._typeof(value) == numba.typeof(value)


def test_entry_point_types_a_read_only_array_as_numba_does():
    value = np.zeros(3)
    value.setflags(write=False)
    assert _jit._typeof(value) == numba.typeof(value)


def test_an_environment_of_an_unimported_numba_module_loads_without_importing_it():
    import pickle
    from numba.core import environment
    _lazy_link.install(numba.core.registry.cpu_target.target_context.codegen())
    name = "numba.not_a_module_of_numba"
    env_name = "_ZN08NumbaEnv_scenegraph_test_environment"
    with _lazy_link.loading():
        env = environment._rebuild_env(name, [], env_name)
    assert env.globals == {"__name__": name}
    assert env.env_name == env_name and environment.lookup_environment(env_name) is env
    # Pickled again under numba's own name, it reads back as the same object.
    data = pickle.dumps(env)
    assert b"numba.core.environment" in data and b"_rebuild_env" in data
    assert pickle.loads(data) is env


def test_an_environment_outside_loading_or_with_constants_imports_its_module():
    from numba.core import environment
    _lazy_link.install(numba.core.registry.cpu_target.target_context.codegen())
    with pytest.raises(ModuleNotFoundError, match="not_a_module_of_numba"):
        environment._rebuild_env("numba.not_a_module_of_numba", [], "_ZN08NumbaEnv_other")
    with _lazy_link.loading(), pytest.raises(ModuleNotFoundError):
        environment._rebuild_env("numba.not_a_module_of_numba", [1.0], "_ZN08NumbaEnv_k")

