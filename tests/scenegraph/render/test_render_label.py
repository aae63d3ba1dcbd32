"""RenderLabel: values and the reserved labels."""

import pickle

import pytest

from scenegraph import RenderLabel


def test_render_label_values_and_reserved_labels():
    assert [int(RenderLabel.kDontCare), int(RenderLabel.kDoNotRender), int(RenderLabel.kEmpty),
            int(RenderLabel.kUnspecified), RenderLabel.kMaxUnreserved] == \
        [32764, 32765, 32766, 32767, 32763]
    assert RenderLabel.kEmpty.is_reserved() and not RenderLabel(3).is_reserved()
    assert RenderLabel(5) == 5 and RenderLabel(5) == RenderLabel(5)
    assert repr(RenderLabel(5)) == "RenderLabel(5)" and repr(RenderLabel.kEmpty) == \
        "RenderLabel.kEmpty"
    assert pickle.loads(pickle.dumps(RenderLabel.kDontCare)) == RenderLabel.kDontCare
    for bad in (-1, 32766, 40000):
        with pytest.raises(RuntimeError) as info:
            RenderLabel(bad)
        assert str(info.value) == f"Invalid construction of RenderLabel with invalid value: {bad}"
