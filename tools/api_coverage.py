"""Fraction of pydrake 1.51's public names present here, per mirrored module.

Reads the stored list tests/reference_data/pydrake_api.json (written by
tools/dump_pydrake_api.py); does not import pydrake. Run with the project's venv:

    .venv/bin/python tools/api_coverage.py [--missing] [--members]
    .venv/bin/python tools/api_coverage.py --markdown [--write]

Counts public non-template names (templates ``Foo_``, their scalar instantiations and
submodules are left out, as the issue's measurement does). ``--members`` also counts, for
every class present on both sides, the pydrake members (methods, properties, enum values)
that our class has. ``--missing`` lists what is absent. ``--markdown`` prints the name
tables of docs/migrating_from_pydrake.md (every pydrake name of the mirrored modules with
its status here: present, different or missing); ``--write`` puts them into that file,
between its ``<!-- BEGIN/END GENERATED NAME TABLES -->`` markers.
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
    default_factory), the ``name``/``value`` of enum members and instance
    attributes that ``__init__`` assigns (``self.output = ...``)."""
    if hasattr(cls, name):
        return True
    if name in getattr(cls, "__dataclass_fields__", {}):
        return True
    import enum
    if isinstance(cls, enum.EnumMeta) and name in ("name", "value"):
        return True
    return _init_assigns(cls, name)


def _init_assigns(cls, name) -> bool:
    """True if the ``__init__`` of `cls` (or of a base) assigns ``self.<name>``."""
    import inspect
    import re
    for klass in getattr(cls, "__mro__", ()):
        init = klass.__dict__.get("__init__")
        if init is None or not inspect.isfunction(init):
            continue
        try:
            source = inspect.getsource(init)
        except (OSError, TypeError):
            continue
        if re.search(rf"\bself\.{re.escape(name)}\s*=(?!=)", source):
            return True
    return False


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


GUIDE = ROOT / "docs" / "migrating_from_pydrake.md"
BEGIN = "<!-- BEGIN GENERATED NAME TABLES (tools/api_coverage.py --markdown --write) -->"
END = "<!-- END GENERATED NAME TABLES -->"

# Names present here that behave differently from pydrake 1.51 in a way a port may
# notice (beyond missing members, which are listed from the data). Each note is short;
# the guide's "Behavioural differences" section has the details.
KNOWN_DIFFERENCES = {
    "pydrake.systems.framework": {
        "EventStatus": "`KeepMoreSevere` returns the result (statuses are immutable)",
        "System": "scalar conversion to AutoDiffXd only (`ToSymbolic` raises); "
                  "`X_[AutoDiffXd]` subclasses the float class",
        "LeafSystem": "scalar conversion to AutoDiffXd only (`ToSymbolic` raises); "
                  "`X_[AutoDiffXd]` subclasses the float class",
        "Diagram": "scalar conversion to AutoDiffXd only (`ToSymbolic` raises); "
                  "`X_[AutoDiffXd]` subclasses the float class",
        "Context": "`SetContinuousState(None)` or non-numeric entries raise `TypeError`; "
                   "a frozen cache's error does not name the entry",
    },
    "pydrake.systems.analysis": {
        "Simulator": "non-finite state/derivative raises; callback errors name system and "
                     "time and leave the context at the last completed step; "
                     "`set_target_realtime_rate` refuses negative/NaN",
    },
    "pydrake.geometry": {
        "QueryObject": "well-defined normals where Drake gives NaN; `id_A` is always the "
                       "geometry registered first; signed distance to a `HalfSpace` for "
                       "every shape; extensions (snake_case)",
        "SceneGraph": "renderers are this library's `RenderEngineCpu`; refuses non-finite "
                      "poses and proximity shapes no query can answer (flat or open meshes); "
                      "`RegisterDeformableGeometry` raises `NotImplementedError` (rigid "
                      "geometry only)",
        "GeometryId": "`format()`/f-strings give the bare value (`str`/`repr` as pydrake)",
        "FrameId": "`format()`/f-strings give the bare value (`str`/`repr` as pydrake)",
        "SourceId": "`format()`/f-strings give the bare value (`str`/`repr` as pydrake)",
        "FilterId": "`format()`/f-strings give the bare value (`str`/`repr` as pydrake)",
        "GeometryProperties": "`GetPropertiesInGroup` values do not alias the properties",
        "MakeRenderEngineVtk": "builds `RenderEngineCpu` (no VTK); shadows, SSAO, "
                               "environment maps, exposure and PBR are not rendered",
        "MakeRenderEngineGl": "builds `RenderEngineCpu` (no OpenGL)",
        "RenderEngine": "Python subclasses render through their `Do*` overrides as in "
                        "pydrake, and also take SceneGraph's geometries (`DoRegisterVisual`; "
                        "pydrake 1.51.1 fails there)",
        "RenderLabel": "also built from an int; hashable",
        "Meshcat": "binds 127.0.0.1 by default; meshcat-python's viewer (no stats, "
                   "gamepad, WebXR, environment maps); `AddSlider` returns the value",
        "AddCompliantHydroelasticProperties": "a margin on a compliant `Convex`/`Mesh` is "
                                              "refused at `AssignRole`",
        "GeometryVersion": "the perception version changes with every perception change "
                           "while a renderer exists (Drake: when a renderer takes the "
                           "geometry)",
    },
    "pydrake.math": {
        "RigidTransform": "`GetAsIsometry3` returns a (4, 4) array",
    },
    "pydrake.systems.primitives": {},
    "pydrake.systems.sensors": {
        "ApplyCameraConfig": "no LCM (the images are the sensor's ports); `output_delay` > 0 "
                             "(RgbdSensorAsync) refused",
        "ImageWriter": "PNG and TIFF written with Pillow",
        "RotaryEncoders": "a tick count below 1 is refused (Drake accepts 0 and outputs NaN)",
        "ImageIo": "Pillow; BGR(A) images are written in RGB(A) order, JPEG without "
                   "alpha; a file that cannot be written raises (pydrake returns)",
    },
    "pydrake.multibody.plant": {
        "MultibodyPlant": "kinematics only: the dynamics, actuation and contact-force "
                          "methods and ports raise `NotImplementedError`; q and v move "
                          "only through the `commanded_positions`/`commanded_velocities` "
                          "ports (extensions); contact settings are stored, no effect",
    },
    "pydrake.multibody.tree": {
        "FixedOffsetFrame": "`SetPoseInParentFrame` raises (offsets are fixed at "
                            "construction, not context parameters)",
    },
}


