"""TactileSensor: a skin of touch sensors spread over geometries of
SceneGraph, turning contacts into per-sensor outputs every time its output
is evaluated (an extension beyond pydrake, modelled on MIMo's touch system;
see docs/tactile.md).

Sensing bodies. Each *sensing body* is either one geometry G (its sensor
points p_GS and outputs in G) or a frame F whose proximity geometries are
merged into one skin (points in F; points of one geometry lying inside
another geometry of the same frame are dropped, as MIMo's TrimeshTouch
does). Points come from scenegraph.tactile_points at spacing `scale` [m].

Contact model (`contact_model`):
  "point": PenetrationAsPointPair from ComputePointPairPenetration; the
    contact point is the midpoint of p_WCa and p_WCb, the force on A is
    f = k·depth·nhat_BA_W (on B, −f), k = k_A·k_B/(k_A + k_B) from the
    ("material", "point_contact_stiffness") proximity properties [N/m]
    (Drake's combination for point contact). The Hunt–Crossley factor
    (1 + d·ẋ)₊, d = (k_B·d_A + k_A·d_B)/(k_A + k_B) from the
    ("material", "hunt_crossley_dissipation") properties [s/m], needs the
    rate of penetration ẋ, which a QueryObject does not carry: it is applied
    when the optional `frame_velocities` input ({FrameId: V_WF (6,)
    [w_WF; v_WF] in W}) has a value, ẋ = (v_WBc − v_WAc)·nhat_BA_W at the
    contact point; otherwise the force is its elastic part (exact at rest).
  "hydroelastic": ComputeContactSurfacesWithFallback; each face of a
    contact surface is a contact at its centroid with force p·A·n̂ on M
    (−p·A·n̂ on N), p the pressure at the centroid [Pa], A the face area,
    n̂ its normal (out of N into M); pairs without hydroelastic
    properties fall back to point contact as above.

Response functions (`response_function`) give each contact's force to the
sensors of the body it touches:
  "nearest": all of it to the sensor nearest the contact point;
  "spread_linear": to every sensor within `response_radius` (default
    2·scale, as in MIMo) with weights (1 − d/radius) normalised to sum to
    one (the nearest sensor if none is that close).
Both conserve the total force exactly (up to rounding).

Touch functions (`touch_function`), k values per sensor:
  "force_vector" (3): the force on the body, in the sensing frame (G, or F
    for a merged frame) [N];
  "force_vector_global" (3): the same in W [N];
  "normal_force" (1): the force along the contact normal (≥ 0) [N];
  "normal" (3): the unit contact normal (the direction of the normal force
    the sensor received, in the sensing frame), 0 for a sensor with no
    contact.

Output ports, both depending only on the `query` and `frame_velocities`
inputs:
  touch            vector of N·k values: sensor-major (sensor i's k values
                   at [i·k, (i+1)·k)), bodies in the order of `bodies()`.
  touch_per_body   abstract dict {body id: (n_b, k) array}.
"""
from __future__ import annotations

import numpy as np

from scenegraph.geometry_instance import GeometryInstance
from scenegraph.geometry_properties import ProximityProperties
from scenegraph.geometry_roles import Role
from scenegraph.geometry_set import GeometrySet
from scenegraph.identifiers import FrameId, GeometryId
from scenegraph.math import RigidTransform
from scenegraph.query_object import QueryObject
from scenegraph.tactile_points import checked_length, surface_points
from systems.framework import AbstractValue, LeafSystem, ValueProducer

__all__ = ["TactileSensor", "TOUCH_FUNCTIONS", "RESPONSE_FUNCTIONS", "CONTACT_MODELS"]

TOUCH_FUNCTIONS = {"normal": 3, "force_vector": 3, "force_vector_global": 3, "normal_force": 1}
RESPONSE_FUNCTIONS = ("nearest", "spread_linear")
CONTACT_MODELS = ("point", "hydroelastic")

_MATERIAL = "material"
_STIFFNESS = "point_contact_stiffness"
_DISSIPATION = "hunt_crossley_dissipation"


