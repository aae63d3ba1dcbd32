"""Hydroelastic contact surfaces: a compliant ball resting on a rigid box, and a
compliant box resting on a compliant box.

Each body is pressed into its support by the depth at which the contact
force carries its weight (found by bisection on the query itself). Prints,
for each contact surface, its total area, centroid and the force N exerts
on M, F = Σ p·A·n, next to the weight it carries. With --meshcat, starts a
Meshcat viewer and shows the geometry and the surfaces coloured by pressure,
serving it until Ctrl-C when run in a terminal (with --no-wait, or when stdin
is not a terminal, it exits at once).

Run:  python examples/hydroelastic_contact.py [--meshcat [--no-wait]]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (AddCompliantHydroelasticProperties,  # noqa: E402
                        AddRigidHydroelasticProperties, Box, FramePoseVector,
                        GeometryFrame, GeometryInstance, HydroelasticContactRepresentation,
                        MakePhongIllustrationProperties, ProximityProperties, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform  # noqa: E402

G = 9.81  # m/s²


def _props(compliant: bool, hint: float, modulus: float = 0.0) -> ProximityProperties:
    props = ProximityProperties()
    if compliant:
        AddCompliantHydroelasticProperties(hint, modulus, props)
    else:
        AddRigidHydroelasticProperties(hint, props)
    return props


class Scene:
    """SceneGraph with two stacks: ball (r = 5 cm, 0.5 kg, E = 1 MPa) on a rigid
    slab at x = -0.3 m; box (10 cm cube, 2 kg, E = 0.5 MPa) on a compliant
    slab (E = 5 MPa) at x = +0.3 m."""

    BALL_MASS, BOX_MASS = 0.5, 2.0

    def __init__(self):
        self.scene_graph = SceneGraph()
        sg = self.scene_graph
        source = self.source = sg.RegisterSource("stacks")
        self.ball_frame = sg.RegisterFrame(source, GeometryFrame("ball"))
        self.box_frame = sg.RegisterFrame(source, GeometryFrame("box"))
        self.ids = {}
        self._add(sg.RegisterAnchoredGeometry(
            source, GeometryInstance(RigidTransform([-0.3, 0.0, -0.025]), Box(0.3, 0.3, 0.05),
                                     "rigid_slab")), _props(False, 0.05), (0.6, 0.6, 0.6, 1))
        self._add(sg.RegisterAnchoredGeometry(
            source, GeometryInstance(RigidTransform([0.3, 0.0, -0.025]), Box(0.3, 0.3, 0.05),
                                     "compliant_slab")), _props(True, 0.05, 5e6),
            (0.3, 0.5, 0.8, 1))
        self._add(sg.RegisterGeometry(source, self.ball_frame, GeometryInstance(
            RigidTransform(), Sphere(0.05), "ball")), _props(True, 0.005, 1e6),
            (0.9, 0.3, 0.2, 1))
        self._add(sg.RegisterGeometry(source, self.box_frame, GeometryInstance(
            RigidTransform(), Box(0.1, 0.1, 0.1), "box")), _props(True, 0.05, 5e5),
            (0.2, 0.8, 0.3, 1))
        self.context = sg.CreateDefaultContext()

    def _add(self, geometry_id, props, rgba):
        self.scene_graph.AssignRole(self.source, geometry_id, props)
        self.scene_graph.AssignRole(self.source, geometry_id,
                                    MakePhongIllustrationProperties(np.array(rgba)))
        name = self.scene_graph.model_inspector().GetName(geometry_id)
        self.ids[name] = geometry_id

    def place(self, ball_depth: float, box_depth: float) -> None:
        """Sinks the ball and the box by the given depths [m] into their slabs."""
        poses = FramePoseVector()
        poses.set_value(self.ball_frame, RigidTransform([-0.3, 0.0, 0.05 - ball_depth]))
        poses.set_value(self.box_frame, RigidTransform([0.3, 0.0, 0.05 - box_depth]))
        self.poses = poses
        self.scene_graph.get_source_pose_port(self.source).FixValue(self.context, poses)

    def surfaces(self, representation=HydroelasticContactRepresentation.kPolygon):
        query = self.scene_graph.get_query_output_port().Eval(self.context)
        return {(query.inspector().GetName(s.id_M()), query.inspector().GetName(s.id_N())): s
                for s in query.ComputeContactSurfaces(representation)}


def force_on_M(surface) -> np.ndarray:
    """F = Σ p(c_f)·A_f·n_f, the force N exerts on M [N]."""
    field = surface.tri_e_MN() if surface.is_triangle() else surface.poly_e_MN()
    F = np.zeros(3)
    for f in range(surface.num_faces()):
        F += field.EvaluateCartesian(f, surface.centroid(f)) * surface.area(f) \
            * surface.face_normal(f)
    return F


def support_force(scene: Scene, body: str, depth: float) -> float:
    """Upward force [N] on `body` when sunk `depth` [m] into its slab."""
    scene.place(depth if body == "ball" else 0.0, depth if body == "box" else 0.0)
    for (m, n), surface in scene.surfaces().items():
        if body in (m, n):
            F = force_on_M(surface)
            return float(F[2] if m == body else -F[2])
    return 0.0


def equilibrium_depth(scene: Scene, body: str, weight: float) -> float:
    """Depth [m] at which the contact force equals `weight` [N] (bisection)."""
    lo, hi = 0.0, 0.02
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if support_force(scene, body, mid) < weight:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()),
        epilog="Prints each contact surface's area, centroid and force.")
    parser.add_argument("--meshcat", action="store_true", help="show in a Meshcat viewer")
    parser.add_argument("--no-wait", action="store_true",
                        help="with --meshcat, exit at once instead of serving until Ctrl-C")
    args = parser.parse_args(argv)
    scene = Scene()
    ball_weight, box_weight = Scene.BALL_MASS * G, Scene.BOX_MASS * G
    ball_depth = equilibrium_depth(scene, "ball", ball_weight)
    box_depth = equilibrium_depth(scene, "box", box_weight)
    scene.place(ball_depth, box_depth)
    print(f"ball sinks {ball_depth * 1e3:.3f} mm, box sinks {box_depth * 1e3:.3f} mm")
    for (m, n), surface in scene.surfaces().items():
        F = force_on_M(surface)
        carried = ball_weight if "ball" in (m, n) else box_weight
        print(f"{m} (M) / {n} (N): area {surface.total_area() * 1e4:.3f} cm², centroid "
              f"{np.round(surface.centroid(), 5).tolist()} m, force on M "
              f"{np.round(F, 4).tolist()} N (carries {carried:.3f} N)")
    if args.meshcat:
        meshcat = show_in_meshcat(scene)
        print(f"Meshcat viewer: {meshcat.web_url()} (the two stacks and their contact "
              f"surfaces coloured by pressure)", flush=True)
        if not args.no_wait and sys.stdin is not None and sys.stdin.isatty():
            print("serving — press Ctrl-C to quit", flush=True)
            try:
                while True:
                    time.sleep(1.0)
            except KeyboardInterrupt:
                pass
    return 0


def show_in_meshcat(scene: Scene, meshcat=None):
    """Shows the scene and its pressure-coloured contact surfaces in Meshcat
    (SceneGraph, MeshcatVisualizer and ContactVisualizer in a Diagram, with
    the current poses fixed); returns the Meshcat (a new one if None)."""
    from scenegraph import ContactVisualizer, MeshcatVisualizer, StartMeshcat
    from systems.analysis import Simulator
    from systems.framework import DiagramBuilder
    builder = DiagramBuilder()
    builder.AddSystem(scene.scene_graph)
    meshcat = StartMeshcat() if meshcat is None else meshcat
    MeshcatVisualizer.AddToBuilder(builder, scene.scene_graph, meshcat)
    ContactVisualizer.AddToBuilder(builder, scene.scene_graph, meshcat)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    scene.scene_graph.get_source_pose_port(scene.source).FixValue(
        scene.scene_graph.GetMyContextFromRoot(context), scene.poses)
    Simulator(diagram, context).Initialize()
    return meshcat


if __name__ == "__main__":
    sys.exit(main())
