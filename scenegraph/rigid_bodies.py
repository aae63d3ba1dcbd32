"""Free rigid bodies with penalty contact on their true shapes (an extension:
pydrake has no such block; its counterpart is MultibodyPlant).

RigidBodies is a LeafSystem that owns a few free-floating bodies, registers
their shapes with a SceneGraph (illustration and proximity roles on the same
shape, so contact is computed on the true geometry), reports their frame
poses to it and reads back its QueryObject. It steps like MultibodyPlant's
discrete mode: every ``time_step`` it takes the contact manifolds of the
penetrating pairs (QueryObject.compute_contact_manifolds: one point for a
sphere or a corner, the two ends of an edge or of a cylinder's or capsule's
side, up to four corners of a face on a face), puts a spring-damper normal
force plus regularised Coulomb friction at each manifold point (the pair's
stiffness and damping shared among its points), and advances with
semi-implicit Euler (one compiled kernel, scenegraph.rigid_body_kernels). A box
landing on a face is therefore held at its corners and comes to rest flat,
instead of rocking on one query point. Geometry that is not one of the
bodies (a table, or geometry another source moves) is treated as fixed: it
pushes but is not pushed, and its velocity is taken as zero.

Conventions: body B's frame has its origin at B's centre of mass; per body,
q = [p_WB (3) [m], quaternion of R_WB (w, x, y, z)] and v = [v_WB (3) [m/s],
w_WB (3) [rad/s]], both in the world frame W (z up, gravity -9.81 m/s² along
z); the discrete state vector is [q of every body (7n), v of every body (6n)].

Wiring::

    bodies = builder.AddSystem(RigidBodies(scene_graph, [sphere_body(...), ...]))
    builder.Connect(bodies.get_frame_poses_output_port(),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(),
                    bodies.get_query_input_port())
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from scenegraph.geometry_frame import GeometryFrame
from scenegraph.geometry_instance import GeometryInstance
from scenegraph.geometry_properties import (MakePhongIllustrationProperties,
                                            ProximityProperties, Rgba)
from scenegraph.kinematics_vector import FramePoseVector
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.rotation_matrix import RotationMatrix
from scenegraph.query_object import QueryObject
from scenegraph.rigid_body_kernels import rigid_bodies_step, rotations_of
from scenegraph.shapes import Box, Capsule, Convex, Cylinder, Sphere
from systems.framework import AbstractValue, BasicVector, LeafSystem

__all__ = ["GRAVITY_W", "BodySpec", "RigidBodies", "add_table", "box_body", "capsule_body",
           "convex_body", "cylinder_body", "rotations", "sphere_body"]

GRAVITY_W = np.array([0.0, 0.0, -9.81])
"""Gravity in the world frame [m/s²]."""


@dataclass
class BodySpec:
    """One free body.

    name: frame and geometry name prefix; shape: its geometry in B (used for
    both illustration and contact); mass [kg] > 0; inertia_B (3, 3): rotational
    inertia about the centre of mass Bcm = Bo, expressed in B [kg·m²];
    X_WB: initial pose; color: its illustration colour; X_BG: pose of the
    shape in B (identity unless the shape's origin is not its centre of mass).
    """

    name: str
    shape: object
    mass: float
    inertia_B: np.ndarray
    X_WB: RigidTransform
    color: Rgba
    X_BG: RigidTransform = field(default_factory=RigidTransform)


def sphere_body(name: str, radius: float, mass: float, X_WB: RigidTransform,
                color: Rgba) -> BodySpec:
    """A solid sphere of `radius` [m] and `mass` [kg], uniform density."""
    return BodySpec(name, Sphere(radius), mass, 0.4 * mass * radius ** 2 * np.eye(3), X_WB,
                    color)


def box_body(name: str, size, mass: float, X_WB: RigidTransform, color: Rgba) -> BodySpec:
    """A solid box of edge lengths `size` = (x, y, z) [m], uniform density."""
    a, b, c = (float(s) for s in size)
    inertia = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return BodySpec(name, Box(a, b, c), mass, inertia, X_WB, color)


def cylinder_body(name: str, radius: float, length: float, mass: float,
                  X_WB: RigidTransform, color: Rgba) -> BodySpec:
    """A solid cylinder along B's z axis (`length` [m] overall), uniform density."""
    transverse = mass * (3.0 * radius ** 2 + length ** 2) / 12.0
    return BodySpec(name, Cylinder(radius, length), mass,
                    np.diag([transverse, transverse, 0.5 * mass * radius ** 2]), X_WB, color)


def capsule_body(name: str, radius: float, length: float, mass: float,
                 X_WB: RigidTransform, color: Rgba) -> BodySpec:
    """A solid capsule along B's z axis: a cylinder of `length` [m] capped by
    two hemispheres of `radius` [m], uniform density (exact inertia)."""
    r, L = float(radius), float(length)
    v_cyl, v_hemi = math.pi * r * r * L, 2.0 / 3.0 * math.pi * r ** 3
    rho = mass / (v_cyl + 2.0 * v_hemi)
    m_cyl, m_hemi = rho * v_cyl, rho * v_hemi
    axial = 0.5 * m_cyl * r * r + 2.0 * 0.4 * m_hemi * r * r
    # A hemisphere's centroid is 3r/8 from its flat face; parallel axis from there.
    transverse = (m_cyl * (L * L / 12.0 + r * r / 4.0)
                  + 2.0 * m_hemi * (0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0))
    return BodySpec(name, Capsule(r, L), mass, np.diag([transverse, transverse, axial]),
                    X_WB, color)


def convex_body(name: str, p_GV, mass: float, X_WB: RigidTransform, color: Rgba) -> BodySpec:
    """A solid convex hull of the points p_GV ((3, N) or (N, 3) [m], N ≥ 4),
    uniform density. Its centre of mass and inertia are exact (tetrahedra of
    the hull); the points are shifted so that B's origin is the centre of mass
    (X_WB places that point)."""
    from scipy.spatial import ConvexHull
    p = np.asarray(p_GV, dtype=float)
    if p.ndim != 2 or 3 not in p.shape:
        raise ValueError(f"convex_body({name!r}): points must be (3, N) or (N, 3); "
                         f"got shape {p.shape}")
    if p.shape[1] != 3:
        p = p.T
    hull = ConvexHull(p)
    inside = p[hull.vertices].mean(axis=0)
    a, b, c = (p[hull.simplices[:, k]] - inside for k in range(3))
    volumes = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    volumes = np.abs(volumes)
    centroids = (a + b + c) / 4.0                      # of each tetrahedron (inside, a, b, c)
    total = volumes.sum()
    com = inside + (volumes[:, None] * centroids).sum(axis=0) / total
    # Covariance of each tetrahedron (origin at `inside`), then shift to the com.
    C = np.zeros((3, 3))
    for e in (a, b, c):
        C += np.einsum("n,ni,nj->ij", volumes, e, e)
    s = a + b + c
    C += np.einsum("n,ni,nj->ij", volumes, s, s)
    C /= 20.0
    d = com - inside
    C -= total * np.outer(d, d)                        # about the centre of mass
    rho = mass / total
    inertia = rho * (np.trace(C) * np.eye(3) - C)
    points = (p - com).T
    return BodySpec(name, Convex(points, name), mass, inertia, X_WB, color)


def add_table(scene_graph, size=(1.2, 1.2, 0.1), color=(0.55, 0.45, 0.35, 1.0)):
    """Registers an anchored box of `size` [m] whose top face is the plane z = 0
    (illustration and proximity roles); returns its GeometryId."""
    source = scene_graph.RegisterSource("table")
    table = scene_graph.RegisterAnchoredGeometry(
        source, GeometryInstance(RigidTransform([0.0, 0.0, -size[2] / 2]), Box(*size),
                                 "table"))
    scene_graph.AssignRole(source, table, ProximityProperties())
    scene_graph.AssignRole(source, table, MakePhongIllustrationProperties(np.array(color)))
    return table


def rotations(quaternions: np.ndarray) -> np.ndarray:
    """R_WB (n, 3, 3) of quaternions (n, 4) = (w, x, y, z), which need not be
    unit length."""
    q = np.ascontiguousarray(quaternions, dtype=float).reshape(-1, 4)
    R = np.empty((len(q), 3, 3))
    rotations_of(q, R)
    return R


class RigidBodies(LeafSystem):
    """Free bodies under gravity with penalty contact on their true shapes,
    stepped every `time_step` (module docstring).

    Args:
      scene_graph: the SceneGraph the bodies' frames and shapes are registered
        with (source "bodies", one frame per body named after it; geometry
        "<name>" with illustration and proximity roles).
      bodies: BodySpecs (sphere_body, box_body, ...).
      time_step: [s] > 0, the period of the discrete update.
      stiffness: normal force per metre of penetration depth of a contact
        pair [N/m] (shared among a face's points).
      damping: normal force per m/s of approach speed of a contact pair
        [N·s/m] (shared likewise; the normal force is clamped at zero:
        contact only pushes).
      mu: Coulomb friction coefficient, regularised below `slip` [m/s].
      angular_damping: [N·m·s] a little air drag on rotation, so that
        spheres come to rest.

    Ports: input "query" (QueryObject), output "frame_poses" (FramePoseVector
    for SceneGraph), output "state" (the state vector, layout in the module
    docstring).

    Raises:
      ValueError: no bodies, a non-positive mass or non-positive-definite
        inertia (naming the body), a non-positive or non-finite time_step.
    """

    def __init__(self, scene_graph, bodies, time_step: float = 1e-3,
                 stiffness: float = 2.0e4, damping: float = 60.0, mu: float = 0.6,
                 slip: float = 2e-2, angular_damping: float = 2e-3):
        super().__init__()
        self.bodies = list(bodies)
        if not self.bodies:
            raise ValueError("RigidBodies: needs at least one body")
        for body in self.bodies:
            inertia = np.asarray(body.inertia_B, dtype=float)
            if not (body.mass > 0 and math.isfinite(body.mass)):
                raise ValueError(f"RigidBodies: body {body.name!r} has mass {body.mass}; "
                                 f"it must be positive and finite")
            if inertia.shape != (3, 3) or not np.allclose(inertia, inertia.T) or not np.all(
                    np.linalg.eigvalsh(inertia) > 0):
                raise ValueError(f"RigidBodies: body {body.name!r} needs a symmetric "
                                 f"positive-definite 3x3 inertia; got {inertia.tolist()}")
        if not (time_step > 0 and math.isfinite(time_step)):
            raise ValueError(f"RigidBodies: time_step must be positive and finite; got "
                             f"{time_step}")
        self.time_step = float(time_step)
        self._params = np.array([stiffness, damping, mu, slip, angular_damping], dtype=float)
        self.source_id = scene_graph.RegisterSource("bodies")
        self.frame_ids = []
        self.geometry_ids = []
        self.body_of_geometry = {}
        for index, body in enumerate(self.bodies):
            frame_id = scene_graph.RegisterFrame(self.source_id, GeometryFrame(body.name))
            geometry = scene_graph.RegisterGeometry(
                self.source_id, frame_id, GeometryInstance(body.X_BG, body.shape, body.name))
            scene_graph.AssignRole(self.source_id, geometry,
                                   MakePhongIllustrationProperties(body.color.rgba))
            scene_graph.AssignRole(self.source_id, geometry, ProximityProperties())
            self.frame_ids.append(frame_id)
            self.geometry_ids.append(geometry)
            self.body_of_geometry[geometry] = index
        n = len(self.bodies)
        x0 = np.zeros(13 * n)
        for i, body in enumerate(self.bodies):
            x0[7 * i:7 * i + 3] = body.X_WB.translation()
            x0[7 * i + 3:7 * i + 7] = RotationMatrix(
                body.X_WB.rotation().matrix()).ToQuaternion().wxyz()
        state = self.DeclareDiscreteState(BasicVector(x0))
        self.DeclarePeriodicDiscreteUpdateEvent(self.time_step, 0.0, self._step)
        self.DeclareStateOutputPort("state", state)
        self.query_port = self.DeclareAbstractInputPort(
            "query", AbstractValue.Make(QueryObject()))
        self.DeclareAbstractOutputPort(
            "frame_poses", lambda: AbstractValue.Make(FramePoseVector()),
            self.CalcFramePoses, {self.xd_ticket()})
        self.mass = np.array([b.mass for b in self.bodies], dtype=float)
        self.inertia_B = np.ascontiguousarray([b.inertia_B for b in self.bodies], dtype=float)
        self._inverse_inertia_B = np.ascontiguousarray(np.linalg.inv(self.inertia_B))
        self._gravity = GRAVITY_W.copy()
        # Body index of each geometry row of the proximity engine, cached per
        # engine (n for geometry that is not one of the bodies).
        self._body_rows = (None, None)
        # Compile (first run on a machine, a few seconds) or load the kernel now
        # rather than in the first step, for the step's argument types (the
        # context's state vector is read-only).
        x_next = np.empty_like(x0)
        x0 = x0.copy()
        x0.flags.writeable = False
        rigid_bodies_step(self.time_step, x0, self.mass, self.inertia_B,
                          self._inverse_inertia_B, *self._no_contacts(), self._params,
                          self._gravity, x_next)

    # --- ports and state access -------------------------------------------------------
    def get_query_input_port(self):
        """The QueryObject input (connect SceneGraph's query output port)."""
        return self.query_port

    def get_frame_poses_output_port(self):
        """The bodies' frame poses X_WB (connect to SceneGraph's source pose port)."""
        return self.GetOutputPort("frame_poses")

    def state_vector(self, context) -> np.ndarray:
        """The state vector (13 n,) of this system's context (layout in the
        module docstring); a read-only view."""
        return context.get_discrete_state_vector().get_value()

    def split(self, x: np.ndarray):
        """Views (p_WB (n, 3) [m], quaternions (n, 4), v_WB (n, 3) [m/s],
        w_WB (n, 3) [rad/s]) of a state vector."""
        n = len(self.bodies)
        q = x[:7 * n].reshape(n, 7)
        v = x[7 * n:].reshape(n, 6)
        return q[:, :3], q[:, 3:], v[:, :3], v[:, 3:]

    def CalcFramePoses(self, context, output):
        """Fills the FramePoseVector with X_WB of every body."""
        p, quat, _, _ = self.split(self.state_vector(context))
        poses = output.get_mutable_value()
        for frame_id, p_WB, R_WB in zip(self.frame_ids, p, rotations(quat)):
            poses.set_value(frame_id, RigidTransform._make(R_WB, p_WB.copy()))

    # --- dynamics ---------------------------------------------------------------------
    @staticmethod
    def _no_contacts():
        empty = np.zeros((0, 3))
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0),
                empty, empty, empty, np.zeros(0))

    def _contact_arrays(self, context):
        """(i_A, i_B, depth, p_WCa, p_WCb, nhat_BA_W, share), one row per
        manifold point of every penetrating pair involving a body: body
        indices of A and B (n for geometry that is not one of the bodies,
        e.g. the anchored table), depth (m,) [m], the points on A and on B
        (m, 3) [m], the pair's unit normal out of B into A (m, 3), in W, and
        the point's share 1/k of its pair's k points."""
        from scenegraph.proximity.contact_manifold import query_manifold_arrays
        engine, manifolds = query_manifold_arrays(self.query_port.Eval(context))
        if not len(manifolds):
            return self._no_contacts()
        key, body_of_row = self._body_rows
        if key is not engine:
            fixed = len(self.bodies)
            body_of_row = np.array([self.body_of_geometry.get(g, fixed) for g in engine._ids],
                                   dtype=np.int64)
            self._body_rows = (engine, body_of_row)
        fixed = len(self.bodies)
        a = body_of_row[manifolds.rows[:, 0]]
        b = body_of_row[manifolds.rows[:, 1]]
        pairs = np.flatnonzero((a != fixed) | (b != fixed))
        counts = manifolds.counts[pairs]
        valid = np.arange(4) < counts[:, None]
        pair = np.repeat(pairs, counts)
        return (a[pair], b[pair], manifolds.depths[pairs][valid],
                manifolds.p_WCa[pairs][valid], manifolds.p_WCb[pairs][valid],
                manifolds.nhat_BA_W[pair], 1.0 / manifolds.counts[pair])

    def _step(self, context, discrete_state):
        """One step: contact forces at the current state, then v⁺ = v + h·a,
        p⁺ = p + h·v⁺, rotation turned by exp(h·w⁺)."""
        x = np.ascontiguousarray(self.state_vector(context), dtype=float)
        x_next = np.empty_like(x)
        rigid_bodies_step(self.time_step, x, self.mass, self.inertia_B,
                          self._inverse_inertia_B, *self._contact_arrays(context), self._params,
                          self._gravity, x_next)
        discrete_state.get_mutable_vector().SetFromVector(x_next)
