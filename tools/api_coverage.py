"""Fraction of pydrake 1.51's public names present here, per mirrored module.

Reads the stored list tests/reference_data/pydrake_api.json (written by
tools/dump_pydrake_api.py); does not import pydrake. Run with the project's venv:

    .venv/bin/python tools/api_coverage.py [--missing] [--members]

Counts public non-template names (templates ``Foo_``, their scalar instantiations and
submodules are left out, as the issue's measurement does). ``--members`` also counts, for
every class present on both sides, the pydrake members (methods, properties, enum values)
that our class has. ``--missing`` lists what is absent.
"""
import argparse
import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "reference_data" / "pydrake_api.json"

_SKIP_KINDS = ("template", "instantiation", "module")


def class_members(data, qualname):
    """All member names of a pydrake class, inherited ones included (bases walked)."""
    out, todo, seen = {}, [qualname], set()
    while todo:
        q = todo.pop()
        if q in seen or q not in data["classes"]:
            continue
        seen.add(q)
        entry = data["classes"][q]
        for name, member in entry["members"].items():
            out.setdefault(name, member)
        for value in entry.get("enum_values", []):
            out.setdefault(value, {"kind": "enum_value"})
        todo.extend(entry["bases"])
    return out


def has_member(cls, name) -> bool:
    """hasattr, counting dataclass fields (no class attribute when they use a
    default_factory) and the ``name``/``value`` of enum members."""
    if hasattr(cls, name):
        return True
    if name in getattr(cls, "__dataclass_fields__", {}):
        return True
    import enum
    return isinstance(cls, enum.EnumMeta) and name in ("name", "value")


def measure(data):
    rows = []
    for mod_name, mod in data["modules"].items():
        ours = importlib.import_module(mod["ours"])
        names = {n: e for n, e in mod["names"].items() if e["kind"] not in _SKIP_KINDS}
        present = sorted(n for n in names if hasattr(ours, n))
        missing = sorted(n for n in names if not hasattr(ours, n))
        m_total = m_present = 0
        m_missing = []
        for n in present:
            if names[n]["kind"] != "class":
                continue
            cls = getattr(ours, n)
            for member in class_members(data, names[n]["qualname"]):
                if member.startswith("__") and member not in ("__init__", "__call__"):
                    continue
                if "𝓣" in member:  # scalar instantiations (e.g. ToScalarType𝓣float𝓤)
                    continue
                m_total += 1
                if has_member(cls, member):
                    m_present += 1
                else:
                    m_missing.append(f"{n}.{member}")
        templates = [n for n, e in mod["names"].items() if e["kind"] == "template"]
        rows.append({"module": mod_name, "ours": mod["ours"], "total": len(names),
                     "templates_total": len(templates),
                     "templates_present": sum(hasattr(ours, n) for n in templates),
                     "present": len(present), "missing": missing,
                     "members_total": m_total, "members_present": m_present,
                     "members_missing": m_missing})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list absent names")
    parser.add_argument("--members", action="store_true", help="also count class members")
    args = parser.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    rows = measure(data)
    print(f"pydrake {data['pydrake_version']} public non-template names present here")
    tot = pres = mtot = mpres = 0
    for r in rows:
        line = f"{r['module']:<28} -> {r['ours']:<18} {r['present']:>4}/{r['total']:<4} " \
               f"{100.0 * r['present'] / max(r['total'], 1):6.1f}%"
        if args.members:
            line += f"   members {r['members_present']:>5}/{r['members_total']:<5} " \
                    f"{100.0 * r['members_present'] / max(r['members_total'], 1):6.1f}%"
            line += f"   templates {r['templates_present']:>3}/{r['templates_total']:<3}"
        print(line)
        tot += r["total"]
        pres += r["present"]
        mtot += r["members_total"]
        mpres += r["members_present"]
        if args.missing and r["missing"]:
            print("    missing:", ", ".join(r["missing"]))
        if args.missing and args.members and r["members_missing"]:
            print("    missing members:", ", ".join(r["members_missing"]))
    line = f"{'all':<28}    {'':<18} {pres:>4}/{tot:<4} {100.0 * pres / max(tot, 1):6.1f}%"
    if args.members:
        line += f"   members {mpres:>5}/{mtot:<5} {100.0 * mpres / max(mtot, 1):6.1f}%"
    print(line)


if __name__ == "__main__":
    main()
