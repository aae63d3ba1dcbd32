"""Hydroelastic contact surfaces at three resolutions, fresh poses, against Drake.

Scenes (every sphere r = 0.1 m, every modulus E = 1e6 Pa, overlap 3 cm):
  sphere/rigid box      compliant sphere sunk 3 cm into a rigid 1 x 1 x 0.1 m box
  sphere/compliant box  the same with the box compliant
  sphere/sphere         two compliant spheres whose centres are 0.17 m apart
  box/box               compliant 0.2 m cube sunk 3 cm into a compliant 1 x 1 x 0.1 m
                        box (Drake meshes compliant boxes without the hint: one row)
each at resolution hints 0.02, 0.005 and 0.00125 m, in both representations.
Every timed call first fixes a new FramePoseVector (the upper geometry turned
about the vertical by a different small angle and shifted by up to 0.1 mm),
so world poses and the whole query are recomputed: the "fresh" time of a
controller querying each step. Prints the median milliseconds per
QueryObject.ComputeContactSurfaces, the face count, the force N exerts on M
(z component) and the ratio to Drake's median below. Never asserts timing.

Drake's medians (pydrake 1.51.1, same scenes, same pose sequence, interleaved
call by call with this library in one process, 2-core machine shared with
other jobs), measured with
  /work/drake-venv/bin/python tools/drake_bench_hydroelastic.py --repeats 15
(faces and Fz are Drake's, for the first pose). Machine load moves both
libraries' times by up to 2x between runs; the ratios printed by the tools
script, from interleaved calls, are the ones to trust:

  scene                 hint     rep        faces   Fz [N]         Drake [ms]
  sphere/rigid box      0.02     kTriangle  466     -2153.97       0.678
  sphere/rigid box      0.02     kPolygon   138     -2153.97       0.647
  sphere/rigid box      0.005    kTriangle  4714    -2255.06       9.571
  sphere/rigid box      0.005    kPolygon   1498    -2255.06       12.669
  sphere/rigid box      0.00125  kTriangle  64746   -2261.52       138.119
  sphere/rigid box      0.00125  kPolygon   21282   -2261.52       93.153
  sphere/compliant box  0.02     kTriangle  707     -1492.74       0.494
  sphere/compliant box  0.02     kPolygon   199     -1492.74       0.445
  sphere/compliant box  0.005    kTriangle  5562    -1565.80       4.346
  sphere/compliant box  0.005    kPolygon   1711    -1565.80       4.346
  sphere/compliant box  0.00125  kTriangle  68044   -1570.48       159.908
  sphere/compliant box  0.00125  kPolygon   22107   -1570.48       165.981
  sphere/sphere         0.02     kTriangle  775     -582.93        0.625
  sphere/sphere         0.02     kPolygon   214     -582.93        0.547
  sphere/sphere         0.005    kTriangle  13129   -632.79        34.573
  sphere/sphere         0.005    kPolygon   3642    -632.79        30.522
  sphere/sphere         0.00125  kTriangle  205216  -635.96        1023.836
  sphere/sphere         0.00125  kPolygon   56974   -635.96        1389.445
  box/box               0.02     kTriangle  198     -6506.67       0.132
  box/box               0.02     kPolygon   54      -6506.67       0.121

Run: .venv/bin/python benchmarks/bench_hydroelastic.py [--repeats N] [--scene S]
     [--hint H] [--memory]
--memory runs each case in a fresh process and prints the query's peak
memory next to the size of its output surface plus both input meshes: after
warming up (kernels compiled, scene built, one query run), freed heap is
returned to the system (malloc_trim), the resident-set high-water mark is
reset (/proc/self/clear_refs), and the peak is the high-water mark reached by
one fresh query minus the resident set before it (Linux only).
"""
from __future__ import annotations

import argparse
import ctypes
import dataclasses
import math
import pathlib
import re
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HINTS = (0.02, 0.005, 0.00125)
REPRESENTATIONS = ("kTriangle", "kPolygon")
RADIUS, MODULUS, OVERLAP = 0.1, 1e6, 0.03


@dataclasses.dataclass(frozen=True)
class SceneSpec:
    """Two geometries: `lower` anchored, `upper` on a moving frame; shapes as
    (type name, parameters), compliance 'compliant' or 'rigid', poses as
    translations [m] (rotations are applied per call)."""

    name: str
    lower: tuple
    lower_compliance: str
    p_W_lower: tuple
    upper: tuple
    upper_compliance: str
    p_W_upper: tuple
    hints: tuple = HINTS


