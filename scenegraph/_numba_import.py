"""numba imported without the two optional packages its import pulls in.

numba's ``__init__`` imports SciPy only to check that its version is at
least 1.0 (this package requires scipy>=1.10 in pyproject.toml), and
``numba.core.config`` imports PyYAML only to read a ``.numba_config.yaml``
file in the working directory, if one is there. Together that is ~40 ms of
CPU in a new process (scipy's package import brings Cython's shadow module
and sysconfig; yaml its pure-Python reader) that a process loading cached
kernels never uses: numba imports scipy.linalg itself when a compile needs
BLAS, and the compiler rereads the config file before every compile.

`import_numba()` imports numba with those two imports refused (an
ImportError, which numba handles: it skips the version check, and notes
that it has no YAML reader) in the importing thread only, and only while
numba's own import runs; a package the process already imported is used as
is; yaml is not refused when the working directory holds a
``.numba_config.yaml`` (numba reads it at import). Afterwards numba's
config sees YAML as numba would have: when PyYAML is installed,
``numba.core.config.yaml`` is a stand-in that imports it at the first use
(a config file read by a later compile), and ``_HAVE_YAML`` says it is
available. Behaviour is unchanged; only the time of the imports moves
to where they are needed, if ever.

One more import is left out the same way: numba types an ndarray argument
(at a kernel's first call with each array type) with a check that it is no
numpy.ma.MaskedArray, and that attribute lookup imports numpy.ma (~10 ms of
CPU). `import_numba` registers, for numpy.ndarray, a typeof that types a
plain ndarray as numba does, with no such check (an exact ndarray is no
MaskedArray), and hands any subclass to numba's own.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import threading
import types
import warnings

__all__ = ["import_numba", "deferred", "check_numba_version", "DEFERRED",
           "NUMBA_CONFIG_FILE", "NUMBA_RANGE"]

#: The numba releases (major, minor), from the first to one past the last, that
#: this package's compile-time hooks (scenegraph._jit, _callee_code, _lazy_link,
#: _nrt_cache, _separate reach into numba's dispatcher, code generator and cache)
#: were verified on: pyproject.toml's requirement, numba>=0.66,<0.69. Older
#: releases fail at import or at the first compile; newer ones are untested.
NUMBA_RANGE = ((0, 66), (0, 69))

#: Packages numba's import pulls in that loading cached kernels does not use.
DEFERRED = ("scipy", "yaml")

#: The config file numba reads from the working directory (numba.core.config).
NUMBA_CONFIG_FILE = ".numba_config.yaml"


class _Refuse:
    """A sys.meta_path finder that refuses `names` (top-level packages) to
    one thread, the one importing numba: other threads import as usual."""

    def __init__(self, names, thread_id):
        self._names = frozenset(names)
        self._thread_id = thread_id

    def find_spec(self, fullname, path=None, target=None):
        """Raises ModuleNotFoundError for a refused package imported by the
        importing thread; None (ask the next finder) for anything else."""
        if fullname in self._names and threading.get_ident() == self._thread_id:
            raise ModuleNotFoundError(f"{fullname} deferred while numba is imported",
                                      name=fullname)
        return None


class _LazyModule(types.ModuleType):
    """A module that imports `name` at its first attribute access and hands
    out that module's attributes."""

    def __init__(self, name):
        super().__init__(name)

    def __getattr__(self, attribute):
        return getattr(importlib.import_module(self.__name__), attribute)


def check_numba_version(version: str) -> None:
    """Checks numba's `version` string against NUMBA_RANGE.

    Raises:
      ImportError: naming `version` and the range, when it is older than the
        range (this package's compile hooks fail with it).

    Warns (RuntimeWarning) when it is newer than the range (untested)."""
    match = re.match(r"(\d+)\.(\d+)", version)
    found = (int(match[1]), int(match[2])) if match else None
    (low, high) = NUMBA_RANGE
    wanted = f"numba>={low[0]}.{low[1]},<{high[0]}.{high[1]}"
    if found is None or found < low:
        raise ImportError(
            f"scenegraph needs {wanted}, found numba {version}: its compiled kernels "
            f"hook into numba internals that differ in older releases "
            f"(pip install '{wanted}')")
    if found >= high:
        warnings.warn(f"scenegraph was verified with {wanted}; numba {version} is newer "
                      f"and untested: if compiling fails, install '{wanted}'",
                      RuntimeWarning, stacklevel=3)


def import_numba():
    """The numba module, imported (if it is not already) with DEFERRED
    refused during its import (see the module docstring), after its version
    passed check_numba_version."""
    if "numba" in sys.modules:
        numba = sys.modules["numba"]
        check_numba_version(numba.__version__)
        _install_typeof_ndarray()
        return numba
    refused = deferred([name for name in DEFERRED if name not in sys.modules])
    finder = _Refuse(refused, threading.get_ident())
    sys.meta_path.insert(0, finder)
    try:
        import numba
    finally:
        sys.meta_path.remove(finder)
    check_numba_version(numba.__version__)
    if "yaml" in refused:
        _restore_yaml(sys.modules["numba.core.config"])
    _install_typeof_ndarray()
    return numba


_NUMBA_TYPEOF_NDARRAY: list = []


def typeof_ndarray(val, c):
    """numba's typeof of an ndarray (its typeof_impl for numpy.ndarray):
    for an exact numpy.ndarray its dtype, dimensions, layout and
    writability as numba maps them, without numba's MaskedArray check
    (which imports numpy.ma); a subclass goes to numba's own."""
    import numpy as np
    if type(val) is not np.ndarray:
        return _NUMBA_TYPEOF_NDARRAY[0](val, c)
    from numba.core import errors, types
    from numba.np import numpy_support
    try:
        dtype = numpy_support.from_dtype(val.dtype)
    except errors.NumbaNotImplementedError:
        raise errors.NumbaValueError(f"Unsupported array dtype: {val.dtype}") from None
    return types.Array(dtype, val.ndim, numpy_support.map_layout(val),
                       readonly=not val.flags.writeable)


def _install_typeof_ndarray() -> None:
    """Registers typeof_ndarray in numba's typeof for numpy.ndarray (once)."""
    if _NUMBA_TYPEOF_NDARRAY:
        return
    import numpy as np
    from numba.core.typing import typeof
    _NUMBA_TYPEOF_NDARRAY.append(typeof.typeof_impl.dispatch(np.ndarray))
    typeof.typeof_impl.register(np.ndarray, typeof_ndarray)


def deferred(missing) -> list:
    """Of the DEFERRED packages `missing` (not imported yet), those to
    refuse while numba is imported: all, except yaml when the working
    directory holds numba's config file (numba reads it at import)."""
    return [name for name in missing
            if not (name == "yaml" and os.path.isfile(NUMBA_CONFIG_FILE))]


def _restore_yaml(config) -> None:
    """numba.core.config as if it had imported yaml: when PyYAML is
    installed, `config.yaml` imports it at first use and `_HAVE_YAML` is
    True (numba reads a .numba_config.yaml file only if it is)."""
    if getattr(config, "_HAVE_YAML", True) or importlib.util.find_spec("yaml") is None:
        return
    config.yaml = _LazyModule("yaml")
    config._HAVE_YAML = True
