"""SceneGraph: the LeafSystem that owns geometry (pydrake's ``SceneGraph``).

The *model* GeometryState lives in the system; every Context gets its own
copy (an abstract parameter) when it is created, so later model changes do
not touch existing contexts, and the Context-modifying variants
(``AssignRole(context, ...)``, ``collision_filter_manager(context)``, ...)
change only that context.

Ports: one abstract input ``<source name>_pose`` per registered source,
carrying a FramePoseVector (X_PF of each of the source's frames), and the
abstract output ``query`` carrying a live QueryObject. World poses of all
frames and geometries are one cache entry whose prerequisites are the pose
inputs and the geometry state (never time), computed once per change and
shared by every query on that context.
"""
from __future__ import annotations

from systems.framework import Context, LeafSystem, Value, ValueProducer
from systems.framework.fast_lane import store_value

from scenegraph.collision_filter_manager import CollisionFilterManager, stale_manager_error
from scenegraph.geometry_state import GeometryState, world_frame_id
from scenegraph.geometry_configuration_vector import GeometryConfigurationVector
from scenegraph.kinematics_vector import FramePoseVector, composer_of
from scenegraph.query_object import QueryObject
from scenegraph.geometry_properties import ProximityProperties
from scenegraph.geometry_roles import Role, RoleAssign
from scenegraph.identifiers import FrameId, SourceId, id_type_error
from systems.common.overloads import overloaded
from systems.framework.output_port import LeafOutputPort
from scenegraph.scene_graph_config import SceneGraphConfig, backfill_proximity_defaults
from scenegraph.scene_graph_inspector import SceneGraphInspector


class _QueryOutputPort(LeafOutputPort):
    """SceneGraph's query output port. Its value, the context's QueryObject,
    is recomputed at every pose change as Drake's is (the entry depends on
    every input), but its calc (_calc_query_object) only binds the object to
    the context and evaluates nothing else, so a recomputation cannot
    recurse: it is done here without update_cache_value's guard and the
    weak-method call, on every route to the value (Eval, a connected input
    port, an exported diagram port). Same slots as LeafOutputPort."""

    __slots__ = ()

    def Eval(self, context):
        """The context's QueryObject (OutputPort.Eval for this abstract port)."""
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        return self._eval_payload(context)._value

    def _eval_payload(self, context):
        # fast_lane's cached_value / held_abstract_value / store_value,
        # written out (every pose change makes this value out of date).
        held = context._cache[self._cache_index]
        value = held.value
        if not held.valid:
            query_object, scene_graph = value._value, self._system
            if (query_object._context is not context
                    or query_object._scene_graph is not scene_graph):
                query_object._bind(scene_graph, context)
            held.valid = True
            held.serial_number += 1
        return value

__all__ = ["SceneGraph"]


def _not_context(value) -> bool:
    return not isinstance(value, Context)


class _ContextFilterManager(CollisionFilterManager):
    """A CollisionFilterManager over one context's GeometryState that notifies
    the context's dependents whenever it changes the filters."""

    def __init__(self, scene_graph, context):
        self._scene_graph = scene_graph
        self._context = context
        super().__init__(scene_graph._state_of(context))

    def _touch(self):
        self._scene_graph._mutable_state(self._context)

    def _current_state(self, method):
        if self._scene_graph._state_of(self._context) is not self._state:
            name = self._scene_graph.get_name()
            raise stale_manager_error(method, repr(name) if name else "(unnamed)")
        return self._state

    def Apply(self, declaration):
        super().Apply(declaration)
        self._touch()

    def ApplyTransient(self, declaration):
        filter_id = super().ApplyTransient(declaration)
        self._touch()
        return filter_id

    def RemoveDeclaration(self, filter_id):
        removed = super().RemoveDeclaration(filter_id)
        if removed:
            self._touch()
        return removed

    def flatten_transient_history(self):
        super().flatten_transient_history()
        self._touch()