BOX = ("Box", (1.0, 1.0, 0.1))
SPHERE = ("Sphere", (RADIUS,))
SCENES = (
    SceneSpec("sphere/rigid box", BOX, "rigid", (0, 0, -0.05), SPHERE, "compliant",
              (0, 0, RADIUS - OVERLAP)),
    SceneSpec("sphere/compliant box", BOX, "compliant", (0, 0, -0.05), SPHERE, "compliant",
              (0, 0, RADIUS - OVERLAP)),
    SceneSpec("sphere/sphere", SPHERE, "compliant", (0, 0, -(RADIUS - OVERLAP / 2)), SPHERE,
              "compliant", (0, 0, RADIUS - OVERLAP / 2)),
    SceneSpec("box/box", BOX, "compliant", (0, 0, -0.05), ("Box", (0.2, 0.2, 0.2)), "compliant",
              (0, 0, 0.1 - OVERLAP), hints=(0.02,)),
)


def pose_sequence(count: int) -> list:
    """(yaw [rad], p offset [m]) per call: small turns and shifts, all different."""
    return [(0.05 * math.sin(1.7 * k), 1e-4 * np.array([math.cos(k), math.sin(2.3 * k), 0.0]))
            for k in range(count)]


class Harness:
    """One scene built through an API namespace (pydrake or this library):
    set_pose(k) fixes pose k of pose_sequence, query(rep) returns the surfaces."""

    def __init__(self, api, spec: SceneSpec, hint: float, count: int):
        self.api, self.spec = api, spec
        sg = api.SceneGraph()
        source = sg.RegisterSource("bench")
        frame = sg.RegisterFrame(source, api.GeometryFrame("upper"))
        lower = sg.RegisterAnchoredGeometry(source, api.GeometryInstance(
            api.RigidTransform(np.array(spec.p_W_lower, dtype=float)),
            self._shape(spec.lower), "lower"))
        upper = sg.RegisterGeometry(source, frame, api.GeometryInstance(
            api.RigidTransform(), self._shape(spec.upper), "upper"))
        sg.AssignRole(source, lower, self._properties(spec.lower_compliance, hint))
        sg.AssignRole(source, upper, self._properties(spec.upper_compliance, hint))
        self.scene_graph, self.source, self.frame = sg, source, frame
        self.context = sg.CreateDefaultContext()
        self.port = sg.get_source_pose_port(source)
        self.query_port = sg.get_query_output_port()
        self.poses = []
        for yaw, offset in pose_sequence(count):
            X = api.RigidTransform(api.RotationMatrix.MakeZRotation(yaw),
                                   np.array(spec.p_W_upper, dtype=float) + offset)
            vector = api.FramePoseVector()
            vector.set_value(frame, X)
            self.poses.append(vector)

    def _shape(self, shape):
        kind, params = shape
        return getattr(self.api, kind)(*params)

    def _properties(self, compliance: str, hint: float):
        props = self.api.ProximityProperties()
        if compliance == "rigid":
            self.api.AddRigidHydroelasticProperties(hint, props)
        else:
            self.api.AddCompliantHydroelasticProperties(hint, MODULUS, props)
        return props

    def set_pose(self, k: int) -> None:
        self.port.FixValue(self.context, self.poses[k % len(self.poses)])

    def query(self, rep: str):
        representation = getattr(self.api.HydroelasticContactRepresentation, rep)
        return self.query_port.Eval(self.context).ComputeContactSurfaces(representation)


def surface_summary(surfaces, rep: str) -> tuple:
    """(faces, Fz [N]) of the single surface (0, nan if none): F = Σ p(c_f)·A_f·n_f on M."""
    if not surfaces:
        return 0, float("nan")
    s = surfaces[0]
    field = s.tri_e_MN() if rep == "kTriangle" else s.poly_e_MN()
    F = np.zeros(3)
    for f in range(s.num_faces()):
        F += field.EvaluateCartesian(f, s.centroid(f)) * s.area(f) * np.asarray(s.face_normal(f))
    return s.num_faces(), float(F[2])


def timed_call(harness: Harness, rep: str, k: int) -> float:
    harness.set_pose(k)
    start = time.perf_counter()
    harness.query(rep)
    return time.perf_counter() - start


def project_api():
    """This library's names, laid out as pydrake's modules would be."""
    import types

    import scenegraph
    import scenegraph.math as sgmath
    api = types.SimpleNamespace(**{n: getattr(scenegraph, n) for n in dir(scenegraph)
                                   if not n.startswith("_")})
    api.RigidTransform, api.RotationMatrix = sgmath.RigidTransform, sgmath.RotationMatrix
    return api


def cases(scene: str | None = None, hint: float | None = None):
    for spec in SCENES:
        if scene is not None and spec.name != scene:
            continue
        for h in spec.hints:
            if hint is not None and not math.isclose(h, hint):
                continue
            for rep in REPRESENTATIONS:
                yield spec, h, rep


