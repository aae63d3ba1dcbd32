"""The AutoDiffXd instantiations of the framework's classes (``LeafSystem_[AutoDiffXd]``,
``Diagram_[AutoDiffXd]``, ``DiagramBuilder_[AutoDiffXd]``, ``BasicVector_[AutoDiffXd]``)
and `autodiff_subclass`, which makes ``X_[AutoDiffXd]`` of any library class X.

A LeafSystem_[AutoDiffXd] differs from a LeafSystem only in its vector class
(BasicVector_[AutoDiffXd], whose entries are AutoDiffXd): every model vector it declares
(state, parameters, ports) is one, so its contexts and outputs hold AutoDiffXd, and the
code of a library system (Adder, Gain, LinearSystem, ...) runs unchanged on object
arrays. The choice is made once, by class; no float code path tests for AutoDiffXd.
"""
from __future__ import annotations

import copyreg

from systems.autodiff.autodiff_arrays import to_autodiff_array
from systems.autodiff.autodiff_scalar import AutoDiffXd
from systems.common.scalar_templates import template_of

from .context import Context, LeafContext
from .diagram import Diagram
from .diagram_builder import DiagramBuilder
from .diagram_context import DiagramContext
from .leaf_system import LeafSystem
from .state import ContinuousState
from .system import System
from .vectors import BasicVector
from .input_port import PortDataType
from .vectors_autodiff import AutoDiffBasicVector, AutoDiffOutputCalc

__all__ = ["System_AutoDiffXd", "LeafSystem_AutoDiffXd", "Diagram_AutoDiffXd",
           "DiagramBuilder_AutoDiffXd", "Context_AutoDiffXd", "LeafContext_AutoDiffXd",
           "autodiff_subclass", "retype_input_port"]


def _rename(cls, name: str, module: str):
    cls.__name__ = cls.__qualname__ = name
    cls.__module__ = module
    return cls


class Context_AutoDiffXd(Context):
    """pydrake's ``Context_[AutoDiffXd]``: the base of the contexts of AutoDiffXd
    systems (their state and parameters hold AutoDiffXd; time is a float)."""

    __slots__ = ()


def _set_continuous_state(base):
    def SetContinuousState(self, xc) -> None:
        """Sets xc from an array-like of floats and/or AutoDiffXd (floats become
        constants). Raises as Context.SetContinuousState."""
        if xc is not None and not isinstance(xc, (str, bytes)):
            xc = to_autodiff_array(xc, "SetContinuousState")
        base.SetContinuousState(self, xc)
    return SetContinuousState


class LeafContext_AutoDiffXd(LeafContext, Context_AutoDiffXd):
    """pydrake's ``LeafContext_[AutoDiffXd]``."""

    __slots__ = ()
    SetContinuousState = _set_continuous_state(LeafContext)


class DiagramContext_AutoDiffXd(DiagramContext, Context_AutoDiffXd):
    """The context of a Diagram_[AutoDiffXd]."""

    __slots__ = ()
    SetContinuousState = _set_continuous_state(DiagramContext)


def retype_input_port(port, scalar) -> None:
    """Makes a library InputPort an instance of ``InputPort_[scalar]`` (InputPort for
    float, its AutoDiffXd subclass for AutoDiffXd), as pydrake's ports of a System_[T]
    are InputPort_[T]; ports of other classes are left alone."""
    from .input_port import InputPort, InputPort_AutoDiffXd as autodiff_class
    if type(port) is InputPort or type(port) is autodiff_class:
        port.__class__ = autodiff_class if scalar is AutoDiffXd else InputPort


def _autodiff_instance(float_cls):
    """A new, empty instance of the AutoDiffXd class of `float_cls` (unpickling)."""
    cls = _FIXED.get(float_cls) or template_of(float_cls)[AutoDiffXd]
    return cls.__new__(cls)


class System_AutoDiffXd(System):
    """pydrake's ``System_[AutoDiffXd]``: the base of every AutoDiffXd system."""

    _scalar = AutoDiffXd
    _scalar_base_name = "System"
    _float_class = System

    def __reduce_ex__(self, protocol):
        # Pickled by their float class (an AutoDiffXd class's name, "Adder_[AutoDiffXd]",
        # is no attribute of its module): unpickling asks the template again.
        reduced = super().__reduce_ex__(protocol)
        if reduced[0] is copyreg.__newobj__ and reduced[1][0] is type(self):
            float_cls = type(self).__dict__.get("_float_class") or type(self)._float_class
            if template_of(float_cls) is not None or float_cls in _FIXED:
                return (_autodiff_instance, (float_cls,)) + tuple(reduced[2:])
        return reduced


