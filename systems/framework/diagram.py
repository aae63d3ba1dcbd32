"""Diagram: a System made of subsystems wired together by a DiagramBuilder.

A Diagram routes ports and fans events out to its leaves; it has no state of
its own. Its Context holds one subcontext per subsystem (see
``diagram_context``).
"""
from __future__ import annotations

import functools

from .diagram_context import DiagramContext
from .events import EventStatus
from .input_port import InputPort
from .leaf_system import _throw_on_failure
from .output_port import DiagramOutputPort
from .state import ContinuousState, DiscreteValues, State
from .system import System
from .system_constraint import ExternalConstraintsMixin
from .vectors import BasicVector

__all__ = ["Diagram"]

_DID_NOTHING = EventStatus.DidNothing()


class Diagram(System):
    """A System built from subsystems (pydrake's ``Diagram``).

    Construct one with ``DiagramBuilder.Build()`` (or ``BuildInto``).
    """

    _is_diagram = True

    def __init__(self):
        super().__init__()
        self._systems = []
        self._system_by_name = {}
        self._connections = {}       # (dst index, dst port) -> (src index, src port)
        self._input_port_map = []    # diagram input k -> [(subsystem index, port)]
        self._output_port_map = []   # diagram output k -> (subsystem index, port)
        self._feedthrough_memo = None
        self._built = False

    # --- construction (called by DiagramBuilder) -------------------------------
    def _initialize(self, systems, connections, exported_inputs, exported_outputs) -> None:
        self._systems = list(systems)
        self._system_by_name = {s.get_name(): s for s in self._systems}
        index_of = {id(s): i for i, s in enumerate(self._systems)}
        for i, system in enumerate(self._systems):
            system._parent = self
            system._parent_index = i
            system._owner = self
        # Drake's Diagram takes over its subsystems' constraints as they are now (the
        # System-level count: a MultibodyPlant's own num_constraints means another thing).
        self._subsystem_constraint_count = sum(
            ExternalConstraintsMixin.num_constraints(s) for s in self._systems)
        self._connections = {
            (index_of[id(dst.get_system())], dst._index):
                (index_of[id(src.get_system())], src._index)
            for dst, src in connections.items()}
        for name, targets in exported_inputs:
            first = targets[0]
            k = len(self._input_ports)
            ticket = self._new_ticket()
            port = InputPort(self, k, name, first._data_type, first._size,
                             first._model.Clone(), ticket)
            self._add_input_port(port)
            self._input_port_map.append(
                [(index_of[id(t.get_system())], t._index) for t in targets])
        for name, source in exported_outputs:
            k = len(self._output_ports)
            source_index = index_of[id(source.get_system())]
            port = DiagramOutputPort(self, k, name, source_index, source)
            self._add_output_port(port)
            self._output_port_map.append((source_index, source._index))
        self._built = True

    # --- subsystems ------------------------------------------------------------
    def GetSystems(self) -> list:
        """The subsystems, in the order they were added."""
        return list(self._systems)

    def num_subsystems(self) -> int:
        """The number of subsystems."""
        return len(self._systems)

    def HasSubsystemNamed(self, name: str) -> bool:
        """True if a subsystem is named `name`."""
        return name in self._system_by_name

    def GetSubsystemByName(self, name: str):
        """The subsystem named `name`.

        Raises:
          RuntimeError: no subsystem has that name (the message lists the names).
        """
        system = self._system_by_name.get(name)
        if system is None:
            names = ", ".join(sorted(self._system_by_name)) or "none"
            raise RuntimeError(
                f"System {self.GetSystemPathname()} does not have a subsystem named "
                f"'{name}'. The existing subsystems are named {{{names}}}.")
        return system

    def GetSubsystemContext(self, subsystem, context):
        """The subcontext of `subsystem` (a direct or nested subsystem) within
        `context`, which must be this Diagram's Context."""
        self.ValidateContext(context)
        path = []
        system = subsystem
        while system is not self:
            if system._parent is None:
                raise RuntimeError(
                    f"GetSubsystemContext(): System {subsystem.GetSystemPathname()} is "
                    f"not a subsystem of {self.GetSystemPathname()}")
            path.append(system._parent_index)
            system = system._parent
        for index in reversed(path):
            context = context._subcontexts[index]
        return context

    GetMutableSubsystemContext = GetSubsystemContext

    def GetMutableSubsystemState(self, subsystem, context):
        """The State of `subsystem` within `context` (this Diagram's Context); changing
        it notifies the subsystem's dependents now."""
        return self.GetSubsystemContext(subsystem, context).get_mutable_state()

    def AreConnected(self, output, input) -> bool:
        """True if `output` feeds `input` directly inside this Diagram."""
        try:
            src = self._systems.index(output.get_system())
            dst = self._systems.index(input.get_system())
        except ValueError:
            return False
        return self._connections.get((dst, input._index)) == (src, output._index)

    def GetInputPortLocators(self, port_index: int) -> list:
        """The (subsystem, input port index) pairs that diagram input `port_index` feeds.

        Raises:
          IndexError: no input port has that index.
        """
        self._check_input_index(port_index)
        return [(self._systems[i], p) for i, p in self._input_port_map[port_index]]

    def get_output_port_locator(self, port_index: int):
        """The (subsystem, output port index) that diagram output `port_index` exports.

        Raises:
          IndexError: no output port has that index.
        """
        self._check_output_index(port_index)
        i, p = self._output_port_map[port_index]
        return self._systems[i], p

    def connection_map(self) -> dict:
        """{(destination system, input index): (source system, output index)} for every
        internal connection."""
        return {(self._systems[d], dp): (self._systems[s], sp)
                for (d, dp), (s, sp) in self._connections.items()}

    def _repr_svg_(self):
        """(Extension, not in pydrake.) Jupyter's picture of this Diagram: the SVG of
        GetGraphvizString() rendered by Graphviz's ``dot``; None (with a
        RuntimeWarning naming the cause) when Graphviz is missing or fails, so that
        Jupyter shows the text repr instead."""
        from systems.drawing import _repr_svg
        return _repr_svg(self)

    # --- contexts --------------------------------------------------------------
    def _make_context(self, parent) -> DiagramContext:
        context = object.__new__(DiagramContext)
        context._system = self
        context._parent = parent
        context._root_info = None
        context._memo = {}
        context._subcontexts = [s._make_context(context) for s in self._systems]
        n_in = len(self._input_ports)
        context._fixed_inputs = [None] * n_in
        context._input_sources = [None] * n_in
        context._input_subscribers = [[] for _ in range(n_in)]
        subcontexts = context._subcontexts
        for (dst, dst_port), (src, src_port) in self._connections.items():
            port = self._systems[src]._output_ports[src_port]
            leaf_port, leaf_context = port._resolve(subcontexts[src])
            downstream = subcontexts[dst]
            downstream._input_sources[dst_port] = functools.partial(
                leaf_port._eval_payload, leaf_context)
            leaf_context._output_subscribers.setdefault(
                leaf_port._cache_index, []).append((downstream, dst_port))
        for k, targets in enumerate(self._input_port_map):
            for sub_index, sub_port in targets:
                sub = subcontexts[sub_index]
                source = functools.partial(context._eval_input, k)
                source.exported_from = (context, k)
                sub._input_sources[sub_port] = source
                context._input_subscribers[k].append((sub, sub_port))
        return context

    # --- sizes and derivatives -------------------------------------------------
    def num_continuous_states(self) -> int:
        """The total continuous state size of the subsystems."""
        return sum(s.num_continuous_states() for s in self._systems)

    def num_discrete_state_groups(self) -> int:
        """The total number of discrete state groups of the subsystems."""
        return sum(s.num_discrete_state_groups() for s in self._systems)

    def num_abstract_states(self) -> int:
        """The total number of abstract states of the subsystems."""
        return sum(s.num_abstract_states() for s in self._systems)

    def num_numeric_parameter_groups(self) -> int:
        """The total number of numeric parameter groups of the subsystems."""
        return sum(s.num_numeric_parameter_groups() for s in self._systems)

    def num_abstract_parameters(self) -> int:
        """The total number of abstract parameters of the subsystems."""
        return sum(s.num_abstract_parameters() for s in self._systems)

    def EvalTimeDerivatives(self, context) -> ContinuousState:
        """The (cached) time derivatives of the whole diagram's continuous state in
        `context`, subsystems in order.

        Raises:
          RuntimeError: `context` is not this diagram's.
        """
        if context._system_ref() is not self:
            self.ValidateContext(context)
        # Each leaf's derivatives are a slice of the diagram's flat array.
        for leaf_context in context._xc_leaves:
            leaf_context._system.EvalTimeDerivatives(leaf_context)
        return context._xcdot_state

    def CalcTimeDerivatives(self, context, derivatives) -> None:
        """Computes the time derivatives of the whole continuous state into
        `derivatives` (a ContinuousState of the diagram's size).

        Raises:
          RuntimeError: `context` is not this diagram's, or `derivatives` has the
            wrong size.
        """
        self.ValidateContext(context)
        if derivatives.size() != context.num_continuous_states():
            raise RuntimeError(
                f"CalcTimeDerivatives(): derivatives has size {derivatives.size()} but "
                f"{self.GetSystemPathname()} has {context.num_continuous_states()} "
                f"continuous states")
        derivatives.SetFromVector(self.EvalTimeDerivatives(context).CopyToVector())

    def AllocateTimeDerivatives(self) -> ContinuousState:
        """A ContinuousState shaped like the diagram's, for derivatives."""
        context = self._allocate_root_context(keep_system=False)
        return context._xcdot_state.Clone()

    def AllocateDiscreteVariables(self) -> DiscreteValues:
        """A DiscreteValues with every subsystem's discrete groups, in order."""
        groups = [m.Clone() for leaf in self._leaf_systems()
                  for m in leaf._discrete_models]
        return DiscreteValues(groups)

    def _leaf_systems(self) -> list:
        leaves = []
        for system in self._systems:
            if system._is_diagram:
                leaves.extend(system._leaf_systems())
            else:
                leaves.append(system)
        return leaves

    # --- events ----------------------------------------------------------------
    def ForcedPublish(self, context) -> None:
        """Runs every subsystem's forced publish events.

        Raises:
          RuntimeError: a handler returned EventStatus.Failed.
        """
        self.ValidateContext(context)
        status = _DID_NOTHING
        for leaf_context in context._leaves():
            leaf = leaf_context._system
            status = status.KeepMoreSevere(
                leaf._dispatch_publish(leaf_context, leaf._forced_publish_events))
        _throw_on_failure(status, "ForcedPublish")

    def CalcForcedDiscreteVariableUpdate(self, context, discrete_state) -> None:
        """Computes every subsystem's forced discrete updates into `discrete_state`
        (starting from the context's values).

        Raises:
          RuntimeError: a handler returned EventStatus.Failed.
        """
        self.ValidateContext(context)
        discrete_state.SetFrom(context._state._discrete)
        offset = 0
        for leaf_context in context._leaves():
            leaf = leaf_context._system
            n = leaf_context._state._discrete.num_groups()
            view = DiscreteValues(discrete_state._groups[offset:offset + n])
            offset += n
            if leaf._forced_discrete_events:
                status = leaf._dispatch_discrete(leaf_context,
                                                 leaf._forced_discrete_events, view)
                _throw_on_failure(status, "CalcForcedDiscreteVariableUpdate")

    def CalcForcedUnrestrictedUpdate(self, context, state) -> None:
        """Computes every subsystem's forced unrestricted updates into `state` (starting
        from the context's state).

        Raises:
          RuntimeError: a handler returned EventStatus.Failed.
        """
        self.ValidateContext(context)
        state.SetFrom(context._state)
        for leaf_context, view in _leaf_state_views(context, state):
            leaf = leaf_context._system
            if leaf._forced_unrestricted_events:
                status = leaf._dispatch_unrestricted(
                    leaf_context, leaf._forced_unrestricted_events, view)
                _throw_on_failure(status, "CalcForcedUnrestrictedUpdate")

    def GetWitnessFunctions(self, context) -> list:
        """The witness functions of every subsystem for `context`."""
        self.ValidateContext(context)
        witnesses = []
        for leaf_context in context._leaves():
            witnesses.extend(leaf_context._system.GetWitnessFunctions(leaf_context))
        return witnesses

    # --- feedthrough -------------------------------------------------------------
    def _feedthrough_pairs(self) -> set:
        if self._feedthrough_memo is None:
            from .diagram_builder import _diagram_feedthrough
            self._feedthrough_memo = _diagram_feedthrough(self)
        return self._feedthrough_memo


def _leaf_state_views(context, state: State):
    """(leaf context, State view of `state`'s part for that leaf), in order."""
    flat = state.get_continuous_state().get_vector()._mutable_values()
    offset = group = item = 0
    views = []
    for leaf_context in context._leaves():
        leaf_state = leaf_context._state
        xc = leaf_state._continuous
        n = xc.size()
        continuous = ContinuousState(BasicVector(0), 0, 0, 0)
        continuous._num_q, continuous._num_v, continuous._num_z = (
            xc.num_q(), xc.num_v(), xc.num_z())
        continuous._bind_vector(type(xc._vector)._view(flat[offset:offset + n]))
        offset += n
        nd = leaf_state._discrete.num_groups()
        discrete = DiscreteValues(state._discrete._groups[group:group + nd])
        group += nd
        na = leaf_state._abstract.size()
        from .state import AbstractValues
        abstract = AbstractValues(state._abstract._values[item:item + na])
        item += na
        views.append((leaf_context, State(continuous, discrete, abstract)))
    return views
