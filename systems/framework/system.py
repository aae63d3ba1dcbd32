"""System: the structure common to leaf systems and diagrams (ports,
tickets, naming, context creation and validation, Graphviz output).

A System holds no run-time values; those live in its Context.
"""
from __future__ import annotations

from systems.common.overloads import overloaded
from .dependency_tracker import local_cache_closure, note_structure_change
from .diagram_context import finalize_root_context
from .input_port import PortDataType, UseDefaultName
from .scalar_conversion import ScalarConversionMixin
from .system_base import SystemBase, next_system_id
from .system_constraint import ExternalConstraintsMixin
from .system_tooling import SystemToolingMixin
from .tickets import FIRST_DYNAMIC_TICKET, BuiltInTicket as T, DependencyTicket
from .value import AbstractValue
from .vectors import BasicVector

__all__ = ["System", "SystemOutput"]


def _system_phrase(system, with_kind: bool = True) -> str:
    """"a <Type> system named '<name>'" (pydrake's words; without the type when
    not `with_kind`), or "an unnamed <Type> system"."""
    kind = type(system).__name__
    name = system.get_name()
    if not name:
        return f"an unnamed {kind} system"
    return f"a {kind} system named '{name}'" if with_kind else f"a system named '{name}'"


def _foreign_context_message(system, other) -> str:
    """ValidateContext's error for the Context of `other` given to `system`:
    names both and says what to do."""
    text = (f"A function call on {_system_phrase(system)} was passed the Context of "
            f"{_system_phrase(other, with_kind=False)}")
    if type(other) is type(system) and other.get_name() == system.get_name():
        return (f"{text}: another object of the same type and name (a different system, "
                f"or a copy of this one: a pickled or deep-copied Context carries its own "
                f"copy of its system and works only with that copy). Use the Context "
                f"with the system it was made for, or make one for this system with "
                f"CreateDefaultContext().")
    return (f"{text} instead of the appropriate subsystem Context. Use a Context made "
            f"by this system (CreateDefaultContext()), or, inside a Diagram, "
            f"GetMyContextFromRoot(root_context).")


class SystemOutput:
    """Values of all output ports of a System (pydrake's ``SystemOutput``)."""

    __slots__ = ("_values",)

    def __init__(self, values):
        self._values = list(values)

    def num_ports(self) -> int:
        """The number of output values held."""
        return len(self._values)

    def get_data(self, index: int) -> AbstractValue:
        """The AbstractValue of output `index`."""
        return self._values[index]

    def get_mutable_data(self, index: int) -> AbstractValue:
        """The AbstractValue of output `index`, to be written."""
        return self._values[index]

    def get_vector_data(self, index: int) -> BasicVector:
        """The BasicVector of vector output `index`.

        Raises:
          RuntimeError: output `index` is not vector-valued."""
        value = self._values[index].get_value()
        if not isinstance(value, BasicVector):
            raise RuntimeError(f"SystemOutput: port {index} is not vector-valued")
        return value

    get_mutable_vector_data = get_vector_data


def _ticket(value) -> DependencyTicket:
    return DependencyTicket(int(value))


