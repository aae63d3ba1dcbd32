"""Loading a cached kernel's machine code without reading its LLVM bitcode.

numba caches a kernel as its machine code (an object file) plus the LLVM
bitcode of everything it holds, the latter for one use only: linking the
kernel into another kernel that a later compile builds. On load, numba
parses that bitcode at once (a fraction of a millisecond per kilobyte; the
pair-query kernels carry ~1 MB of it, ~0.14 s of CPU in a new process) and
reads from the parsed module the names of the symbols the kernel defines,
which the execution engine checks before it hands out a function's address.

`unserialize_library` (installed on the process's CPU codegen by
`install`, for the loads the package makes itself, see `loading`) reads the
defined names from the object file's own symbol table instead (ELF, the
object format of Linux builds) and keeps the bitcode unparsed until a compile
asks to link the kernel (`_LazyLinkLibrary._get_module_for_linking`). Any
other object format, or a load outside `loading`, takes numba's own path
unchanged.

A kernel's cached data also holds the environments (numba's per-function
object holding the function's module globals, and its constants) of the
functions compiled into it, numba's own overloads among them (np.empty's,
np.zeros'...). numba rebuilds each by importing its module for the globals:
numba.np.arrayobj, which registers a few hundred overloads and imports
numba's unicode, hashing and sorting modules (~25 ms of CPU in a new
process), though nopython code never reads an environment's globals (only
object-mode code does). Inside `loading`, an environment of a numba module
not imported yet, with no constants, is rebuilt without importing it
(`rebuild_environment`): its globals hold only the module's name (which is
what pickling it again and numba's cache check read); the module is
imported when a compile needs it.
"""
from __future__ import annotations

import contextlib
import struct
import sys
import threading

__all__ = ["install", "loading", "unserialize", "elf_defined_symbols",
           "rebuild_environment"]

_STATE = threading.local()

_SHT_SYMTAB = 2
_SHN_UNDEF = 0
_STB_GLOBAL, _STB_WEAK = 1, 2


def elf_defined_symbols(object_code: bytes):
    """The names of the global and weak symbols an ELF64 little-endian
    relocatable object defines (set of str), or None when `object_code` is
    not such a file or its tables do not read cleanly."""
    try:
        if object_code[:4] != b"\x7fELF" or object_code[4] != 2 or object_code[5] != 1:
            return None
        shoff, = struct.unpack_from("<Q", object_code, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", object_code, 0x3A)
        if shentsize != 64 or shnum == 0:
            return None
        names = set()
        found = False
        for k in range(shnum):
            (_, sh_type, _, _, offset, size, link, _, _, entsize) = struct.unpack_from(
                "<IIQQQQIIQQ", object_code, shoff + k * 64)
            if sh_type != _SHT_SYMTAB:
                continue
            if entsize != 24:
                return None
            found = True
            (_, _, _, _, str_offset, str_size, _, _, _, _) = struct.unpack_from(
                "<IIQQQQIIQQ", object_code, shoff + link * 64)
            strtab = object_code[str_offset:str_offset + str_size]
            for st_name, st_info, _, st_shndx, _, _ in struct.iter_unpack(
                    "<IBBHQQ", object_code[offset:offset + size]):
                if st_shndx == _SHN_UNDEF or (st_info >> 4) not in (_STB_GLOBAL, _STB_WEAK):
                    continue
                end = strtab.index(b"\0", st_name)
                if end > st_name:
                    names.add(strtab[st_name:end].decode())
        return names if found else None
    except (struct.error, ValueError, IndexError, UnicodeDecodeError):
        return None


def _lazy_library_class(base):
    """The subclass of numba's library class `base` whose shared (linkable)
    module is parsed from its kept bitcode at the first link."""

    class _LazyLinkLibrary(base):
        _pending_bitcode = None

        def _get_module_for_linking(self):
            pending = self._pending_bitcode
            if pending is not None and self._shared_module is None:
                from llvmlite import binding as ll
                self._shared_module = ll.parse_bitcode(pending)
                self._pending_bitcode = None
            return super()._get_module_for_linking()

        def get_pointer_to_function(self, name):
            address = super().get_pointer_to_function(name)
            if address == 0 and self._pending_bitcode is not None:
                # A name the object's symbol table did not list as global:
                # numba's own answer, from the parsed module.
                self._codegen._engine._load_defined_symbols(self._get_module_for_linking())
                address = super().get_pointer_to_function(name)
            return address

    _LazyLinkLibrary.__name__ = _LazyLinkLibrary.__qualname__ = "LazyLink" + base.__name__
    return _LazyLinkLibrary


_CLASSES: dict = {}


def rebuild_environment(modname, consts, env_name):
    """numba.core.environment._rebuild_env (what unpickling an environment
    calls; installed in its place by `install`): inside `loading`, the
    environment of a not yet imported numba module with no constants is
    made with globals ``{"__name__": modname}`` instead of importing the
    module (see the module docstring); anything else is numba's."""
    from numba.core import environment
    if (getattr(_STATE, "active", False) and not consts and modname.startswith("numba.")
            and modname not in sys.modules):
        env = environment.lookup_environment(env_name)
        if env is None:
            env = environment.Environment({"__name__": modname})
            env.env_name = env_name
            environment.Environment._memo[env_name] = env
        return env
    return _NUMBA_REBUILD_ENV[0](modname, consts, env_name)


_NUMBA_REBUILD_ENV: list = []


def _install_rebuild_environment() -> None:
    """numba.core.environment._rebuild_env becomes `rebuild_environment`
    (once per process), under numba's name, so that environments pickled
    into the cache name numba's function, as before."""
    from numba.core import environment
    if _NUMBA_REBUILD_ENV:
        return
    _NUMBA_REBUILD_ENV.append(environment._rebuild_env)
    rebuild_environment.__module__ = environment._rebuild_env.__module__
    rebuild_environment.__qualname__ = environment._rebuild_env.__qualname__
    environment._rebuild_env = rebuild_environment


def install(codegen) -> None:
    """Route `codegen`'s library loads through `unserialize_library` (once
    per codegen; loads outside `loading` are numba's own), and environments'
    unpickling through `rebuild_environment`."""
    _install_rebuild_environment()
    if getattr(codegen, "_scenegraph_lazy_link", False):
        return
    original = codegen.unserialize_library

    def unserialize_library(serialized):
        if getattr(_STATE, "active", False):
            library = unserialize(codegen, serialized)
            if library is not None:
                return library
        return original(serialized)

    codegen.unserialize_library = unserialize_library
    codegen._scenegraph_lazy_link = True


@contextlib.contextmanager
def loading():
    """Library loads inside the block keep their bitcode unparsed."""
    previous = getattr(_STATE, "active", False)
    _STATE.active = True
    try:
        yield
    finally:
        _STATE.active = previous


def unserialize(codegen, serialized):
    """numba's CPUCodeLibrary._unserialize for an object-code entry, without
    parsing the bitcode; None when it cannot (numba's path then runs)."""
    name, kind, data = serialized
    if kind != "object":
        return None
    object_code, shared_bitcode = data
    symbols = elf_defined_symbols(object_code)
    if not symbols:
        return None
    library = codegen.create_library(name)
    base = type(library)
    cls = _CLASSES.get(base)
    if cls is None:
        cls = _CLASSES[base] = _lazy_library_class(base)
    library.__class__ = cls
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    library._pending_bitcode = shared_bitcode
    library._finalize_final_module()
    codegen._engine._defined_symbols |= symbols
    return library
