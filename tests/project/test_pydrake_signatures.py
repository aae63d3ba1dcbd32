"""Every public callable here accepts pydrake 1.51's parameter names, positions and defaults.

The reference is tests/reference_data/pydrake_api.json, written once by
tools/dump_pydrake_api.py from pydrake 1.51.1 in a scratch virtualenv (pydrake is not
imported here). For each pydrake name that this project offers (module-level functions and
classes, and every member of those classes, inherited ones included), each of pydrake's
overloads must be accepted by one of our signatures:

* every named parameter can be passed by keyword (pybind11's unnamed ``argN`` parameters by
  position only), all of them together;
* a call giving only pydrake's required parameters binds too (our defaults cover pydrake's);
* where pydrake's default is a plain literal (number, bool, None, string), ours is equal.

Our overload sets declare their signatures in ``__overloads__`` (systems.common.overloads);
a plain ``*args``/``**kwargs`` signature would accept anything, so it is refused here unless
pydrake's own signature is ``*args, **kwargs``. Names pydrake has and we lack are not this
test's business (tools/api_coverage.py counts them).
"""
import ast
import enum
import importlib
import inspect
import json
import math
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parents[1] / "reference_data" / "pydrake_api.json")
                  .read_text(encoding="utf-8"))
_SKIP_KINDS = ("template", "instantiation", "module")
# Members whose pydrake signatures are about scalar types or C++ plumbing we do not model.
_MEMBER_SKIP = ("__init__subclass__",)


def _class_members(qualname):
    out, todo, seen = {}, [qualname], set()
    while todo:
        q = todo.pop(0)
        if q in seen or q not in DATA["classes"]:
            continue
        seen.add(q)
        entry = DATA["classes"][q]
        for name, member in entry["members"].items():
            out.setdefault(name, member)
        todo.extend(entry["bases"])
    return out


class _Placeholder:
    """Stands for any argument value."""


def _our_signatures(owner, name, pydrake_kind):
    """Our signatures for ``owner.name`` (``self``/``cls`` removed), or an error string."""
    if owner is None:
        return None, "missing"
    if inspect.ismodule(owner):
        raw = getattr(owner, name)
        bound_self = False
    else:
        try:
            raw = inspect.getattr_static(owner, name)
        except AttributeError:
            return None, "missing"
        if isinstance(raw, staticmethod):
            raw, bound_self = raw.__func__, False
        elif isinstance(raw, classmethod):
            raw, bound_self = raw.__func__, True
        elif isinstance(raw, property):
            return None, "is a property here, a method in pydrake"
        elif name == "__init__" and isinstance(owner, enum.EnumMeta):
            return [inspect.Signature([inspect.Parameter(
                "value", inspect.Parameter.POSITIONAL_OR_KEYWORD)])], None
        elif name == "__init__" and getattr(raw, "__overloads__", None) is None:
            try:
                return [inspect.signature(owner)], None
            except (TypeError, ValueError):
                return None, "has no inspectable signature"
        else:
            bound_self = pydrake_kind != "static" or inspect.isfunction(raw)
    overloads = getattr(raw, "__overloads__", None)
    if overloads is not None:
        return list(overloads), None
    if inspect.isclass(raw):
        raw, bound_self = raw.__init__, True
    try:
        sig = inspect.signature(raw)
    except (TypeError, ValueError):
        return None, "has no inspectable signature"
    if bound_self:
        params = list(sig.parameters.values())
        if params and params[0].kind in (params[0].POSITIONAL_ONLY,
                                         params[0].POSITIONAL_OR_KEYWORD):
            sig = sig.replace(parameters=params[1:])
    return [sig], None


def _literal(text):
    if text is None:
        return False, None
    if text in ("inf", "float('inf')"):
        return True, math.inf
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False, None


