"""pydrake.systems.framework's template names (``LeafSystem_``, ``Context_``, ...):
``X_[float]`` and ``X_[None]`` are the class X, ``X_[AutoDiffXd]`` its AutoDiffXd
instantiation (systems.framework.autodiff_systems); symbolic scalars raise (see
systems.common.scalar_templates)."""
from __future__ import annotations

from systems.common.scalar_templates import define_templates
from .autodiff_systems import autodiff_subclass
from .context import Context, LeafContext
from .diagram import Diagram
from .diagram_builder import DiagramBuilder
from .events import DiscreteUpdateEvent, Event, PublishEvent, UnrestrictedUpdateEvent
from .input_port import InputPort
from .leaf_system import LeafSystem
from .output_port import LeafOutputPort, OutputPort
from .state import ContinuousState, DiscreteValues, Parameters, State
from .system import System, SystemOutput
from .system_base import SystemVisitor
from .vector_system import VectorSystem
from .vectors import BasicVector, Subvector, Supervector, VectorBase
from .witness import WitnessFunction

_TEMPLATES = define_templates(globals(), (
    "BasicVector", "Context", "ContinuousState", "DiagramBuilder", "Diagram",
    "DiscreteUpdateEvent", "DiscreteValues", "Event", "InputPort", "LeafContext",
    "LeafOutputPort", "LeafSystem", "OutputPort", "Parameters", "PublishEvent", "State",
    "Subvector", "Supervector", "SystemOutput", "SystemVisitor", "System",
    "UnrestrictedUpdateEvent", "VectorBase", "VectorSystem", "WitnessFunction"),
    "systems.framework", autodiff=autodiff_subclass)
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
