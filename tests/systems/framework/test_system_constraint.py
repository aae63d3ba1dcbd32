"""System._AddExternalConstraint / num_constraints (Drake's ExternalSystemConstraint, the
part pydrake binds): the count, Clone, scalar conversion and Diagrams, as pydrake 1.51."""
import pytest

from systems.autodiff import AutoDiffXd
from systems.framework import (DiagramBuilder, LeafSystem, SystemConstraintIndex,
                               _ExternalSystemConstraint)
from systems.primitives import PassThrough, PassThrough_


def test_adding_counts_and_returns_the_index():
    system = PassThrough(1)
    assert system.num_constraints() == 0
    assert system._AddExternalConstraint(constraint=_ExternalSystemConstraint()) \
        == SystemConstraintIndex(0)
    index = system._AddExternalConstraint(_ExternalSystemConstraint())
    assert isinstance(index, SystemConstraintIndex) and int(index) == 1
    assert system.num_constraints() == 2
    assert LeafSystem().num_constraints() == 0


def test_clone_and_scalar_conversion_keep_them_without_doubling():
    system = PassThrough(1)
    system._AddExternalConstraint(_ExternalSystemConstraint())
    assert system.Clone().num_constraints() == 1
    autodiff = system.ToAutoDiffXd()
    assert autodiff.num_constraints() == 1
    assert autodiff.ToScalarType[float]().num_constraints() == 1
    back = PassThrough_[AutoDiffXd](2)
    back._AddExternalConstraint(_ExternalSystemConstraint())
    assert back.ToScalarTypeMaybe[float]().num_constraints() == 1
    # The copies do not share a list with the original.
    clone = system.Clone()
    clone._AddExternalConstraint(_ExternalSystemConstraint())
    assert (system.num_constraints(), clone.num_constraints()) == (1, 2)


def test_a_diagram_takes_its_subsystems_constraints_at_build():
    system = PassThrough(1)
    system._AddExternalConstraint(_ExternalSystemConstraint())
    builder = DiagramBuilder()
    builder.AddSystem(system)
    diagram = builder.Build()
    assert diagram.num_constraints() == 1
    system._AddExternalConstraint(_ExternalSystemConstraint())   # after Build: not seen
    assert (diagram.num_constraints(), system.num_constraints()) == (1, 2)
    assert diagram._AddExternalConstraint(_ExternalSystemConstraint()) \
        == SystemConstraintIndex(1)
    assert diagram.num_constraints() == 2
    # pydrake 1.51 gives 3 for both (each rebuilds the Diagram): the copied subsystem
    # carries 2, plus the diagram's own external one.
    assert diagram.ToAutoDiffXd().num_constraints() == 3
    assert diagram.Clone().num_constraints() == 3
    assert diagram.num_constraints() == 2


def test_a_wrong_argument_raises_type_error_and_adds_nothing():
    system = PassThrough(1)
    with pytest.raises(TypeError, match="_ExternalSystemConstraint; got NoneType"):
        system._AddExternalConstraint(None)
    assert system.num_constraints() == 0


def test_a_diagram_on_autodiff_of_template_systems_converts_back_keeping_them():
    """pydrake's scalar_conversion_test (in a diagram): Diagram_[AutoDiffXd] ->
    Diagram_[float] (it was refused: the AutoDiffXd Diagram class was not recognised)."""
    from systems.framework import DiagramBuilder_, LeafSystem_, TemplateSystem

    @TemplateSystem.define("Example_")
    def Example_(T):
        class Impl(LeafSystem_[T]):
            def _construct(self, value, converter=None):
                LeafSystem_[T].__init__(self, converter=converter)
                self.value = value

            def _construct_copy(self, other, converter=None):
                Impl._construct(self, other.value, converter=converter)
        return Impl

    system = Example_[AutoDiffXd](100)
    system._AddExternalConstraint(_ExternalSystemConstraint())
    builder = DiagramBuilder_[AutoDiffXd]()
    builder.AddSystem(system)
    diagram = builder.Build()
    for converted in (diagram.ToScalarType[float](), diagram.ToScalarTypeMaybe[float]()):
        assert converted.num_constraints() == 1
        (leaf,) = converted.GetSystems()
        assert isinstance(leaf, Example_[float]) and leaf.value == 100
        assert leaf.num_constraints() == 1
