"""LeafSystem: a System whose behaviour is given by declarations and
overridable ``Do*`` methods (pydrake's ``LeafSystem``).

This module is bookkeeping only: it records ports, state, parameters, cache
entries and events, builds LeafContexts, and dispatches events to handlers.
"""
from __future__ import annotations

import functools
import weakref

import numpy as np

from systems.common.overloads import overloaded
from ._weak import weak_method
from ._pickling import (CheckedAllocator, CopyAbstractState, copy_continuous_state,
                        copy_discrete_group)
from .cache import (CacheEntry, CacheEntryValue, ValueProducer, disable_entries_by_default,
                    update_cache_value)
from .context import LeafContext
from .dependency_tracker import note_structure_change
from .leaf_events import LeafEventsMixin, _throw_on_failure  # noqa: F401 (re-export)
from .indices import (AbstractStateIndex, ContinuousStateIndex, DiscreteStateIndex,
                      InputPortIndex, OutputPortIndex)
from .input_port import InputPort, PortDataType
from .output_port import LeafOutputPort
from .state import AbstractValues, ContinuousState, DiscreteValues, Parameters, State
from .system import System
from .tickets import BuiltInTicket as T
from .value import AbstractValue
from .vectors import BasicVector

__all__ = ["LeafSystem"]

def _as_model_vector(value, what: str, fill: float = 0.0,
                     vector_class=BasicVector) -> BasicVector:
    """A model BasicVector from a BasicVector, an array, or a size (then filled with
    `fill`: zeros for state, NaN for ports, as Drake's ``BasicVector(size)``).
    `vector_class` is the system's scalar's vector class (BasicVector_[AutoDiffXd]
    for an AutoDiffXd system, which converts float models)."""
    if isinstance(value, BasicVector):
        if vector_class is not BasicVector and not isinstance(value, vector_class):
            return vector_class(value.get_value())
        return value.Clone()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{what}: size must be non-negative; got {value}")
        return vector_class(np.full(int(value), fill))
    try:
        if vector_class is not BasicVector:
            return vector_class(value)
        return BasicVector(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected a size, a BasicVector or an array; got "
                        f"{type(value).__name__}") from None


