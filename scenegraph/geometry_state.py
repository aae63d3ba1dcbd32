"""GeometryState: the registry behind SceneGraph (model) and each context copy.

Holds sources, frames (a tree rooted at the world frame), geometries, their
role properties, the per-role GeometryVersion and the collision filters.
Public mutators mirror SceneGraph's (RegisterSource, RegisterFrame, ...). Each
validates every argument first and only then commits, so a call that raises
leaves the state exactly as it was. Read-only queries live in
SceneGraphInspector; pose computation in kinematics_vector.

Version rules (per role): registering without roles changes nothing;
assigning (kNew or kReplace) or removing a role bumps that role; removing a
geometry or changing its shape bumps every role it had; renaming bumps none.
"""
from __future__ import annotations

import copy

import numpy as np

from scenegraph.collision_filter import CollisionFilter, ProximityView
from scenegraph.geometry_frame import GeometryFrame
from scenegraph.geometry_instance import GeometryInstance, canonicalize_name
from scenegraph.geometry_properties import (GeometryProperties, IllustrationProperties,
                                            PerceptionProperties, ProximityProperties)
from scenegraph.geometry_roles import Role, RoleAssign, role_name
from scenegraph.geometry_version import GeometryVersion
from scenegraph.identifiers import FrameId, GeometryId, SourceId, id_type_error
from scenegraph.kinematics_vector import (PoseTopology, calc_world_poses, frame_poses_valid,
                                          gather_and_compose)
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.shapes import Shape

_WORLD_FRAME_ID = FrameId._reserved(1)  # the same in every process (pickling)
_ROLE_OF = {ProximityProperties: Role.kProximity, IllustrationProperties: Role.kIllustration,
            PerceptionProperties: Role.kPerception}
_REAL_ROLES = (Role.kProximity, Role.kIllustration, Role.kPerception)


def world_frame_id() -> FrameId:
    """The id of the world frame, shared by every GeometryState."""
    return _WORLD_FRAME_ID


def _hashable(value) -> bool:
    return getattr(type(value), "__hash__", None) is not None


def _check_pose(method: str, gid, name: str, X, label: str) -> None:
    """Raises naming the geometry if pose `X` (a RigidTransform) is not finite."""
    if not (np.isfinite(X._R).all() and np.isfinite(X._p).all()):
        raise RuntimeError(
            f"{method}: geometry {gid} ('{name}') was given a non-finite pose {label}: "
            f"translation {X._p.tolist()}, rotation {X._R.tolist()}; every entry must "
            f"be finite")


class _Source:
    __slots__ = ("id", "name", "frame_ids", "geometry_ids")

    def __init__(self, id_, name):
        self.id, self.name = id_, name
        self.frame_ids: list = []      # frames registered by the source, in order
        # Geometries registered by the source, in order (an ordered set: the
        # dict's keys, so removing one is O(1)).
        self.geometry_ids: dict = {}


class _Frame:
    __slots__ = ("id", "source_id", "name", "frame_group", "parent_id", "child_ids",
                 "geometry_ids", "ids_by_name")

    def __init__(self, id_, source_id, name, frame_group, parent_id):
        self.id, self.source_id, self.name = id_, source_id, name
        self.frame_group, self.parent_id = frame_group, parent_id
        self.child_ids: list = []
        self.geometry_ids: dict = {}   # geometries affixed directly, in order (keys)
        # {geometry name: [ids of the frame's geometries with that name]}, so a
        # registration checks its name in O(1), not against every geometry of
        # the frame (the world frame holds every anchored geometry).
        self.ids_by_name: dict = {}

    def add_name(self, name, gid) -> None:
        self.ids_by_name.setdefault(name, []).append(gid)

    def drop_name(self, name, gid) -> None:
        ids = self.ids_by_name[name]
        ids.remove(gid)
        if not ids:
            del self.ids_by_name[name]