def _status(data, mod_name, mod, name, entry):
    """(status, note) of one pydrake name here."""
    ours = importlib.import_module(mod["ours"])
    if not hasattr(ours, name):
        return "missing", ""
    notes = []
    known = KNOWN_DIFFERENCES.get(mod_name, {}).get(name)
    if known:
        notes.append(known)
    if entry["kind"] == "class":
        cls = getattr(ours, name)
        lacks = sorted(m for m in class_members(data, entry["qualname"])
                       if not (m.startswith("__") and m not in ("__init__", "__call__"))
                       and "𝓣" not in m and not has_member(cls, m))
        if lacks:
            notes.append("lacks " + ", ".join(f"`{m}`" for m in lacks))
    return ("different" if notes else "present"), "; ".join(notes)


def markdown(data) -> str:
    """The guide's name tables: one per mirrored module, every public pydrake name
    (scalar instantiations and submodules left out) with its status here."""
    out = [f"Generated from pydrake {data['pydrake_version']}'s names "
           "(`tests/reference_data/pydrake_api.json`) against this package's exports by "
           "`tools/api_coverage.py --markdown --write`. *present*: same name, "
           "pydrake's signatures accepted (`tests/project/test_pydrake_signatures.py`); "
           "*different*: present, with the differences noted; *missing*: not offered. "
           "Templates (`Foo_`) hold the float (double) class and, for the systems "
           "framework, its primitives and the explicit integrators, an AutoDiffXd one.",
           ""]
    summary = ["| pydrake module | here | present | different | missing |",
               "| --- | --- | --: | --: | --: |"]
    sections = []
    for mod_name, mod in data["modules"].items():
        counts = {"present": 0, "different": 0, "missing": 0}
        rows = ["| pydrake name | kind | here | notes |", "| --- | --- | --- | --- |"]
        for name in sorted(mod["names"], key=str.lower):
            entry = mod["names"][name]
            if entry["kind"] in ("instantiation", "module"):
                continue
            status, note = _status(data, mod_name, mod, name, entry)
            counts[status] += 1
            shown = "**missing**" if status == "missing" else status
            rows.append(f"| `{name}` | {entry['kind']} | {shown} | {note} |")
        summary.append(f"| `{mod_name}` | `{mod['ours']}` | {counts['present']} | "
                       f"{counts['different']} | {counts['missing']} |")
        sections += ["", f"### `{mod_name}` → `{mod['ours']}`", ""] + rows
    return "\n".join(out + summary + sections) + "\n"


def write_guide(text: str) -> None:
    """Replaces the generated part of docs/migrating_from_pydrake.md."""
    guide = GUIDE.read_text(encoding="utf-8")
    head, rest = guide.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    GUIDE.write_text(head + BEGIN + "\n" + text + END + tail, encoding="utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list absent names")
    parser.add_argument("--members", action="store_true", help="also count class members")
    parser.add_argument("--markdown", action="store_true",
                        help="print the name tables of docs/migrating_from_pydrake.md")
    parser.add_argument("--write", action="store_true",
                        help="with --markdown: write them into that file")
    args = parser.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    if args.markdown:
        text = markdown(data)
        if args.write:
            write_guide(text)
        else:
            print(text, end="")
        return
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
