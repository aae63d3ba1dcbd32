"""Every public name of the documented packages has a docstring.

The public API is what the API reference pages (docs/reference/*.md) show: the names each
package exports (its ``__all__``, else its non-underscore attributes) that are classes or
functions defined in this project, and, for every such class, the public methods and
properties defined on it or on a project base class. A method that overrides a documented
base method inherits that docstring (``inspect.getdoc``), as pydrake's bindings do.

Run as a script to print the coverage per package and the undocumented names:

    .venv/bin/python tests/docs/test_docstrings.py [--list]
"""
from __future__ import annotations

import enum
import importlib
import inspect
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

_ROOT = Path(__file__).resolve().parents[2]


def _systems_modules():
    """Every public module or package directly under systems/ that declares its exports
    (``__all__``): each is a documented block (systems.framework, systems.drawing, ...)."""
    out = []
    for p in sorted((_ROOT / "systems").iterdir()):
        source = p / "__init__.py" if p.is_dir() else p
        if p.name.startswith(("_", ".")) or source.suffix != ".py" or not source.is_file():
            continue
        if "__all__" in source.read_text(encoding="utf-8"):
            out.append(f"systems.{p.stem}")
    return out


# The packages that have an API reference page (docs/reference/<package>.md): every
# public module under systems/, and scenegraph's public packages (its other subpackages,
# proximity and hydroelastic, are implementation; their public names are re-exported
# by scenegraph).
PACKAGES = tuple(_systems_modules()) + (
    "scenegraph", "scenegraph.math", "scenegraph.visualization", "scenegraph.sensors",
    "scenegraph.multibody", "scenegraph.rigid_bodies")
_OURS = ("systems", "scenegraph")


def _is_ours(obj) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in _OURS


def public_names(module_name: str):
    """(name, object) for the module's exported classes and functions defined here."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    out = []
    for name in names:
        obj = getattr(module, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and _is_ours(obj):
            if name.endswith("_") and not inspect.isclass(obj):
                continue
            out.append((name, obj))
    return out


def _own_doc(obj) -> str:
    return (inspect.getdoc(obj) or "").strip()


def public_members(cls):
    """(name, attribute, defining class) for the public methods and properties a user
    sees on ``cls`` that this project defines (on ``cls`` or a project base class)."""
    seen, out = set(), []
    for klass in cls.__mro__:
        if not _is_ours(klass):
            continue
        for name, attr in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            if isinstance(attr, property) or inspect.isfunction(attr) or (
                    callable(attr) and not isinstance(attr, (type, enum.Enum))):
                # Functions, properties and callable descriptors (pydrake-style overload
                # sets, scalar-template methods); not data, enum values or nested types.
                out.append((name, attr, klass))
    return out


def _member_doc(cls, name, attr) -> str:
    doc = _own_doc(attr)
    if doc:
        return doc
    # An override without its own docstring inherits its base's (inspect.getdoc on the
    # class attribute looks along the MRO).
    try:
        return (inspect.getdoc(getattr(cls, name)) or "").strip()
    except Exception:  # noqa: BLE001 (a descriptor that refuses class access)
        return ""


def survey():
    """{package: (n_documented, n_total, [undocumented qualified names])}."""
    result, done = {}, set()
    for package in PACKAGES:
        documented, total, missing = 0, 0, []
        for name, obj in public_names(package):
            total += 1
            if _own_doc(obj) and not (inspect.isclass(obj) and obj.__doc__ is None):
                documented += 1
            else:
                missing.append(f"{package}.{name}")
            if not inspect.isclass(obj):
                continue
            for member, attr, klass in public_members(obj):
                # Each definition is counted once, where it is first met.
                if (klass, member) in done:
                    continue
                done.add((klass, member))
                total += 1
                if _member_doc(obj, member, attr):
                    documented += 1
                else:
                    missing.append(f"{klass.__module__}.{klass.__qualname__}.{member}")
        result[package] = (documented, total, missing)
    return result


def test_every_public_name_has_a_docstring():
    missing = [m for _, _, ms in survey().values() for m in ms]
    assert not missing, f"{len(missing)} public names without a docstring:\n  " + \
        "\n  ".join(missing)


def test_the_survey_sees_the_documented_api():
    # The walk itself must reach classes, methods and properties (a walker that finds
    # nothing would pass the test above vacuously).
    leaf_system = importlib.import_module("systems.framework").LeafSystem
    members = {name: klass for name, _, klass in public_members(leaf_system)}
    assert "DeclareVectorOutputPort" in members  # defined on LeafSystem
    assert members["get_name"] is not leaf_system  # inherited from a project base
    names = dict(public_names("scenegraph"))
    assert "SceneGraph" in names and "QueryObject" in names
    assert "np" not in names and "Rgba" in names


if __name__ == "__main__":
    table = survey()
    all_doc = all_tot = 0
    for package, (doc, tot, missing) in table.items():
        all_doc += doc
        all_tot += tot
        print(f"{package:<26} {doc:>5}/{tot:<5} {100.0 * doc / max(tot, 1):6.1f}%")
        if "--list" in sys.argv:
            for m in missing:
                print("    ", m)
    print(f"{'all':<26} {all_doc:>5}/{all_tot:<5} {100.0 * all_doc / max(all_tot, 1):6.1f}%")
    for package, name in (("systems.framework", "LeafSystem"), ("systems.analysis", "Simulator"),
                          ("scenegraph", "SceneGraph"), ("scenegraph", "QueryObject")):
        cls = getattr(importlib.import_module(package), name)
        members = public_members(cls)
        doc = sum(bool(_member_doc(cls, m, a)) for m, a, _ in members)
        print(f"{name}: {doc} of {len(members)} public methods and properties documented "
              "(inherited ones included)")