def _problem(sig, params):
    """Why ``sig`` does not accept pydrake's ``params``; None when it does."""
    pos, kw, req_pos, req_kw = [], {}, [], {}
    for pname, default, _ in params:
        if pname in ("/", "*"):
            continue
        if pname.startswith("*"):
            return None  # pydrake's own is *args/**kwargs: anything goes
        value = _Placeholder()
        if pname.startswith("arg") and pname[3:].isdigit():
            pos.append(value)
            if default is None:
                req_pos.append(value)
        else:
            kw[pname] = value
            if default is None:
                req_kw[pname] = value
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return f"takes {p}, which accepts anything: declare its signatures"
    try:
        sig.bind(*pos, **kw)
    except TypeError as e:
        return f"all of pydrake's arguments: {e}"
    try:
        sig.bind(*req_pos, **req_kw)
    except TypeError as e:
        return f"pydrake's required arguments only: {e}"
    # The same arguments given by position (as far as pydrake allows) land on parameters
    # of the same names: a positional call means the same thing here as in pydrake.
    positional, keyword, names = [], {}, []
    keyword_only = False
    for pname, _, _ in params:
        if pname == "*":
            keyword_only = True
        elif pname != "/":
            if keyword_only:
                keyword[pname] = _Placeholder()
            else:
                positional.append(_Placeholder())
                names.append(pname)
    try:
        bound = sig.bind(*positional, **keyword)
    except TypeError as e:
        return f"pydrake's arguments by position: {e}"
    ours = [n for n in bound.arguments if n not in keyword][:len(names)]
    for theirs, mine in zip(names, ours):
        if theirs != mine and not (theirs.startswith("arg") and theirs[3:].isdigit()):
            return f"by position, pydrake's {theirs} lands on our {mine}"
    for pname, default, _ in params:
        if pname not in sig.parameters or default is None:
            continue
        ok, expected = _literal(default)
        if not ok:
            continue
        ours = sig.parameters[pname].default
        if ours is inspect.Parameter.empty:
            return f"{pname} has no default here (pydrake: {default})"
        if isinstance(expected, float) and isinstance(ours, (int, float)) \
                and not isinstance(ours, bool):
            if ours == expected or (math.isnan(expected) and math.isnan(ours)):
                continue
        elif isinstance(expected, int) and not isinstance(expected, bool) and \
                isinstance(ours, (int, float)) and not isinstance(ours, bool) and ours == expected:
            continue
        elif ours == expected and type(ours) is type(expected) or \
                (expected is None and ours is None):
            continue
        return f"{pname} defaults to {ours!r} here, {default} in pydrake"
    return None


def _check_callable(owner, name, entry, label):
    overloads = [o for o in entry.get("overloads", []) if not o["scalar_only"]]
    if not overloads:
        return []
    sigs, error = _our_signatures(owner, name, entry["kind"])
    if error == "missing":
        return []
    if error:
        return [f"{label}: {error}"]
    problems = []
    for overload in overloads:
        if any(p[0].startswith("*") and p[0] != "*" for p in overload["params"]):
            continue  # pydrake's own is *args/**kwargs: anything goes
        reasons = [_problem(sig, overload["params"]) for sig in sigs]
        if all(r is not None for r in reasons):
            shown = ", ".join(p[0] + ("=" + p[1] if p[1] else "") for p in overload["params"])
            problems.append(f"{label}({shown}): " + " | ".join(reasons))
    return problems


def _cases():
    cases = []
    for mod_name, mod in DATA["modules"].items():
        for name, entry in mod["names"].items():
            if entry["kind"] in _SKIP_KINDS or entry["kind"] == "value":
                continue
            cases.append(pytest.param(mod["ours"], name, entry, id=f"{mod['ours']}.{name}"))
    return cases


@pytest.mark.parametrize("ours, name, entry", _cases())
def test_signatures_accept_pydrake_parameter_names(ours, name, entry):
    module = importlib.import_module(ours)
    if not hasattr(module, name):
        return  # absent names are counted by tools/api_coverage.py
    obj = getattr(module, name)
    problems = []
    if entry["kind"] == "function":
        problems += _check_callable(module, name, entry, f"{ours}.{name}")
    else:
        for member, mentry in _class_members(entry["qualname"]).items():
            if "overloads" not in mentry or "𝓣" in member or member in _MEMBER_SKIP:
                continue
            if not hasattr(obj, member):
                continue
            problems += _check_callable(obj, member, mentry, f"{name}.{member}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_reference_list_is_pydrake_1_51():
    assert DATA["pydrake_version"] == "1.51.1"
    names = DATA["modules"]["pydrake.systems.framework"]["names"]
    assert names["LeafSystem"]["kind"] == "class"
    assert names["LeafSystem_"]["kind"] == "template"
