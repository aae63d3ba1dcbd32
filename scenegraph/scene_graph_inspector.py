"""SceneGraphInspector: Drake's read-only queries over one GeometryState.

An inspector is a cheap view; it reads the state it was built on at call time
(model state or a context's copy). Properties are returned as copies, so
editing them never changes the state behind SceneGraph's back.
"""
from __future__ import annotations

import copy

from systems.common.overloads import overloaded
from scenegraph.geometry_instance import GeometryInstance, canonicalize_name
from scenegraph.geometry_roles import Role, role_name
from scenegraph.geometry_state import GeometryState, world_frame_id
from scenegraph.identifiers import FrameId, GeometryId, SourceId


def _has_role(g, role) -> bool:
    """Drake's InternalGeometry::has_role: kUnassigned means 'no role at all'."""
    if role is None:
        return True
    role = Role(role)
    if role == Role.kUnassigned:
        return not g.props
    return role in g.props


class SceneGraphInspector:
    """Topology, names, roles, properties and filters of a GeometryState."""

    def __init__(self, geometry_state: GeometryState):
        self._state = geometry_state

    def _set_state(self, geometry_state: GeometryState) -> None:
        """Rebinds the view (for SceneGraph / QueryObject)."""
        self._state = geometry_state

    # ---- scene-wide ---------------------------------------------------------
    def num_sources(self) -> int:
        """The number of registered sources (the SceneGraph's own included)."""
        return len(self._state._sources)

    def num_frames(self) -> int:
        """Number of frames, the world frame included."""
        return len(self._state._frames)

    def num_geometries(self) -> int:
        """The number of registered geometries."""
        return len(self._state._geometries)

    def GetAllSourceIds(self) -> list:
        """All source ids; the first is SceneGraph's internal source."""
        return list(self._state._sources)

    def GetAllFrameIds(self) -> list:
        """All frame ids, world first, then in registration order."""
        return list(self._state._frames)

    def GetAllGeometryIds(self, role: Role | None = None) -> list:
        """All geometry ids (with ``role``, if given), in increasing id order."""
        ids = [g.id for g in self._state._geometries.values() if _has_role(g, role)]
        return sorted(ids, key=lambda i: i.get_value())

    def GetGeometryIds(self, geometry_set, role: Role | None = None) -> set:
        """Ids implied by a GeometrySet (frames expand to their geometries),
        optionally restricted to ``role``.

        Raises:
          RuntimeError: if the set references an unregistered id.
        """
        st = self._state
        out = set()
        for fid in geometry_set.frames():
            frame = st._frame(fid)
            out.update(g for g in frame.geometry_ids if _has_role(st._geometries[g], role))
        for gid in geometry_set.geometries():
            if _has_role(st._geometry(gid), role):
                out.add(gid)
        return out

    def NumGeometriesWithRole(self, role: Role) -> int:
        """The number of geometries that have `role`."""
        return sum(1 for g in self._state._geometries.values() if _has_role(g, role))

    def NumDynamicGeometries(self) -> int:
        """The number of geometries on frames other than the world frame."""
        return sum(1 for g in self._state._geometries.values() if not g.is_anchored())

    def NumAnchoredGeometries(self) -> int:
        """The number of geometries on the world frame (anchored)."""
        return sum(1 for g in self._state._geometries.values() if g.is_anchored())

    def GetCollisionCandidates(self) -> set:
        """Unfiltered proximity pairs as (id_A, id_B) with id_A < id_B."""
        view = self._state.GetProximityView()
        ids = view.geometry_ids
        return {(ids[i], ids[j]) for i, j in view.candidate_pairs()}

    def geometry_version(self):
        """A copy of the current GeometryVersion."""
        return self._state.geometry_version()

    @staticmethod
    def world_frame_id() -> FrameId:
        """The FrameId of the world frame."""
        return world_frame_id()

    # ---- sources ------------------------------------------------------------
    def SourceIsRegistered(self, source_id: SourceId) -> bool:
        """True if `source_id` is a registered source."""
        return source_id in self._state._sources

    def NumFramesForSource(self, source_id: SourceId) -> int:
        """The number of frames registered by `source_id`.

        Raises:
          RuntimeError: the source is not registered.
          TypeError: `source_id` is not a SourceId.
        """
        return len(self._state._source(source_id).frame_ids)

    def FramesForSource(self, source_id: SourceId) -> set:
        """The set of FrameIds registered by `source_id`.

        Raises:
          RuntimeError: the source is not registered.
          TypeError: `source_id` is not a SourceId.
        """
        return set(self._state._source(source_id).frame_ids)

    @overloaded.typed(source_id=SourceId)
    def GetName(self, source_id) -> str:
        """Name of a source, frame or geometry (a geometry's canonical name).

        Raises:
          RuntimeError: if the id is not registered.
        """
        return self._state._source(source_id).name

    @GetName.overload(frame_id=FrameId)
    def GetName(self, frame_id) -> str:
        return self._state._frame(frame_id).name

    @GetName.overload(geometry_id=GeometryId)
    def GetName(self, geometry_id) -> str:
        return self._state._geometry(geometry_id).name

    @overloaded.typed(frame_id=FrameId)
    def GetOwningSourceName(self, frame_id) -> str:
        """Name of the source that registered the frame or geometry."""
        st = self._state
        return st._sources[st._frame(frame_id).source_id].name

    @GetOwningSourceName.overload(geometry_id=GeometryId)
    def GetOwningSourceName(self, geometry_id) -> str:
        st = self._state
        return st._sources[st._geometry(geometry_id).source_id].name

    @overloaded.typed(frame_id=FrameId)
    def BelongsToSource(self, frame_id, source_id) -> bool:
        """True if the frame (or geometry) was registered by ``source_id``.

        Raises:
          RuntimeError: unknown id or unknown source.
        """
        st = self._state
        st._source(source_id)
        return st._frame(frame_id).source_id == source_id

    @BelongsToSource.overload(geometry_id=GeometryId)
    def BelongsToSource(self, geometry_id, source_id) -> bool:
        st = self._state
        st._source(source_id)
        return st._geometry(geometry_id).source_id == source_id

    # ---- frames -------------------------------------------------------------
    def GetFrameGroup(self, frame_id: FrameId) -> int:
        """The frame group (an int) given to frame `frame_id` at registration.

        Raises:
          RuntimeError: the frame is not registered.
          TypeError: `frame_id` is not a FrameId.
        """
        return self._state._frame(frame_id).frame_group

    def GetParentFrame(self, frame_id: FrameId) -> FrameId:
        """The parent of a frame (the world frame is its own parent)."""
        parent = self._state._frame(frame_id).parent_id
        return frame_id if parent is None else parent

    def NumGeometriesForFrame(self, frame_id: FrameId) -> int:
        """The number of geometries on frame `frame_id`.

        Raises:
          RuntimeError: the frame is not registered.
          TypeError: `frame_id` is not a FrameId.
        """
        return len(self._state._frame(frame_id).geometry_ids)

    def NumGeometriesForFrameWithRole(self, frame_id: FrameId, role: Role) -> int:
        """The number of geometries on frame `frame_id` that have `role`.

        Raises:
          RuntimeError: the frame is not registered.
          TypeError: `frame_id` is not a FrameId.
        """
        st = self._state
        return sum(1 for g in st._frame(frame_id).geometry_ids
                   if _has_role(st._geometries[g], role))

    def GetGeometries(self, frame_id: FrameId, role: Role | None = None) -> list:
        """Geometries affixed directly to the frame (with ``role``), in increasing id order."""
        st = self._state
        ids = [g for g in st._frame(frame_id).geometry_ids if _has_role(st._geometries[g], role)]
        return sorted(ids, key=lambda i: i.get_value())

    def GetGeometryIdByName(self, frame_id: FrameId, role: Role, name: str) -> GeometryId:
        """The geometry on ``frame_id`` with ``role`` and canonical ``name``.

        Raises:
          RuntimeError: unknown frame, no such geometry, or several.
        """
        st = self._state
        frame = st._frame(frame_id)
        canonical = canonicalize_name(name)
        hits = [g for g in frame.geometry_ids
                if st._geometries[g].name == canonical and _has_role(st._geometries[g], role)]
        if len(hits) == 1:
            return hits[0]
        what = "no" if not hits else f"{len(hits)}"
        raise RuntimeError(f"The frame '{frame.name}' ({frame_id}) has {what} geometries with "
                           f"the role '{role_name(role)}' and the canonical name '{canonical}'")

    # ---- geometries ---------------------------------------------------------
    def GetFrameId(self, geometry_id: GeometryId) -> FrameId:
        """The FrameId of the frame geometry `geometry_id` is on.

        Raises:
          RuntimeError: the geometry is not registered.
          TypeError: `geometry_id` is not a GeometryId.
        """
        return self._state._geometry(geometry_id).frame_id

    def GetShape(self, geometry_id: GeometryId):
        """The Shape of geometry `geometry_id`.

        Raises:
          RuntimeError: the geometry is not registered.
          TypeError: `geometry_id` is not a GeometryId.
        """
        return self._state._geometry(geometry_id).shape

    def GetPoseInFrame(self, geometry_id: GeometryId):
        """X_FG: pose of the geometry in its frame F (a copy)."""
        return copy.copy(self._state._geometry(geometry_id).X_FG)

    def GetProperties(self, geometry_id: GeometryId, role: Role):
        """A copy of the geometry's properties for ``role``, or None."""
        props = self._state._geometry(geometry_id).props.get(Role(role))
        return None if props is None else type(props)(props)

    def GetProximityProperties(self, geometry_id: GeometryId):
        """The ProximityProperties of geometry `geometry_id`, or None without that role.

        Raises:
          RuntimeError: the geometry is not registered.
          TypeError: `geometry_id` is not a GeometryId.
        """
        return self.GetProperties(geometry_id, Role.kProximity)

    def GetIllustrationProperties(self, geometry_id: GeometryId):
        """The IllustrationProperties of geometry `geometry_id`, or None without that role.

        Raises:
          RuntimeError: the geometry is not registered.
          TypeError: `geometry_id` is not a GeometryId.
        """
        return self.GetProperties(geometry_id, Role.kIllustration)

    def GetPerceptionProperties(self, geometry_id: GeometryId):
        """The PerceptionProperties of geometry `geometry_id`, or None without that role.

        Raises:
          RuntimeError: the geometry is not registered.
          TypeError: `geometry_id` is not a GeometryId.
        """
        return self.GetProperties(geometry_id, Role.kPerception)

    def IsDeformableGeometry(self, geometry_id: GeometryId) -> bool:
        """False: deformable geometry is not offered (checks that the id is registered).

        Raises:
          RuntimeError: the geometry is not registered.
        """
        self._state._geometry(geometry_id)
        return False

    def GetAllDeformableGeometryIds(self) -> list:
        """An empty list: deformable geometry is not offered."""
        return []

    def CloneGeometryInstance(self, geometry_id: GeometryId) -> GeometryInstance:
        """A new GeometryInstance (new id) with the geometry's pose in its
        frame, shape, name and all role properties."""
        g = self._state._geometry(geometry_id)
        inst = GeometryInstance(g.X_FG, g.shape, g.name)
        for role, props in g.props.items():
            {Role.kProximity: inst.set_proximity_properties,
             Role.kIllustration: inst.set_illustration_properties,
             Role.kPerception: inst.set_perception_properties}[role](props)
        return inst

    def CollisionFiltered(self, geometry_id1: GeometryId, geometry_id2: GeometryId) -> bool:
        """True if the pair is filtered.

        Raises:
          RuntimeError: unknown geometry, or one without the proximity role.
        """
        return self._state.CollisionFiltered(geometry_id1, geometry_id2)

    def GetObbInGeometryFrame(self, geometry_id: GeometryId):
        """The geometry's Obb in its own frame G (CalcObb of its shape), or None for a
        HalfSpace."""
        from scenegraph.bounding_boxes import CalcObb
        return CalcObb(self._state._geometry(geometry_id).shape)

    def GetConvexHull(self, geometry_id: GeometryId):
        """The convex hull (a PolygonSurfaceMesh in G) of a Mesh or Convex geometry;
        None for the other shapes."""
        shape = self._state._geometry(geometry_id).shape
        return shape.GetConvexHull() if hasattr(shape, "GetConvexHull") else None

    def GetReferenceMesh(self, geometry_id: GeometryId):
        """The reference mesh of a deformable geometry; there are none here, so this is
        None for every (registered) geometry, as Drake answers for rigid ones."""
        self._state._geometry(geometry_id)
        return None

    def NumDeformableGeometriesWithRole(self, role: Role) -> int:
        """Always 0: there is no deformable geometry here."""
        return 0

    def maybe_get_hydroelastic_mesh(self, geometry_id: GeometryId):
        """The geometry's hydroelastic mesh: a VolumeMesh (compliant), a
        TriangleSurfaceMesh (rigid), or None (no hydroelastic properties, or a
        half space, which has no mesh)."""
        from scenegraph.hydroelastic.representation import make_hydroelastic_representation
        g = self._state._geometry(geometry_id)
        props = g.props.get(Role.kProximity)
        if props is None:
            return None
        representation = make_hydroelastic_representation(g.shape, props)
        return None if representation is None else representation.hydroelastic_mesh()
