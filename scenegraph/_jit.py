"""The project's one set of numba settings for compiled kernels, their
on-disk cache and the report of their first compile.

Every compiled kernel in the library is declared with `njit` from here:

* cache=True — machine code is written next to the source (``__pycache__``)
  and loaded by later processes; ``NUMBA_CACHE_DIR`` (read by numba at
  import) overrides that, and when the package folder is not writable (a
  read-only install) kernels are cached in numba's user-wide cache instead,
  with one CacheLocationWarning saying where.
* nogil=True — kernels release the GIL (threads can query in parallel).
* error_model="numpy" — division by zero gives inf/NaN as in numpy instead
  of raising (kernels test their denominators themselves).
* fastmath stays off: the proximity answers are exact to rounding, and
  reassociation would break the certificates.

Cache validity. numba stamps a cached kernel with the source of *its own*
file only, so a kernel whose callee in another module changed — or one that
compiled in a constant or a packed layout from another module (a shape
kind's number from packed_shapes.py, shape_data.py) — would load stale
machine code (after a ``git pull``, or an edit). Here every kernel of this
package is stamped instead with `module_digest` of its file: a digest of that
file and of every file of the package it imports, transitively (the import
statements read from the sources, ``_jit.py`` included). A change to any of
them recompiles the kernels that depend on it, and only those. This is done
with numba's cache locator classes (subclasses of the three source-file
locators, consulted first and only for files of this package). The import
lists come from parsing the sources once; `_ImportIndex` keeps them, keyed by
each file's content hash, in a small file beside the cache, so later
processes only hash the files (parsing them cost ~0.5 s of CPU per import).

Loading. numba refreshes its whole target context before it looks a kernel
up in the cache: it imports and registers the typing and lowering of every
function it supports, and scipy.linalg for its BLAS check (~0.25 s of CPU in
a new process, more than loading the kernels). Loading machine code needs
none of that, only numba's runtime and a few symbols (`_prepare_to_load`);
here a kernel is looked up without the refresh, and numba's compiler still
refreshes the context before any compile. A loaded kernel's LLVM bitcode
(kept in the cache only for linking it into a later compile) stays unparsed
until such a compile asks for it (scenegraph._lazy_link), and numba's
runtime library is loaded the same way (scenegraph._nrt_cache). `load_cached` loads a kernel's
cached specializations before its first call, without its arguments (the
pair-query kernels at context creation, scenegraph._warmup).

Concurrent processes. numba numbers a function's cached specializations 1,
2, ... in an index file that each process rewrites from what it read: two
processes compiling different specializations at once could both choose
number 1, leaving an index entry that names the other's machine code (a
crash at the next load). Here each specialization's data file is named by a
digest of its key (signature, CPU, bytecode, source stamp) and the index is
merged under a file lock, so a data file always holds what its name says and
no entry is lost; both files are written to a temporary name and renamed.

Callees' code. A function compiled inside another compile (a callee of the
kernel being compiled) gets no LLVM module passes and no machine code of its
own: its function-optimized code is linked into the kernel Python calls,
which optimizes and emits its whole call tree once (scenegraph._callee_code;
numba would optimize and emit each callee at its own compile and again in
every caller). Only kernels called from Python are cached, as machine code
with the call tree in it; a callee called from Python later gets its own
machine code then, and is cached then. SCENEGRAPH_DEFER_CALLEES=0 keeps
numba's way.

Parallel compiles. The first cache miss of a query kernel called from
Python starts one helper process (scenegraph._warmup) that compiles the other
query groups (pair queries, HasCollisions, point queries, hydroelastic) into
the same cache on the other core while this process compiles its own; a
later miss in a group the helper took waits for the helper's group and loads
it. SCENEGRAPH_PARALLEL_COMPILE=0 turns this off.

Compile report. A kernel's first compile on a machine takes seconds; while a
kernel of this package compiles, one line on stderr says which, how many of
the functions it needs are done and for how long (`CompileReport`; a line
per few seconds, rewritten in place on a terminal). SCENEGRAPH_COMPILE_REPORT=0
silences it.

Kernels take only contiguous float64 / int64 arrays and scalars so that each
compiles exactly once.

Calling a kernel through numba's dispatcher resolves the type of every
argument on every call (more for arrays inside a named tuple: PackedHulls
holds 13; docs/speed.md has the figures). ``entry_point`` hands out the
compiled function for one fixed set of argument types, which skips that
step. It checks nothing:
an argument of another dtype, number of dimensions or layout is read as if it
had the compiled one (wrong memory, possibly a crash). Hot paths use it only
where every argument is built right there with fixed types, and keep the
dispatcher everywhere else.
"""
from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import json
import os
import atexit
import pickle
import subprocess
import sys
import tempfile
import threading
import time
import types as pytypes
import warnings

