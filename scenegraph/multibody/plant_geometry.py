"""A MultibodyPlant's geometry: registering its bodies' shapes with a
SceneGraph, the frames and names there, and Drake's default collision
filters.

Names follow Drake: each body's SceneGraph frame is named after the body's
scoped name ("<model instance>::<body>"), each geometry "<model
instance>::<name>". Geometry on the world body is anchored. At Finalize every
body gets a frame (geometry or not), and collisions are filtered between
(a) the two bodies of each joint, unless the parent is the world or the
joint is a floating (6-dof) one, and (b) all bodies of a welded group (bodies
joined by weld joints, the world's group included) — Drake's rules.
"""
from __future__ import annotations

import contextlib
import copy

import numpy as np

from scenegraph.geometry_roles import RoleAssign
from scenegraph.math import RigidTransform
from systems.common.overloads import overloaded

__all__ = ["PlantGeometry"]


class PlantGeometry:
    """Mixin of MultibodyPlant: SceneGraph registration and filtering."""

    def _init_geometry(self) -> None:
        self._scene_graph = None
        self._source_id = None
        self._body_frame_ids: dict = {}      # body index -> FrameId
        self._collision_ids: dict = {}       # body index -> [GeometryId]
        self._visual_ids: dict = {}          # body index -> [GeometryId]
        self._body_of_frame_id: dict = {}    # FrameId -> body index
        self._adjacent_filters = True
        self._body_frame_id_list: list = []

    # --- source registration -----------------------------------------------------------
    def RegisterAsSourceForSceneGraph(self, scene_graph):
        """Registers this plant as a geometry source of `scene_graph` (named
        after the plant); returns the SourceId.

        Raises:
          RuntimeError: already registered, or after Finalize."""
        self._throw_if_finalized("RegisterAsSourceForSceneGraph")
        if self._scene_graph is not None:
            raise RuntimeError("RegisterAsSourceForSceneGraph: this MultibodyPlant is "
                               "already registered with a SceneGraph")
        self._source_id = scene_graph.RegisterSource(self.get_name() or "MultibodyPlant")
        self._scene_graph = scene_graph
        return self._source_id

    def geometry_source_is_registered(self) -> bool:
        """True once this plant is a SceneGraph geometry source
        (RegisterAsSourceForSceneGraph, which AddMultibodyPlantSceneGraph calls)."""
        return self._source_id is not None

    def get_source_id(self):
        """The SourceId, or None before RegisterAsSourceForSceneGraph."""
        return self._source_id

    def _require_scene_graph(self, what: str):
        if self._scene_graph is None:
            raise RuntimeError(f"{what}(): this MultibodyPlant must be registered as a "
                               f"source for a SceneGraph first (RegisterAsSourceForSceneGraph "
                               f"or AddMultibodyPlantSceneGraph)")
        return self._scene_graph

    def _scoped(self, body, name: str) -> str:
        """Drake's scoped geometry name: "<model instance>::<name>", bare for the
        world model instance (pydrake's GetScopedName)."""
        instance = int(body.model_instance())
        return name if instance == 0 else f"{self._instance_names[instance]}::{name}"

    def _ensure_body_frame(self, body):
        """The body's SceneGraph FrameId, registered now if needed (None for the
        world body)."""
        from scenegraph.geometry_frame import GeometryFrame
        b = int(body.index())
        if b == 0:
            return None
        fid = self._body_frame_ids.get(b)
        if fid is None:
            fid = self._scene_graph.RegisterFrame(
                self._source_id, GeometryFrame(str(body.scoped_name()),
                                               int(body.model_instance())))
            self._body_frame_ids[b] = fid
            self._body_of_frame_id[fid] = b
        return fid

    def _register_geometry(self, body, X_BG, shape, name, what):
        from scenegraph.geometry_instance import GeometryInstance
        from scenegraph.multibody.rigid_body import RigidBody
        self._throw_if_finalized(what)
        sg = self._require_scene_graph(what)
        if not isinstance(body, RigidBody) or body._plant is not self:
            raise RuntimeError(f"{what}(): {body!r} is not a body of this plant")
        if not isinstance(X_BG, RigidTransform):
            raise TypeError(f"{what}(): X_BG must be a RigidTransform; got "
                            f"{type(X_BG).__name__}")
        instance = GeometryInstance(X_BG, shape, self._scoped(body, name))
        fid = self._ensure_body_frame(body)
        # SceneGraph's model directly: its public methods are pydrake overload
        # sets, whose dispatch costs more than the registration of a small
        # geometry, and a robot registers dozens.
        if fid is None:
            return sg._model.RegisterAnchoredGeometry(self._source_id, instance)
        return sg._model.RegisterGeometry(self._source_id, fid, instance)

    def _assign_role(self, sg, geometry_id, properties) -> None:
        """SceneGraph.AssignRole(source, geometry_id, properties) on its model
        (proximity defaults filled in, as the public method does)."""
        sg._model.AssignRole(self._source_id, geometry_id, sg._filled(properties),
                             RoleAssign.kNew)

    @overloaded
    def RegisterCollisionGeometry(self, body, X_BG, shape, name, properties):
        """Registers `shape` at X_BG on `body` with the proximity role
        (`properties`: ProximityProperties); returns its GeometryId."""
        return self._register_collision(body, X_BG, shape, name, properties)

    @RegisterCollisionGeometry.overload
    def RegisterCollisionGeometry(self, body, X_BG, shape, name, coulomb_friction):
        """Same, with Drake's ("material", "coulomb_friction") property."""
        from scenegraph.geometry_properties import ProximityProperties
        props = ProximityProperties()
        props.AddProperty("material", "coulomb_friction", coulomb_friction)
        return self._register_collision(body, X_BG, shape, name, props)

    def _register_collision(self, body, X_BG, shape, name, properties):
        from scenegraph.geometry_properties import ProximityProperties
        from scenegraph.geometry_roles import Role
        if not isinstance(properties, ProximityProperties):
            from scenegraph.hydroelastic.properties import CoulombFriction
            if isinstance(properties, CoulombFriction):
                return self.RegisterCollisionGeometry(body, X_BG, shape, name,
                                                      coulomb_friction=properties)
            raise TypeError(f"RegisterCollisionGeometry(): properties must be "
                            f"ProximityProperties; got {type(properties).__name__}")
        sg = self._require_scene_graph("RegisterCollisionGeometry")
        gid = self._register_geometry(body, X_BG, shape, name, "RegisterCollisionGeometry")
        try:
            self._assign_role(sg, gid, properties)
        except Exception:
            sg._model.RemoveGeometry(self._source_id, gid)
            raise
        self._collision_ids.setdefault(int(body.index()), []).append(gid)
        return gid

    @overloaded
    def RegisterVisualGeometry(self, body, X_BG, shape, name, diffuse_color):
        """Registers `shape` at X_BG on `body` with the illustration and
        perception roles, coloured `diffuse_color` (Rgba or (4,)) or with
        `properties` (IllustrationProperties); returns its GeometryId."""
        from scenegraph.geometry_properties import (IllustrationProperties,
                                                    MakePhongIllustrationProperties, Rgba)
        if isinstance(diffuse_color, IllustrationProperties):
            return self._register_visual(body, X_BG, shape, name, diffuse_color)
        rgba = diffuse_color.rgba if isinstance(diffuse_color, Rgba) else \
            np.asarray(diffuse_color, dtype=float)
        return self._register_visual(body, X_BG, shape, name,
                                     MakePhongIllustrationProperties(rgba))

    @RegisterVisualGeometry.overload
    def RegisterVisualGeometry(self, body, X_BG, shape, name, properties):
        return self._register_visual(body, X_BG, shape, name, properties)

    @RegisterVisualGeometry.overload
    def RegisterVisualGeometry(self, body, geometry_instance):
        """pydrake's rule for a GeometryInstance: the roles it has
        (illustration, perception or both); with neither, both (defaults)."""
        from scenegraph.geometry_properties import IllustrationProperties
        illustration = geometry_instance.illustration_properties()
        perception = geometry_instance.perception_properties()
        if illustration is None and perception is None:
            illustration = IllustrationProperties()
        return self._register_visual(body, geometry_instance.pose(),
                                     geometry_instance.shape(), geometry_instance.name(),
                                     illustration, perception, copy_perception=False)

    def _register_visual(self, body, X_BG, shape, name, properties, perception=None,
                         copy_perception=True):
        """Registers with `properties` (IllustrationProperties or None) and
        `perception` (None: none, or a copy of `properties` if
        `copy_perception`)."""
        from scenegraph.geometry_properties import IllustrationProperties, PerceptionProperties
        if properties is not None and not isinstance(properties, IllustrationProperties):
            raise TypeError(f"RegisterVisualGeometry(): properties must be "
                            f"IllustrationProperties; got {type(properties).__name__}")
        sg = self._require_scene_graph("RegisterVisualGeometry")
        gid = self._register_geometry(body, X_BG, shape, name, "RegisterVisualGeometry")
        try:
            if properties is not None:
                self._assign_role(sg, gid, properties)
            if perception is None and copy_perception:
                perception = PerceptionProperties()
                for group in properties.GetGroupNames():
                    for key, value in properties.GetPropertiesInGroup(group).items():
                        value = value.get_value()
                        perception.AddProperty(group, key, value)
            if perception is not None:
                self._assign_role(sg, gid, perception)
        except Exception:
            sg._model.RemoveGeometry(self._source_id, gid)
            raise
        self._visual_ids.setdefault(int(body.index()), []).append(gid)
        return gid

    def GetCollisionGeometriesForBody(self, body) -> list:
        """GeometryIds of `body`'s collision geometries, in registration order."""
        return list(self._collision_ids.get(int(body.index()), []))

    def GetVisualGeometriesForBody(self, body) -> list:
        """GeometryIds of `body`'s visual geometries, in registration order."""
        return list(self._visual_ids.get(int(body.index()), []))

    def num_collision_geometries(self) -> int:
        """The number of geometries registered with RegisterCollisionGeometry, on
        every body (the world included)."""
        return sum(len(v) for v in self._collision_ids.values())

    def CollectRegisteredGeometries(self, bodies):
        """A GeometrySet of the SceneGraph frames of `bodies` (so, every
        geometry on them; the world body contributes its anchored geometry)."""
        geometry_ids, frame_ids = [], []
        for body in bodies:
            b = int(body.index())
            if b == 0:
                geometry_ids += self._collision_ids.get(0, []) + self._visual_ids.get(0, [])
                continue
            fid = self._body_frame_ids.get(b)
            if fid is not None:
                frame_ids.append(fid)
        return _geometry_set(geometry_ids, frame_ids)

    def GetBodyFromFrameId(self, frame_id):
        """The body whose SceneGraph frame is `frame_id`, or None."""
        from scenegraph.scene_graph import SceneGraph
        if self._scene_graph is not None and frame_id == SceneGraph.world_frame_id():
            return self._bodies[0]
        b = self._body_of_frame_id.get(frame_id)
        return None if b is None else self._bodies[b]

    def GetBodyFrameIdIfExists(self, body_index):
        """The SceneGraph FrameId of body `body_index`, or None."""
        from scenegraph.scene_graph import SceneGraph
        b = int(body_index)
        if b == 0 and self._scene_graph is not None:
            return SceneGraph.world_frame_id()
        return self._body_frame_ids.get(b)

    def GetBodyFrameIdOrThrow(self, body_index):
        """The SceneGraph FrameId of body `body_index` (SceneGraph.world_frame_id()
        for the world).

        Raises:
          RuntimeError: the body has no SceneGraph frame (the plant is not a
            SceneGraph source, or, before Finalize, no geometry is on the body).
          IndexError: no body has that index."""
        fid = self.GetBodyFrameIdIfExists(body_index)
        if fid is None:
            raise RuntimeError(f"GetBodyFrameIdOrThrow(): body "
                               f"'{self._bodies[int(body_index)].name()}' does not have a "
                               f"SceneGraph frame (is the plant registered with a "
                               f"SceneGraph?)")
        return fid

    def EvalSceneGraphInspector(self, context):
        """The SceneGraphInspector of the connected SceneGraph's query object."""
        return self._geometry_query_port.Eval(context).inspector()

    def set_adjacent_bodies_collision_filters(self, value: bool) -> None:
        """Whether Finalize filters collisions between bodies joined by a joint."""
        self._throw_if_finalized("set_adjacent_bodies_collision_filters")
        self._adjacent_filters = bool(value)

    def get_adjacent_bodies_collision_filters(self) -> bool:
        """Whether Finalize filters collisions between the two bodies of each joint
        (True unless set_adjacent_bodies_collision_filters(False))."""
        return self._adjacent_filters

    def ExcludeCollisionGeometriesWithCollisionFilterGroupPair(self, collision_filter_group_a,
                                                               collision_filter_group_b):
        """Excludes collisions between two named GeometrySets ((name, set) pairs),
        or within one set when both names are equal."""
        from scenegraph.collision_filter_manager import CollisionFilterDeclaration
        self._throw_if_finalized("ExcludeCollisionGeometriesWithCollisionFilterGroupPair")
        sg = self._require_scene_graph(
            "ExcludeCollisionGeometriesWithCollisionFilterGroupPair")
        name_a, set_a = collision_filter_group_a
        name_b, set_b = collision_filter_group_b
        declaration = CollisionFilterDeclaration().ExcludeWithin(set_a) if name_a == name_b \
            else CollisionFilterDeclaration().ExcludeBetween(set_a, set_b)
        sg.collision_filter_manager().Apply(declaration)

    def _finalize_geometry(self) -> None:
        if self._scene_graph is None:
            self._body_frame_id_list = []
            return
        for body in self._bodies[1:]:
            self._ensure_body_frame(body)
        self._body_frame_id_list = sorted(self._body_frame_ids.items())
        self._apply_default_collision_filters()

    def _apply_default_collision_filters(self) -> None:
        from scenegraph.collision_filter_manager import CollisionFilterDeclaration
        manager = self._scene_graph.collision_filter_manager()
        if self._adjacent_filters:
            for joint in self._joints:
                parent, child = joint.parent_body(), joint.child_body()
                if int(parent.index()) == 0 or joint.type_name() == "quaternion_floating":
                    continue
                a = self._body_frame_ids.get(int(child.index()))
                b = self._body_frame_ids.get(int(parent.index()))
                if a is not None and b is not None:
                    manager.Apply(CollisionFilterDeclaration().ExcludeBetween(
                        _geometry_set((), [a]), _geometry_set((), [b])))
        for group in self._forest.welded_groups:
            if len(group) <= 1:
                continue
            geometries = self.CollectRegisteredGeometries([self._bodies[b] for b in group])
            manager.Apply(CollisionFilterDeclaration().ExcludeWithin(geometries))

    def _rename_geometry_scopes(self, instance: int) -> None:
        """After RenameModelInstance: the SceneGraph names of that instance's
        body frames and geometries follow."""
        if self._scene_graph is None:
            return
        sg, inspector = self._scene_graph, self._scene_graph.model_inspector()
        new = self._instance_names[instance]
        for b, fid in self._body_frame_ids.items():
            body = self._bodies[b]
            if int(body.model_instance()) != instance:
                continue
            sg.RenameFrame(fid, f"{new}::{body.name()}")
            for gid in self._collision_ids.get(b, []) + self._visual_ids.get(b, []):
                bare = inspector.GetName(gid).split("::", 1)[-1]
                sg.RenameGeometry(gid, f"{new}::{bare}")

    # --- transactions (for the Parser) -------------------------------------------------------------
    @contextlib.contextmanager
    def _parsing_transaction(self):
        """Restores this plant and its SceneGraph's model exactly as they were
        if the block raises (the Parser wraps each AddModels in it)."""
        self._throw_if_finalized("AddModels")
        saved = {name: copy.copy(getattr(self, name)) for name in (
            "_instance_names", "_bodies", "_frames", "_joints", "_joint_by_index",
            "_joint_indices_used", "_actuators", "_couplers", "_default_X_WB",
            "_body_frame_ids", "_body_of_frame_id")}
        saved["_collision_ids"] = {k: list(v) for k, v in self._collision_ids.items()}
        saved["_visual_ids"] = {k: list(v) for k, v in self._visual_ids.items()}
        joint_limits = [(j, j._q_lower, j._q_upper, j._v_lower, j._v_upper, j._a_lower,
                         j._a_upper, j._q_default) for j in self._joints]
        sg = self._scene_graph
        sg_saved = None
        if sg is not None:
            sg_saved = (sg._model.Clone(), dict(sg._pose_ports),
                        dict(sg._configuration_ports), len(sg._input_ports))
        try:
            yield self
        except BaseException:
            for name, value in saved.items():
                setattr(self, name, value)
            for j, *limits in joint_limits:
                (j._q_lower, j._q_upper, j._v_lower, j._v_upper, j._a_lower, j._a_upper,
                 j._q_default) = limits
            if sg is not None:
                sg._restore_model(*sg_saved)
            raise


def _geometry_set(geometry_ids, frame_ids):
    """GeometrySet(geometry_ids, frame_ids) made without its overload set's
    dispatch (pydrake's five constructor forms, tried in turn), of which a
    robot's Finalize makes hundreds."""
    from scenegraph.geometry_set import GeometrySet
    out = GeometrySet.__new__(GeometrySet)
    out._init_lists(geometry_ids, frame_ids)
    return out