class System(SystemToolingMixin, ExternalConstraintsMixin, ScalarConversionMixin,
             SystemBase):
    """Base class of LeafSystem and Diagram (pydrake's ``System``)."""

    _is_diagram = False

    def __deepcopy__(self, memo):
        from ._pickling import deepcopy_system
        return deepcopy_system(self, memo)

    def __init__(self):
        self._system_id = next_system_id()
        self._name = ""
        self._parent = None          # the Diagram that contains this System
        self._parent_index = -1      # this System's index in that Diagram
        self._owner = None           # the DiagramBuilder or Diagram that owns it
        self._input_ports = []
        self._output_ports = []
        self._input_port_by_name = {}
        self._output_port_by_name = {}
        self._next_ticket = FIRST_DYNAMIC_TICKET
        self._ticket_subscribers = {}
        self._cache_entries = []
        self._cache_index_of_ticket = {}
        self._closure_memo = {}
        self._dependents_memo = {}   # see Context._root_dependents
        self._input_tickets = []

    # --- names ---------------------------------------------------------------
    def get_name(self) -> str:
        """The name given with ``set_name`` (or by ``DiagramBuilder.AddNamedSystem``);
        "" if unset."""
        return self._name

    def set_name(self, name: str) -> None:
        """Sets this system's name (a Diagram's builder keeps its name index in step).

        Raises:
          TypeError: `name` is not a str."""
        if not isinstance(name, str):
            raise TypeError(f"set_name(): name must be a str; got {type(name).__name__}")
        if self._owner is not None and not isinstance(self._owner, System) \
                and name != self._name:
            self._owner._rename(self, name)
        self._name = name

    def GetSystemName(self) -> str:
        """This system's name, or "_" when it has none (the name used in path names)."""
        return self._name if self._name else "_"

    def GetSystemPathname(self) -> str:
        """The "::"-separated path of names from the root diagram to this system, e.g.
        "::diagram::plant"."""
        parts = []
        system = self
        while system is not None:
            parts.append(system.GetSystemName())
            system = system._parent
        return "::" + "::".join(reversed(parts))

    def GetSystemType(self) -> str:
        """The system's type name as pydrake gives it: Drake's C++ spelling for the
        library's own systems (``"drake::systems::Adder<double>"``), the fully
        qualified Python class name (``"module.Class"``) for Python subclasses."""
        cls = type(self)
        package = cls.__module__.split(".")[:2]
        namespace = None
        if package[0] in ("systems", "scenegraph"):
            namespace = _CPP_NAMESPACES.get(package[-1], _CPP_NAMESPACES.get(package[0]))
        if namespace is None:
            return f"{cls.__module__}.{cls.__qualname__}"
        scalar = "double" if cls._scalar is float else "drake::AutoDiffXd"
        name = cls.__dict__.get("_scalar_base_name", cls.__name__)
        return f"drake::{namespace}::{name}<{scalar}>"

    def GetMemoryObjectName(self) -> str:
        """A name unique to this object: the class path and the object's address in hex."""
        cls = type(self)
        return f"{cls.__module__.replace('.', '/')}/{cls.__qualname__}@{id(self):016x}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.GetSystemPathname()!r}>"

    # --- tickets ---------------------------------------------------------------
    def _new_ticket(self) -> int:
        ticket = self._next_ticket
        self._next_ticket += 1
        return ticket

    def _subscribe(self, prerequisite: int, subscriber: int) -> None:
        self._ticket_subscribers.setdefault(int(prerequisite), []).append(int(subscriber))
        self._closure_memo.clear()
        note_structure_change()

    def _input_ticket(self, index: int) -> int:
        return self._input_tickets[index]

    @staticmethod
    def nothing_ticket():
        """The ticket of a value that depends on nothing (computed once, never invalidated)."""
        return _ticket(T.nothing)

    @staticmethod
    def time_ticket():
        """The ticket of the context's time."""
        return _ticket(T.time)

    @staticmethod
    def accuracy_ticket():
        """The ticket of the context's accuracy setting."""
        return _ticket(T.accuracy)

    @staticmethod
    def q_ticket():
        """The ticket of the generalised positions q (part of the continuous state)."""
        return _ticket(T.q)

    @staticmethod
    def v_ticket():
        """The ticket of the generalised velocities v (part of the continuous state)."""
        return _ticket(T.v)

    @staticmethod
    def z_ticket():
        """The ticket of the miscellaneous continuous state z."""
        return _ticket(T.z)

    @staticmethod
    def xc_ticket():
        """The ticket of the whole continuous state xc = [q; v; z]."""
        return _ticket(T.xc)

    @staticmethod
    def xd_ticket():
        """The ticket of every discrete state group."""
        return _ticket(T.xd)

    @staticmethod
    def xa_ticket():
        """The ticket of every abstract state."""
        return _ticket(T.xa)

    @staticmethod
    def all_state_ticket():
        """The ticket of the whole state (continuous, discrete and abstract)."""
        return _ticket(T.x)

    @staticmethod
    def pn_ticket():
        """The ticket of every numeric parameter."""
        return _ticket(T.pn)

    @staticmethod
    def pa_ticket():
        """The ticket of every abstract parameter."""
        return _ticket(T.pa)

    @staticmethod
    def all_parameters_ticket():
        """The ticket of every parameter, numeric and abstract."""
        return _ticket(T.all_parameters)

    @staticmethod
    def all_input_ports_ticket():
        """The ticket of every input port of this system."""
        return _ticket(T.all_input_ports)

    @staticmethod
    def all_sources_except_input_ports_ticket():
        """The ticket of time, accuracy, state and parameters (everything but the inputs)."""
        return _ticket(T.all_sources_except_input_ports)

    @staticmethod
    def all_sources_ticket():
        """The ticket of everything a value can depend on, inputs included (the default
        prerequisite of output ports and cache entries, as in Drake)."""
        return _ticket(T.all_sources)

    @staticmethod
    def configuration_ticket():
        """The ticket of the configuration (Drake's: q, discrete and abstract state,
        parameters and accuracy)."""
        return _ticket(T.configuration)

    @staticmethod
    def kinematics_ticket():
        """The ticket of the kinematics (configuration plus velocities v)."""
        return _ticket(T.kinematics)

    @staticmethod
    def xcdot_ticket():
        """The ticket of the cached time derivatives of the continuous state."""
        return _ticket(T.xcdot)

    def input_port_ticket(self, index: int):
        """The ticket of input port `index` (an InputPortIndex or int)."""
        self._check_input_index(index)
        return _ticket(self._input_tickets[index])

    def cache_entry_ticket(self, index: int):
        """The ticket of cache entry `index` (a CacheIndex or int)."""
        if not (0 <= index < len(self._cache_entries)):
            raise IndexError(f"System {self.GetSystemPathname()} has no cache entry "
                             f"{int(index)}")
        return _ticket(self._cache_entries[index]._ticket)

    def output_port_ticket(self, port_index: int):
        """The ticket of output port `port_index`.

        Raises:
          IndexError: no output port has that index."""
        self._check_output_index(port_index)
        return self._output_ports[port_index].ticket()

    # --- ports ---------------------------------------------------------------
    def num_input_ports(self) -> int:
        """The number of input ports."""
        return len(self._input_ports)

    def num_output_ports(self) -> int:
        """The number of output ports."""
        return len(self._output_ports)

    def _check_input_index(self, index: int) -> None:
        if not (0 <= index < len(self._input_ports)):
            raise IndexError(
                f"System {self.GetSystemPathname()} ({type(self).__name__}) has no "
                f"input port {index}; it has {len(self._input_ports)}")

    def _check_output_index(self, index: int) -> None:
        if not (0 <= index < len(self._output_ports)):
            raise IndexError(
                f"System {self.GetSystemPathname()} ({type(self).__name__}) has no "
                f"output port {index}; it has {len(self._output_ports)}")

    def get_input_port(self, port_index=None, warn_deprecated: bool = True):
        """Input port `port_index`, or the only input port when `port_index` is None.

        Args:
          port_index: an int or InputPortIndex; None when the system has exactly one
            input port.
          warn_deprecated: accepted for pydrake's signature; ignored.

        Raises:
          IndexError: no input port has that index.
          RuntimeError: `port_index` is None and the system does not have exactly
            one input port."""
        ports = self._input_ports
        if type(port_index) is int and 0 <= port_index < len(ports):
            return ports[port_index]
        if port_index is None:
            if len(self._input_ports) != 1:
                raise RuntimeError(
                    f"get_input_port(): System {self.GetSystemPathname()} has "
                    f"{len(self._input_ports)} input ports; pass an index unless it "
                    f"has exactly one")
            return self._input_ports[0]
        self._check_input_index(port_index)
        return self._input_ports[port_index]

    def get_output_port(self, port_index=None, warn_deprecated: bool = True):
        """Output port `port_index`, or the only output port when `port_index` is None.

        Args:
          port_index: an int or OutputPortIndex; None when the system has exactly one
            output port.
          warn_deprecated: accepted for pydrake's signature; ignored.

        Raises:
          IndexError: no output port has that index.
          RuntimeError: `port_index` is None and the system does not have exactly
            one output port."""
        ports = self._output_ports
        if type(port_index) is int and 0 <= port_index < len(ports):
            return ports[port_index]
        if port_index is None:
            if len(self._output_ports) != 1:
                raise RuntimeError(
                    f"get_output_port(): System {self.GetSystemPathname()} has "
                    f"{len(self._output_ports)} output ports; pass an index unless it "
                    f"has exactly one")
            return self._output_ports[0]
        self._check_output_index(port_index)
        return self._output_ports[port_index]

    def GetInputPort(self, port_name: str):
        """The input port named `port_name`.

        Raises:
          RuntimeError: no input port has that name (the message lists the names)."""
        port = self._input_port_by_name.get(port_name)
        if port is None:
            names = ", ".join(p.get_name() for p in self._input_ports) or "none"
            raise RuntimeError(
                f"System {self.GetSystemPathname()} does not have an input port named "
                f"'{port_name}' (valid port names: {names})")
        return port

    def GetOutputPort(self, port_name: str):
        """The output port named `port_name`.

        Raises:
          RuntimeError: no output port has that name (the message lists the names)."""
        port = self._output_port_by_name.get(port_name)
        if port is None:
            names = ", ".join(p.get_name() for p in self._output_ports) or "none"
            raise RuntimeError(
                f"System {self.GetSystemPathname()} does not have an output port named "
                f"'{port_name}' (valid port names: {names})")
        return port

    def HasInputPort(self, port_name: str) -> bool:
        """True if an input port is named `port_name`."""
        return port_name in self._input_port_by_name

    def HasOutputPort(self, port_name: str) -> bool:
        """True if an output port is named `port_name`."""
        return port_name in self._output_port_by_name

    def _port_name(self, name, prefix: str, count: int, existing: dict) -> str:
        if name is None or isinstance(name, UseDefaultName):
            name = f"{prefix}{count}"
        if not isinstance(name, str) or not name:
            raise ValueError(f"Port names must be non-empty strings; got {name!r}")
        if name in existing:
            kind = "input" if prefix == "u" else "output"
            raise RuntimeError(
                f"System {self.GetSystemPathname()} already has an {kind} port named "
                f"'{name}'")
        return name

    def _add_input_port(self, port) -> None:
        self._input_ports.append(port)
        self._input_port_by_name[port.get_name()] = port
        self._input_tickets.append(port._ticket)

    def _add_output_port(self, port) -> None:
        self._output_ports.append(port)
        self._output_port_by_name[port.get_name()] = port

    # --- contexts ------------------------------------------------------------
    def _make_context(self, parent):  # pragma: no cover - overridden
        raise NotImplementedError

    def _allocate_root_context(self, keep_system: bool = True):
        """A new root context. keep_system: whether it holds this System strongly —
        False for the contexts users get from CreateDefaultContext/AllocateContext (a
        Context does not keep its System alive, as in pydrake); True for a context
        that owns its System, e.g. one made by unpickling."""
        root = finalize_root_context(self._make_context(None))
        root._owned_system = self if keep_system else None
        return root

    def AllocateContext(self):
        """A new root Context for this system with its state, parameters and cache
        allocated but not set to defaults (see CreateDefaultContext)."""
        return self._allocate_root_context(keep_system=False)

    def CreateDefaultContext(self):
        """A new root Context with time 0 and the default state and parameters. It
        does not keep this System alive (as in pydrake)."""
        context = self._allocate_root_context(keep_system=False)
        if type(self).SetDefaultContext is not System.SetDefaultContext:
            self.SetDefaultContext(context)
        # Otherwise a freshly allocated context already holds the defaults (that is
        # what SetDefaultContext copies from), so a second allocation and a copy of
        # every state and parameter (a SceneGraph's whole GeometryState) are skipped.
        return context

    def SetDefaultContext(self, context) -> None:
        """Resets state and parameters in `context` to their default values."""
        self.ValidateContext(context)
        fresh = self._allocate_root_context(keep_system=False)
        context._copy_state_and_parameters(fresh)
        context._invalidate(frozenset((T.x, T.all_parameters)))

    def ValidateContext(self, context) -> None:
        """Checks that `context` was created for this system.

        Raises:
          TypeError: `context` is not a Context.
          RuntimeError: the context belongs to another system (the message names both)."""
        from .context import Context
        if not isinstance(context, Context):
            raise TypeError(f"Expected a Context; got {type(context).__name__}")
        if context._system_ref() is self:
            return
        kind = type(self).__name__
        if context._system_ref() is None:
            raise RuntimeError(
                f"A function call on a {kind} system named '{self.get_name()}' was passed "
                f"the Context of a system that has been deleted "
                f"({context._context_pathname()})")
        if context._parent is None and context._system._is_diagram:
            raise RuntimeError(
                f"A function call on a {kind} system named '{self.get_name()}' was "
                f"passed the root Diagram's Context instead of the appropriate "
                f"subsystem Context. Use GetMyContextFromRoot() or "
                f"GetMyMutableContextFromRoot() to obtain the correct subsystem "
                f"Context.")
        raise RuntimeError(_foreign_context_message(self, context._system))

    def GetMyContextFromRoot(self, root_context):
        """This system's subcontext within `root_context`, the context of the diagram
        that contains it (or its own root context). The mutable form is the same call.

        Raises:
          TypeError: `root_context` is not a Context.
          RuntimeError: `root_context` is not a root context, or this system is not
            in its diagram."""
        from .context import Context
        if not isinstance(root_context, Context):
            raise TypeError(f"Expected a Context; got {type(root_context).__name__}")
        if root_context._parent is not None:
            raise RuntimeError(
                "GetMyContextFromRoot(): the given Context is not a root Context "
                f"(it belongs to {root_context._system.GetSystemPathname()})")
        path = []
        system = self
        while system is not root_context._system:
            if system._parent is None:
                raise RuntimeError(
                    f"GetMyContextFromRoot(): System {self.GetSystemPathname()} is not "
                    f"part of {root_context._system.GetSystemPathname()}, the System "
                    f"of the given root Context")
            path.append(system._parent_index)
            system = system._parent
        context = root_context
        for index in reversed(path):
            context = context._subcontexts[index]
        return context

    GetMyMutableContextFromRoot = GetMyContextFromRoot

    # --- inputs and outputs --------------------------------------------------
    def EvalVectorInput(self, context, port_index: int) -> BasicVector:
        """The value of vector input port `port_index` in `context`, as a BasicVector.

        Raises:
          RuntimeError: the port is abstract-valued, or neither connected nor fixed."""
        self.ValidateContext(context)
        port = self.get_input_port(port_index)
        if port.get_data_type() != PortDataType.kVectorValued:
            raise RuntimeError(f"EvalVectorInput(): {port.GetFullDescription()} is "
                               f"abstract-valued")
        return context._eval_input(port_index)

    def EvalAbstractInput(self, context, port_index: int) -> AbstractValue:
        """The value of input port `port_index` in `context`, as an AbstractValue.

        Raises:
          RuntimeError: the port is neither connected nor fixed."""
        self.ValidateContext(context)
        return self.get_input_port(port_index).EvalAbstract(context)

    def AllocateOutput(self) -> SystemOutput:
        """A SystemOutput holding a freshly allocated value for every output port."""
        return SystemOutput([port.Allocate() for port in self._output_ports])

    def CalcOutput(self, context, outputs: SystemOutput) -> None:
        """Computes every output port's value in `context` into `outputs` (from
        AllocateOutput)."""
        self.ValidateContext(context)
        for index, port in enumerate(self._output_ports):
            port.Calc(context, outputs.get_mutable_data(index))

    def AllocateInputVector(self, input_port) -> BasicVector:
        """A new BasicVector of the size of vector input port `input_port`."""
        return input_port.Allocate().get_value()

    def AllocateInputAbstract(self, input_port) -> AbstractValue:
        """A new AbstractValue of the type of input port `input_port`."""
        return input_port.Allocate()

    # --- feedthrough ---------------------------------------------------------
    def _feedthrough_pairs(self) -> set:  # pragma: no cover - overridden
        raise NotImplementedError

    @overloaded
    def HasDirectFeedthrough(self, output_port: int) -> bool:
        """Whether output port `output_port` (an index) depends directly on any input."""
        self._check_output_index(output_port)
        return any(o == output_port for _, o in self._feedthrough_pairs())

    @HasDirectFeedthrough.overload
    def HasDirectFeedthrough(self, input_port: int, output_port: int) -> bool:
        """Whether output port `output_port` depends directly on input port `input_port`
        (both indices)."""
        self._check_input_index(input_port)
        self._check_output_index(output_port)
        return (input_port, output_port) in self._feedthrough_pairs()

    def HasAnyDirectFeedthrough(self) -> bool:
        """True if any output port depends directly on any input port."""
        return bool(self._feedthrough_pairs())

    def GetDirectFeedthroughs(self) -> list:
        """The sorted (input index, output index) pairs with direct feedthrough."""
        return sorted(self._feedthrough_pairs())

    # --- sizes -----------------------------------------------------------------
    def num_continuous_states(self) -> int:  # pragma: no cover - overridden
        """The size of the continuous state xc."""
        raise NotImplementedError

    def AllocateTimeDerivatives(self):
        """A ContinuousState shaped like this system's (q, v, z sizes), for derivatives."""
        from .state import ContinuousState
        context = self._allocate_root_context(keep_system=False)
        xc = context.get_continuous_state()
        return ContinuousState(BasicVector(xc.size()), xc.num_q(), xc.num_v(),
                               xc.num_z())

    def AllocateDiscreteVariables(self):
        """A DiscreteValues shaped like this system's discrete state groups."""
        from .state import DiscreteValues
        context = self._allocate_root_context(keep_system=False)
        return DiscreteValues([g.Clone() for g in context.get_discrete_state()._groups])

    def _leaf_local_has_feedthrough(self, input_index: int, output_index: int) -> bool:
        port = self._output_ports[output_index]
        closure = local_cache_closure(self, self._input_tickets[input_index])
        return port._cache_index in closure


# Drake's C++ namespace of the library's systems, by package (GetSystemType).
_CPP_NAMESPACES = {"framework": "systems", "primitives": "systems", "analysis": "systems",
                   "sensors": "systems::sensors", "multibody": "multibody",
                   "scenegraph": "geometry", "systems": None}