from scenegraph._numba_import import import_numba
numba = import_numba()      # before any numba import: without scipy and yaml
import numpy as np  # noqa: E402
from numba.core import caching
from numba.np import numpy_support
from numba.core import errors as numba_errors
from numba.core import types as numba_types
from numba.core import event as numba_event
from numba.core import sigutils
from numba.core.compiler_lock import global_compiler_lock

import scenegraph._array_boxing as _array_boxing
import scenegraph._callee_code as _callee_code
import scenegraph._lazy_link as _lazy_link
import scenegraph._nrt_cache as _nrt_cache

try:                    # POSIX: the cache index is merged under a file lock
    import fcntl
except ImportError:     # pragma: no cover (Windows: content-named files only)
    fcntl = None

__all__ = ["njit", "entry_point", "load_cached", "module_digest", "module_closure",
           "kernel_sources_digest", "sources_digest", "PACKAGE_LOCATORS", "CacheLocationWarning", "CompileReport",
           "COMPILE_REPORT", "helper_process", "start_helper", "top_level_compile",
           "announce_separate"]

_nrt_cache.install()      # before numba's runtime is first initialized in this process
_array_boxing.install()   # before any kernel is compiled: returned arrays boxed without unpickling


class _PlainErrorText(numba_errors._DummyColorScheme):
    """numba's error-text scheme without colorama: numba marks up the text of
    every typing error it builds, and with colorama installed it wraps the
    process's standard streams and unwraps them again for each piece of
    text, even in its default "no_color" scheme, where the text comes out
    unchanged. A cold compile builds ~50,000 such texts (typing tries
    overloads that fail) and spent ~2 s of CPU there; this scheme returns
    the text as is. Used only when numba's scheme is "no_color"."""

    def code(self, msg):
        return msg

    errmsg = filename = indicate = highlight = reset = code


if numba.core.config.COLOR_SCHEME == "no_color":
    _PLAIN_ERROR_TEXT = _PlainErrorText()
    numba_errors._termcolor_inst = _PLAIN_ERROR_TEXT
    for _name in ("numba.core.types.functions", "numba.core.typing.typeof",
                  "numba.core.compiler_machinery", "numba.core.ir", "numba.core.typeinfer"):
        if hasattr(sys.modules.get(_name), "_termcolor"):   # kept at their import
            sys.modules[_name]._termcolor = _PLAIN_ERROR_TEXT

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = os.path.basename(_PACKAGE_DIR)


class CacheLocationWarning(UserWarning):
    """The package folder is not writable: kernels are cached elsewhere."""


# ------------------------------------------------------------------ stamps


def _module_file(name: str) -> str | None:
    """The source file of module `name` of this package (a module or a
    package's __init__.py), or None."""
    parts = name.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = os.path.join(_PACKAGE_DIR, *parts[1:])
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def _module_level(tree):
    """The nodes of `tree` outside function bodies (what runs at import)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child for child in ast.iter_child_nodes(node) if not isinstance(
            child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _import_names(path: str, source: bytes) -> tuple:
    """The dotted names that the module-level import statements of the file
    `path` (its text `source`) may refer to: ``from a.b import c`` gives a.b
    and a.b.c (c may be a module); relative imports resolved against the
    file's package. Names outside this package are kept too; `_imports_of`
    drops them."""
    tree = ast.parse(source, filename=path)
    names = []
    for node in _module_level(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:      # relative: from the file's own package
                rel = os.path.relpath(os.path.dirname(path), os.path.dirname(_PACKAGE_DIR))
                package = rel.split(os.sep)
                package = package[:len(package) - (node.level - 1)]
                module = ".".join(package + ([module] if module else []))
            names.append(module)
            names.extend(f"{module}.{alias.name}" for alias in node.names)
    return tuple(sorted(set(names)))


class _ImportIndex:
    """The import names of each source file, keyed by its path relative to
    the package and the sha1 of its content, kept across processes in one
    small JSON file so that a new process does not parse the package's
    sources again (parsing ~90 files cost ~0.5 s of CPU at every import).

    A key holds the file's content hash, so an entry can never describe other
    text; module files are resolved again in every process (a module added
    later is seen). The file lives in the package's ``__pycache__`` folder,
    else in ``NUMBA_CACHE_DIR``; when neither is writable nothing is kept and
    each process parses (correct, slower). It is written to a temporary name
    and renamed, so concurrent processes never read half a file; a file that
    does not read as the expected mapping is ignored."""

    FILE_NAME = "_jit_import_index.json"
    KEEP = 4000         # entries kept on disk (old ones are dropped first)

    def __init__(self, folders=None):
        """`folders`: where the index may be kept, first writable one wins
        (None: the package's __pycache__, then NUMBA_CACHE_DIR if set)."""
        self._folders_given = None if folders is None else [str(f) for f in folders]
        self._entries = None
        self._added = False
        self._lock = threading.Lock()

    def _folders(self):
        if self._folders_given is not None:
            return list(self._folders_given)
        folders = [os.path.join(_PACKAGE_DIR, "__pycache__")]
        if os.environ.get("NUMBA_CACHE_DIR"):
            folders.append(os.environ["NUMBA_CACHE_DIR"])
        return folders

    def _load(self) -> dict:
        if self._entries is None:
            self._entries = {}
            for folder in self._folders():
                try:
                    with open(os.path.join(folder, self.FILE_NAME), encoding="utf-8") as f:
                        data = json.load(f)
                except (OSError, ValueError):
                    continue
                if isinstance(data, dict) and all(
                        isinstance(v, list) and all(isinstance(n, str) for n in v)
                        for v in data.values()):
                    self._entries = data
                    break
        return self._entries

    def names(self, path: str) -> tuple:
        """_import_names(path) from the index, or parsed and added to it."""
        with open(path, "rb") as f:
            source = f.read()
        key = (os.path.relpath(path, _PACKAGE_DIR) + ":"
               + hashlib.sha1(source).hexdigest())
        with self._lock:
            entries = self._load()
            found = entries.get(key)
            if found is None:
                found = list(_import_names(path, source))
                entries.pop(key, None)
                entries[key] = found
                self._added = True
        return tuple(found)

    def save(self) -> None:
        """Write the index if this process added entries (first writable
        folder wins; failures are ignored)."""
        with self._lock:
            if not self._added:
                return
            entries = dict(list(self._entries.items())[-self.KEEP:])
            self._added = False
        text = json.dumps(entries, separators=(",", ":"))
        for folder in self._folders():
            tmp = None
            try:
                os.makedirs(folder, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=folder, prefix=".import_index")
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                os.chmod(tmp, 0o644)
                os.replace(tmp, os.path.join(folder, self.FILE_NAME))
                return
            except OSError:
                if tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)