def _deformable_not_offered() -> NotImplementedError:
    return NotImplementedError(
        "SceneGraph.RegisterDeformableGeometry: deformable geometry is not offered by "
        "this library (its geometry is rigid; see docs/migrating_from_pydrake.md, "
        "'Not here'); register a rigid shape with RegisterGeometry")


def _empty_value():
    """A cache entry's initial Value(None) (a module function, so it pickles)."""
    return Value(None)


def _new_query_value():
    """The query port's initial Value[QueryObject] (a module function, so it pickles)."""
    return Value[QueryObject](QueryObject())


class SceneGraph(LeafSystem):
    """Registry of geometry sources, frames and geometries, and the provider of
    QueryObjects (pydrake's ``SceneGraph``)."""

    # The pose ports' vector class and the query port's allocator (SceneGraph_[AutoDiffXd],
    # scenegraph/autodiff_scene_graph.py, gives its own).
    _pose_vector_class = FramePoseVector
    _allocate_query_value = staticmethod(_new_query_value)

    def __init__(self, config: SceneGraphConfig | None = None):
        super().__init__()
        self._model = GeometryState()
        self._config = SceneGraphConfig() if config is None else config
        self._config.ValidateOrThrow()
        self._pose_ports = {}          # SourceId -> InputPort
        # (topology, its PoseComposer, [(SourceId, pose port index or -1)] in
        # the topology's source order, the one source's port index or -1).
        self._pose_inputs = (None, None, [], -1)
        self._configuration_ports = {}  # SourceId -> InputPort
        self._context_allocated = False
        self.num_world_pose_calcs = 0  # how often world poses were computed
        self._state_index = self.DeclareAbstractParameter(Value[GeometryState](self._model))
        state_ticket = self.abstract_parameter_ticket(self._state_index)
        self._world_poses_entry = self.DeclareCacheEntry(
            "world poses", ValueProducer(allocate=_empty_value,
                                         calc=self._calc_world_poses),
            {self.all_input_ports_ticket(), state_ticket})
        self._engine_entry = self.DeclareCacheEntry(
            "proximity engine", ValueProducer(allocate=_empty_value,
                                              calc=self._calc_proximity_engine),
            {state_ticket})
        # Their cache indices, for the query path's fast lane (QueryObject).
        self._world_poses_index = int(self._world_poses_entry.cache_index())
        self._engine_index = int(self._engine_entry.cache_index())
        self._query_port = self.DeclareAbstractOutputPort(
            "query", type(self)._allocate_query_value, self._calc_query_object,
            {self.all_input_ports_ticket(), state_ticket})
        self._query_port.__class__ = _QueryOutputPort  # same slots: see there
        self._model_inspector = SceneGraphInspector(self._model)

    # --- contexts ------------------------------------------------------------------
    def _make_context(self, parent):
        context = super()._make_context(parent)
        context._parameters._abstract[self._state_index] = Value[GeometryState](
            self._model.Clone())
        self._context_allocated = True
        if self._queries_expected(parent):
            # Loading the kernels makes tens of thousands of objects that all
            # live on: no collector passes over the whole heap meanwhile.
            from scenegraph._warmup import prepare_pair_queries
            from scenegraph.gc_pause import paused_gc
            with paused_gc():
                prepare_pair_queries(self._model_inspector)
        return context

    def _queries_expected(self, parent) -> bool:
        """True when a context made now will likely be queried: the model has
        proximity geometry and the query output port is used (this SceneGraph
        is the root system, or its port is connected or exported in the
        diagram `parent` belongs to). Then the pair-query kernels are loaded
        at context creation instead of inside the first AdvanceTo."""
        if not self._model_inspector.NumGeometriesWithRole(Role.kProximity):
            return False
        if parent is None:
            return True
        diagram = parent._system
        index = next((i for i, s in enumerate(diagram._systems) if s is self), None)
        used = (index, self._query_port.get_index())
        return (used in diagram._connections.values()
                or used in diagram._output_port_map)

    def _state_of(self, context) -> GeometryState:
        self.ValidateContext(context)
        return context._parameters._abstract[self._state_index]._value

    def _mutable_state(self, context) -> GeometryState:
        """The context's GeometryState; its dependents are invalidated now."""
        self.ValidateContext(context)
        return context.get_mutable_abstract_parameter(self._state_index).get_mutable_value()

    def _calc_world_poses(self, context, value) -> None:
        """The world-pose cache entry's calc (see _world_poses_of)."""
        value._value = self._world_poses_of(context)  # the entry's own Value[object]

    def _refresh_world_poses(self, context):
        """The world poses of `context` when their cache value is out of date,
        recomputed and stored: the QueryObject's path at every pose change,
        without the entry's Eval and weak-method layers. One source on a fixed
        pose port evaluates nothing else, so it is composed here directly
        (systems.framework.fast_lane's store); anything else goes through the
        entry's Eval (its recursion guard included)."""
        inputs = self._pose_inputs
        if inputs[3] >= 0 and inputs[0] is context._parameters._abstract[
                self._state_index]._value._topology:
            fixed = context._fixed_inputs[inputs[3]]
            if fixed is not None:
                # Value.get_value(), inlined.
                world_poses = inputs[1].compose_one(fixed._payload._value)
                if world_poses is not None:
                    self.num_world_pose_calcs += 1
                    store_value(context, self._world_poses_index, world_poses)
                    return world_poses
        return self._world_poses_entry.Eval(context)

    def _world_poses_of(self, context):
        """WorldPoses of `context`'s pose inputs (PoseComposer, one compiled
        call); a missing, extra or non-finite frame pose goes to
        GeometryState.CalcWorldPoses, which names it."""
        self.num_world_pose_calcs += 1
        state = context._parameters._abstract[self._state_index]._value
        topology = state._topology or state.pose_topology()
        inputs = self._pose_inputs
        if inputs[0] is not topology:
            sources = [(sid, self._pose_ports[sid]._index if sid in self._pose_ports else -1)
                       for sid in topology.source_frames]
            inputs = self._pose_inputs = (topology, composer_of(topology), sources,
                                          sources[0][1] if len(sources) == 1 else -1)
        # `context` is this system's own (the cache entry checked it), so each
        # port's payload is read from it directly (InputPort.Eval's checks, per
        # port and per pose change, were a fifth of a small query's cost).
        fixed_inputs = context._fixed_inputs
        sources = inputs[2]
        vectors = []
        for source_id, index in sources:
            fixed = fixed_inputs[index] if index >= 0 else None
            if fixed is not None:
                vectors.append(fixed._payload._value)  # a Value: get_value(), inlined
                continue
            if index < 0 or not context._input_has_value(index):
                raise RuntimeError(
                    f"SceneGraph: source {source_id} ('{state.GetName(source_id)}') has "
                    f"registered frames but its input port "
                    f"'{state.GetName(source_id)}_pose' is neither connected nor fixed")
            vectors.append(context._eval_input(index).get_value())
        # The batched path first; anything it cannot take (a frame missing or
        # extra, a non-finite pose) goes to CalcWorldPoses, which names it.
        world_poses = inputs[1].compose(vectors)
        if world_poses is None:
            world_poses = state.CalcWorldPoses(
                {sid: vector for (sid, _), vector in zip(sources, vectors)})
        return world_poses

    def _eval_world_poses(self, context):
        return self._world_poses_entry.Eval(context)

    def _calc_proximity_engine(self, context, value) -> None:
        try:
            from scenegraph.proximity.engine import ProximityEngine
        except ImportError:
            raise NotImplementedError(
                "QueryObject proximity queries arrive with the proximity engine "
                "(scenegraph/proximity/engine.py)") from None
        state = context._parameters._abstract[self._state_index]._value
        config = self._config
        value.set_value(ProximityEngine(state, previous=value.get_value(),
                                        method=config.broadphase,
                                        explicit_pairs=config.broadphase_pairs))

    def _eval_proximity_engine(self, context):
        return self._engine_entry.Eval(context)

    def _calc_query_object(self, context, value) -> None:
        query_object = value.get_mutable_value()
        # Recomputed at every pose change: usually bound here already.
        if query_object._context is not context or query_object._scene_graph is not self:
            query_object._bind(self, context)

    def _convert_to_scalar(self, target_cls):
        """Scalar conversion (ToAutoDiffXd, ToScalarType[T]): a copy of this SceneGraph
        as `target_cls` (scenegraph/autodiff_scene_graph.py)."""
        from scenegraph.autodiff_scene_graph import convert_scene_graph
        return convert_scene_graph(self, target_cls)

    # --- configuration -------------------------------------------------------------
    def get_config(self, context=None, /) -> SceneGraphConfig:
        """The SceneGraphConfig (one per SceneGraph here: `context`, if given, is
        validated and the same config returned)."""
        if context is not None:
            self.ValidateContext(context)
        return self._config

    def set_config(self, config: SceneGraphConfig) -> None:
        """Replaces the config; its default proximity properties are applied to
        every geometry of the model that has the proximity role."""
        if not isinstance(config, SceneGraphConfig):
            raise TypeError("set_config(): expected a SceneGraphConfig")
        config.ValidateOrThrow()
        self._model.ApplyProximityDefaults(config.default_proximity_properties)
        self._config = config

    # --- ports ---------------------------------------------------------------------
    def get_source_pose_port(self, source_id):
        """The abstract input port ("<source name>_pose") that takes the FramePoseVector
        of source `source_id`.

        Raises:
          TypeError: `source_id` is not a SourceId.
          RuntimeError: the source is not registered.
        """
        port = self._pose_ports.get(source_id)
        if port is None:
            if not isinstance(source_id, SourceId):
                raise id_type_error(source_id, SourceId, "source_id")
            raise RuntimeError(f"Referenced geometry source {source_id} is not registered.")
        return port

    def get_source_configuration_port(self, source_id, /):
        """The ``<source>_configuration`` input port (GeometryConfigurationVector)."""
        port = self._configuration_ports.get(source_id)
        if port is None:
            if not isinstance(source_id, SourceId):
                raise id_type_error(source_id, SourceId, "source_id")
            raise RuntimeError(f"Referenced geometry source {source_id} is not registered.")
        return port

    def get_query_output_port(self):
        """The abstract output port holding the QueryObject bound to the context."""
        return self._query_port

    # --- model inspection ------------------------------------------------------------
    def model_inspector(self) -> SceneGraphInspector:
        """The SceneGraphInspector of the model (the geometry registered so far, before any
        context's changes)."""
        return self._model_inspector

    @staticmethod
    def world_frame_id():
        """The FrameId of the world frame."""
        return world_frame_id()

    def SourceIsRegistered(self, source_id) -> bool:
        """True if `source_id` is a registered source."""
        return self._model.SourceIsRegistered(source_id)

    def _restore_model(self, snapshot, pose_ports, configuration_ports, num_inputs) -> None:
        """Puts the model GeometryState back to `snapshot` (a Clone taken
        earlier), in place: the model inspector and the declared parameter
        keep referring to the same object. For MultibodyPlant's parsing
        transaction; sources registered since then are refused (their ports
        cannot be undeclared)."""
        if len(self._input_ports) != num_inputs:
            raise RuntimeError("SceneGraph: cannot roll back past the registration of a "
                               "geometry source")
        vars(self._model).clear()
        vars(self._model).update(vars(snapshot))

    # --- registration (model) ----------------------------------------------------------
    def RegisterSource(self, name: str = ""):
        """Registers a geometry source and declares its ``<name>_pose`` and
        ``<name>_configuration`` input ports (the latter for deformable geometry, which
        does not exist here: it is never read)."""
        if self._context_allocated:
            raise RuntimeError(
                "SceneGraph: a Context has already been allocated; new geometry sources "
                "can no longer be registered (register all sources first)")
        source_id = self._model.RegisterSource(name)  # rejects duplicate names
        port_name = f"{self._model.GetName(source_id)}_pose"
        vector_class = type(self)._pose_vector_class
        self._pose_ports[source_id] = self.DeclareAbstractInputPort(
            port_name, Value[vector_class](vector_class()))
        self._configuration_ports[source_id] = self.DeclareAbstractInputPort(
            f"{self._model.GetName(source_id)}_configuration",
            Value[GeometryConfigurationVector](GeometryConfigurationVector()))
        return source_id

    @overloaded
    def RegisterFrame(self, source_id, frame):
        """Registers `frame` (a GeometryFrame) on the world frame for `source_id`;
        returns its FrameId.

        Raises:
          TypeError: an id of the wrong type.
          RuntimeError: the source is not registered, the parent frame belongs to
            another source, or the source already has a frame of that name.
        """
        return self._model.RegisterFrame(source_id, frame)

    @RegisterFrame.overload
    def RegisterFrame(self, source_id, parent_id, frame):
        """Registers `frame` on the source's frame `parent_id`; returns its FrameId."""
        return self._model.RegisterFrame(source_id, parent_id, frame)

    def _checked_state(self, context, method: str, *args):
        """The state to edit (the model, or `context`'s copy); for a context, the call
        is validated on a probe copy first so a rejected call invalidates nothing."""
        if context is None:
            return self._model
        probe = self._state_of(context).Clone()
        getattr(probe, method)(*args)
        return self._mutable_state(context)

    @overloaded.typed(source_id=_not_context)
    def RegisterDeformableGeometry(self, source_id, frame_id, geometry, resolution_hint):
        """Not offered: this library's geometry is rigid (pydrake's deformable
        volume meshes, their configurations and deformable contact are absent).

        Raises:
          NotImplementedError: always, saying so; nothing is registered.
        """
        raise _deformable_not_offered()

    @RegisterDeformableGeometry.overload(context=Context)
    def RegisterDeformableGeometry(self, context, source_id, frame_id, geometry,
                                   resolution_hint):
        """Not offered (see above): raises NotImplementedError."""
        raise _deformable_not_offered()

    @overloaded.typed(source_id=_not_context)
    def RegisterGeometry(self, source_id, frame_id, geometry):
        """Registers `geometry` (a GeometryInstance) on frame `frame_id` of the model
        (a GeometryId there hangs it on that geometry's frame, as Drake's C++ does);
        returns its GeometryId. The pose is X_FG, of the geometry in its frame [m].

        Raises:
          TypeError: an id of the wrong type.
          RuntimeError: the source or frame is not registered (or not the
            source's), the pose is not finite, the name is taken on that frame for
            one of the instance's roles, or the shape cannot take the proximity
            role; nothing changes.
        """
        return self._model.RegisterGeometry(source_id, frame_id, geometry)

    @RegisterGeometry.overload(context=Context)
    def RegisterGeometry(self, context, source_id, frame_id, geometry):
        """As above, in `context`'s copy of the geometry state only."""
        return self._checked_state(context, "RegisterGeometry", source_id, frame_id,
                                   geometry).RegisterGeometry(source_id, frame_id, geometry)

    def RegisterAnchoredGeometry(self, source_id, geometry):
        """Registers `geometry` (a GeometryInstance, its pose X_WG in the world frame) on
        the world frame for `source_id`; returns its GeometryId.

        Raises:
          TypeError: `source_id` is not a SourceId.
          RuntimeError: the source is not registered, the pose is not finite, or the
            name is taken for one of the instance's roles; nothing changes.
        """
        return self._model.RegisterAnchoredGeometry(source_id, geometry)

    @overloaded.typed(source_id=_not_context)
    def RemoveGeometry(self, source_id, geometry_id) -> None:
        """Removes the geometry (and any hung from it) from the model.

        Raises:
          RuntimeError: the geometry is not registered or not the source's.
        """
        self._model.RemoveGeometry(source_id, geometry_id)

    @RemoveGeometry.overload(context=Context)
    def RemoveGeometry(self, context, source_id, geometry_id) -> None:
        self._checked_state(context, "RemoveGeometry", source_id,
                            geometry_id).RemoveGeometry(source_id, geometry_id)

    def _filled(self, properties):
        if isinstance(properties, ProximityProperties):
            # Drake fills in the SceneGraphConfig defaults on assignment; do it on a
            # copy so the single, validated commit includes them.
            filled = ProximityProperties(properties)
            backfill_proximity_defaults(filled, self._config.default_proximity_properties)
            return filled
        return properties

    @overloaded.typed(source_id=_not_context)
    def AssignRole(self, source_id, geometry_id, properties, assign=RoleAssign.kNew):
        """Assigns (kNew) or replaces (kReplace) the role given by the properties' type
        (Proximity/Illustration/PerceptionProperties) in the model. Proximity
        properties get SceneGraphConfig's defaults for what they lack.

        Raises:
          RuntimeError: kNew on a role the geometry has, kReplace on one it lacks,
            an invalid hydroelastic property, or an unregistered geometry or source.
          ValueError: a Mesh or Convex no proximity query could answer (flat, or
            an open Mesh); nothing changes.
        """
        self._model.AssignRole(source_id, geometry_id, self._filled(properties), assign)

    @AssignRole.overload(context=Context)
    def AssignRole(self, context, source_id, geometry_id, properties,
                   assign=RoleAssign.kNew):
        properties = self._filled(properties)
        self._checked_state(context, "AssignRole", source_id, geometry_id, properties,
                            assign).AssignRole(source_id, geometry_id, properties, assign)

    @overloaded.typed(source_id=_not_context, frame_id=FrameId)
    def RemoveRole(self, source_id, frame_id, role) -> int:
        """Removes `role` from every geometry of the source on frame `frame_id`;
        returns how many geometries lost it."""
        return self._model.RemoveRole(source_id, frame_id, role)

    @RemoveRole.overload(source_id=_not_context)
    def RemoveRole(self, source_id, geometry_id, role) -> int:
        """Removes `role` from one geometry; returns 1 if it had the role, else 0."""
        return self._model.RemoveRole(source_id, geometry_id, role)

    @RemoveRole.overload(context=Context, frame_id=FrameId)
    def RemoveRole(self, context, source_id, frame_id, role) -> int:
        return self._checked_state(context, "RemoveRole", source_id, frame_id,
                                   role).RemoveRole(source_id, frame_id, role)

    @RemoveRole.overload(context=Context)
    def RemoveRole(self, context, source_id, geometry_id, role) -> int:
        return self._checked_state(context, "RemoveRole", source_id, geometry_id,
                                   role).RemoveRole(source_id, geometry_id, role)

    def RenameFrame(self, frame_id, name: str) -> None:
        """Renames frame `frame_id` (names are unique per source).

        Raises:
          RuntimeError: the frame is not registered or the name is taken.
        """
        self._model.RenameFrame(frame_id, name)

    def RenameGeometry(self, geometry_id, name: str) -> None:
        """Renames geometry `geometry_id` (names are unique per frame per role).

        Raises:
          RuntimeError: the geometry is not registered or the name is taken.
        """
        self._model.RenameGeometry(geometry_id, name)

    @overloaded.typed(source_id=_not_context)
    def ChangeShape(self, source_id, geometry_id, shape, X_FG=None) -> None:
        """Replaces the geometry's shape (and, if given, its pose X_FG in its frame)."""
        self._model.ChangeShape(source_id, geometry_id, shape, X_FG)

    @ChangeShape.overload(context=Context)
    def ChangeShape(self, context, source_id, geometry_id, shape, X_FG=None) -> None:
        self._checked_state(context, "ChangeShape", source_id, geometry_id, shape,
                            X_FG).ChangeShape(source_id, geometry_id, shape, X_FG)

    def collision_filter_manager(self, context=None) -> CollisionFilterManager:
        """The filter manager of the model, or of `context`'s copy."""
        if context is None:
            return self._model.collision_filter_manager()
        # As in Drake, acquiring the manager changes the proximity version.
        self._mutable_state(context)._bump(Role.kProximity)
        return _ContextFilterManager(self, context)

    # --- renderers (scenegraph/render/renderers.py) ------------------------------------
    @overloaded.typed(name=str)
    def AddRenderer(self, name, renderer) -> None:
        """Adds a clone of `renderer` (a RenderEngine) to the model as `name`; it
        takes every perception geometry, registered before or after (render
        kernels are compiled now, not at the first image).

        Raises:
          RuntimeError: the name is taken, or it refuses a geometry's properties.
        """
        from scenegraph.render.renderers import add_renderer
        add_renderer(self._model, name, renderer)

    @AddRenderer.overload(context=Context)
    def AddRenderer(self, context, name, renderer) -> None:
        """As above, in `context`'s copy of the geometry state only."""
        from scenegraph.render.renderers import commit_renderer, prepare_renderer
        engine, taken = prepare_renderer(self._state_of(context), name, renderer)
        commit_renderer(self._mutable_state(context), name, engine, taken)

    @overloaded.typed(name=str)
    def RemoveRenderer(self, name) -> None:
        """Removes the model's renderer `name` (RuntimeError if there is none)."""
        from scenegraph.render.renderers import remove_renderer
        remove_renderer(self._model, name)

    @RemoveRenderer.overload(context=Context)
    def RemoveRenderer(self, context, name) -> None:
        from scenegraph.render.renderers import has_renderer, remove_renderer
        if not has_renderer(self._state_of(context), name):
            remove_renderer(self._state_of(context), name)    # raises, changing nothing
        remove_renderer(self._mutable_state(context), name)

    @overloaded.typed(name=str)
    def HasRenderer(self, name) -> bool:
        """True if the model has a renderer called `name`."""
        from scenegraph.render.renderers import has_renderer
        return has_renderer(self._model, name)

    @HasRenderer.overload(context=Context)
    def HasRenderer(self, context, name) -> bool:
        from scenegraph.render.renderers import has_renderer
        return has_renderer(self._state_of(context), name)

    def RendererCount(self, context=None) -> int:
        """The number of renderers of the model, or of `context`'s copy."""
        from scenegraph.render.renderers import renderer_count
        return renderer_count(self._model if context is None else self._state_of(context))

    @overloaded.typed(name=str)
    def GetRendererTypeName(self, name) -> str:
        """The type of renderer `name` ('' if none): 'scenegraph.render.RenderEngineCpu'
        for the engines MakeRenderEngineVtk/Gl build."""
        from scenegraph.render.renderers import renderer_type_name
        return renderer_type_name(self._model, name)

    @GetRendererTypeName.overload(context=Context)
    def GetRendererTypeName(self, context, name) -> str:
        from scenegraph.render.renderers import renderer_type_name
        return renderer_type_name(self._state_of(context), name)

    @overloaded.typed(name=str)
    def GetRendererParameterYaml(self, name) -> str:
        """The parameters of renderer `name` as YAML ('' if none)."""
        from scenegraph.render.renderers import renderer_parameter_yaml
        return renderer_parameter_yaml(self._model, name)

    @GetRendererParameterYaml.overload(context=Context)
    def GetRendererParameterYaml(self, context, name) -> str:
        from scenegraph.render.renderers import renderer_parameter_yaml
        return renderer_parameter_yaml(self._state_of(context), name)

    def RegisteredRendererNames(self, context=None) -> list:
        """The renderers' names, sorted (Drake's C++ name)."""
        from scenegraph.render.renderers import renderer_names
        return renderer_names(self._model if context is None else self._state_of(context))