class LeafSystem_AutoDiffXd(LeafSystem, System_AutoDiffXd):
    """pydrake's ``LeafSystem_[AutoDiffXd]``: a LeafSystem whose vectors hold AutoDiffXd
    (a float model given to a Declare* call is converted: its values become constants).
    Time stays a float."""

    _scalar = AutoDiffXd
    _vector_class = AutoDiffBasicVector
    _scalar_base_name = "LeafSystem"
    _float_class = LeafSystem

    def _make_context(self, parent):
        context = LeafSystem._make_context(self, parent)
        context.__class__ = LeafContext_AutoDiffXd
        return context

    def _allocate_xcdot(self) -> ContinuousState:
        return ContinuousState._make(
            AutoDiffBasicVector._zeros(self._xc_model._data.shape[0]),
            self._num_q, self._num_v, self._num_z)

    def _add_input_port(self, port) -> None:
        retype_input_port(port, AutoDiffXd)
        LeafSystem._add_input_port(self, port)

    def _declare_output(self, name, data_type, size, allocate, calc, prerequisites):
        port = LeafSystem._declare_output(self, name, data_type, size, allocate, calc,
                                          prerequisites)
        if data_type == PortDataType.kVectorValued:
            entry = self._cache_entries[-1]
            entry._calc = AutoDiffOutputCalc(entry._calc)   # floats written -> constants
            port._calc = entry._calc
        return port


class Diagram_AutoDiffXd(Diagram, System_AutoDiffXd):
    """pydrake's ``Diagram_[AutoDiffXd]``: a Diagram of AutoDiffXd systems (made by
    ``DiagramBuilder_[AutoDiffXd].Build()`` or ``ToAutoDiffXd()``)."""

    _scalar = AutoDiffXd
    _scalar_base_name = "Diagram"
    _float_class = Diagram

    def _make_context(self, parent):
        context = Diagram._make_context(self, parent)
        context.__class__ = DiagramContext_AutoDiffXd
        return context


class DiagramBuilder_AutoDiffXd(DiagramBuilder):
    """pydrake's ``DiagramBuilder_[AutoDiffXd]``: builds a Diagram_[AutoDiffXd] of
    AutoDiffXd systems."""

    _scalar = AutoDiffXd

    def AddSystem(self, system):
        """Adds `system` (an AutoDiffXd System) and returns it.

        Raises:
          TypeError: `system` is not an AutoDiffXd System.
        """
        if getattr(type(system), "_scalar", None) is not AutoDiffXd:
            raise TypeError(f"DiagramBuilder_[AutoDiffXd].AddSystem: {system!r} is not an "
                            f"AutoDiffXd System (convert it with ToAutoDiffXd())")
        return DiagramBuilder.AddSystem(self, system)

    def Build(self) -> Diagram_AutoDiffXd:
        """Builds the Diagram_[AutoDiffXd]. Raises as DiagramBuilder.Build does."""
        diagram = Diagram_AutoDiffXd()
        self.BuildInto(diagram)
        return diagram


for _cls, _name in ((LeafSystem_AutoDiffXd, "LeafSystem"), (Diagram_AutoDiffXd, "Diagram"),
                    (DiagramBuilder_AutoDiffXd, "DiagramBuilder"),
                    (System_AutoDiffXd, "System"), (Context_AutoDiffXd, "Context"),
                    (LeafContext_AutoDiffXd, "LeafContext"),
                    (DiagramContext_AutoDiffXd, "DiagramContext")):
    _rename(_cls, f"{_name}_[AutoDiffXd]", _cls.__module__)
del _cls, _name

_FIXED = {LeafSystem: LeafSystem_AutoDiffXd, Diagram: Diagram_AutoDiffXd,
          DiagramBuilder: DiagramBuilder_AutoDiffXd, BasicVector: AutoDiffBasicVector,
          System: System_AutoDiffXd, Context: Context_AutoDiffXd,
          LeafContext: LeafContext_AutoDiffXd, DiagramContext: DiagramContext_AutoDiffXd}


def autodiff_subclass(cls):
    """``X_[AutoDiffXd]`` for the library class X (`cls`): the fixed instantiations
    above, or a subclass of X (and of LeafSystem_[AutoDiffXd] / Diagram_[AutoDiffXd] for
    systems) named ``X_[AutoDiffXd]``, whose ``_scalar`` is AutoDiffXd."""
    fixed = _FIXED.get(cls)
    if fixed is not None:
        return fixed
    if issubclass(cls, LeafSystem):
        bases = (cls, LeafSystem_AutoDiffXd)
    elif issubclass(cls, Diagram):
        bases = (cls, Diagram_AutoDiffXd)
    else:
        bases = (cls,)
    name = f"{cls.__name__}_[AutoDiffXd]"
    namespace = {"__module__": cls.__module__, "__qualname__": name,
                 "__doc__": f"pydrake's ``{name}``: {cls.__name__} on AutoDiffXd scalars.",
                 "_scalar": AutoDiffXd, "_scalar_base_name": cls.__name__,
                 "_float_class": cls}
    if "__slots__" in cls.__dict__:
        namespace["__slots__"] = ()
    return type(name, bases, namespace)