_IMPORT_INDEX = _ImportIndex()


def _imports_of(path: str) -> tuple:
    """The package's source files that the file `path` imports at module
    level (where every global a kernel can compile in comes from; an import
    inside a function runs at its call): ``from a.b import c`` counts a.b and,
    when c is a module, a.b.c; relative imports resolved."""
    found = set()
    # Only the module named: its parent packages' __init__.py files run first
    # but compile nothing into a kernel (scenegraph's __init__ imports
    # everything; a kernel module imports what it uses itself).
    for name in _IMPORT_INDEX.names(path):
        file = _module_file(name)
        if file is not None:
            found.add(os.path.abspath(file))
    found.discard(os.path.abspath(path))
    return tuple(sorted(found))


@functools.lru_cache(maxsize=None)
def module_closure(path: str) -> tuple:
    """`path`, _jit.py and every source file of the package either imports,
    transitively (absolute paths, sorted): _jit imports _callee_code, which
    decides how callees are linked."""
    path = os.path.abspath(path)
    seen = {path, os.path.abspath(__file__)}
    todo = [path, os.path.abspath(__file__)]    # _jit's own imports shape the code too
    while todo:
        for file in _imports_of(todo.pop()):
            if file not in seen:
                seen.add(file)
                todo.append(file)
    _IMPORT_INDEX.save()
    return tuple(sorted(seen))


@functools.lru_cache(maxsize=None)
def module_digest(path: str) -> bytes:
    """The cache stamp of the kernels defined in the file `path`: sha256 over
    numba's version and the path (relative to the package) and content of
    every file of module_closure(path)."""
    digest = hashlib.sha256(numba.__version__.encode())
    for file in module_closure(path):
        digest.update(os.path.relpath(file, _PACKAGE_DIR).encode())
        with open(file, "rb") as f:
            digest.update(f.read())
    return digest.digest()


def sources_digest(directory: str) -> bytes:
    """sha256 over the kernel source files below `directory`: every .py file
    that mentions ``njit`` or ``intrinsic`` (relative path and content), plus
    numba's version (one value for a whole tree; the cache itself is
    stamped per module, module_digest)."""
    digest = hashlib.sha256(numba.__version__.encode())
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                text = f.read()
            if b"njit" in text or b"intrinsic" in text:
                digest.update(os.path.relpath(path, directory).encode())
                digest.update(text)
    return digest.digest()


@functools.lru_cache(maxsize=None)
def kernel_sources_digest() -> bytes:
    """sources_digest of this package, computed once per process."""
    return sources_digest(_PACKAGE_DIR)


def _in_package(py_file) -> bool:
    return os.path.abspath(py_file).startswith(_PACKAGE_DIR + os.sep)


# ------------------------------------------------------------------ locators

_REFUSED_IN_TREE: set = set()   # package folders whose __pycache__ is not writable
_WRITABLE: set = set()          # cache folders found writable in this process
_WARNED: set = set()