class _Body:
    """One sensing body: frame F, the geometries it covers, its sensor
    points p_FS (n, 3) and normals n_F, R_FB (the sensing frame B: G for a
    single geometry, F for a merged frame), its first row among all sensors."""

    __slots__ = ("key", "frame", "geometries", "p_FS", "n_F", "p_BS", "n_B", "R_FB",
                 "offset")

    def __init__(self, key, frame, geometries, p_FS, n_F, X_FB, offset):
        self.key, self.frame, self.geometries = key, frame, geometries
        self.p_FS, self.n_F = p_FS, n_F
        self.R_FB = X_FB.rotation().matrix()
        p_FB = X_FB.translation()
        self.p_BS = (p_FS - p_FB) @ self.R_FB
        self.n_B = n_F @ self.R_FB
        self.offset = offset


class _Contacts:
    """Contacts on sensing bodies, as arrays: body index (K,), contact
    point p_WC (K, 3), force on the body f_W (K, 3), unit normal into the
    body's outside direction nhat_W (K, 3) (the direction of the normal
    force on the body), normal force magnitude fn (K,)."""

    __slots__ = ("body", "p_WC", "f_W", "nhat_W", "fn")

    def __init__(self, body, p_WC, f_W, nhat_W, fn):
        self.body, self.p_WC, self.f_W, self.nhat_W, self.fn = body, p_WC, f_W, nhat_W, fn