class _Geometry:
    __slots__ = ("id", "source_id", "frame_id", "parent_geometry_id", "child_ids", "name",
                 "shape", "X_PG", "X_FG", "props")

    def __init__(self, id_, source_id, frame_id, parent_geometry_id, name, shape, X_PG, X_FG):
        self.id, self.source_id, self.frame_id = id_, source_id, frame_id
        self.parent_geometry_id = parent_geometry_id
        self.child_ids: list = []
        self.name, self.shape, self.X_PG, self.X_FG = name, shape, X_PG, X_FG
        self.props: dict = {}          # Role -> GeometryProperties

    def is_anchored(self) -> bool:
        return self.frame_id == _WORLD_FRAME_ID


class GeometryState:
    """Registry of sources, frames, geometries, roles, versions and filters."""


    def __init__(self):
        self._self_source_id = SourceId.get_new_id()
        self._sources: dict[SourceId, _Source] = {
            self._self_source_id: _Source(self._self_source_id, "SceneGraphInternal")}
        self._frames: dict[FrameId, _Frame] = {
            _WORLD_FRAME_ID: _Frame(_WORLD_FRAME_ID, self._self_source_id, "world", 0, None)}
        self._geometries: dict[GeometryId, _Geometry] = {}
        self._version = GeometryVersion()
        self._collision_filter = CollisionFilter()
        self._topology = None
        self._proximity_view = None
        self._renderers = {}   # name -> RenderEngine (scenegraph/render/renderers.py)

    # ---- copies -------------------------------------------------------------
    def Clone(self) -> "GeometryState":
        """A deep, independent copy (same ids, same versions until modified)."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo):
        other = GeometryState.__new__(GeometryState)
        other._self_source_id = self._self_source_id
        other._sources = {}
        for k, s in self._sources.items():
            t = _Source(s.id, s.name)
            t.frame_ids, t.geometry_ids = list(s.frame_ids), dict(s.geometry_ids)
            other._sources[k] = t
        other._frames = {}
        for k, f in self._frames.items():
            t = _Frame(f.id, f.source_id, f.name, f.frame_group, f.parent_id)
            t.child_ids, t.geometry_ids = list(f.child_ids), dict(f.geometry_ids)
            t.ids_by_name = {name: list(ids) for name, ids in f.ids_by_name.items()}
            other._frames[k] = t
        other._geometries = {}
        for k, g in self._geometries.items():
            # Shapes and poses are never mutated in place, so they are shared.
            t = _Geometry(g.id, g.source_id, g.frame_id, g.parent_geometry_id, g.name, g.shape,
                          g.X_PG, g.X_FG)
            t.child_ids = list(g.child_ids)
            t.props = {r: type(p)(p) for r, p in g.props.items()}
            other._geometries[k] = t
        other._version = GeometryVersion(self._version)
        other._collision_filter = copy.deepcopy(self._collision_filter)
        other._topology = self._topology          # immutable once built
        other._proximity_view = None
        other._renderers = {name: engine.Clone()
                            for name, engine in getattr(self, "_renderers", {}).items()}
        return other

    # ---- small accessors used by SceneGraph and the inspector ----------------
    def self_source_id(self) -> SourceId:
        """The SourceId of the state's own source (which owns the world frame)."""
        return self._self_source_id

    @staticmethod
    def world_frame_id() -> FrameId:
        """The FrameId of the world frame."""
        return _WORLD_FRAME_ID

    def geometry_version(self) -> GeometryVersion:
        """A copy of the current per-role version."""
        return GeometryVersion(self._version)

    def SourceIsRegistered(self, source_id: SourceId) -> bool:
        """True if `source_id` is a registered source."""
        return source_id in self._sources

    def GetName(self, source_id: SourceId) -> str:
        """The name of source `source_id`.

        Raises:
          RuntimeError: the source is not registered.
        """
        return self._source(source_id).name

    def collision_filter_manager(self):
        """A CollisionFilterManager that edits this state's collision filters.
        Acquiring one changes the proximity version, as in Drake (the filters may
        change through it)."""
        from scenegraph.collision_filter_manager import CollisionFilterManager
        self._bump(Role.kProximity)
        return CollisionFilterManager(self)

    # ---- validation helpers -------------------------------------------------
    # A lookup miss first checks the id's type: ids of different kinds never
    # compare equal, so a FrameId given for a GeometryId would otherwise be
    # reported as an unregistered geometry with the same number.
    def _source(self, source_id) -> _Source:
        s = self._sources.get(source_id) if _hashable(source_id) else None
        if s is None:
            if not isinstance(source_id, SourceId):
                raise id_type_error(source_id, SourceId, "source_id")
            raise RuntimeError(f"Referenced geometry source {source_id} is not registered.")
        return s

    def _frame(self, frame_id) -> _Frame:
        f = self._frames.get(frame_id) if _hashable(frame_id) else None
        if f is None:
            if not isinstance(frame_id, FrameId):
                raise id_type_error(frame_id, FrameId, "frame_id")
            raise RuntimeError(f"Referenced frame {frame_id} has not been registered.")
        return f

    def _geometry(self, geometry_id) -> _Geometry:
        g = self._geometries.get(geometry_id) if _hashable(geometry_id) else None
        if g is None:
            if not isinstance(geometry_id, GeometryId):
                raise id_type_error(geometry_id, GeometryId, "geometry_id")
            raise RuntimeError(f"Referenced geometry {geometry_id} has not been registered.")
        return g

    def _owned_frame(self, source_id, frame_id) -> _Frame:
        """The frame, if source_id owns it or it is the world frame."""
        source = self._source(source_id)
        frame = self._frame(frame_id)
        if frame_id != _WORLD_FRAME_ID and frame.source_id != source_id:
            raise RuntimeError(
                f"Referenced frame {frame_id} ('{frame.name}') does not belong to source "
                f"{source_id} ('{source.name}'); it belongs to source {frame.source_id} "
                f"('{self._sources[frame.source_id].name}').")
        return frame

    def _owned_geometry(self, source_id, geometry_id) -> _Geometry:
        source = self._source(source_id)
        g = self._geometry(geometry_id)
        if g.source_id != source_id:
            raise RuntimeError(
                f"Geometry {geometry_id} ('{g.name}') does not belong to source {source_id} "
                f"('{source.name}'); it belongs to source {g.source_id} "
                f"('{self._sources[g.source_id].name}').")
        return g

    def _check_name_free(self, frame_id, role, name, ignore=None) -> None:
        for gid in self._frames[frame_id].ids_by_name.get(name, ()):
            g = self._geometries[gid]
            if gid != ignore and role in g.props:
                raise RuntimeError(
                    f"The name '{name}' has already been used by geometry {gid} with the "
                    f"'{role_name(role)}' role on frame {frame_id} "
                    f"('{self._frames[frame_id].name}').")

    def _topology_changed(self) -> None:
        self._topology = None
        self._proximity_view = None

    def _on_filter_change(self) -> None:
        self._proximity_view = None

    # ---- registration -------------------------------------------------------
    def RegisterSource(self, name: str = "") -> SourceId:
        """Registers a geometry source; an empty name becomes 'Source_<id>'.

        Raises:
          TypeError: `name` is not a str.
          RuntimeError: if another source already has the name.
        """
        if not isinstance(name, str):
            raise TypeError(f"RegisterSource: name must be a str; got {type(name).__name__} "
                            f"{name!r}")
        source_id = SourceId.get_new_id()
        final = name if name else f"Source_{source_id.get_value()}"
        for s in self._sources.values():
            if s.name == final:
                raise RuntimeError(f"Registering new source with duplicate name: '{final}' "
                                   f"(already used by source {s.id}).")
        self._sources[source_id] = _Source(source_id, final)
        return source_id

    def RegisterFrame(self, source_id: SourceId, *args) -> FrameId:
        """RegisterFrame(source_id, frame) hangs F on the world;
        RegisterFrame(source_id, parent_id, frame) hangs F on parent P (which
        must belong to the same source).

        Raises:
          RuntimeError: unknown source or parent, parent of another source,
            frame id already registered, duplicate frame name in the source.
        """
        if len(args) == 1:
            parent_id, frame = _WORLD_FRAME_ID, args[0]
        elif len(args) == 2:
            parent_id, frame = args
        else:
            raise TypeError("RegisterFrame(source_id, [parent_id,] frame)")
        if not isinstance(frame, GeometryFrame):
            raise TypeError(f"RegisterFrame: expected a GeometryFrame, got {type(frame).__name__}")
        source = self._source(source_id)
        self._owned_frame(source_id, parent_id)
        if frame.id() in self._frames:
            raise RuntimeError(f"Registering frame '{frame.name()}' with an id that has already "
                               f"been registered: {frame.id()}")
        for fid in source.frame_ids:
            if self._frames[fid].name == frame.name():
                raise RuntimeError(f"Registering frame with name '{frame.name()}' for source "
                                   f"{source_id} ('{source.name}'), but the source already has "
                                   f"a frame of that name ({fid}).")
        fid = frame.id()
        self._frames[fid] = _Frame(fid, source_id, frame.name(), frame.frame_group(), parent_id)
        self._frames[parent_id].child_ids.append(fid)
        source.frame_ids.append(fid)
        self._topology_changed()
        return fid

    def RegisterGeometry(self, source_id: SourceId, parent_id, geometry: GeometryInstance
                         ) -> GeometryId:
        """Registers ``geometry`` on frame ``parent_id`` (a FrameId; the world
        frame makes it anchored) or on geometry ``parent_id`` (a GeometryId:
        it is affixed to that geometry's frame with X_FG = X_FP·X_PG).
        Roles whose properties the instance carries are assigned.

        Raises:
          RuntimeError: unknown source/frame/geometry, a parent of another
            source, an already-registered geometry id, or a name clash in a
            role the instance carries.
        """
        return self._register(source_id, parent_id, geometry, "RegisterGeometry")

    def _register(self, source_id: SourceId, parent_id, geometry: GeometryInstance,
                  api: str) -> GeometryId:
        """RegisterGeometry's work; `api` names the public call in errors."""
        if not isinstance(geometry, GeometryInstance):
            raise TypeError(f"{api}: expected a GeometryInstance, got "
                            f"{type(geometry).__name__}")
        if isinstance(parent_id, GeometryId):
            parent = self._owned_geometry(source_id, parent_id)
            frame_id, X_FG = parent.frame_id, parent.X_FG @ geometry._X_PG
            parent_geometry_id = parent_id
        elif isinstance(parent_id, FrameId):
            self._owned_frame(source_id, parent_id)
            frame_id, X_FG, parent_geometry_id = parent_id, geometry._X_PG, None
        else:
            raise TypeError(f"{api}: parent must be a FrameId or GeometryId, got "
                            f"{type(parent_id).__name__}")
        gid = geometry.id()
        if gid in self._geometries:
            raise RuntimeError(f"Registering geometry '{geometry.name()}' with an id that has "
                               f"already been registered: {gid}")
        _check_pose(api, gid, geometry.name(), geometry._X_PG, "X_PG")
        _check_pose(api, gid, geometry.name(), X_FG, "X_FG")
        roles = {}
        for props in (geometry._proximity, geometry._illustration, geometry._perception):
            if props is not None:
                role = _ROLE_OF[type(props)]
                self._check_name_free(frame_id, role, geometry.name())
                roles[role] = type(props)(props)
        if Role.kProximity in roles:
            self._check_proximity(gid, geometry.name(), geometry._shape,
                                  roles[Role.kProximity])
        rec = _Geometry(gid, source_id, frame_id, parent_geometry_id, geometry.name(),
                        geometry._shape, copy.copy(geometry._X_PG), copy.copy(X_FG))
        self._geometries[gid] = rec
        self._frames[frame_id].geometry_ids[gid] = None
        self._frames[frame_id].add_name(rec.name, gid)
        self._sources[source_id].geometry_ids[gid] = None
        if parent_geometry_id is not None:
            self._geometries[parent_geometry_id].child_ids.append(gid)
        for role, props in roles.items():
            self._commit_role(rec, role, props)
        self._topology_changed()
        return gid

    def RegisterAnchoredGeometry(self, source_id: SourceId, geometry: GeometryInstance
                                 ) -> GeometryId:
        """Registers ``geometry`` on the world frame (X_WG = geometry.pose())."""
        return self._register(source_id, _WORLD_FRAME_ID, geometry, "RegisterAnchoredGeometry")

    def RemoveGeometry(self, source_id: SourceId, geometry_id: GeometryId) -> None:
        """Removes the geometry and every geometry hung from it; bumps the
        versions of every role they had and drops them from the filters.

        Raises:
          RuntimeError: unknown source/geometry or geometry of another source.
        """
        self._owned_geometry(source_id, geometry_id)
        doomed, stack = [], [geometry_id]
        while stack:
            gid = stack.pop()
            doomed.append(gid)
            stack.extend(self._geometries[gid].child_ids)
        for gid in doomed:
            g = self._geometries.pop(gid)
            for role in list(g.props):
                self._remove_role_unchecked(g, role)
            del self._frames[g.frame_id].geometry_ids[gid]
            self._frames[g.frame_id].drop_name(g.name, gid)
            del self._sources[g.source_id].geometry_ids[gid]
            if g.parent_geometry_id is not None and g.parent_geometry_id in self._geometries:
                self._geometries[g.parent_geometry_id].child_ids.remove(gid)
        self._topology_changed()

    # ---- roles --------------------------------------------------------------
    def AssignRole(self, source_id: SourceId, geometry_id: GeometryId,
                   properties: GeometryProperties, assign: RoleAssign = RoleAssign.kNew) -> None:
        """Assigns (kNew) or replaces (kReplace) the role implied by the
        properties' type; bumps that role's version (not the perception version:
        see ``_bump``).

        Raises:
          RuntimeError: unknown/foreign ids, kNew on a role the geometry has,
            kReplace on a role it lacks, kReplace of perception properties (as
            Drake), or a name clash within the role.
        """
        role = _ROLE_OF.get(type(properties))
        if role is None:
            raise TypeError(f"AssignRole: expected Proximity/Illustration/PerceptionProperties, "
                            f"got {type(properties).__name__}")
        assign = RoleAssign(assign)
        if role == Role.kPerception and assign == RoleAssign.kReplace:
            # Drake refuses this before looking at the ids (pydrake's message).
            raise RuntimeError("AssignRole() with RoleAssign::kReplace does not work for "
                               "perception properties")
        g = self._owned_geometry(source_id, geometry_id)
        has = role in g.props
        if assign == RoleAssign.kNew and has:
            raise RuntimeError(f"Trying to assign the '{role_name(role)}' role to geometry "
                               f"{geometry_id} ('{g.name}') for the first time; it already "
                               "has properties for that role. Use RoleAssign.kReplace.")
        if assign == RoleAssign.kReplace and not has:
            raise RuntimeError(f"Trying to replace the '{role_name(role)}' properties of "
                               f"geometry {geometry_id} ('{g.name}'); it has not had the role "
                               "assigned. Use RoleAssign.kNew.")
        if not has:
            self._check_name_free(g.frame_id, role, g.name, ignore=geometry_id)
        properties = type(properties)(properties)
        if role == Role.kProximity:
            if not has and self._collision_filter.has_transient_history():
                # Drake's message: adding a proximity geometry edits the persistent
                # filters (its frame's invariant exclusions). Nothing is changed.
                raise RuntimeError(
                    "You cannot attempt to modify the persistent collision filter "
                    "configuration when there are active, transient filter "
                    f"declarations (AssignRole of geometry {geometry_id} ('{g.name}'); "
                    "remove them or flatten_transient_history() first)")
            self._check_proximity(g.id, g.name, g.shape, properties)
        self._commit_role(g, role, properties)

    def _bump(self, role: Role) -> None:
        """Marks `role`'s data as changed in the version. As in Drake, the
        perception version changes only when a render engine takes or drops a
        geometry: here, whenever perception data changes while the state has a
        renderer (scenegraph/render/renderers.py registers it at the next
        render)."""
        if role != Role.kPerception or getattr(self, "_renderers", None):
            self._version._bump(role)

    @staticmethod
    def _check_proximity(gid, name: str, shape, props) -> None:
        """Checks that the shape can take part in every proximity query and
        builds (and caches) the hydroelastic representation the properties ask
        for, so a bad shape or value fails now, naming the geometry, instead of
        failing every later query of the scene."""
        from scenegraph.hydroelastic.properties import HydroelasticType
        from scenegraph.proximity_shape_check import check_proximity_shape
        compliance = None if props is None else \
            props.GetPropertyOrDefault("hydroelastic", "compliance_type", None)
        if compliance is not None and compliance is not HydroelasticType.kUndefined:
            # Imported only for a declared compliance (SceneGraph's defaults
            # say kUndefined): setting up the hydroelastic modules' compiled
            # kernels costs a fresh process CPU time.
            from scenegraph.hydroelastic.representation import (
                HydroelasticPropertyError, make_hydroelastic_representation)
            try:
                representation = make_hydroelastic_representation(shape, props)
            except HydroelasticPropertyError as error:
                raise RuntimeError(f"Geometry {gid} ('{name}'): {error}") from None
            if representation is not None:
                from scenegraph import _warmup
                _warmup.note_in_use("hydroelastic")
        try:
            check_proximity_shape(shape)
        except ValueError as error:
            raise ValueError(f"Geometry {gid} ('{name}') cannot have the proximity role: "
                             f"{error}") from None

    def _commit_role(self, g: _Geometry, role: Role, props) -> None:
        is_new = role not in g.props
        g.props[role] = props
        if role == Role.kProximity:
            if is_new:
                self._collision_filter.add_geometry(g.id, g.frame_id)
            self._proximity_view = None
        self._bump(role)

    def RemoveRole(self, source_id: SourceId, id_, role: Role) -> int:
        """RemoveRole(source_id, frame_id, role) removes ``role`` from every
        geometry of the source affixed directly to the frame (the world frame
        allowed); RemoveRole(source_id, geometry_id, role) from one geometry.
        Returns how many geometries lost the role.

        Raises:
          RuntimeError: unknown source/frame/geometry or one of another source.
        """
        role = Role(role)
        if isinstance(id_, FrameId):
            frame = self._owned_frame(source_id, id_)
            targets = [self._geometries[g] for g in frame.geometry_ids
                       if self._geometries[g].source_id == source_id]
        elif isinstance(id_, GeometryId):
            targets = [self._owned_geometry(source_id, id_)]
        else:
            raise TypeError(f"RemoveRole: expected a FrameId or GeometryId, got "
                            f"{type(id_).__name__}")
        return sum(1 for g in targets if self._remove_role_unchecked(g, role))

    def _remove_role_unchecked(self, g: _Geometry, role: Role) -> bool:
        if role not in g.props:
            return False
        del g.props[role]
        if role == Role.kProximity:
            self._collision_filter.remove_geometry(g.id)
            self._proximity_view = None
        self._bump(role)
        return True

    # ---- renaming and reshaping ---------------------------------------------
    def RenameFrame(self, frame_id: FrameId, name: str) -> None:
        """Renames a frame; no version changes.

        Raises:
          RuntimeError: unknown frame, the world frame, or a name another frame
            of the same source has.
        """
        frame = self._frame(frame_id)
        if frame_id == _WORLD_FRAME_ID:
            raise RuntimeError(f"The world frame ({frame_id}) cannot be renamed.")
        for fid in self._sources[frame.source_id].frame_ids:
            if fid != frame_id and self._frames[fid].name == name:
                raise RuntimeError(f"RenameFrame: frame {frame_id} ('{frame.name}') cannot be "
                                   f"renamed to '{name}'; source {frame.source_id} already has "
                                   f"frame {fid} with that name.")
        frame.name = name

    def RenameGeometry(self, geometry_id: GeometryId, name: str) -> None:
        """Renames a geometry (canonicalised); no version changes.

        Raises:
          RuntimeError: unknown geometry, empty name, or a clash within any
            role the geometry has on its frame.
        """
        g = self._geometry(geometry_id)
        canonical = canonicalize_name(name, "RenameGeometry: name")
        if not canonical:
            raise RuntimeError(f"RenameGeometry: geometry {geometry_id} ('{g.name}') cannot be "
                               f"given the empty name '{name}'.")
        for role in g.props:
            self._check_name_free(g.frame_id, role, canonical, ignore=geometry_id)
        frame = self._frames[g.frame_id]
        frame.drop_name(g.name, geometry_id)
        g.name = canonical
        frame.add_name(canonical, geometry_id)

    def ChangeShape(self, source_id: SourceId, geometry_id: GeometryId, shape: Shape,
                    X_FG: RigidTransform | None = None) -> None:
        """Replaces the geometry's shape (and optionally its pose X_FG in its
        frame); bumps the versions of every role it has.

        Raises:
          RuntimeError: unknown/foreign source or geometry.
        """
        if not isinstance(shape, Shape):
            raise TypeError(f"ChangeShape: expected a Shape, got {type(shape).__name__}")
        if X_FG is not None and not isinstance(X_FG, RigidTransform):
            raise TypeError(f"ChangeShape: X_FG must be a RigidTransform, got "
                            f"{type(X_FG).__name__}")
        g = self._owned_geometry(source_id, geometry_id)
        if X_FG is not None:
            _check_pose("ChangeShape", geometry_id, g.name, X_FG, "X_FG")
        if Role.kProximity in g.props:
            self._check_proximity(g.id, g.name, shape, g.props[Role.kProximity])
        g.shape = shape.Clone()
        if X_FG is not None:
            g.X_FG = copy.copy(X_FG)
            g.X_PG = copy.copy(X_FG) if g.parent_geometry_id is None else \
                self._geometries[g.parent_geometry_id].X_FG.InvertAndCompose(X_FG)
        for role in g.props:
            self._bump(role)
        self._topology_changed()

    # ---- proximity defaults -----------------------------------------------
    def ApplyProximityDefaults(self, defaults, geometry_id: GeometryId | None = None) -> None:
        """Back-fills DefaultProximityProperties into the proximity properties
        of one geometry (or of all proximity geometries); values already
        present are kept. Bumps the proximity version if anything changed.

        Raises:
          RuntimeError: invalid defaults, or a geometry without the proximity role.
        """
        from scenegraph.scene_graph_config import backfill_proximity_defaults

        defaults.ValidateOrThrow()
        ids = [geometry_id] if geometry_id is not None else \
            [g.id for g in self._geometries.values() if Role.kProximity in g.props]
        updates = []
        for gid in ids:
            g = self._geometry(gid)
            if Role.kProximity not in g.props:
                raise RuntimeError(f"ApplyProximityDefaults: geometry {gid} ('{g.name}') has "
                                   "no proximity role")
            filled = ProximityProperties(g.props[Role.kProximity])
            if backfill_proximity_defaults(filled, defaults):
                self._check_proximity(g.id, g.name, g.shape, filled)
                updates.append((g, filled))
        for g, filled in updates:
            g.props[Role.kProximity] = filled
        if updates:
            self._bump(Role.kProximity)
            self._proximity_view = None

    # ---- collision filters ----------------------------------------------------
    def _resolve_filter_statements(self, declaration) -> list:
        """Resolves a declaration's sets to proximity geometry ids (validating
        every id first). Raises RuntimeError naming an unregistered id."""
        resolved = []
        for op, set_a, set_b in declaration.statements():
            a = self._collect_proximity_ids(set_a)
            b = None if set_b is None else self._collect_proximity_ids(set_b)
            resolved.append((op, a, b))
        return resolved

    def _collect_proximity_ids(self, geometry_set) -> tuple:
        ids = []
        for fid in geometry_set.frames():
            if fid not in self._frames:
                raise RuntimeError(f"Geometry set includes a frame id that doesn't belong to "
                                   f"the SceneGraph: {fid}")
            ids.extend(g for g in self._frames[fid].geometry_ids
                       if Role.kProximity in self._geometries[g].props)
        for gid in geometry_set.geometries():
            g = self._geometries.get(gid)
            if g is None:
                raise RuntimeError(f"Geometry set includes a geometry id that doesn't belong "
                                   f"to the SceneGraph: {gid}")
            if Role.kProximity in g.props:
                ids.append(gid)
        return tuple(dict.fromkeys(ids))

    def CollisionFiltered(self, geometry_id1: GeometryId, geometry_id2: GeometryId) -> bool:
        """True if the pair is filtered.

        Raises:
          RuntimeError: unknown geometry, or one without the proximity role.
        """
        for gid in (geometry_id1, geometry_id2):
            g = self._geometry(gid)
            if Role.kProximity not in g.props:
                raise RuntimeError(f"Cannot report collision filter status for geometry {gid} "
                                   f"('{g.name}'); it does not have a proximity role.")
        return self._collision_filter.is_filtered(geometry_id1, geometry_id2)

    # ---- derived, cached views ------------------------------------------------
    def pose_topology(self) -> PoseTopology:
        """Arrays describing frames and geometry placement (cached)."""
        if self._topology is None:
            frames = list(self._frames.values())
            geoms = sorted(self._geometries.values(), key=lambda g: g.id.get_value())
            self._topology = PoseTopology(
                [f.id for f in frames], [f.parent_id for f in frames],
                [f.source_id for f in frames], [g.id for g in geoms],
                [g.frame_id for g in geoms], [g.X_FG for g in geoms])
        return self._topology

    def ValidateFramePoses(self, source_id: SourceId, poses) -> None:
        """Checks a source's FramePoseVector: every frame of the source present,
        no other ids, all values finite.

        Raises:
          RuntimeError: naming the source and the offending frame.
        """
        source = self._source(source_id)
        if frame_poses_valid(source.frame_ids, poses):
            return
        for fid in source.frame_ids:
            if not poses.has_id(fid):
                raise RuntimeError(
                    f"Source {source_id} ('{source.name}') has registered frame {fid} "
                    f"('{self._frames[fid].name}') but its FramePoseVector has no pose for it.")
        if poses.size() != len(source.frame_ids):
            own = set(source.frame_ids)
            for fid in poses.ids():
                if fid not in own:
                    owner = self._frames.get(fid)
                    what = (f"frame '{owner.name}' of source {owner.source_id}" if owner
                            else "an unregistered frame")
                    raise RuntimeError(
                        f"Source {source_id} ('{source.name}') reported a pose for frame {fid} "
                        f"({what}), which it does not own.")
        for fid, X in poses.items():
            if not (np.isfinite(X._R).all() and np.isfinite(X._p).all()):
                raise RuntimeError(
                    f"Source {source_id} ('{source.name}') reported a non-finite pose for frame "
                    f"{fid} ('{self._frames[fid].name}').")

    def CalcWorldPoses(self, pose_vectors: dict, validate: bool = True):
        """World poses of all frames and geometries (a WorldPoses).

        Args:
          pose_vectors: dict SourceId -> FramePoseVector (X_PF of each of the
            source's frames); sources without frames may be omitted.
          validate: run ValidateFramePoses on every source with frames.
        Raises:
          RuntimeError: a source with frames has no pose vector, or a vector
            fails validation.
        """
        topology = self.pose_topology()
        if validate:
            # One batched pass; any problem falls through to the per-frame
            # checks below, which name the source and frame.
            world_poses = gather_and_compose(topology, pose_vectors)
            if world_poses is not None:
                return world_poses
        X_PFs = {}
        for sid, frame_ids in topology.source_frames.items():
            poses = pose_vectors.get(sid)
            if poses is None:
                s = self._sources[sid]
                raise RuntimeError(f"Source {sid} ('{s.name}') has registered frames but no "
                                   f"FramePoseVector was provided for it.")
            if validate:
                self.ValidateFramePoses(sid, poses)
            for fid in frame_ids:
                X_PFs[fid] = poses.value(fid)
        return calc_world_poses(topology, X_PFs)

    def GetProximityView(self) -> ProximityView:
        """Proximity geometries, shapes, placement and filtered pairs (cached
        until proximity data or filters change)."""
        if self._proximity_view is None:
            topology = self.pose_topology()
            geoms = sorted((g for g in self._geometries.values() if Role.kProximity in g.props),
                           key=lambda g: g.id.get_value())
            ids = [g.id for g in geoms]
            filtered = self._collision_filter.table(ids)
            self._proximity_view = ProximityView(
                ids, [g.shape for g in geoms], [g.props[Role.kProximity] for g in geoms],
                [g.frame_id for g in geoms],
                np.array([topology.geometry_index[g] for g in ids], dtype=np.int64), filtered,
                _WORLD_FRAME_ID)
        return self._proximity_view
