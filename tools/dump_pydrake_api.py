"""Dump pydrake 1.51's public names and parameter names into tests/reference_data/pydrake_api.json.

Run once, with the scratch virtualenv that has pydrake installed (never imported by the
library or its tests; the JSON it writes is what tests/project/test_pydrake_signatures.py reads):

    /work/drake-venv/bin/python tools/dump_pydrake_api.py [out.json]

For every public name of the mirrored pydrake modules it records the kind (class, function,
template, scalar instantiation, module, value) and, for callables, every overload's parameters
as ``[name, default-or-null, type-text]`` (``self`` dropped; pybind11's ``*`` / ``/`` markers
kept as their own entries). Signatures of compiled functions are parsed from pybind11's
docstrings ("Overloaded function. 1. f(a: int, b: float = 1.0) -> None"); Python-defined ones
come from ``inspect.signature``. Class members are recorded per class (own members only) with
the class's bases, so inherited members are resolved by walking the bases.
"""
import importlib
import importlib.metadata
import inspect
import json
import re
import sys
from pathlib import Path

from pydrake.common.cpp_template import TemplateBase

# pydrake module -> this project's module (README's module map).
MODULES = {
    "pydrake.systems.framework": "systems.framework",
    "pydrake.common.value": "systems.framework",
    "pydrake.systems.analysis": "systems.analysis",
    "pydrake.systems.primitives": "systems.primitives",
    "pydrake.geometry": "scenegraph",
    "pydrake.math": "scenegraph.math",
    "pydrake.multibody.plant": "scenegraph.multibody",
    "pydrake.multibody.parsing": "scenegraph.multibody",
    "pydrake.multibody.tree": "scenegraph.multibody",
    "pydrake.multibody.math": "scenegraph.multibody",
    "pydrake.multibody.meshcat": "scenegraph.multibody",
    "pydrake.systems.sensors": "scenegraph.sensors",
    "pydrake.perception": "scenegraph",
}

_SCALAR_TYPES = ("pydrake.autodiffutils", "pydrake.symbolic", "AutoDiffXd", "Expression",
                 "symbolic.Variable", "symbolic.Formula", "Polynomial")


def _split_top_level(text):
    """Splits ``text`` at commas that are not inside brackets or quotes."""
    parts, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _split_param(text):
    """'name: type = default' -> (name, type, default or None)."""
    name, _, rest = text.partition(":")
    name = name.strip()
    if not rest:  # '*', '/', '*args', '**kwargs', or a name without annotation
        name, _, default = name.partition("=")
        return name.strip(), "", (default.strip() or None)
    depth, quote = 0, None
    for i, ch in enumerate(rest):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "=" and depth == 0:
            return name, rest[:i].strip(), rest[i + 1:].strip()
    return name, rest.strip(), None


def _signature_lines(doc, name):
    """The pybind11 signature lines of a docstring, one per overload."""
    if not doc:
        return []
    pat = re.compile(r"^(?:\d+\. )?" + re.escape(name) + r"\((.*)\)(?: -> (.*))?$")
    out = []
    for line in doc.splitlines():
        m = pat.match(line)
        if m and m.group(1) not in ("*args, **kwargs",):
            out.append(m.group(1))
    return out


def _overloads_from_doc(obj, name):
    """Parses pybind11 overload signatures; None when the docstring has none."""
    lines = _signature_lines(getattr(obj, "__doc__", None), name)
    if not lines:
        return None
    seen, overloads = set(), []
    for params_text in lines:
        params = []
        for p in _split_top_level(params_text):
            pname, ptype, default = _split_param(p)
            params.append([pname, default, ptype])
        if params and params[0][0] == "self":
            params = params[1:]
        scalar = any(any(s in p[2] for s in _SCALAR_TYPES) for p in params)
        key = tuple((p[0], p[1] is not None) for p in params)
        if scalar and key in seen:
            continue
        seen.add(key)
        overloads.append({"params": params, "scalar_only": scalar})
    # An overload that needs AutoDiff/symbolic types is kept only when its parameter names
    # differ from every double overload (then it is marked scalar_only).
    return overloads


