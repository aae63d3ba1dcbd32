"""The package layers: systems.common at the bottom, systems on it, scenegraph
on both.

* ``systems`` never imports ``scenegraph`` (statically, anywhere in a module, and in a
  fresh process importing systems' packages) — the one exception is the moved module
  ``systems.rigid_bodies``, which imports ``scenegraph.rigid_bodies`` by name on first
  access to one of its names.
* ``systems.common`` (overloads, scalar templates, numerics) imports neither
  ``systems.framework`` nor ``scenegraph``; scenegraph uses no private module of systems.
  ``systems.autodiff`` (the AutoDiffXd scalar, pydrake.autodiffutils) is part of the
  bottom layer: it imports nothing of systems or scenegraph but itself, and
  ``systems.common`` may import it (the scalar templates name AutoDiffXd).
* No module imports names from its own package's ``__init__`` (an ancestor package):
  it imports them from their defining module, so no import circle runs through a
  package's re-exports; and no module-level import circle is left at all.
"""
from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("systems", "scenegraph")

# Modules allowed to import their own package's __init__, and why.
OWN_INIT_ALLOWED = {
    # pydrake.all's analogue: re-exporting the packages' public names is its job.
    "scenegraph.all",
    # ``python -m scenegraph._warmup``: compiles kernels by driving the public API
    # (function-level ``import scenegraph as sg``), as a user's first query would.
    "scenegraph._warmup",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(name: str) -> bool:
    return (ROOT / name.replace(".", "/") / "__init__.py").is_file()


def _is_module(name: str) -> bool:
    return _is_package(name) or (ROOT / (name.replace(".", "/") + ".py")).is_file()


@functools.lru_cache(maxsize=None)
def _parse(source: str) -> ast.Module:
    return ast.parse(source)


def _imports(source: str, module: str, is_package: bool):
    """(line, imported module, names or None) of every import statement in `source`
    (module level and inside functions), relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(_parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield node.lineno, target, [alias.name for alias in node.names]


def _sources(top: str):
    for path in sorted((ROOT / top).rglob("*.py")):
        yield _module_name(path), path.name == "__init__.py", path.read_text(encoding="utf-8")


def scenegraph_imports(module: str, is_package: bool, source: str):
    """The statements of `source` that import scenegraph, as 'module:line target'."""
    return [f"{module}:{line} {target}" for line, target, _ in
            _imports(source, module, is_package)
            if target == "scenegraph" or target.startswith("scenegraph.")]


def own_init_imports(module: str, is_package: bool, source: str):
    """The statements of `source` that take names from the __init__ of a package the
    module belongs to (``from <ancestor> import Name`` where Name is not a submodule,
    or ``import <ancestor>``), as 'module:line target names'."""
    found = []
    for line, target, names in _imports(source, module, is_package):
        if not (module.startswith(target + ".") and _is_package(target)):
            continue
        if names is None:
            found.append(f"{module}:{line} import {target}")
            continue
        from_init = [n for n in names if not _is_module(f"{target}.{n}")]
        if from_init:
            found.append(f"{module}:{line} from {target} import {', '.join(from_init)}")
    return found


def test_the_scans_find_what_they_look_for():
    # A planted violation of each rule is reported with its line.
    source = "import numpy\n\ndef f():\n    from scenegraph.math import RigidTransform\n"
    assert scenegraph_imports("systems.framework.x", False, source) == [
        "systems.framework.x:4 scenegraph.math"]
    source = ("from . import diagram\nfrom . import LeafSystem\n"
              "def g():\n    from systems import framework\n    import systems\n")
    assert own_init_imports("systems.framework.x", False, source) == [
        "systems.framework.x:2 from systems.framework import LeafSystem",
        "systems.framework.x:5 import systems"]
    # A sibling subpackage's __init__ is not the module's own package.
    assert own_init_imports("scenegraph.multibody.x", False,
                            "from scenegraph.math import RigidTransform\n") == []


def test_systems_never_imports_scenegraph():
    found = [hit for module, is_package, source in _sources("systems")
             for hit in scenegraph_imports(module, is_package, source)]
    assert found == []
    # The moved module names its new home as a string, imported on first access.
    shim = (ROOT / "systems" / "rigid_bodies.py").read_text(encoding="utf-8")
    assert '_MOVED_TO = "scenegraph.rigid_bodies"' in shim


def test_the_bottom_layer_builds_on_nothing_above_it():
    for module, is_package, source in _sources("systems/common"):
        targets = {target for _, target, _ in _imports(source, module, is_package)}
        above = sorted(t for t in targets if t.split(".")[0] in PACKAGES
                       and not t.startswith(("systems.common", "systems.autodiff")))
        assert above == [], module
    for module, is_package, source in _sources("systems/autodiff"):
        targets = {target for _, target, _ in _imports(source, module, is_package)}
        above = sorted(t for t in targets if t.split(".")[0] in PACKAGES
                       and not t.startswith("systems.autodiff"))
        assert above == [], module
    # scenegraph builds on systems' public modules only (no private ones).
    private = [f"{module}:{line} {target}"
               for module, is_package, source in _sources("scenegraph")
               for line, target, _ in _imports(source, module, is_package)
               if target.startswith("systems.")
               and any(part.startswith("_") for part in target.split("."))]
    assert private == []


@pytest.mark.parametrize("top", PACKAGES)
def test_no_module_imports_its_own_packages_init(top):
    found = [hit for module, is_package, source in _sources(top)
             if module not in OWN_INIT_ALLOWED
             for hit in own_init_imports(module, is_package, source)]
    assert found == []


def test_importing_systems_leaves_scenegraph_unimported():
    code = (
        "import sys\n"
        "import systems.framework, systems.analysis, systems.primitives\n"
        "import systems.trajectories, systems.common, systems.rigid_bodies\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scenegraph'))\n"
        "from systems.rigid_bodies import RigidBodies\n"
        "import scenegraph.rigid_bodies\n"
        "print(RigidBodies is scenegraph.rigid_bodies.RigidBodies)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["[]", "True"]


def test_the_moved_module_names_its_new_home():
    import systems.rigid_bodies as moved
    from scenegraph import rigid_bodies

    assert moved.sphere_body is rigid_bodies.sphere_body
    assert set(moved._NAMES) == set(rigid_bodies.__all__)
    with pytest.raises(AttributeError, match="moved to scenegraph.rigid_bodies"):
        moved.simulate


def _module_level_imports(module: str, is_package: bool, source: str):
    """The modules of ours that `source` imports when it is imported (its top-level
    statements and ``if`` blocks, not function bodies): ``from p import name`` counts
    as p.name when that is a module, else as p's __init__."""
    package = module if is_package else module.rpartition(".")[0]
    nodes = []
    for node in _parse(source).body:
        nodes.extend(node.body if isinstance(node, ast.If) else [node])
    out = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            if target.split(".")[0] in PACKAGES:
                out.update(f"{target}.{a.name}" if _is_module(f"{target}.{a.name}")
                           else target for a in node.names)
    return out


def import_circle(graph: dict):
    """One circle of `graph` (module -> modules it imports) as a list, or None."""
    state, path = {}, []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for other in sorted(graph.get(module, ())):
            if state.get(other) == "open":
                return path[path.index(other):] + [other]
            if other in graph and other not in state:
                circle = visit(other)
                if circle:
                    return circle
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state:
            circle = visit(module)
            if circle:
                return circle
    return None


def test_no_import_circle_at_module_level():
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    graph = {module: _module_level_imports(module, is_package, source)
             for top in PACKAGES for module, is_package, source in _sources(top)}
    assert len(graph) > 150
    assert import_circle(graph) is None
