"""A system that cannot change scalar type refuses the conversion with a message that says
why."""

import pytest

from systems.framework import LeafSystem
from systems.primitives import Gain


def test_scalar_conversion_is_refused_clearly():
    # A plain Python LeafSystem subclass (not a TemplateSystem) does not convert, as in
    # pydrake; a library system (Gain) converts to AutoDiffXd but not to its own scalar
    # nor to symbolic scalars.
    class Plain(LeafSystem):
        pass
    plain = Plain()
    with pytest.raises(RuntimeError, match="of type .*Plain does not support scalar "
                                           "conversion to type drake::AutoDiffXd"):
        plain.ToAutoDiffXd()
    assert plain.ToAutoDiffXdMaybe() is None
    gain = Gain(1.0, 1)
    assert type(gain.ToAutoDiffXd()).__name__ == "Gain_[AutoDiffXd]"
    assert gain.ToSymbolicMaybe() is None
    assert gain.ToScalarTypeMaybe[float]() is None
    with pytest.raises(RuntimeError, match="does not support scalar conversion to type "
                                           "double"):
        gain.ToScalarType[float]()
    assert LeafSystem().ke_ticket() != LeafSystem().pe_ticket()
