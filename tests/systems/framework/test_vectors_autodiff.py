"""AutoDiffXd vectors give no mutable numpy view, as pydrake 1.51 ("dtype=object arrays
must be copied, and cannot be referenced"); they are changed through SetFromVector,
SetAtIndex and item assignment, and the library's own calcs keep working."""
import numpy as np
import pytest

from systems.autodiff import AutoDiffXd
from systems.framework import BasicVector_, DiscreteValues_, Subvector
from systems.primitives import ZeroOrderHold_
from systems.autodiff import ExtractGradient, InitializeAutoDiff
from systems.framework import DiagramBuilder
from systems.primitives import Integrator

_MESSAGE = "dtype=object arrays must be copied, and cannot be referenced"


def test_get_mutable_value_raises_on_every_autodiff_vector():
    vector = BasicVector_[AutoDiffXd]([1.0, 2.0, 3.0])
    values = DiscreteValues_[AutoDiffXd](data=[BasicVector_[AutoDiffXd](1), vector])
    for call in (vector.get_mutable_value, lambda: values.get_mutable_value(index=1),
                 lambda: Subvector(vector, 1, 2).get_mutable_value()):
        with pytest.raises(RuntimeError, match=_MESSAGE):
            call()
    # Float vectors still give the writable view.
    x = DiscreteValues_[float](BasicVector_[float]([1.0, 2.0]))
    x.get_mutable_value()[0] = 5.0
    assert x.get_value().tolist() == [5.0, 2.0]


def test_autodiff_vectors_change_through_the_setters():
    vector = BasicVector_[AutoDiffXd]([1.0, 2.0, 3.0])
    vector[0] = AutoDiffXd(7.0, [1.0])
    vector[1:] = [8.0, 9.0]
    Subvector(vector, 1, 2)[1:] = [4.0]
    assert [v.value() for v in vector.get_value()] == [7.0, 8.0, 4.0]
    assert vector.GetAtIndex(0).derivatives().tolist() == [1.0]


def test_a_library_calc_writes_autodiff_state_without_the_public_view():
    zoh = ZeroOrderHold_[AutoDiffXd](period_sec=0.1, vector_size=2)
    context = zoh.CreateDefaultContext()
    zoh.get_input_port().FixValue(context, [AutoDiffXd(3.0, [1.0, 0.0]), 4.0])
    updated = zoh.EvalUniquePeriodicDiscreteUpdate(context)
    latched = updated.get_vector(0).get_value()
    assert [v.value() for v in latched] == [3.0, 4.0]
    np.testing.assert_array_equal(latched[0].derivatives(), [1.0, 0.0])


AD = AutoDiffXd


def test_vector_views_of_autodiff_values_keep_autodiffxd():
    from systems.framework import Subvector, Supervector
    vector = BasicVector_[AD]([1.0, 2.0, 3.0])
    window = Subvector(vector, 1, 2)
    window.SetFromVector([5.0, AD(6.0, [1.0])])
    assert [x.value() for x in vector.CopyToVector()] == [1.0, 5.0, 6.0]
    assert window.GetAtIndex(1).derivatives().tolist() == [1.0]
    joined = Supervector([vector, BasicVector_[AD]([9.0])])
    joined.SetFromVector([1.0, 2.0, 3.0, 4.0])
    assert type(joined.GetAtIndex(3)) is AD and joined.CopyToVector().dtype == object
    # A Diagram's z partition gathers the leaves' states.
    builder = DiagramBuilder()
    builder.AddSystem(Integrator(2))
    builder.AddSystem(Integrator(1))
    context = builder.Build().ToAutoDiffXd().CreateDefaultContext()
    z = context.get_mutable_continuous_state().get_mutable_misc_continuous_state()
    z.SetFromVector(InitializeAutoDiff([1.0, 2.0, 3.0])[:, 0])
    np.testing.assert_array_equal(ExtractGradient(context.get_continuous_state_vector()
                                                  .CopyToVector()), np.eye(3))