def _is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _as_count(value, what: str) -> int:
    """A non-negative integer count, or a TypeError/ValueError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer; got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must be non-negative; got {value}")
    return int(value)


def _check_abstract_model(value, what: str) -> AbstractValue:
    if not isinstance(value, AbstractValue):
        raise TypeError(f"{what}: model_value must be an AbstractValue (use "
                        f"AbstractValue.Make(...)); got {type(value).__name__}")
    return value


class LeafSystem(LeafEventsMixin, System):
    """Base class for user-written systems (pydrake's ``LeafSystem``)."""

    # True once a cache entry is declared disable_caching_by_default (see cache.py).
    _cache_disabled_by_default = False
    #: The class of this system's vectors (BasicVector_[AutoDiffXd] in
    #: LeafSystem_[AutoDiffXd]): chosen once per class, never tested per call.
    _vector_class = BasicVector

    def __init__(self, converter=None):
        """`converter` (a SystemScalarConverter) gives the scalar conversions this
        system supports (TemplateSystem passes its own); None keeps the default."""
        super().__init__()
        if converter is not None:
            self._scalar_converter = converter
        self._xc_model = self._vector_class(0)
        self._num_q = self._num_v = self._num_z = 0
        self._xc_declared = False
        self._discrete_models = []
        self._discrete_tickets = []
        self._abstract_models = []
        self._abstract_tickets = []
        self._numeric_parameter_models = []
        self._numeric_parameter_tickets = []
        self._abstract_parameter_models = []
        self._abstract_parameter_tickets = []
        self._periodic_events = []       # [(PeriodicEventData, Event)]
        self._per_step_events = []
        self._initialization_events = []
        self._forced_publish_events = []
        self._forced_discrete_events = []
        self._forced_unrestricted_events = []
        self._feedthrough_memo = None
        cls = type(self)
        self._overrides_discrete = (
            cls.DoCalcDiscreteVariableUpdates is not LeafSystem.DoCalcDiscreteVariableUpdates)
        self._overrides_unrestricted = (
            cls.DoCalcUnrestrictedUpdate is not LeafSystem.DoCalcUnrestrictedUpdate)
        self._overrides_publish = cls.DoPublish is not LeafSystem.DoPublish
        self._overrides_witnesses = (
            cls.DoGetWitnessFunctions is not LeafSystem.DoGetWitnessFunctions)
        entry = self._declare_cache_entry(
            "time derivatives", self._allocate_xcdot, self._calc_xcdot,
            {T.all_sources}, default=True, ticket=int(T.xcdot))
        self._xcdot_cache_index = entry._index

    # --- bookkeeping -----------------------------------------------------------
    def _declared(self) -> None:
        self._closure_memo.clear()
        self._feedthrough_memo = None
        note_structure_change()

    def _check_prerequisites(self, prerequisites) -> set:
        tickets = set()
        for ticket in prerequisites:
            value = int(ticket)
            if value < 0 or value >= self._next_ticket:
                raise RuntimeError(
                    f"System {self.GetSystemPathname()}: prerequisite ticket {value} "
                    f"does not belong to this System")
            tickets.add(value)
        return tickets

    def _declare_cache_entry(self, description, allocate, calc, prerequisites,
                             default=False, ticket=None) -> CacheEntry:
        prerequisites = self._check_prerequisites(prerequisites) \
            if ticket is None else {int(t) for t in prerequisites}
        if ticket is None:
            ticket = self._new_ticket()
        index = len(self._cache_entries)
        entry = CacheEntry(self, index, ticket, description, allocate, calc,
                           prerequisites, default)
        self._cache_entries.append(entry)
        self._cache_index_of_ticket[ticket] = index
        for prerequisite in prerequisites:
            self._subscribe(prerequisite, ticket)
        self._declared()
        return entry

    # --- continuous state --------------------------------------------------------
    @overloaded.typed(model_vector=BasicVector)
    def DeclareContinuousState(self, model_vector) -> ContinuousStateIndex:
        """Declares continuous state (all z) initialised from `model_vector`; returns
        its ContinuousStateIndex. The other forms give the sizes of q, v and z.

        Raises:
          RuntimeError: continuous state was already declared (once per system).
          ValueError: a size is negative, or num_q + num_v + num_z differs from the
            model vector's size.
        """
        return self._declare_xc(_as_model_vector(model_vector, "DeclareContinuousState",
                                                 vector_class=self._vector_class),
                                0, 0, model_vector.size())

    @DeclareContinuousState.overload
    def DeclareContinuousState(self, num_state_variables) -> ContinuousStateIndex:
        """Declares `num_state_variables` continuous states (all z), zero-initialised."""
        model = _as_model_vector(_as_count(num_state_variables, "num_state_variables"),
                                 "DeclareContinuousState", vector_class=self._vector_class)
        return self._declare_xc(model, 0, 0, model.size())

    @DeclareContinuousState.overload
    def DeclareContinuousState(self, num_q, num_v, num_z) -> ContinuousStateIndex:
        """Declares xc = [q; v; z] with the given sizes, zero-initialised."""
        num_q, num_v, num_z = (_as_count(n, k) for n, k in
                               ((num_q, "num_q"), (num_v, "num_v"), (num_z, "num_z")))
        return self._declare_xc(self._vector_class(np.zeros(num_q + num_v + num_z)),
                                num_q, num_v, num_z)

    @DeclareContinuousState.overload
    def DeclareContinuousState(self, model_vector, num_q, num_v, num_z) -> ContinuousStateIndex:
        """Declares xc = [q; v; z] initialised from `model_vector` (a BasicVector)."""
        model = _as_model_vector(model_vector, "DeclareContinuousState",
                                 vector_class=self._vector_class)
        num_q, num_v, num_z = (_as_count(n, k) for n, k in
                               ((num_q, "num_q"), (num_v, "num_v"), (num_z, "num_z")))
        return self._declare_xc(model, num_q, num_v, num_z)

    def _declare_xc(self, model, num_q, num_v, num_z) -> ContinuousStateIndex:
        if self._xc_declared:
            raise RuntimeError(f"System {self.GetSystemPathname()}: "
                               "DeclareContinuousState() may only be called once")
        ContinuousState(model.Clone(), num_q, num_v, num_z)  # validates sizes
        self._xc_model = model
        self._num_q, self._num_v, self._num_z = num_q, num_v, num_z
        self._xc_declared = True
        self._declared()
        return ContinuousStateIndex(0)

    def num_continuous_states(self) -> int:
        """The size of the continuous state xc."""
        return self._xc_model.size()

    def _allocate_xcdot(self) -> ContinuousState:
        return ContinuousState._make(BasicVector._view(np.zeros(self._xc_model._data.shape[0])),
                                     self._num_q, self._num_v, self._num_z)

    def _calc_xcdot(self, context, derivatives: ContinuousState) -> None:
        if derivatives.size() == 0:
            return
        self.DoCalcTimeDerivatives(context, derivatives)

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        """Override to compute xcdot into `derivatives` (a ContinuousState)."""
        if derivatives.size():
            raise RuntimeError(
                f"System {self.GetSystemPathname()} ({type(self).__name__}) declares "
                f"continuous state but does not override DoCalcTimeDerivatives()")

    def EvalTimeDerivatives(self, context) -> ContinuousState:
        """The time derivatives of xc in `context` (a ContinuousState), computed by
        DoCalcTimeDerivatives and cached until time, state, parameters or inputs change.

        Raises:
          RuntimeError: `context` is not this system's.
        """
        if context._system_ref() is not self:
            self.ValidateContext(context)
        cev = context._cache[self._xcdot_cache_index]
        if not cev.valid:
            update_cache_value(cev, self._calc_xcdot, context,
                               self._cache_entries[self._xcdot_cache_index])
        return cev.value

    def CalcTimeDerivatives(self, context, derivatives) -> None:
        """Computes the time derivatives of xc into `derivatives` with
        DoCalcTimeDerivatives.

        Raises:
          RuntimeError: `context` is not this system's, or `derivatives` has the
            wrong size.
        """
        self.ValidateContext(context)
        if derivatives.size() != self._xc_model.size():
            raise RuntimeError(
                f"CalcTimeDerivatives(): derivatives has size {derivatives.size()} but "
                f"System {self.GetSystemPathname()} has {self._xc_model.size()} "
                f"continuous states")
        self._calc_xcdot(context, derivatives)

    def get_time_derivatives_cache_entry(self) -> CacheEntry:
        """The CacheEntry holding the time derivatives."""
        return self._cache_entries[self._xcdot_cache_index]

    # --- discrete and abstract state, parameters ------------------------------
    @overloaded.typed(model_vector=BasicVector)
    def DeclareDiscreteState(self, model_vector) -> DiscreteStateIndex:
        """A new discrete group initialised from `model_vector` (cloned); returns its
        DiscreteStateIndex. The other forms take a size (zeros) or an array.

        Raises:
          ValueError: a negative size.
          TypeError: the argument is none of a BasicVector, a size or an array.
        """
        return self._declare_discrete(_as_model_vector(
            model_vector, "DeclareDiscreteState", vector_class=self._vector_class))

    @DeclareDiscreteState.overload(num_state_variables=_is_integer)
    def DeclareDiscreteState(self, num_state_variables) -> DiscreteStateIndex:
        """A new discrete group of `num_state_variables` zeros."""
        return self._declare_discrete(_as_model_vector(
            _as_count(num_state_variables, "num_state_variables"), "DeclareDiscreteState",
            vector_class=self._vector_class))

    @DeclareDiscreteState.overload
    def DeclareDiscreteState(self, vector) -> DiscreteStateIndex:
        """A new discrete group initialised from `vector` (array-like)."""
        return self._declare_discrete(_as_model_vector(vector, "DeclareDiscreteState",
                                                       vector_class=self._vector_class))

    def _declare_discrete(self, model) -> DiscreteStateIndex:
        ticket = self._new_ticket()
        self._discrete_models.append(model)
        self._discrete_tickets.append(ticket)
        self._subscribe(ticket, T.xd)
        self._declared()
        return DiscreteStateIndex(len(self._discrete_models) - 1)

    def DeclareAbstractState(self, model_value) -> AbstractStateIndex:
        """Declares an abstract state initialised to a copy of `model_value` (an
        AbstractValue); returns its AbstractStateIndex.

        Raises:
          TypeError: `model_value` is not an AbstractValue.
        """
        model = _check_abstract_model(model_value, "DeclareAbstractState")
        ticket = self._new_ticket()
        self._abstract_models.append(model.Clone())
        self._abstract_tickets.append(ticket)
        self._subscribe(ticket, T.xa)
        self._declared()
        return AbstractStateIndex(len(self._abstract_models) - 1)

    def DeclareNumericParameter(self, model_vector) -> int:
        """Declares a numeric parameter group whose default is `model_vector` (a
        BasicVector, an array or a size); returns its index.

        Raises:
          TypeError: `model_vector` is none of those.
        """
        model = _as_model_vector(model_vector, "DeclareNumericParameter",
                                 vector_class=self._vector_class)
        ticket = self._new_ticket()
        self._numeric_parameter_models.append(model)
        self._numeric_parameter_tickets.append(ticket)
        self._subscribe(ticket, T.pn)
        self._declared()
        return len(self._numeric_parameter_models) - 1

    def DeclareAbstractParameter(self, model_value) -> int:
        """Declares an abstract parameter whose default is a copy of `model_value` (an
        AbstractValue); returns its index.

        Raises:
          TypeError: `model_value` is not an AbstractValue.
        """
        model = _check_abstract_model(model_value, "DeclareAbstractParameter")
        ticket = self._new_ticket()
        self._abstract_parameter_models.append(model.Clone())
        self._abstract_parameter_tickets.append(ticket)
        self._subscribe(ticket, T.pa)
        self._declared()
        return len(self._abstract_parameter_models) - 1

    def num_discrete_state_groups(self) -> int:
        """The number of discrete state groups."""
        return len(self._discrete_models)

    def num_abstract_states(self) -> int:
        """The number of abstract states."""
        return len(self._abstract_models)

    def num_numeric_parameter_groups(self) -> int:
        """The number of numeric parameter groups."""
        return len(self._numeric_parameter_models)

    def num_abstract_parameters(self) -> int:
        """The number of abstract parameters."""
        return len(self._abstract_parameter_models)

    def discrete_state_ticket(self, index: int):
        """The ticket of discrete state group `index` (a narrow prerequisite).

        Raises:
          IndexError: no group has that index.
        """
        return self._dynamic_ticket(self._discrete_tickets, index, "discrete state")

    def abstract_state_ticket(self, index: int):
        """The ticket of abstract state `index`.

        Raises:
          IndexError: no abstract state has that index.
        """
        return self._dynamic_ticket(self._abstract_tickets, index, "abstract state")

    def numeric_parameter_ticket(self, index: int):
        """The ticket of numeric parameter group `index`.

        Raises:
          IndexError: no group has that index.
        """
        return self._dynamic_ticket(self._numeric_parameter_tickets, index,
                                    "numeric parameter")

    def abstract_parameter_ticket(self, index: int):
        """The ticket of abstract parameter `index`.

        Raises:
          IndexError: no abstract parameter has that index.
        """
        return self._dynamic_ticket(self._abstract_parameter_tickets, index,
                                    "abstract parameter")

    def _dynamic_ticket(self, tickets, index, what):
        from .tickets import DependencyTicket
        if not (0 <= index < len(tickets)):
            raise IndexError(f"System {self.GetSystemPathname()} has no {what} {index}")
        return DependencyTicket(tickets[index])

    # --- ports -----------------------------------------------------------------
    def DeclareInputPort(self, name, type, size: int, random_type=None) -> InputPort:
        """Declares a vector input port of `size` elements (`type` must be
        PortDataType.kVectorValued); returns the InputPort.

        Raises:
          RuntimeError: `type` is kAbstractValued (use DeclareAbstractInputPort), or
            the name is taken.
        """
        if PortDataType(type) == PortDataType.kVectorValued:
            return self.DeclareVectorInputPort(name, size, random_type)
        raise RuntimeError("DeclareInputPort(): use DeclareAbstractInputPort for "
                           "abstract-valued ports")

    @overloaded.typed(model_vector=BasicVector)
    def DeclareVectorInputPort(self, name, model_vector, random_type=None) -> InputPort:
        """Declares a vector input port whose values have `model_vector`'s type and
        size; returns the InputPort. The other form takes a size (a BasicVector).

        Args:
          name: the port name, or kUseDefaultName for "u<index>".
          model_vector: a BasicVector (or subclass) giving the type and size.
          random_type: a RandomDistribution for a random input, or None.

        Raises:
          RuntimeError: the name is taken.
          ValueError: a negative size.
        """
        return self._declare_vector_input(name, model_vector, random_type)

    @DeclareVectorInputPort.overload
    def DeclareVectorInputPort(self, name, size, random_type=None) -> InputPort:
        """Declares a vector input port of `size` elements (a BasicVector)."""
        return self._declare_vector_input(name, size, random_type)

    def _declare_vector_input(self, name, size, random_type) -> InputPort:
        model = _as_model_vector(size, "DeclareVectorInputPort", fill=np.nan,
                                 vector_class=self._vector_class)
        index = len(self._input_ports)
        name = self._port_name(name, "u", index, self._input_port_by_name)
        ticket = self._new_ticket()
        port = InputPort(self, index, name, PortDataType.kVectorValued, model.size(),
                         model, ticket)
        if random_type is not None:
            from .random_distribution import RandomDistribution
            port._random_type = RandomDistribution(random_type)
        self._add_input_port(port)
        self._subscribe(ticket, T.all_input_ports)
        self._declared()
        return port

    def DeclareAbstractInputPort(self, name, model_value) -> InputPort:
        """Declares an abstract input port whose values have the type of `model_value`
        (an AbstractValue, copied as the default); returns the InputPort.

        Args:
          name: the port name, or kUseDefaultName for "u<index>".
          model_value: an AbstractValue, e.g. AbstractValue.Make(QueryObject()).

        Raises:
          TypeError: `model_value` is not an AbstractValue.
          RuntimeError: the name is taken.
        """
        model = _check_abstract_model(model_value, "DeclareAbstractInputPort")
        index = len(self._input_ports)
        name = self._port_name(name, "u", index, self._input_port_by_name)
        ticket = self._new_ticket()
        port = InputPort(self, index, name, PortDataType.kAbstractValued, 0,
                         model.Clone(), ticket)
        self._add_input_port(port)
        self._subscribe(ticket, T.all_input_ports)
        self._declared()
        return port

    @overloaded.typed(model_value=BasicVector)
    def DeclareVectorOutputPort(self, name, model_value, calc,
                                prerequisites_of_calc=None) -> LeafOutputPort:
        """Declares a vector output port holding clones of `model_value` (a BasicVector);
        returns the LeafOutputPort. The other form takes a size.

        Args:
          name: the port name, or kUseDefaultName for "y<index>".
          model_value: a BasicVector giving the type and size of the value.
          calc: calc(context, output) fills `output` (a BasicVector).
          prerequisites_of_calc: a set of DependencyTickets; default everything
            (``all_sources_ticket()``), as in Drake. Narrow it (e.g.
            ``{self.xc_ticket()}``) for outputs that do not read the inputs.

        Raises:
          TypeError: `calc` is not callable.
          RuntimeError: the name is taken.
        """
        return self._declare_vector_output(name, model_value, calc, prerequisites_of_calc)

    @DeclareVectorOutputPort.overload
    def DeclareVectorOutputPort(self, name, size, calc,
                                prerequisites_of_calc=None) -> LeafOutputPort:
        """Declares a vector output port of `size` elements; `calc(context, output:
        BasicVector)`. prerequisites_of_calc defaults to everything."""
        return self._declare_vector_output(name, size, calc, prerequisites_of_calc)

    def _declare_vector_output(self, name, size, calc, prerequisites_of_calc):
        if not callable(calc):
            raise TypeError(f"DeclareVectorOutputPort: calc must be callable; got "
                            f"{type(calc).__name__}")
        model = _as_model_vector(size, "DeclareVectorOutputPort", fill=np.nan,
                                 vector_class=self._vector_class)
        return self._declare_output(name, PortDataType.kVectorValued, model.size(),
                                    model.Clone, calc, prerequisites_of_calc)

    def DeclareAbstractOutputPort(self, name, alloc, calc,
                                  prerequisites_of_calc=None) -> LeafOutputPort:
        """Declares an abstract output port; returns the LeafOutputPort.

        Args:
          name: the port name, or kUseDefaultName for "y<index>".
          alloc: alloc() -> AbstractValue, a new value of the port's type.
          calc: calc(context, output) fills `output` (an AbstractValue).
          prerequisites_of_calc: a set of DependencyTickets; default everything.

        Raises:
          TypeError: `alloc` or `calc` is not callable (and, when a value is
            allocated, `alloc` did not return an AbstractValue).
          RuntimeError: the name is taken.
        """
        if not callable(alloc) or not callable(calc):
            raise TypeError("DeclareAbstractOutputPort(name, alloc, calc, "
                            "prerequisites_of_calc=...)")
        alloc = weak_method(alloc)  # self.MakeOutput holds the System weakly
        allocate = CheckedAllocator(alloc, name)  # picklable, unlike a closure
        return self._declare_output(name, PortDataType.kAbstractValued, 0, allocate,
                                    calc, prerequisites_of_calc)

    def _declare_output(self, name, data_type, size, allocate, calc, prerequisites):
        index = len(self._output_ports)
        name = self._port_name(name, "y", index, self._output_port_by_name)
        default = prerequisites is None
        if default:
            prerequisites = {T.all_sources}
        entry = self._declare_cache_entry(f"output port {name}", allocate, calc,
                                          prerequisites, default=default)
        port = LeafOutputPort(self, index, name, data_type, size, entry)
        self._add_output_port(port)
        return port

    def DeclareStateOutputPort(self, name, state_index) -> LeafOutputPort:
        """An output port that copies one state: the continuous state, a discrete
        group or an abstract state, depending on the type of `state_index` (as
        returned by the Declare*State calls); it depends on that state only.

        Raises:
          IndexError: no discrete group or abstract state has that index.
          TypeError: `state_index` is not a Continuous/Discrete/AbstractStateIndex.
        """
        if isinstance(state_index, ContinuousStateIndex):
            n = self._xc_model.size()
            return self.DeclareVectorOutputPort(
                name, n, copy_continuous_state, {T.xc})
        if isinstance(state_index, DiscreteStateIndex):
            group = int(state_index)
            if not (0 <= group < len(self._discrete_models)):
                raise IndexError(f"DeclareStateOutputPort(): no discrete group {group}")
            return self.DeclareVectorOutputPort(
                name, self._discrete_models[group].size(),
                functools.partial(copy_discrete_group, group),
                {self._discrete_tickets[group]})
        if isinstance(state_index, AbstractStateIndex):
            item = int(state_index)
            if not (0 <= item < len(self._abstract_models)):
                raise IndexError(f"DeclareStateOutputPort(): no abstract state {item}")
            model = self._abstract_models[item]
            return self.DeclareAbstractOutputPort(
                name, model.Clone,
                CopyAbstractState(item), {self._abstract_tickets[item]})
        raise TypeError("DeclareStateOutputPort(): state_index must be a "
                        "ContinuousStateIndex, DiscreteStateIndex or AbstractStateIndex")

    def DeclareCacheEntry(self, description: str, value_producer: ValueProducer,
                          prerequisites_of_calc=None) -> CacheEntry:
        """Declares a cache entry computed by `value_producer`; returns the CacheEntry.
        Its value is computed at most once per change of its prerequisites
        (`prerequisites_of_calc`, a set of DependencyTickets; default everything).

        Raises:
          TypeError: `value_producer` is not a ValueProducer.
        """
        if not isinstance(value_producer, ValueProducer):
            raise TypeError("DeclareCacheEntry(): value_producer must be a ValueProducer")
        default = prerequisites_of_calc is None
        if default:
            prerequisites_of_calc = {T.all_sources}
        return self._declare_cache_entry(description, value_producer.Allocate,
                                         value_producer._calc, prerequisites_of_calc,
                                         default=default)

    # --- contexts ----------------------------------------------------------------
    def _make_context(self, parent) -> LeafContext:
        # Hot (every CreateDefaultContext): the containers' unchecked
        # constructors, and no work for what the system does not declare.
        xcdot_index = self._xcdot_cache_index
        context = object.__new__(LeafContext)
        context._system_ref = weakref.ref(self)
        context._system_name = self._name if self._name else "_"
        context._num_output_ports = len(self._output_ports)
        context._parent = parent
        context._root_info = None
        context._memo = {}
        continuous = ContinuousState._make(self._xc_model.Clone(), self._num_q,
                                           self._num_v, self._num_z)
        models = self._discrete_models
        discrete = DiscreteValues._make([m.Clone() for m in models] if models else [])
        models = self._abstract_models
        abstract = AbstractValues._make([m.Clone() for m in models] if models else [])
        context._state = State(continuous, discrete, abstract)
        numeric, models = self._numeric_parameter_models, self._abstract_parameter_models
        context._parameters = Parameters._make(
            [m.Clone() for m in numeric] if numeric else [],
            [m.Clone() for m in models] if models else [])
        n_in = len(self._input_ports)
        context._fixed_inputs = [None] * n_in
        context._input_sources = [None] * n_in
        cache = [None] * len(self._cache_entries)
        for i, entry in enumerate(self._cache_entries):
            cache[i] = CacheEntryValue(self._allocate_xcdot() if i == xcdot_index
                                       else entry._allocate())
        context._cache = cache
        context._output_subscribers = {}
        if self._cache_disabled_by_default:
            disable_entries_by_default(self, cache)
        return context

    def AllocateTimeDerivatives(self) -> ContinuousState:
        """A ContinuousState shaped like this system's (q, v, z sizes), for derivatives."""
        return self._allocate_xcdot()

    def AllocateDiscreteVariables(self) -> DiscreteValues:
        """A DiscreteValues with a copy of each declared discrete group."""
        return DiscreteValues([m.Clone() for m in self._discrete_models])

    def _feedthrough_pairs(self) -> set:
        if self._feedthrough_memo is None:
            self._feedthrough_memo = {
                (i, j)
                for i in range(len(self._input_ports))
                for j in range(len(self._output_ports))
                if self._leaf_local_has_feedthrough(i, j)}
        return self._feedthrough_memo
