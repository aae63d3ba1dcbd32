"""Free rigid bodies with penalty point contact, as a pure-Python LeafSystem.

Each body has continuous state q = [p_WB (3), quaternion (w, x, y, z)] and
v = [v_WB (3), w_WB (3)] (world-frame translational and angular velocity).
The system reports its bodies' frame poses to SceneGraph and reads back the
QueryObject; every penetrating pair from ComputePointPairPenetration gets a
spring-damper normal force along nhat_BA_W at the contact midpoint plus
regularised Coulomb friction. Used by examples/quickstart.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scenegraph import (FramePoseVector, GeometryFrame, GeometryInstance,
                        IllustrationProperties, MakePhongIllustrationProperties,
                        ProximityProperties, QueryObject, Rgba, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from systems.framework import AbstractValue, BasicVector, LeafSystem

GRAVITY_W = np.array([0.0, 0.0, -9.81])   # m/s²


@dataclass
class BodySpec:
    """One body: its visual shape, mass [kg], body-frame rotational inertia
    about its centre of mass [kg·m²], initial pose, colour, and the collision
    geometry [(shape, X_BG)] used for contact."""

    name: str
    shape: object
    mass: float
    inertia_B: np.ndarray
    X_WB: RigidTransform
    color: Rgba
    collision: list = field(default_factory=list)


def sphere_body(name, radius, mass, X_WB, color) -> BodySpec:
    inertia = 0.4 * mass * radius ** 2 * np.eye(3)
    return BodySpec(name, Sphere(radius), mass, inertia, X_WB, color,
                    [(Sphere(radius), RigidTransform())])


def box_body(name, size, mass, X_WB, color, corner_radius=0.005) -> BodySpec:
    """A box whose contact is made by small spheres at its 8 corners (inset by
    their radius, so the box surface is where they touch)."""
    from scenegraph import Box
    a, b, c = size
    inertia = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    half = np.array(size) / 2 - corner_radius
    corners = [(Sphere(corner_radius), RigidTransform(np.array([sx, sy, sz]) * half))
               for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    return BodySpec(name, Box(*size), mass, inertia, X_WB, color, corners)


def capsule_body(name, radius, length, mass, X_WB, color) -> BodySpec:
    """A capsule whose contact is made by its two end-cap spheres."""
    from scenegraph import Capsule
    total = length + 2 * radius
    axial = 0.5 * mass * radius ** 2
    transverse = mass * (3 * radius ** 2 + total ** 2) / 12.0
    caps = [(Sphere(radius), RigidTransform([0.0, 0.0, s * length / 2])) for s in (-1, 1)]
    return BodySpec(name, Capsule(radius, length), mass,
                    np.diag([transverse, transverse, axial]), X_WB, color, caps)


def _quaternion_wxyz(R: np.ndarray) -> np.ndarray:
    return RotationMatrix(R).ToQuaternion().wxyz()


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cross product of (..., 3) arrays (numpy's cross is slow on
    small inputs)."""
    out = np.empty(np.broadcast(a, b).shape)
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _rotations(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (n, 3, 3) of quaternions (n, 4) = (w, x, y, z), which
    need not be unit length."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    R = np.empty((len(q), 3, 3))
    R[:, 0, 0] = 1 - 2 * (y * y + z * z)
    R[:, 0, 1] = 2 * (x * y - z * w)
    R[:, 0, 2] = 2 * (x * z + y * w)
    R[:, 1, 0] = 2 * (x * y + z * w)
    R[:, 1, 1] = 1 - 2 * (x * x + z * z)
    R[:, 1, 2] = 2 * (y * z - x * w)
    R[:, 2, 0] = 2 * (x * z - y * w)
    R[:, 2, 1] = 2 * (y * z + x * w)
    R[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return R


class RigidBodies(LeafSystem):
    """Bodies in free flight under gravity, with penalty contact.

    stiffness [N/m] and damping [N·s/m] per contact point; friction
    coefficient mu; slip regularisation [m/s]; angular_damping [N·m·s]
    (a little rolling resistance so that spheres come to rest).
    """

    def __init__(self, scene_graph, bodies, stiffness=2.0e4, damping=60.0, mu=0.6,
                 slip=5e-2, angular_damping=2e-3):
        super().__init__()
        self.bodies = list(bodies)
        self.k, self.c, self.mu, self.slip = stiffness, damping, mu, slip
        self.angular_damping = angular_damping
        self.source_id = scene_graph.RegisterSource("bodies")
        self.frame_ids = []
        self.body_of_geometry = {}
        for index, body in enumerate(self.bodies):
            frame_id = scene_graph.RegisterFrame(self.source_id, GeometryFrame(body.name))
            self.frame_ids.append(frame_id)
            visual = scene_graph.RegisterGeometry(
                self.source_id, frame_id,
                GeometryInstance(RigidTransform(), body.shape, f"{body.name}_visual"))
            scene_graph.AssignRole(self.source_id, visual,
                                   MakePhongIllustrationProperties(body.color.rgba))
            for k, (shape, X_BG) in enumerate(body.collision):
                geometry = scene_graph.RegisterGeometry(
                    self.source_id, frame_id,
                    GeometryInstance(X_BG, shape, f"{body.name}_collision{k}"))
                scene_graph.AssignRole(self.source_id, geometry, ProximityProperties())
                self.body_of_geometry[geometry] = index
        n = len(self.bodies)
        x0 = np.zeros(13 * n)
        for i, body in enumerate(self.bodies):
            x0[7 * i:7 * i + 3] = body.X_WB.translation()
            x0[7 * i + 3:7 * i + 7] = _quaternion_wxyz(body.X_WB.rotation().matrix())
        self.DeclareContinuousState(BasicVector(x0), 7 * n, 6 * n, 0)
        self.query_port = self.DeclareAbstractInputPort(
            "query", AbstractValue.Make(QueryObject()))
        self.DeclareAbstractOutputPort(
            "frame_poses", lambda: AbstractValue.Make(FramePoseVector()),
            self.CalcFramePoses, {self.q_ticket()})
        self.mass = np.array([b.mass for b in self.bodies])
        self.inertia_B = np.array([b.inertia_B for b in self.bodies])

    # --- state access ---------------------------------------------------------------
    def split(self, x: np.ndarray):
        """(p_WB (n, 3), quaternions (n, 4), v_WB (n, 3), w_WB (n, 3))."""
        n = len(self.bodies)
        q = x[:7 * n].reshape(n, 7)
        v = x[7 * n:].reshape(n, 6)
        return q[:, :3], q[:, 3:], v[:, :3], v[:, 3:]

    def poses(self, context):
        p, quat, _, _ = self.split(context.get_continuous_state_vector().get_value())
        return list(zip(p, _rotations(quat)))

    def CalcFramePoses(self, context, output):
        poses = output.get_mutable_value()
        for frame_id, (p_WB, R_WB) in zip(self.frame_ids, self.poses(context)):
            poses.set_value(frame_id, RigidTransform._make(R_WB, p_WB.copy()))

    # --- dynamics ---------------------------------------------------------------------
    def contact_wrenches(self, context):
        """(forces (n, 3) [N], torques (n, 3) [N·m] about each body's origin,
        max penetration depth [m]), all contacts processed as arrays."""
        n = len(self.bodies)
        x = context.get_continuous_state_vector().get_value()
        p, _, v, w = self.split(x)
        forces = np.zeros((n, 3))
        torques = np.zeros((n, 3))
        pairs = self.query_port.Eval(context).ComputePointPairPenetration()
        body = self.body_of_geometry
        pairs = [r for r in pairs if r.id_A in body or r.id_B in body]
        if not pairs:
            return forces, torques, 0.0
        a = np.array([body.get(r.id_A, -1) for r in pairs])
        b = np.array([body.get(r.id_B, -1) for r in pairs])
        depth = np.array([r.depth for r in pairs])
        p_WC = 0.5 * (np.array([r.p_WCa for r in pairs]) + np.array([r.p_WCb for r in pairs]))
        nhat = np.array([r.nhat_BA_W for r in pairs])       # from B into A
        v_A = np.where((a >= 0)[:, None],
                       v[a] + _cross(w[a], p_WC - p[a]), 0.0)
        v_B = np.where((b >= 0)[:, None],
                       v[b] + _cross(w[b], p_WC - p[b]), 0.0)
        v_rel = v_A - v_B
        vn = np.einsum("ij,ij->i", v_rel, nhat)
        fn = np.maximum(self.k * depth - self.c * vn, 0.0)
        v_t = v_rel - vn[:, None] * nhat
        slip = np.sqrt(np.einsum("ij,ij->i", v_t, v_t) + self.slip ** 2)
        f_on_A = fn[:, None] * nhat - (self.mu * fn / slip)[:, None] * v_t
        for rows, sign in ((a, 1.0), (b, -1.0)):
            valid = rows >= 0
            f = sign * f_on_A[valid]
            np.add.at(forces, rows[valid], f)
            np.add.at(torques, rows[valid], _cross(p_WC[valid] - p[rows[valid]], f))
        return forces, torques, float(depth.max())

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().get_value()
        p, quat, v, w = self.split(x)
        forces, torques, _ = self.contact_wrenches(context)
        n = len(self.bodies)
        xdot = np.empty_like(x)
        qdot = xdot[:7 * n].reshape(n, 7)
        vdot = xdot[7 * n:].reshape(n, 6)
        qdot[:, :3] = v
        qw, qv = quat[:, :1], quat[:, 1:]
        qdot[:, 3:4] = -0.5 * np.sum(qv * w, axis=1, keepdims=True)
        qdot[:, 4:] = 0.5 * (qw * w + _cross(w, qv))
        vdot[:, :3] = GRAVITY_W + forces / self.mass[:, None]
        R = _rotations(quat)
        I_W = R @ self.inertia_B @ R.transpose(0, 2, 1)
        I_w = np.einsum("nij,nj->ni", I_W, w)
        tau = torques - self.angular_damping * w - _cross(w, I_w)
        vdot[:, 3:] = np.linalg.solve(I_W, tau[:, :, None])[:, :, 0]
        derivatives.get_mutable_vector().SetFromVector(xdot)


def add_table(scene_graph, size=(1.2, 1.2, 0.1), color=(0.55, 0.45, 0.35, 1.0)):
    """An anchored box whose top face is at z = 0."""
    from scenegraph import Box
    source = scene_graph.RegisterSource("table")
    table = scene_graph.RegisterAnchoredGeometry(
        source, GeometryInstance(RigidTransform([0.0, 0.0, -size[2] / 2]), Box(*size),
                                 "table"))
    scene_graph.AssignRole(source, table, ProximityProperties())
    scene_graph.AssignRole(source, table, MakePhongIllustrationProperties(np.array(color)))
    return table


__all__ = ["BodySpec", "RigidBodies", "add_table", "box_body", "capsule_body",
           "sphere_body", "IllustrationProperties"]