def _package_locator(base):
    """A subclass of numba's locator `base` that stamps this package's
    kernels with module_digest(their file) and declines every other file."""

    class Locator(base):
        def get_source_stamp(self):
            return module_digest(os.path.abspath(self._py_file))

        def ensure_cache_path(self):
            # numba proves the folder writable by creating a temporary file in
            # it, for every kernel at import (~200 of them): once per folder
            # and process here; later calls only make sure it still exists.
            path = self.get_cache_path()
            if path in _WRITABLE:
                os.makedirs(path, exist_ok=True)
                return
            super().ensure_cache_path()
            _WRITABLE.add(path)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            found = super().from_function(py_func, py_file)
            folder = os.path.dirname(os.path.abspath(py_file))
            if base is caching.InTreeCacheLocator and found is None:
                _REFUSED_IN_TREE.add(folder)
            if (base is caching.UserWideCacheLocator and found is not None
                    and folder in _REFUSED_IN_TREE and "user-wide" not in _WARNED):
                _WARNED.add("user-wide")
                warnings.warn(
                    f"scenegraph: the package folder {_PACKAGE_DIR} is not writable, so "
                    f"compiled kernels are cached in {os.path.dirname(found.get_cache_path())} "
                    f"instead (set NUMBA_CACHE_DIR to choose another folder)",
                    CacheLocationWarning, stacklevel=2)
            return found

    Locator.__name__ = Locator.__qualname__ = "Package" + base.__name__
    return Locator


PACKAGE_LOCATORS = tuple(_package_locator(base) for base in (
    caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
    caching.UserWideCacheLocator))
if not any(c.__name__ == PACKAGE_LOCATORS[0].__name__
           for c in caching.CacheImpl._locator_classes):
    caching.CacheImpl._locator_classes[:0] = list(PACKAGE_LOCATORS)


# ------------------------------------------------------------------ cache files


@contextlib.contextmanager
def _locked(path: str):
    """An exclusive lock on the file `path` (created if needed) while the
    block runs; no lock where fcntl is missing."""
    if fcntl is None:   # pragma: no cover
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


class _IndexDataCacheFile(caching.IndexDataCacheFile):
    """numba's index + data files with content-named data files and a locked
    index merge (see the module docstring)."""

    def data_name_for(self, key) -> str:
        """The data file's name for index key `key` under this stamp."""
        digest = hashlib.sha256(pickle.dumps((key, self._source_stamp), protocol=4))
        return self._data_name_pattern.replace("{number:d}", digest.hexdigest()[:20])

    def _stale_names(self) -> list:
        """Data files named by the index on disk when its stamp is not ours."""
        try:
            with open(self._index_path, "rb") as f:
                version = pickle.load(f)
                stamp, overloads = pickle.loads(f.read())
        except Exception:
            return []
        if version == self._version and stamp == self._source_stamp:
            return []
        return list(overloads.values())

    def save(self, key, data):
        data_name = self.data_name_for(key)
        self._save_data(data_name, data)        # first the data, then the index naming it
        with _locked(self._index_path + ".lock"):
            stale = self._stale_names()
            overloads = self._load_index()
            overloads[key] = data_name
            self._save_index(overloads)
        for name in stale:
            if name not in overloads.values():
                with contextlib.suppress(OSError):
                    os.unlink(self._data_path(name))


def _prepare_to_load(target_context) -> None:
    """What loading cached machine code needs of numba, without the rest of
    ``target_context.refresh()``: numba's runtime (NRT: its C functions'
    symbols and its small compiled library) and the hash-secret symbols
    (numba.cpython.hashing adds them at import). Every other symbol a
    kernel links against is installed when the target context is made.
    refresh() also imports and registers numba's typing and lowering of
    every supported Python and numpy function (~0.1 s of CPU) and, through
    numba.np.arraymath's BLAS check, scipy.linalg (~0.15 s): a compile needs
    those, and numba's compiler refreshes the context itself before each
    compile."""
    from numba.core.runtime import rtsys
    import numba.cpython.hashing  # noqa: F401  (its import adds the symbols)
    rtsys.initialize(target_context)
    _lazy_link.install(target_context.codegen())


def _load_without_refresh(cache, sig, target_context):
    """numba's Cache.load_overload (the kernel for `sig` from the cache, or
    None) with _prepare_to_load instead of the context's full refresh; if
    loading fails there, numba's own path (refresh, then load) is taken."""
    _prepare_to_load(target_context)
    try:
        with cache._guard_against_spurious_io_errors(), _lazy_link.loading():
            return cache._load_overload(sig, target_context)
    except Exception:   # noqa: BLE001 - numba's full path decides (and raises)
        return super(_FunctionCache, cache).load_overload(sig, target_context)