class TactileSensor(LeafSystem):
    """Touch sensors spread over geometries of SceneGraph (extension; see the
    module docstring).

    Args:
      scene_graph: the SceneGraph (or a SceneGraphInspector of its model)
        holding the sensing geometries; read once, at construction.
      bodies: what senses touch: a GeometryId, a FrameId, a GeometrySet,
        or a list of GeometryIds/FrameIds. A geometry is its own sensing
        body; a frame merges all its proximity geometries into one.
      scale: sensor spacing [m] (median nearest-neighbour distance).
      touch_function: one of TOUCH_FUNCTIONS (default "normal_force").
      response_function: "nearest" (default) or "spread_linear".
      response_radius: spread_linear radius [m] (default 2·scale).
      contact_model: "point" (default) or "hydroelastic".
    Raises:
      ValueError: a bad name, scale or radius, no bodies, a frame without
        proximity geometry (the message names the value).
      TypeError: a body that is not a GeometryId or FrameId.
      RuntimeError: an unknown id, or a geometry without the proximity role.
    """

    def __init__(self, scene_graph, bodies, scale: float, touch_function: str = "normal_force",
                 response_function: str = "nearest", response_radius: float | None = None,
                 contact_model: str = "point"):
        super().__init__()
        if touch_function not in TOUCH_FUNCTIONS:
            raise ValueError(f"TactileSensor: touch_function {touch_function!r} is not one of "
                             f"{sorted(TOUCH_FUNCTIONS)}")
        if response_function not in RESPONSE_FUNCTIONS:
            raise ValueError(f"TactileSensor: response_function {response_function!r} is not "
                             f"one of {list(RESPONSE_FUNCTIONS)}")
        if contact_model not in CONTACT_MODELS:
            raise ValueError(f"TactileSensor: contact_model {contact_model!r} is not one of "
                             f"{list(CONTACT_MODELS)}")
        scale = checked_length(scale, "scale", "TactileSensor")
        radius = (2.0 * scale if response_radius is None else
                  checked_length(response_radius, "response_radius", "TactileSensor"))
        inspector = (scene_graph.model_inspector() if hasattr(scene_graph, "model_inspector")
                     else scene_graph)
        self._touch_function = touch_function
        self._response_function = response_function
        self._response_radius = radius
        self._contact_model = contact_model
        self._scale = scale
        self._k = TOUCH_FUNCTIONS[touch_function]
        self._bodies = self._make_bodies(inspector, bodies, scale)
        self._num_sensors = sum(len(b.p_FS) for b in self._bodies)
        self._body_of_geometry = {g: i for i, b in enumerate(self._bodies) for g in b.geometries}
        self._stack_bodies()
        # (GeometryVersion, {GeometryId: (stiffness, dissipation, FrameId)}) read
        # by the last evaluation: a pure function of the proximity version.
        self._material_memo = (None, {})
        # (PoseTopology, (num_bodies,) frame rows): where each body's frame is
        # in SceneGraph's world-pose arrays.
        self._rows_memo = (None, None)
        self._query_port = self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self._velocity_port = self.DeclareAbstractInputPort("frame_velocities",
                                                            AbstractValue.Make(dict()))
        ticket = {self._query_port.ticket(), self._velocity_port.ticket()}
        size = self._num_sensors * self._k
        self._touch_cache = self.DeclareCacheEntry(
            "touch", ValueProducer(lambda: AbstractValue.Make(np.zeros(size)), self._calc_touch),
            prerequisites_of_calc=ticket)
        narrow = {self._touch_cache.ticket()}
        self._touch_port = self.DeclareVectorOutputPort("touch", size, self._calc_touch_output,
                                                        prerequisites_of_calc=narrow)
        self._per_body_port = self.DeclareAbstractOutputPort(
            "touch_per_body", lambda: AbstractValue.Make(dict()), self._calc_per_body,
            prerequisites_of_calc=narrow)

    # ------------------------------------------------------------ set-up
    @staticmethod
    def _resolve(inspector, bodies) -> list:
        """[(key, frame, [geometry ids], merged)] in a deterministic order."""
        if isinstance(bodies, (GeometryId, FrameId)):
            items = [bodies]
        elif isinstance(bodies, GeometrySet):
            items = sorted(bodies.frames(), key=lambda i: i.get_value()) + sorted(
                bodies.geometries(), key=lambda i: i.get_value())
        else:
            try:
                items = list(bodies)
            except TypeError:
                raise TypeError(f"TactileSensor: bodies must be a GeometryId, FrameId, "
                                f"GeometrySet or a list of them; got {bodies!r}") from None
        if not items:
            raise ValueError("TactileSensor: no sensing bodies given")
        out, covered = [], set()
        for item in items:
            if isinstance(item, FrameId):
                geometries = inspector.GetGeometries(item, Role.kProximity)
                if not geometries:
                    raise ValueError(f"TactileSensor: frame {item} has no proximity geometry")
                out.append((item, item, geometries, True))
            elif isinstance(item, GeometryId):
                if inspector.GetProximityProperties(item) is None:
                    raise RuntimeError(f"TactileSensor: geometry {item} has no proximity role")
                out.append((item, inspector.GetFrameId(item), [item], False))
            else:
                raise TypeError(f"TactileSensor: a sensing body must be a GeometryId or FrameId; "
                                f"got {item!r}")
        # A geometry named alone inside a frame that is also named is covered once.
        merged = {g for _, _, gs, m in out if m for g in gs}
        result = []
        for key, frame, geometries, is_merged in out:
            if not is_merged and geometries[0] in merged:
                continue
            if key in covered:
                raise ValueError(f"TactileSensor: sensing body {key} given twice")
            covered.add(key)
            result.append((key, frame, geometries, is_merged))
        return result

    def _make_bodies(self, inspector, bodies, scale) -> list:
        out, offset = [], 0
        for key, frame, geometries, merged in self._resolve(inspector, bodies):
            parts_p, parts_n, owners = [], [], []
            for j, g in enumerate(geometries):
                p_GS, n_G = surface_points(inspector.GetShape(g), scale)
                X_FG = inspector.GetPoseInFrame(g)
                R = X_FG.rotation().matrix()
                parts_p.append(p_GS @ R.T + X_FG.translation())
                parts_n.append(n_G @ R.T)
                owners.append(np.full(len(p_GS), j))
            p_FS, n_F = np.concatenate(parts_p), np.concatenate(parts_n)
            if merged and len(geometries) > 1:
                keep = _outside_others(inspector, geometries, p_FS, np.concatenate(owners))
                p_FS, n_F = p_FS[keep], n_F[keep]
            X_FB = RigidTransform() if merged else inspector.GetPoseInFrame(geometries[0])
            out.append(_Body(key, frame, list(geometries), p_FS, n_F, X_FB, offset))
            offset += len(p_FS)
        return out

    def _stack_bodies(self) -> None:
        """One k-d tree over every sensor: body b's points p_FS shifted by
        b·D along x, with D larger than any distance a contact can have to
        its own body's sensors plus the response radius, so that a query
        shifted the same way only ever finds its own body's sensors."""
        extent = max(float(np.abs(b.p_FS).max()) for b in self._bodies)
        self._gap = 8.0 * extent + 4.0 * self._response_radius + 1.0
        self._shift = np.zeros((len(self._bodies), 3))
        self._shift[:, 0] = self._gap * np.arange(len(self._bodies))
        stacked = np.concatenate([b.p_FS + self._shift[i] for i, b in enumerate(self._bodies)])
        from scipy.spatial import cKDTree   # at first use: scipy.spatial's import is slow
        self._tree = cKDTree(stacked)
        self._R_FB = np.array([b.R_FB for b in self._bodies])
        self._frames = [b.frame for b in self._bodies]

    # ------------------------------------------------------------ accessors
    def get_query_input_port(self):
        """The abstract input port for SceneGraph's QueryObject."""
        return self._query_port

    def get_frame_velocities_input_port(self):
        """The optional abstract input {FrameId: V_WF (6,)}: each frame's
        spatial velocity [w_WF; v_WF] in W (rad/s, m/s; v at F's origin).
        Connected (or fixed), point contact gains Drake's Hunt–Crossley
        factor (1 + d·ẋ); frames not listed are at rest."""
        return self._velocity_port

    def get_touch_output_port(self):
        """The (num_sensors·touch_size,) vector output port."""
        return self._touch_port

    def get_touch_per_body_output_port(self):
        """The abstract output port {body id: (n_b, k) array}."""
        return self._per_body_port

    def num_sensors(self) -> int:
        """Total number of sensor points N."""
        return self._num_sensors

    def touch_size(self) -> int:
        """k: values per sensor for the touch function."""
        return self._k

    def scale(self) -> float:
        """Sensor spacing [m]."""
        return self._scale

    def bodies(self) -> list:
        """Sensing body ids (GeometryId or FrameId), in output order."""
        return [b.key for b in self._bodies]

    def body_slice(self, body) -> slice:
        """Rows of `body`'s sensors among the N sensors."""
        for b in self._bodies:
            if b.key == body:
                return slice(b.offset, b.offset + len(b.p_FS))
        raise ValueError(f"TactileSensor: {body} is not a sensing body of this sensor")

    def sensor_positions(self, body) -> np.ndarray:
        """(n_b, 3) sensor points of `body` in its sensing frame B [m]."""
        return self._bodies[self._index(body)].p_BS.copy()

    def sensor_normals(self, body) -> np.ndarray:
        """(n_b, 3) outward unit normals of `body`'s sensors, in B."""
        return self._bodies[self._index(body)].n_B.copy()

    def _index(self, body) -> int:
        for i, b in enumerate(self._bodies):
            if b.key == body:
                return i
        raise ValueError(f"TactileSensor: {body} is not a sensing body of this sensor")

    def CalcSensorPositionsInWorld(self, query) -> np.ndarray:
        """(N, 3) every sensor's position in W [m], from a QueryObject."""
        out = np.empty((self._num_sensors, 3))
        for b in self._bodies:
            X_WF = query.GetPoseInWorld(b.frame)
            out[b.offset:b.offset + len(b.p_FS)] = (b.p_FS @ X_WF.rotation().matrix().T
                                                    + X_WF.translation())
        return out

    def split(self, touch) -> dict:
        """{body id: (n_b, k) view} of a touch vector (N·k,)."""
        T = np.asarray(touch).reshape(self._num_sensors, self._k)
        return {b.key: T[b.offset:b.offset + len(b.p_FS)] for b in self._bodies}

    # ------------------------------------------------------------ contacts
    def _point_contacts(self, query, pairs, parts, velocities, world) -> None:
        """Appends (body, p_WC, f_W, nhat_W, fn) arrays of penetration pairs;
        with `velocities` ({FrameId: V_WF}) the Hunt–Crossley factor too."""
        index = self._body_of_geometry
        hits = [(pair, index.get(pair.id_A, -1), index.get(pair.id_B, -1)) for pair in pairs]
        hits = [h for h in hits if h[1] >= 0 or h[2] >= 0]
        if not hits:
            return
        inspector = query.inspector()
        version, material = self._material_memo
        now = inspector.geometry_version()
        if version is None or not now.IsSameAs(version, Role.kProximity):
            material = {}
            self._material_memo = (now, material)
        for pair, _, _ in hits:
            for g in (pair.id_A, pair.id_B):
                if g not in material:
                    material[g] = _material(inspector, g)
        kA, dA, fA = (np.array(v) for v in zip(*(material[p.id_A] for p, _, _ in hits)))
        kB, dB, fB = (np.array(v) for v in zip(*(material[p.id_B] for p, _, _ in hits)))
        depth = np.array([p.depth for p, _, _ in hits])
        nhat = np.array([p.nhat_BA_W for p, _, _ in hits])
        p_WC = 0.5 * (np.array([p.p_WCa for p, _, _ in hits]) +
                      np.array([p.p_WCb for p, _, _ in hits]))
        # Drake's CombinePointContactParameters.
        k = kA * kB / (kA + kB)
        fn = k * depth
        if velocities is not None:
            d = (kB * dA + kA * dB) / (kA + kB)
            frames = self._frame_rows_of(world, fA.tolist() + fB.tolist())
            V = _spatial_velocities(velocities, world, frames)
            m = len(hits)
            v_WAc = V[:m, 3:] + np.cross(V[:m, :3], p_WC - world.p_WF[frames[:m]])
            v_WBc = V[m:, 3:] + np.cross(V[m:, :3], p_WC - world.p_WF[frames[m:]])
            vn = ((v_WBc - v_WAc) * nhat).sum(axis=1)       # > 0: approaching
            fn = np.maximum(fn * (1.0 + d * vn), 0.0)
        body_A = np.array([h[1] for h in hits])
        body_B = np.array([h[2] for h in hits])
        for body, sign in ((body_A, 1.0), (body_B, -1.0)):
            on = body >= 0
            if on.any():
                n = sign * nhat[on]
                parts.append((body[on], p_WC[on], fn[on, None] * n, n, fn[on]))

    def _surface_contacts(self, surfaces, parts) -> None:
        index = self._body_of_geometry
        for s in surfaces:
            bm, bn = index.get(s.id_M(), -1), index.get(s.id_N(), -1)
            if bm < 0 and bn < 0:
                continue
            mesh = s.tri_mesh_W() if s.is_triangle() else s.poly_mesh_W()
            fn = s.face_pressures() * mesh.areas_array()
            nhat = mesh.face_normals_array()
            c = mesh.element_centroids_array()
            for body, sign in ((bm, 1.0), (bn, -1.0)):
                if body >= 0:
                    n = sign * nhat
                    parts.append((np.full(len(fn), body), c, fn[:, None] * n, n, fn))

    def _contacts(self, query, velocities, world) -> _Contacts | None:
        parts = []
        if self._contact_model == "point":
            self._point_contacts(query, query.ComputePointPairPenetration(), parts,
                                 velocities, world)
        else:
            surfaces, pairs = query.ComputeContactSurfacesWithFallback()
            self._surface_contacts(surfaces, parts)
            self._point_contacts(query, pairs, parts, velocities, world)
        if not parts:
            return None
        return _Contacts(*(np.concatenate([p[i] for p in parts]) for i in range(5)))

    # ------------------------------------------------------------ response
    def _weights(self, p_SC: np.ndarray):
        """(contact index (E,), sensor index (E,), weight (E,)): each
        contact's weights over its body's sensors, summing to one. p_SC
        (K, 3): contact points in their body's frame, shifted into the
        stacked tree's space."""
        m = len(p_SC)
        _, nearest = self._tree.query(p_SC)
        if self._response_function == "nearest":
            return np.arange(m), nearest, np.ones(m)
        r = self._response_radius
        from scipy.spatial import cKDTree
        near = cKDTree(p_SC).sparse_distance_matrix(self._tree, r, output_type="ndarray")
        ci, si = near["i"].astype(np.int64), near["j"].astype(np.int64)
        w = np.maximum(1.0 - near["v"] / r, 0.0)
        total = np.bincount(ci, weights=w, minlength=m)
        positive = w > 0.0
        ci, si, w = ci[positive], si[positive], w[positive]
        lonely = np.flatnonzero(total <= 0.0)        # no sensor strictly within r
        return (np.concatenate([ci, lonely]), np.concatenate([si, nearest[lonely]]),
                np.concatenate([w / total[ci], np.ones(len(lonely))]))

    @staticmethod
    def _frame_rows_of(world_poses, frame_ids) -> np.ndarray:
        index = world_poses.topology.frame_index
        return np.array([index[f] for f in frame_ids], dtype=np.int64)

    def _frame_rows(self, world_poses) -> np.ndarray:
        topology, rows = self._rows_memo
        if topology is not world_poses.topology:
            index = world_poses.topology.frame_index
            rows = np.array([index[f] for f in self._frames], dtype=np.int64)
            self._rows_memo = (world_poses.topology, rows)
        return rows

    def _calc_touch(self, context, value) -> None:
        query = self._query_port.Eval(context)
        N, k = self._num_sensors, self._k
        velocities = (self._velocity_port.Eval(context)
                      if self._velocity_port.HasValue(context) else None)
        world = query._poses()
        contacts = self._contacts(query, velocities, world)
        if contacts is None:
            value.set_value(np.zeros(N * k))
            return
        rows = self._frame_rows(world)[contacts.body]
        R_WF, p_WF = world.R_WF[rows], world.p_WF[rows]
        p_FC = np.einsum("kji,kj->ki", R_WF, contacts.p_WC - p_WF)
        ci, si, w = self._weights(p_FC + self._shift[contacts.body])
        touch = self._touch_function
        if touch == "normal_force":
            q = contacts.fn[:, None]
        elif touch == "force_vector_global":
            q = contacts.f_W
        else:
            R_WB = R_WF @ self._R_FB[contacts.body]
            src = (contacts.f_W if touch == "force_vector"
                   else contacts.fn[:, None] * contacts.nhat_W)
            q = np.einsum("kji,kj->ki", R_WB, src)
        out = np.empty((N, k))
        for c in range(k):
            out[:, c] = np.bincount(si, weights=w * q[ci, c], minlength=N)
        if touch == "normal":
            norm = np.linalg.norm(out, axis=1)
            hit = norm > 0.0
            out[hit] /= norm[hit, None]
        value.set_value(out.reshape(-1))

    def _calc_touch_output(self, context, output) -> None:
        output.SetFromVector(self._touch_cache.Eval(context))

    def _calc_per_body(self, context, output) -> None:
        output.set_value({key: v.copy() for key, v in
                          self.split(self._touch_cache.Eval(context)).items()})


