"""pydrake.systems.framework-compatible API (plus AbstractValue and Value)."""
from .cache import CacheEntry, CacheEntryValue, CacheIndex, ValueProducer
from .context import Context, LeafContext
from .diagram import Diagram
from .diagram_builder import DiagramBuilder
from .diagram_context import DiagramContext
from .events import (CompositeEventCollection, DiscreteUpdateEvent, Event,
                     EventCollection, EventStatus, PeriodicEventData, PublishEvent,
                     TriggerType, UnrestrictedUpdateEvent)
from .indices import (AbstractParameterIndex, AbstractStateIndex, ContinuousStateIndex,
                      DiscreteStateIndex, InputPortIndex, NumericParameterIndex,
                      OutputPortIndex, SubsystemIndex)
from .input_port import (FixedInputPortValue, InputPort, PortDataType, UseDefaultName,
                         kUseDefaultName)
from .leaf_system import LeafSystem
from .output_port import DiagramOutputPort, LeafOutputPort, OutputPort
from .state import (AbstractValues, ContinuousState, DiscreteValues, Parameters,
                    State)
from .system import System, SystemOutput
from .tickets import DependencyTicket
from .value import AbstractValue, List, Value
from .vectors import BasicVector, Subvector, Supervector, VectorBase
from .witness import WitnessFunction, WitnessFunctionDirection
from .bus_value import BusValue
from .random_distribution import RandomDistribution
from .random_generator import RandomGenerator
from .context_base import ContextBase
from .indices import InputPortSelection, OutputPortSelection, SystemConstraintIndex
from .scalar_conversion import SystemScalarConverter
from .system_base import SystemBase, SystemVisitor
from .system_constraint import _ExternalSystemConstraint
from .vector_system import VectorSystem
from .template_system import TemplateSystem
from .templates import *  # noqa: F401,F403  (BasicVector_, ..., WitnessFunction_)
from .templates import __all__ as _template_names

__all__ = [
    "AbstractParameterIndex", "AbstractStateIndex", "AbstractValue", "AbstractValues",
    "BasicVector", "CacheEntry", "CacheEntryValue", "CacheIndex",
    "CompositeEventCollection", "Context", "ContinuousState", "ContinuousStateIndex",
    "DependencyTicket", "Diagram", "DiagramBuilder", "DiagramContext",
    "DiagramOutputPort", "DiscreteStateIndex", "DiscreteUpdateEvent", "DiscreteValues",
    "Event", "EventCollection", "EventStatus", "FixedInputPortValue", "InputPort",
    "InputPortIndex", "LeafContext", "List", "LeafOutputPort", "LeafSystem",
    "NumericParameterIndex", "OutputPort", "OutputPortIndex", "Parameters",
    "PeriodicEventData", "PortDataType", "PublishEvent", "State", "SubsystemIndex",
    "System", "SystemOutput", "TriggerType", "UnrestrictedUpdateEvent",
    "UseDefaultName", "Value", "ValueProducer", "VectorBase", "WitnessFunction",
    "WitnessFunctionDirection", "kUseDefaultName",
    "BusValue", "ContextBase", "RandomDistribution", "RandomGenerator", "InputPortSelection", "OutputPortSelection",
    "Subvector", "Supervector", "SystemBase", "SystemConstraintIndex",
    "SystemScalarConverter", "SystemVisitor", "TemplateSystem", "VectorSystem",
] + list(_template_names)
