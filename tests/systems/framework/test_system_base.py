"""The class hierarchy (SystemBase, System_, LeafSystem_, Diagram_) and its template
selections match pydrake's."""

import pytest

from systems.framework import (Context, ContextBase, InputPortSelection, LeafSystem,
                               LeafSystem_, OutputPortSelection, SystemBase)
from systems.primitives import Adder


def test_class_hierarchy_selections_and_templates():
    assert issubclass(LeafSystem, SystemBase) and issubclass(Context, ContextBase)
    context = Adder(3, 2).CreateDefaultContext()
    assert (context.num_input_ports(), context.num_output_ports()) == (3, 1)
    assert int(InputPortSelection.kUseFirstInputIfItExists) == -2
    assert int(OutputPortSelection.kNoOutput) == -1
    assert LeafSystem_[float] is LeafSystem and LeafSystem_[None] is LeafSystem
    with pytest.raises(RuntimeError, match=r"LeafSystem_\[AutoDiffXd\].*not supported"):
        LeafSystem_["AutoDiffXd"]