def _outside_others(inspector, geometries, p_FS, owner) -> np.ndarray:
    """(n,) bool: points not strictly inside another geometry of the frame
    (signed distances from SceneGraph's batched point query on a scene of
    the frame's geometries alone, at their poses in F)."""
    from scenegraph.scene_graph import SceneGraph

    sg = SceneGraph()
    source = sg.RegisterSource("tactile_merge")
    ids = []
    for g in geometries:
        gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
            inspector.GetPoseInFrame(g), inspector.GetShape(g), f"g{len(ids)}"))
        sg.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    keep = np.ones(len(p_FS), dtype=bool)
    tol = 1e-9 * max(1.0, float(np.abs(p_FS).max()))
    for j, gid in enumerate(ids):
        others = np.flatnonzero(owner != j)
        if not len(others):
            continue
        rows = query.compute_signed_distance_to_points(p_FS[others], geometries=GeometrySet(gid))
        inside = rows.point_index[rows.distance < -tol]
        keep[others[inside]] = False
    return keep


def _material(inspector, g):
    """(stiffness [N/m], Hunt–Crossley dissipation [s/m], FrameId) of geometry g."""
    props = inspector.GetProximityProperties(g)
    k = None if props is None else props.GetPropertyOrDefault(_MATERIAL, _STIFFNESS, None)
    if k is None:
        raise RuntimeError(f"TactileSensor: geometry {g} ({inspector.GetName(g)!r}) has no "
                           f"('{_MATERIAL}', '{_STIFFNESS}') property; point contact needs it")
    d = props.GetPropertyOrDefault(_MATERIAL, _DISSIPATION, 0.0)
    return float(k), float(d), inspector.GetFrameId(g)


def _spatial_velocities(velocities, world, rows) -> np.ndarray:
    """(len(rows), 6) V_WF of the frames at world-pose rows `rows` (zeros
    for frames missing from `velocities`)."""
    if not isinstance(velocities, dict):
        raise TypeError(f"TactileSensor: frame_velocities must be a dict {{FrameId: (6,) "
                        f"V_WF}}; got {type(velocities).__name__}")
    frame_ids = world.topology.frame_ids
    unique, inverse = np.unique(rows, return_inverse=True)
    V_unique = np.zeros((len(unique), 6))
    for j, r in enumerate(unique.tolist()):                 # one lookup per frame
        V = velocities.get(frame_ids[r])
        if V is not None:
            V = np.asarray(V, dtype=float).reshape(-1)
            if V.shape != (6,) or not np.isfinite(V).all():
                raise ValueError(f"TactileSensor: frame_velocities[{frame_ids[r]}] must be 6 "
                                 f"finite numbers [w_WF; v_WF]; got {V.tolist()}")
            V_unique[j] = V
    return V_unique[inverse.reshape(-1)]
