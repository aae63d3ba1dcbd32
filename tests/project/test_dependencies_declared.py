"""pyproject.toml says what the code imports: every third-party module the
library (scenegraph/, systems/) imports is a declared dependency — a core one,
or one of a named extra when the import is optional (inside a function or a
try block) — and every core dependency is used."""
import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# Core dependencies the code does not import by name: trimesh reads COLLADA files
# through pycollada; the Meshcat server serves the meshcat package's viewer files
# (found with importlib.util.find_spec, not imported).
USED_INDIRECTLY = {"pycollada", "meshcat"}


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!\[;~]", requirement, maxsplit=1)[0].lower().replace("_", "-")


CORE = {_name(r) for r in PROJECT["dependencies"]}
EXTRAS = {extra: {_name(r) for r in reqs}
          for extra, reqs in PROJECT["optional-dependencies"].items()}


def _imports():
    """{top-level module: "core" or "optional"} over the library's sources: an
    import at module level outside try blocks is core, any other optional."""
    found = {}
    for package in ("scenegraph", "systems"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            optional_nodes = set()
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Try)):
                    optional_nodes.update(id(n) for n in ast.walk(node) if n is not node)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                kind = "optional" if id(node) in optional_nodes else "core"
                for name in names:
                    top = name.split(".")[0]
                    if top in sys.stdlib_module_names or top in ("scenegraph", "systems",
                                                                 "__future__"):
                        continue
                    if found.get(top) != "core":
                        found[top] = kind
    return found


def _distributions(module: str) -> set:
    return {d.lower().replace("_", "-")
            for d in importlib.metadata.packages_distributions().get(module, [module])}


def test_every_imported_module_is_declared():
    undeclared = []
    for module, kind in sorted(_imports().items()):
        dists = _distributions(module)
        declared = CORE if kind == "core" else CORE.union(*EXTRAS.values())
        if not dists & declared:
            undeclared.append((module, kind, sorted(dists)))
    assert not undeclared, f"imported but not declared (module, kind, distributions): " \
                           f"{undeclared}"


def test_every_core_dependency_is_used():
    imported = set()
    for module in _imports():
        imported |= _distributions(module)
    unused = sorted(CORE - imported - USED_INDIRECTLY)
    assert not unused, f"core dependencies nothing imports: {unused}"
