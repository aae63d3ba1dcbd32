"""LeafSystem's construction: forgetting to call LeafSystem.__init__ is a TypeError naming
the class; calling it late or through a chain of bases works."""

import numpy as np
import pytest

from systems.framework import BasicVector, Diagram, LeafSystem, VectorSystem


def test_forgetting_leaf_system_init_is_a_type_error_naming_it():
    class Forgot(LeafSystem):
        def __init__(self):
            self.gain = 2.0

    with pytest.raises(TypeError, match=r"^systems\.framework\.LeafSystem\.__init__\(\) must "
                                        r"be called when overriding __init__$"):
        Forgot()

    class ForgotVector(VectorSystem):
        def __init__(self):
            pass

    with pytest.raises(TypeError, match=r"^systems\.framework\.VectorSystem\.__init__\(\)"):
        ForgotVector()

    class ForgotDiagram(Diagram):
        def __init__(self):
            pass

    with pytest.raises(TypeError, match=r"^systems\.framework\.Diagram\.__init__\(\)"):
        ForgotDiagram()


def test_calling_init_late_or_through_a_chain_is_fine():
    class Base(LeafSystem):
        def __init__(self, size):
            super().__init__()
            self.DeclareVectorOutputPort("y", BasicVector(np.ones(size)), self.Calc)

        def Calc(self, context, output):
            output.SetFromVector(np.ones(output.size()))

    class Derived(Base):
        def __init__(self):
            self.note = "set before super().__init__"
            super().__init__(3)

    system = Derived()
    np.testing.assert_array_equal(
        system.get_output_port(0).Eval(system.CreateDefaultContext()), [1, 1, 1])
