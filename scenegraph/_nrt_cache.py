"""numba's runtime library kept on disk as machine code.

Before a process runs its first kernel, numba builds its small runtime
library (NRT: reference counting and the memory-info accessors every kernel
calls) from LLVM IR and compiles it with LLVM's full optimization, in every
process (~20 ms of CPU, a twelfth of a warm process's start). Here
`compile_nrt_functions` stands in for numba's function of that name: the
first process compiles the library as numba does, with its machine code
captured, and writes it to a file; later processes load that file as a
cached kernel is loaded (scenegraph._lazy_link), with no LLVM work.

The file is named by a digest of numba's and llvmlite's versions and of the
codegen's target (triple, CPU name, CPU features), so it is only ever read by
a process that would have compiled the same library. It is written to a
temporary name and renamed (concurrent processes never read half a file),
under the package's ``__pycache__`` folder, else ``NUMBA_CACHE_DIR``; a file
that does not load is ignored (the library is compiled, as numba does). When
no folder is writable nothing is kept.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile

__all__ = ["install", "compile_nrt_functions"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_ORIGINAL = {}


def _folders() -> list:
    folders = [os.path.join(_PACKAGE_DIR, "__pycache__")]
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(os.environ["NUMBA_CACHE_DIR"])
    return folders


def _file_name(codegen) -> str:
    import llvmlite
    import numba
    key = repr((numba.__version__, llvmlite.__version__, codegen.magic_tuple()))
    return f"nrt-{hashlib.sha1(key.encode()).hexdigest()[:20]}.pkl"


def _load(codegen, name: str):
    import scenegraph._lazy_link as _lazy_link
    for folder in _folders():
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                serialized = pickle.load(f)
            library = _lazy_link.unserialize(codegen, serialized)
            if library is None:
                library = codegen.unserialize_library(serialized)
            return library
        except Exception:   # noqa: BLE001 - missing or unreadable: compile instead
            continue
    return None


def _save(name: str, serialized) -> None:
    data = pickle.dumps(serialized, protocol=4)
    for folder in _folders():
        try:
            os.makedirs(folder, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".nrt-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, os.path.join(folder, name))
            return
        except OSError:
            with contextlib.suppress(Exception):
                os.unlink(temporary)
            continue


def compile_nrt_functions(ctx):
    """numba's runtime library for target context `ctx`: loaded from the
    file a previous process wrote, else compiled as numba compiles it (and
    written for the next process)."""
    from numba.core.runtime import nrtdynmod
    codegen = ctx.codegen()
    name = _file_name(codegen)
    library = _load(codegen, name)
    if library is not None:
        return library
    ir_module, library = nrtdynmod.create_nrt_module(ctx)
    library.enable_object_caching()
    library.add_ir_module(ir_module)
    library.finalize()
    with contextlib.suppress(Exception):
        _save(name, library.serialize_using_object_code())
    return library


def install() -> None:
    """numba's runtime initialization calls `compile_nrt_functions` (once per
    process; before numba's runtime is first initialized)."""
    from numba.core.runtime import nrtdynmod
    if "compile_nrt_functions" not in _ORIGINAL:
        _ORIGINAL["compile_nrt_functions"] = nrtdynmod.compile_nrt_functions
        nrtdynmod.compile_nrt_functions = compile_nrt_functions