def _overloads_from_signature(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = []
    star_done = False
    for p in sig.parameters.values():
        if p.name == "self" and not params:
            continue
        if p.kind is p.VAR_POSITIONAL:
            params.append(["*" + p.name, None, ""])
            star_done = True
            continue
        if p.kind is p.VAR_KEYWORD:
            params.append(["**" + p.name, None, ""])
            continue
        if p.kind is p.KEYWORD_ONLY and not star_done:
            params.append(["*", None, ""])
            star_done = True
        default = None if p.default is p.empty else repr(p.default)
        params.append([p.name, default, ""])
    return [{"params": params, "scalar_only": False}]


def _callable_entry(obj, name):
    overloads = _overloads_from_doc(obj, name)
    if overloads is None:
        overloads = _overloads_from_signature(obj)
    return overloads or []


def _member_entry(cls, name, raw):
    if isinstance(raw, property) or type(raw).__name__ in ("pybind11_static_property",):
        return {"kind": "property"}
    if isinstance(raw, staticmethod):
        return {"kind": "static", "overloads": _callable_entry(raw.__func__, name)}
    if isinstance(raw, classmethod):
        return {"kind": "classmethod", "overloads": _callable_entry(raw.__func__, name)}
    if inspect.isclass(raw):
        return {"kind": "class"}
    obj = getattr(cls, name, raw)
    if callable(raw) or callable(obj):
        kind = "method"
        if type(raw).__name__ == "builtin_function_or_method":
            kind = "static"
        return {"kind": kind, "overloads": _callable_entry(obj, name)}
    return {"kind": "attribute", "repr": repr(raw)[:80]}


_KEEP_DUNDER = ("__init__", "__call__", "__getitem__", "__len__", "__iter__", "__eq__",
                "__copy__", "__deepcopy__", "__matmul__", "__mul__", "__str__", "__repr__")


def _class_entry(cls):
    members = {}
    for name, raw in cls.__dict__.items():
        if name.startswith("_") and name not in _KEEP_DUNDER:
            continue
        if name in ("__str__", "__repr__", "__eq__", "__copy__", "__deepcopy__"):
            members[name] = {"kind": "dunder"}
            continue
        members[name] = _member_entry(cls, name, raw)
    entry = {
        "kind": "class",
        "qualname": f"{cls.__module__}.{cls.__qualname__}",
        "bases": [f"{b.__module__}.{b.__qualname__}" for b in cls.__bases__
                  if b.__module__.startswith("pydrake")],
        "members": members,
    }
    if hasattr(cls, "__members__") and isinstance(getattr(cls, "__members__"), dict):
        entry["enum_values"] = sorted(cls.__members__)
    return entry


def _collect_classes(cls, out):
    """Records ``cls`` and its pydrake bases (even when defined in other modules)."""
    key = f"{cls.__module__}.{cls.__qualname__}"
    if key in out:
        return
    out[key] = _class_entry(cls)
    for b in cls.__bases__:
        if b.__module__.startswith("pydrake"):
            _collect_classes(b, out)
    for name, raw in cls.__dict__.items():  # nested classes (e.g. SimulatorConfig fields)
        if inspect.isclass(raw) and raw.__module__.startswith("pydrake") and not name.startswith("_"):
            _collect_classes(raw, out)


def _name_entry(mod, name, classes):
    obj = getattr(mod, name)
    if isinstance(obj, TemplateBase):
        params = [[getattr(t, "__name__", repr(t)) for t in p] for p in obj.param_list]
        return {"kind": "template", "params": params}
    if "𝓣" in name:
        return {"kind": "instantiation"}
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if inspect.isclass(obj):
        _collect_classes(obj, classes)
        return {"kind": "class", "qualname": f"{obj.__module__}.{obj.__qualname__}"}
    if callable(obj):
        return {"kind": "function", "overloads": _callable_entry(obj, name)}
    return {"kind": "value", "repr": repr(obj)[:80]}


def main(out_path):
    data = {"pydrake_version": importlib.metadata.version("drake"),
            "python": sys.version.split()[0], "modules": {}, "classes": {}}
    for mod_name, ours in MODULES.items():
        mod = importlib.import_module(mod_name)
        names = {}
        for name in sorted(dir(mod)):
            if name.startswith("_"):
                continue
            names[name] = _name_entry(mod, name, data["classes"])
        data["modules"][mod_name] = {"ours": ours, "names": names}
    Path(out_path).write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                              encoding="utf-8")
    n = sum(len(m["names"]) for m in data["modules"].values())
    print(f"wrote {out_path}: {n} names, {len(data['classes'])} classes")


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    main(sys.argv[1] if len(sys.argv) > 1 else root / "tests" / "reference_data" / "pydrake_api.json")