class _DeferredCache:
    """A kernel's _FunctionCache, made at its first use (a load or a
    compile): most of a process's kernels are never called from Python (they
    are compiled into the kernels that are), and making a cache object finds
    its folder on disk. Where no cache folder is writable (a read-only
    install, no writable home, no NUMBA_CACHE_DIR) the kernel compiles in
    every process instead, with one RuntimeWarning naming it."""

    __slots__ = ("_function", "_cache")

    def __init__(self, function):
        self._function = function
        self._cache = None

    def resolve(self):
        """The _FunctionCache (or numba's NullCache where none can be kept)."""
        cache = self._cache
        if cache is None:
            try:
                cache = _FunctionCache(self._function)
            except RuntimeError as exc:
                if "no locator available" not in str(exc):
                    raise
                warnings.warn(f"numba cannot cache {self._function.__qualname__} ({exc}); it "
                              f"will be compiled in every process. Set NUMBA_CACHE_DIR to a "
                              f"writable folder to keep compiled kernels.", RuntimeWarning,
                              stacklevel=4)
                cache = caching.NullCache()
            self._cache = cache
        return cache

    def __getattr__(self, name):
        return getattr(self.resolve(), name)


class _FunctionCache(caching.FunctionCache):
    """numba's FunctionCache writing through _IndexDataCacheFile; a miss of
    a query kernel called from Python starts the helper process or waits for
    it (see "Parallel compiles" below)."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = _IndexDataCacheFile(
            cache_path=self._cache_path, filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp())

    def save_overload(self, sig, data):
        # A deferred callee has no machine code to keep (_callee_code); the
        # kernels that call it are cached with their own copy of it.
        if not _callee_code.is_deferred(data.library):
            super().save_overload(sig, data)

    def load_overload(self, sig, target_context):
        result = _load_without_refresh(self, sig, target_context)
        if result is not None or getattr(COMPILE_REPORT._local, "depth", 0):
            return result       # found, or a callee inside a compile
        group = _kernel_group(self._py_func)
        if group is None or not _helpers_enabled():
            return result
        if _HELPER["process"] is None:
            _start_helper(group)
        elif _HELPER["process"] and not _claim(group) and _wait_for(
                group, work=group in _WORK_WHILE_WAITING_FOR):
            return _load_without_refresh(self, sig, target_context)
        return result


# ------------------------------------------------------------------ parallel compiles
#
# The first cache miss of a query kernel called from Python (not a callee
# inside a compile) claims its group and starts one helper process,
# scenegraph._warmup, that compiles the other query groups into the same
# cache on the other core while this process compiles what it needs. Each
# group is compiled by whichever process claims it first (a file created
# exclusively in a folder both share): a later miss in a group this process
# claims compiles here; in a group the helper claimed, it waits for the
# helper's group and loads it. The helper is stopped when this process exits.

_HELPER = {"process": None, "groups": (), "done": None, "own": set()}


def _claim(group: str) -> bool:
    """True if `group` is this process's to compile (claimed now or
    before), False if the helper claimed it first."""
    if group in _HELPER["own"]:
        return True
    try:
        os.close(os.open(os.path.join(_HELPER["done"], group.replace(" ", "_") + ".claim"),
                         os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    except OSError:
        pass
    _HELPER["own"].add(group)
    return True


def start_helper(own_group: str) -> None:
    """Starts the helper process now (as the first cache miss of a kernel of
    `own_group` would) if helpers are enabled and none was started yet:
    scenegraph._warmup.prepare_group calls it when the pair-query kernels
    are not cached, before the first of them (a second earlier than the
    first miss of a group kernel, which comes after the world poses)."""
    if _HELPER["process"] is None and _helpers_enabled():
        _start_helper(own_group)


def helper_process():
    """The helper process started by this process (subprocess.Popen), or
    None."""
    return _HELPER["process"]


def _kernel_group(py_func):
    from scenegraph._warmup import KERNEL_GROUPS
    return KERNEL_GROUPS.get((py_func.__module__, py_func.__name__))


def _helpers_enabled() -> bool:
    return (os.environ.get("SCENEGRAPH_PARALLEL_COMPILE", "1") != "0"
            and not os.environ.get("SCENEGRAPH_WARMUP_HELPER")
            and (os.cpu_count() or 1) > 1)


def _start_helper(own_group: str) -> None:
    from scenegraph._warmup import GROUPS
    # The narrow phase only when this process compiles the pair queries,
    # which announce its argument types (scenegraph._separate).
    groups = tuple(g for g in GROUPS if g != own_group
                   and (g != "narrow phase" or own_group == "pair queries"))
    done = tempfile.mkdtemp(prefix="scenegraph_warmup_")
    _HELPER["done"] = done
    _claim(own_group)
    parent = os.path.dirname(_PACKAGE_DIR)
    env = {**os.environ, "SCENEGRAPH_WARMUP_HELPER": "1", "SCENEGRAPH_WARMUP_DONE": done,
           "SCENEGRAPH_COMPILE_REPORT": "0",
           "PYTHONPATH": os.pathsep.join(filter(None, (parent, os.environ.get("PYTHONPATH"))))}
    if env.get("NUMBA_CACHE_DIR"):
        env["NUMBA_CACHE_DIR"] = os.path.abspath(env["NUMBA_CACHE_DIR"])
    try:
        process = subprocess.Popen([sys.executable, "-m", f"{_PACKAGE}._warmup", *groups],
                                   cwd=parent, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        _HELPER["process"] = False      # never try again
        return
    _HELPER.update(process=process, groups=groups, done=done)
    atexit.register(_stop_helper)
    COMPILE_REPORT.note(f"scenegraph: first use on this machine: a second process compiles "
                        f"the {', '.join(groups)} kernels meanwhile")


def _stop_helper() -> None:
    process = _HELPER["process"]
    if process and process.poll() is None:
        process.terminate()
        with contextlib.suppress(Exception):
            process.wait(5)


def _wait_for(group: str, limit: float = 900.0, work: bool = False) -> bool:
    """Waits while the helper works on `group`: True once it is done (the
    kernels are then in the cache), False if the helper ended without it.
    With `work`, this process meanwhile compiles the groups neither process
    has claimed yet (`_work_while_waiting`), the last of GROUPS first (the
    helper takes them from the front)."""
    process, marker = _HELPER["process"], os.path.join(
        _HELPER["done"], group.replace(" ", "_") + ".done")
    if process is None or process is False:
        return False
    start = shown = time.perf_counter()
    while not os.path.exists(marker):
        if process.poll() is not None and not os.path.exists(marker):
            return False
        if work and _work_while_waiting(group):
            continue
        now = time.perf_counter()
        if now - start > limit:
            return False
        if now - shown >= 3.0:
            COMPILE_REPORT.note(f"scenegraph: waiting for the second process compiling the "
                                f"{group} kernels, {now - start:.0f} s")
            shown = now
        time.sleep(0.05)
    return True


def _work_while_waiting(awaited: str) -> bool:
    """Claims one group of the helper's list that no process has claimed
    yet and that this process may use (_warmup.worth_compiling_while_waiting)
    and compiles it here (scenegraph._warmup.run_group, as kernels
    called from Python); False when none is left. Neither `awaited` nor the
    group after it in the helper's list: the helper takes that one next,
    and this process, busy with it when `awaited` is done, would answer
    its own queries only after it."""
    from scenegraph import _warmup
    groups = _HELPER["groups"]
    following = groups[groups.index(awaited) + 1:][:1] if awaited in groups else ()
    for group in reversed(groups):
        if (group in _HELPER["own"] or group in _WORKED or group == awaited
                or group in following or not _warmup.worth_compiling_while_waiting(group)):
            continue
        if os.path.exists(os.path.join(_HELPER["done"], group.replace(" ", "_") + ".claim")):
            continue
        _WORKED.add(group)
        if not _claim(group):
            continue
        with top_level_compile(), contextlib.suppress(Exception):
            _warmup.run_group(group)
        return True
    return False


_WORKED: set = set()    # groups _work_while_waiting took (or tried)
#: Groups whose wait compiles other groups meanwhile: the separately
#: compiled narrow phase, which the pair queries wait for right after their
#: own compile (the other groups then finish about when it does).
_WORK_WHILE_WAITING_FOR = ("narrow phase",)


@contextlib.contextmanager
def top_level_compile():
    """Compiles started inside the block count as compiles of kernels
    called from Python (machine code, cached; a helper-group miss may wait),
    even inside another compile (scenegraph._separate compiles a callee
    when its caller's code is installed); the compile report's state is
    restored after."""
    state = COMPILE_REPORT._local
    saved = dict(state.__dict__)
    state.__dict__.clear()
    state.depth = 0
    try:
        yield
    finally:
        state.__dict__.clear()
        state.__dict__.update(saved)


def announce_separate(requirement) -> None:
    """Writes `requirement` (scenegraph._separate: a separately compiled
    callee and its argument types) into the helper's folder, where the
    helper's "narrow phase" group reads it and compiles the callee."""
    done = _HELPER["done"]
    if not done or not _HELPER["process"]:
        return
    path = os.path.join(done, f"separate_{requirement.name}.pickle")
    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(dir=done, prefix=".separate")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(requirement, f, protocol=4)
        os.replace(tmp, path)


# ------------------------------------------------------------------ compile report


def _package_dispatchers(py_func, seen: set) -> None:
    """Adds to `seen` the dispatchers of this package that py_func's code
    names (globals and closure cells, nested code included), transitively."""
    codes, names = [py_func.__code__], set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(c for c in code.co_consts if isinstance(c, pytypes.CodeType))
    found = [py_func.__globals__.get(name) for name in names]
    for cell in py_func.__closure__ or ():
        with contextlib.suppress(ValueError):
            found.append(cell.cell_contents)
    for obj in found:
        inner = getattr(obj, "py_func", None)
        if (isinstance(obj, numba.core.dispatcher.Dispatcher) and inner is not None
                and obj not in seen and _in_package(inner.__code__.co_filename)):
            seen.add(obj)
            _package_dispatchers(inner, seen)


class CompileReport(numba_event.Listener):
    """Reports, on `stream`, the compiles of this package's kernels: once a
    kernel called from Python has compiled for `after` seconds, a line names
    it and says how many of the package functions it needs (its
    dispatchers not compiled yet when it started, an estimate) are done;
    then a line every `every` seconds (rewritten in place on a terminal)
    and one when it is done."""

    def __init__(self, stream=None, after: float = 1.0, every: float = 3.0,
                 quiet: bool = False):
        self.stream = stream
        self.after, self.every = after, every
        self.quiet = quiet
        self._local = threading.local()
        self.compiled = 0       # package functions compiled in this process

    def note(self, text: str) -> None:
        """Writes one line (unless quiet)."""
        self._write(text, True)

    def _write(self, text: str, final: bool) -> None:
        if self.quiet:
            return
        stream = self.stream or sys.stderr
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        with contextlib.suppress(Exception):
            if tty:
                stream.write("\r" + text.ljust(getattr(self._local, "width", 0))
                             + ("\n" if final else ""))
                self._local.width = 0 if final else len(text)
            else:
                stream.write(text + "\n")
            stream.flush()

    def on_start(self, event):
        state = self._local
        depth = getattr(state, "depth", 0)
        state.depth = depth + 1
        if depth:
            return
        dispatcher = (event.data or {}).get("dispatcher")
        py_func = getattr(dispatcher, "py_func", None)
        state.top = None
        if py_func is None or not _in_package(py_func.__code__.co_filename):
            return
        needed = set()
        _package_dispatchers(py_func, needed)
        state.top = py_func.__qualname__
        state.module = py_func.__module__
        state.total = 1 + sum(1 for d in needed if not d.overloads)
        state.done = 0
        state.start = time.perf_counter()
        state.shown = None
        if self.after <= 0.0:
            self._show(state, state.start, False)

    def _show(self, state, now, final):
        elapsed = now - state.start
        if final:
            text = (f"scenegraph: compiled {state.top} ({state.module}): {state.done} "
                    f"functions in {elapsed:.1f} s, cached for later runs")
        else:
            text = (f"scenegraph: compiling {state.top} ({state.module}), first use on "
                    f"this machine: {state.done}/{max(state.total, state.done)} functions, "
                    f"{elapsed:.0f} s")
        self._write(text, final)
        state.shown = now

    def on_end(self, event):
        state = self._local
        state.depth -= 1
        if getattr(state, "top", None) is None:
            return
        dispatcher = (event.data or {}).get("dispatcher")
        py_func = getattr(dispatcher, "py_func", None)
        if py_func is not None and _in_package(py_func.__code__.co_filename):
            state.done += 1
            self.compiled += 1
        now = time.perf_counter()
        elapsed = now - state.start
        final = state.depth == 0
        due = (state.shown is None and elapsed >= self.after) or (
            state.shown is not None and now - state.shown >= self.every)
        if due or (final and state.shown is not None):
            self._show(state, now, final)
        if final:
            state.top = None


#: The listener registered for this process (its `stream` may be replaced;
#: quiet with SCENEGRAPH_COMPILE_REPORT=0). It also keeps the compile depth
#: that tells a kernel called from Python from a callee.
COMPILE_REPORT = CompileReport(quiet=os.environ.get("SCENEGRAPH_COMPILE_REPORT", "1") == "0")
numba_event.register("numba:compile", COMPILE_REPORT)
# Callees get no machine code of their own (scenegraph._callee_code): a
# compile at depth >= 2 runs inside another one. SCENEGRAPH_DEFER_CALLEES=0
# keeps numba's way (every callee finalized at its compile).
# (Installed either way: it also marks inline="always" functions for LLVM.)
if os.environ.get("SCENEGRAPH_DEFER_CALLEES", "1") != "0":
    _callee_code.install(lambda: getattr(COMPILE_REPORT._local, "depth", 0) >= 2)
else:
    _callee_code.install(lambda: False)


# ------------------------------------------------------------------ njit


def _plain_call_template(dispatcher):
    """get_call_template for `dispatcher` that types a call from compiled
    code with its arguments' plain types (int64, bool, not Literal[int](0))
    when that compiles, else as numba would (see njit)."""
    original = dispatcher.get_call_template

    def get_call_template(args, kws):
        plain = tuple(numba_types.unliteral(a) for a in args)
        plain_kws = {k: numba_types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return original(plain, plain_kws)
            except numba_errors.TypingError:
                pass
        return original(args, kws)

    return get_call_template


def _compile_lazily(function, options):
    if options.get("inline") == "always":
        # Inlined by LLVM, not numba (see njit): typed and lowered once per
        # signature, for plain argument types.
        del options["inline"]
        options.setdefault("specialize_literals", False)
        _callee_code.inline_always(function)
    literals = options.pop("specialize_literals", True)
    cache = options.pop("cache", False)
    # numba's own cache=True would make a FunctionCache at once; the
    # package's is made at the kernel's first load or compile instead.
    dispatcher = numba.njit(**options)(function)
    if not hasattr(dispatcher, "get_call_template"):        # NUMBA_DISABLE_JIT=1
        return dispatcher
    if cache:
        dispatcher._cache = _DeferredCache(function)
    if not literals:
        dispatcher.get_call_template = _plain_call_template(dispatcher)
    return dispatcher


def njit(function=None, **options):
    """numba.njit with the project's options (see the module docstring);
    usable bare (``@njit``) or with extra options (``@njit(inline="always")``).
    Where no cache folder is writable, kernels compile per process (with a
    warning at their first use) rather than failing.

    specialize_literals=False (this module's option): a call from compiled
    code that passes a constant (``f(x, 0, False)``) compiles `f` for int64
    / bool, not for the constant's value — numba's default compiles one copy
    of `f` (and of everything it calls with that argument) per distinct
    constant: the narrow phase twice, a GJK helper ten times. (A call that
    needs the literal, a tuple index, still gets it: plain types are tried
    first.) For kernels whose constants buy nothing at run time (a flag
    tested once per call, a start size, small helpers LLVM inlines).

    inline="always": the function is inlined into every caller by LLVM, not
    by numba. numba's own inline="always" splices the function's bytecode
    into each caller before typing, so it is typed and lowered again at
    every call site (a helper called from ten places is compiled ten
    times: ~4 s of a cold start's ~45 s of CPU went to that). Here it is
    compiled once per signature, as a function of its own, with plain
    argument types (specialize_literals=False), and its LLVM function gets
    the ``alwaysinline`` attribute: LLVM's inliner then puts it into each
    caller when the kernel's module is optimized, so the machine code is
    that of an inlined helper (constants propagated, no call) as before.
    (numba's IR inlining is not available through this njit.)"""
    merged = {**_OPTIONS, **options}
    if function is None:
        return lambda f: _compile_lazily(f, dict(merged))
    return _compile_lazily(function, dict(merged))


def load_cached(dispatcher) -> int:
    """Loads into `dispatcher` the specializations its on-disk cache holds
    for this machine and this source (those numba would load at a first
    call), compiling nothing; returns how many it holds now (0: none
    cached, or not a cached kernel of this package). Kernels take fixed
    argument types, so that is usually one; a process can load a kernel
    this way before its first call without building the arguments."""
    cache = getattr(dispatcher, "_cache", None)
    if isinstance(cache, _DeferredCache):
        cache = cache.resolve()
    if not isinstance(cache, _FunctionCache):
        return 0
    codegen = dispatcher.targetctx.codegen()
    try:
        keys = list(cache._cache_file._load_index())
    except Exception:   # noqa: BLE001 - an unreadable index loads nothing
        return 0
    with global_compiler_lock:     # as numba's Dispatcher.compile
        for key in keys:
            args, _ = sigutils.normalize_signature(key[0])
            if tuple(args) in dispatcher.overloads or key != cache._index_key(
                    key[0], codegen):
                continue
            # numba's cache-hit path of Dispatcher.compile, without its
            # compile on a miss (a data file gone since the index was read)
            cres = _load_without_refresh(cache, key[0], dispatcher.targetctx)
            if cres is None:
                continue
            dispatcher._cache_hits[key[0]] += 1
            if not cres.objectmode:
                dispatcher.targetctx.insert_user_function(cres.entry_point, cres.fndesc,
                                                          [cres.library])
            dispatcher.add_overload(cres)
    return len(dispatcher.overloads)


def entry_point(dispatcher, args):
    """The machine-code entry of `dispatcher` compiled for the types of
    `args` (compiled, or loaded from the cache, now), callable as
    ``entry(*args)`` without numba's per-call type resolution.

    Unchecked: later calls must pass arguments of exactly these types (same
    dtype, ndim, layout, writability; the same named-tuple types), which the
    caller guarantees by construction (see the module docstring)."""
    if not hasattr(dispatcher, "compile"):  # NUMBA_DISABLE_JIT=1: a plain function
        return dispatcher
    signature = tuple(_typeof(a) for a in args)
    return _callee_code.materialize(dispatcher.compile(signature))


def _typeof(value):
    """numba.typeof(value) for arrays and tuples of arrays without its
    masked-array check (which imports numpy.ma, ~12 ms in a new process):
    a plain ndarray's type is its dtype, ndim, layout and writability, as
    numba maps them; anything else is numba.typeof's."""
    if type(value) is np.ndarray:
        flags = value.flags
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return numba_types.Array(numpy_support.from_dtype(value.dtype), value.ndim, layout,
                                 readonly=not flags.writeable)
    if isinstance(value, tuple):
        return numba_types.BaseTuple.from_types([_typeof(v) for v in value], type(value))
    return numba.typeof(value)
