"""ContactVisualizer(+Params): contacts from a QueryObject drawn in meshcat.

This library's own system (Drake's ContactVisualizer needs a
MultibodyPlant's contact results; this one needs only SceneGraph). Every
publish period it evaluates its ``query_object`` input and draws:

  * point contacts (``ComputePointPairPenetration``): for each pair an arrow
    whose base is the midpoint of the witness points Ca and Cb, of length
    depth · depth_scale [m], along the contact force on one of the two
    geometries: out of the anchored geometry when exactly one of them is
    anchored (its frame is the world frame: the arrow is the force on the
    moving one, e.g. pointing up out of a table whichever was registered
    first), otherwise along nhat_BA_W (out of B into A: the force on A);
  * when hydroelastic geometry exists, contact surfaces
    (``ComputeContactSurfacesWithFallback``): the surface mesh coloured by
    pressure (blue = 0 Pa up to red = the largest pressure drawn, or
    ``max_pressure``), and an arrow at the surface centroid along the net
    force of the contact, of length |f| / newtons_per_meter: the force
    f_M_W = Σ p·A·n̂ that N exerts on M, or −f_M_W (the force on N) when M
    is anchored and N is not. Point pairs that fall back to point contact
    are drawn as above.

With ``manifold_points`` (extension), point contacts come from
``compute_contact_manifolds`` instead when the scene has no hydroelastic
geometry: one arrow per manifold point (up to four per pair: a face's
corners, a line's ends), based at the midpoint of that point's p_WCa and
p_WCb, of length depth_i · depth_scale, at ``<pair path>/<i>``.

Each contact pair owns a path ``<prefix>/<name A>+<name B>`` (hydroelastic:
``<prefix>/hydroelastic/<name M>+<name N>``). Arrows are posed with
transforms and "position"/"scale"/"visible" properties only, so recordings
replay them; a pair that is no longer in contact is hidden (its "visible"
property becomes False). Contact-surface meshes are objects, which
animations cannot replay (a Drake limitation too).

If the proximity engine does not implement contact surfaces yet
(NotImplementedError), hydroelastic drawing is skipped with one warning
and point contacts are still drawn.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np

from scenegraph.geometry_properties import Rgba
from scenegraph.geometry_roles import Role
from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
from scenegraph.shapes import Cylinder, MeshcatCone
from scenegraph.visualization.visualizer_base import QueryObjectVisualizer
from systems.framework import EventStatus

__all__ = ["ContactVisualizer", "ContactVisualizerParams"]

_log = logging.getLogger("scenegraph.meshcat")


@dataclass
class ContactVisualizerParams:
    """Options of ContactVisualizer (names follow Drake's ContactVisualizerParams).

    publish_period [s]; color of point-contact arrows; hydro_force_color of
    net-force arrows; prefix of every path; delete_on_initialization_event;
    force_threshold [N] below which a surface's force arrow is hidden;
    newtons_per_meter: force scale of hydroelastic arrows [N/m]; radius of
    the arrow shafts [m]. Extensions: depth_scale, arrow length per metre of
    penetration depth [m/m]; max_pressure [Pa] of the colour map's red end
    (None: the largest pressure drawn this publish); representation of
    contact surfaces; manifold_points: draw an arrow at every contact
    manifold point (QueryObject.compute_contact_manifolds: up to four per
    pair) instead of one per pair (used when the scene has no hydroelastic
    geometry).
    """
    publish_period: float = 1.0 / 64.0
    color: Rgba = field(default_factory=lambda: Rgba(1.0, 0.0, 0.0, 1.0))
    hydro_force_color: Rgba = field(default_factory=lambda: Rgba(1.0, 0.0, 0.0, 1.0))
    prefix: str = "contact_forces"
    delete_on_initialization_event: bool = True
    force_threshold: float = 0.01
    newtons_per_meter: float = 1.0
    radius: float = 0.005
    depth_scale: float = 50.0
    max_pressure: float | None = None
    representation: HydroelasticContactRepresentation = HydroelasticContactRepresentation.kPolygon
    manifold_points: bool = False


def _pressure_colors(p: np.ndarray, p_max: float) -> np.ndarray:
    """(N, 3) RGB in [0, 1]: blue (0) → cyan → green → yellow → red (p_max)."""
    stops = np.array([[0, 0, 1], [0, 1, 1], [0, 1, 0], [1, 1, 0], [1, 0, 0]], dtype=float)
    s = np.clip(np.asarray(p, float) / p_max if p_max > 0 else np.zeros(len(p)), 0.0, 1.0) * 4
    i = np.minimum(s.astype(int), 3)
    f = (s - i)[:, None]
    return stops[i] * (1 - f) + stops[i + 1] * f


def _frame_along(p_WO: np.ndarray, direction_W: np.ndarray) -> np.ndarray:
    """X_WP (4×4): origin p_WO, Pz along `direction_W` (any unit Px ⊥ Pz)."""
    dx, dy, dz = (float(c) for c in direction_W)
    n = math.sqrt(dx * dx + dy * dy + dz * dz)
    zx, zy, zz = dx / n, dy / n, dz / n
    # x = helper × z with helper = Wx (or Wy when z is near Wx), normalised.
    if abs(zx) < 0.9:
        xx, xy, xz = 0.0, -zz, zy
    else:
        xx, xy, xz = zz, 0.0, -zx
    m = math.sqrt(xx * xx + xy * xy + xz * xz)
    xx, xy, xz = xx / m, xy / m, xz / m
    px, py, pz = (float(c) for c in p_WO)
    return np.array([[xx, zy * xz - zz * xy, zx, px],
                     [xy, zz * xx - zx * xz, zy, py],
                     [xz, zx * xy - zy * xx, zz, pz],
                     [0.0, 0.0, 0.0, 1.0]])


def _surface_arrays(surface):
    """(p_WV (N, 3) [m], triangles (M, 3), pressure at vertices (N,) [Pa]) of
    a ContactSurface (Drake's API: tri_mesh_W/tri_e_MN or
    poly_mesh_W/poly_e_MN); polygons are split into fans."""
    if surface.is_triangle():
        mesh, field_ = surface.tri_mesh_W(), surface.tri_e_MN()
        tris = np.array([[t.vertex(0), t.vertex(1), t.vertex(2)] for t in mesh.triangles()],
                        dtype=np.int64).reshape(-1, 3)
    else:
        mesh, field_ = surface.poly_mesh_W(), surface.poly_e_MN()
        tris = []
        for f in range(mesh.num_elements()):
            poly = mesh.element(f)
            idx = [poly.vertex(i) for i in range(poly.num_vertices())]
            tris.extend((idx[0], idx[k], idx[k + 1]) for k in range(1, len(idx) - 1))
        tris = np.asarray(tris, dtype=np.int64).reshape(-1, 3)
    p_WV = np.array([np.asarray(v, float).reshape(3) for v in mesh.vertices()]).reshape(-1, 3)
    if hasattr(field_, "values"):
        pressure = np.asarray(field_.values(), dtype=float).reshape(-1)
    else:
        pressure = np.array([field_.EvaluateAtVertex(v) for v in range(len(p_WV))])
    return p_WV, tris, pressure


def surface_force_W(p_WV: np.ndarray, tris: np.ndarray, pressure: np.ndarray) -> np.ndarray:
    """f_M_W (3,) [N]: Σ over triangles of p(centroid)·A·n̂, exact for a
    pressure linear on each triangle (normals follow the winding: out of N
    into M for a ContactSurface)."""
    if not len(tris):
        return np.zeros(3)
    v0, v1, v2 = p_WV[tris[:, 0]], p_WV[tris[:, 1]], p_WV[tris[:, 2]]
    An_W = 0.5 * np.cross(v1 - v0, v2 - v0)
    return (pressure[tris].mean(axis=1)[:, None] * An_W).sum(axis=0)


_R_FLIP = np.diag([1.0, -1.0, -1.0])   # Rx(π): the cone mesh points along −z


class _Arrow:
    """An arrow at one path: shaft (unit Cylinder) and head (cone) children,
    each placed by a transform with its scale baked in, so an update is three
    poses that travel with every other arrow's in one batch."""

    def __init__(self, meshcat, path: str, radius: float, rgba: Rgba, time: float,
                 sign: float = 1.0):
        self.meshcat, self.path, self.radius = meshcat, path, radius
        self.sign = sign              # +1: force on A (M); -1: force on B (N)
        self.head_length = 4.0 * radius
        meshcat.SetObject(f"{path}/shaft", Cylinder(radius, 1.0), rgba)
        meshcat.SetObject(f"{path}/head", MeshcatCone(self.head_length, 2 * radius, 2 * radius),
                          rgba)
        # Hidden before it first appears when a recording is replayed.
        meshcat.SetProperty(path, "visible", False, 0.0 if time > 0 else None)
        self.visible = False

    def poses(self, X_WP: np.ndarray, length: float):
        """([paths], (3, 4, 4) transforms) drawing the arrow of `length` [m]
        from the origin of X_WP along its z axis."""
        length = max(float(length), 1e-6)
        head = min(self.head_length, 0.5 * length)
        shaft = length - head
        X_PS = np.diag([1.0, 1.0, shaft, 1.0])
        X_PS[2, 3] = 0.5 * shaft
        s = head / self.head_length
        X_PH = np.eye(4)
        X_PH[:3, :3] = s * _R_FLIP
        X_PH[2, 3] = length
        path = self.path
        return [path, f"{path}/shaft", f"{path}/head"], np.stack([X_WP, X_PS, X_PH])

    def show(self, visible: bool, time: float) -> None:
        if visible != self.visible:
            self.meshcat.SetProperty(self.path, "visible", visible, time)
            self.visible = visible


class ContactVisualizer(QueryObjectVisualizer):
    """Draws the contacts a QueryObject reports (this library's extension)."""

    def __init__(self, meshcat, params: ContactVisualizerParams | None = None):
        super().__init__()
        params = ContactVisualizerParams() if params is None else params
        if not (params.publish_period >= 0 and math.isfinite(params.publish_period)):
            raise RuntimeError(f"ContactVisualizerParams.publish_period must be >= 0; got "
                               f"{params.publish_period}")
        if not params.newtons_per_meter > 0 or not params.radius > 0:
            raise RuntimeError("ContactVisualizerParams: newtons_per_meter and radius must be > 0")
        self._meshcat = meshcat
        self._params = params
        self._declare_query_port_and_publishing(params.publish_period,
                                                params.delete_on_initialization_event)
        # What is drawn in the browser (external state, as in Drake's visualizers).
        self._arrows = {}              # (kind, id_A, id_B) -> _Arrow
        self._surfaces = set()         # surface paths currently drawn
        self._hydro_version = None     # (GeometryVersion, has hydroelastic geometry)
        self._hydro_unavailable = False

    @staticmethod
    def AddToBuilder(builder, scene_graph_or_port, meshcat, params=None):
        """Adds a ContactVisualizer named "contact_visualizer" (if free) fed by
        a SceneGraph's query port or a QueryObject-valued output port."""
        return QueryObjectVisualizer._add_to_builder(
            builder, scene_graph_or_port, ContactVisualizer(meshcat, params),
            "contact_visualizer")

    def DoGetGraphvizFragment(self, params):
        """Drake's drawing: ``path=/drake/<prefix>`` and an edge to Meshcat."""
        from scenegraph.visualization.meshcat_graphviz import meshcat_graphviz_fragment
        return meshcat_graphviz_fragment(super().DoGetGraphvizFragment, params,
                                         self._params.prefix)

    def Delete(self) -> None:
        """Removes everything under the prefix."""
        self._meshcat.Delete(self._params.prefix)
        self._arrows.clear()
        self._surfaces.clear()

    # --- events ------------------------------------------------------------------------
    def _on_initialization(self, context):
        self.Delete()
        return EventStatus.Succeeded()

    def _on_publish(self, context):
        query = self._query_port.Eval(context)
        inspector = query.inspector()
        time = context.get_time()
        surfaces, pairs = [], None
        if self._has_hydroelastic(inspector) and not self._hydro_unavailable:
            try:
                surfaces, pairs = query.ComputeContactSurfacesWithFallback(
                    self._params.representation)
            except NotImplementedError as error:
                self._skip_hydroelastic(error)
            except AttributeError as error:  # engine without the method yet
                if "ContactSurfaces" not in str(error):
                    raise
                self._skip_hydroelastic(error)
        active = set()
        if pairs is None and self._params.manifold_points:
            self._draw_manifolds(inspector, query.compute_contact_manifolds(), time, active)
            pairs = []
        elif pairs is None:
            pairs = query.ComputePointPairPenetration()
        self._draw_point_pairs(inspector, pairs, time, active)
        self._draw_surfaces(inspector, surfaces, time, active)
        for key, arrow in self._arrows.items():
            if key not in active:
                arrow.show(False, time)
        return EventStatus.Succeeded()

    def _skip_hydroelastic(self, error) -> None:
        self._hydro_unavailable = True
        _log.warning("ContactVisualizer: contact surfaces are not available (%s); drawing "
                     "point contacts only", error)

    def _has_hydroelastic(self, inspector) -> bool:
        """True if a proximity geometry declares a rigid or compliant
        hydroelastic type (rechecked when the proximity version changes)."""
        version = inspector.geometry_version()
        if self._hydro_version is not None and version.IsSameAs(self._hydro_version[0],
                                                                Role.kProximity):
            return self._hydro_version[1]
        found = False
        for geometry_id in inspector.GetAllGeometryIds(Role.kProximity):
            props = inspector.GetProximityProperties(geometry_id)
            value = props.GetPropertyOrDefault("hydroelastic", "compliance_type", None) \
                if props is not None else None
            text = str(getattr(value, "name", value)).lower()
            if value is not None and ("rigid" in text or "soft" in text or "compliant" in text):
                found = True
                break
        from scenegraph.geometry_version import GeometryVersion
        self._hydro_version = (GeometryVersion(version), found)
        return found

    # --- drawing -------------------------------------------------------------------------
    def _pair_path(self, inspector, kind: str, id_A, id_B) -> str:
        def name(i):
            return inspector.GetName(i).replace("::", "_").replace("/", "_")
        sub = "hydroelastic/" if kind == "hydro" else ""
        return f"{self._params.prefix}/{sub}{name(id_A)}+{name(id_B)}"

    @staticmethod
    def _force_sign(inspector, id_A, id_B) -> float:
        """+1 to draw the force on A (M), -1 for the force on B (N): the
        latter when A is anchored and B is not (so arrows point out of
        anchored geometry whatever the registration order)."""
        world = inspector.world_frame_id()
        A_anchored = inspector.GetFrameId(id_A) == world
        B_anchored = inspector.GetFrameId(id_B) == world
        return -1.0 if A_anchored and not B_anchored else 1.0

    def _arrow(self, inspector, kind: str, id_A, id_B, rgba: Rgba, time: float,
               suffix: str = "") -> _Arrow:
        key = (kind, id_A, id_B)
        arrow = self._arrows.get(key)
        if arrow is None:
            path = self._pair_path(inspector, kind, id_A, id_B)
            if any(a.path == path + suffix for a in self._arrows.values()):
                path = f"{path}_{id_A.get_value()}_{id_B.get_value()}"
            path = path + ("/force" if kind == "hydro" else suffix)
            arrow = self._arrows[key] = _Arrow(self._meshcat, path, self._params.radius,
                                               rgba, time,
                                               self._force_sign(inspector, id_A, id_B))
        return arrow

    def _draw_point_pairs(self, inspector, pairs, time: float, active: set) -> None:
        params = self._params
        paths, poses, shown = [], [], []
        for pair in pairs:
            nhat_BA_W = np.asarray(pair.nhat_BA_W, dtype=float).reshape(3)
            if not np.isfinite(nhat_BA_W).all() or np.linalg.norm(nhat_BA_W) == 0:
                continue
            p_WC = 0.5 * (np.asarray(pair.p_WCa, float) + np.asarray(pair.p_WCb, float))
            arrow = self._arrow(inspector, "point", pair.id_A, pair.id_B, params.color, time)
            arrow_paths, arrow_poses = arrow.poses(_frame_along(p_WC, arrow.sign * nhat_BA_W),
                                                   pair.depth * params.depth_scale)
            paths.extend(arrow_paths)
            poses.append(arrow_poses)
            shown.append(arrow)
            active.add(("point", pair.id_A, pair.id_B))
        if paths:
            self._meshcat.set_transforms(paths, np.concatenate(poses), time)
        for arrow in shown:
            arrow.show(True, time)

    def _draw_manifolds(self, inspector, manifolds, time: float, active: set) -> None:
        """One arrow per contact manifold point (params.manifold_points)."""
        params = self._params
        paths, poses, shown = [], [], []
        for m in manifolds:
            p_WC = 0.5 * (m.p_WCa + m.p_WCb)
            for i, depth in enumerate(m.depths.tolist()):
                kind = f"manifold{i}"
                arrow = self._arrow(inspector, kind, m.id_A, m.id_B, params.color, time,
                                    f"/{i}")
                arrow_paths, arrow_poses = arrow.poses(
                    _frame_along(p_WC[i], arrow.sign * m.nhat_BA_W), depth * params.depth_scale)
                paths.extend(arrow_paths)
                poses.append(arrow_poses)
                shown.append(arrow)
                active.add((kind, m.id_A, m.id_B))
        if paths:
            self._meshcat.set_transforms(paths, np.concatenate(poses), time)
        for arrow in shown:
            arrow.show(True, time)

    def _draw_surfaces(self, inspector, surfaces, time: float, active: set) -> None:
        params, meshcat = self._params, self._meshcat
        data = [(s, *_surface_arrays(s)) for s in surfaces]
        p_max = params.max_pressure
        if p_max is None:
            p_max = max((float(d[3].max()) for d in data if len(d[3])), default=0.0)
        drawn = set()
        for surface, p_WV, tris, pressure in data:
            base = self._pair_path(inspector, "hydro", surface.id_M(), surface.id_N())
            meshcat.SetTriangleColorMesh(f"{base}/surface", p_WV.T, tris.T,
                                         _pressure_colors(pressure, p_max).T)
            drawn.add(f"{base}/surface")
            f_M_W = surface_force_W(p_WV, tris, pressure)
            magnitude = float(np.linalg.norm(f_M_W))
            if magnitude < params.force_threshold:
                continue
            key = ("hydro", surface.id_M(), surface.id_N())
            arrow = self._arrow(inspector, "hydro", surface.id_M(), surface.id_N(),
                                params.hydro_force_color, time)
            arrow_paths, arrow_poses = arrow.poses(
                _frame_along(np.asarray(surface.centroid(), float).reshape(3),
                             arrow.sign * f_M_W),
                magnitude / params.newtons_per_meter)
            meshcat.set_transforms(arrow_paths, arrow_poses, time)
            arrow.show(True, time)
            active.add(key)
        for path in self._surfaces - drawn:
            meshcat.Delete(path)
        self._surfaces = drawn