def drake_table() -> dict:
    """(scene, hint, rep) -> (faces, Fz, ms) from the table in this docstring."""
    table = {}
    pattern = re.compile(r"^\s+(\S+/\S+(?: \S+)?)\s+([\d.]+)\s+(k\w+)\s+(\d+)\s+(\S+)\s+([\d.]+)\s*$")
    for line in __doc__.splitlines():
        m = pattern.match(line)
        if m:
            table[(m[1], float(m[2]), m[3])] = (int(m[4]), float(m[5]), float(m[6]))
    return table


def repeats_for(hint: float, requested: int) -> int:
    return max(3, requested // 5) if hint < 0.002 else requested


def run_times(args) -> None:
    api = project_api()
    drake = drake_table()
    print(f"{'scene':22}{'hint':>8} {'rep':10}{'faces':>7}{'Drake':>7}{'Fz [N]':>12}"
          f"{'ms':>10}{'Drake ms':>10}{'ratio':>7}")
    for spec, hint, rep in cases(args.scene, args.hint):
        repeats = repeats_for(hint, args.repeats)
        harness = Harness(api, spec, hint, repeats + 1)
        harness.set_pose(0)
        faces, Fz = surface_summary(harness.query(rep), rep)
        times = [timed_call(harness, rep, k) for k in range(1, repeats + 1)]
        ms = statistics.median(times) * 1e3
        d_faces, _, d_ms = drake.get((spec.name, hint, rep), (0, float("nan"), float("nan")))
        ratio = ms / d_ms if d_ms > 0 else float("nan")
        print(f"{spec.name:22}{hint:8.5f} {rep:10}{faces:7d}{d_faces:7d}{Fz:12.3f}"
              f"{ms:10.3f}{d_ms:10.3f}{ratio:7.2f}", flush=True)


def _mesh_bytes(mesh) -> int:
    if mesh is None:
        return 0
    total = mesh.vertices_array().nbytes
    for name in ("tetrahedra_array", "triangles_array"):
        if hasattr(mesh, name):
            total += getattr(mesh, name)().nbytes
    return total


def _surface_bytes(surface) -> int:
    mesh = surface.tri_mesh_W() if surface.is_triangle() else surface.poly_mesh_W()
    total = mesh.vertices_array().nbytes + 8 * mesh.num_vertices()   # vertices + pressures
    if surface.is_triangle():
        total += mesh.triangles_array().nbytes
    else:
        total += 8 * (mesh.num_faces() + sum(mesh.element(f).num_vertices()
                                             for f in range(mesh.num_faces())))
    total += 2 * 24 * mesh.num_faces()                                 # grad_e_M, grad_e_N
    return total


def _status_kib(field: str) -> int:
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def memory_case(scene: str, hint: float, rep: str) -> None:
    """Child process: prints the peak memory of one fresh query and the size of its
    output plus its input meshes, both in KiB."""
    api = project_api()
    spec = next(s for s in SCENES if s.name == scene)
    harness = Harness(api, spec, hint, 2)
    harness.set_pose(1)
    harness.query(rep)                      # compiles / loads kernels, builds caches
    inspector = harness.scene_graph.model_inspector()
    inputs = sum(_mesh_bytes(inspector.maybe_get_hydroelastic_mesh(g))
                 for g in inspector.GetAllGeometryIds())
    harness.set_pose(0)
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    pathlib.Path("/proc/self/clear_refs").write_text("5")
    before = _status_kib("VmRSS")
    surfaces = harness.query(rep)
    peak = _status_kib("VmHWM") - before
    output = sum(_surface_bytes(s) for s in surfaces)
    print(f"{peak} {(inputs + output) / 1024:.1f}")


def run_memory(args) -> None:
    print(f"{'scene':22}{'hint':>8} {'rep':10}{'peak KiB':>10}{'in+out KiB':>12}{'ratio':>7}")
    for spec, hint, rep in cases(args.scene, args.hint):
        out = subprocess.run([sys.executable, __file__, "--memory-case", spec.name, str(hint), rep],
                             capture_output=True, text=True, check=True).stdout.split()
        peak, size = float(out[0]), float(out[1])
        print(f"{spec.name:22}{hint:8.5f} {rep:10}{peak:10.0f}{size:12.0f}{peak / size:7.2f}",
              flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--scene", choices=[s.name for s in SCENES])
    parser.add_argument("--hint", type=float)
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--memory-case", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_case:
        scene, hint, rep = args.memory_case
        memory_case(scene, float(hint), rep)
    elif args.memory:
        run_memory(args)
    else:
        run_times(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
