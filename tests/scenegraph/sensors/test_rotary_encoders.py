"""RotaryEncoders: calibration then rounding down to whole ticks, on float and AutoDiffXd."""

import math

import numpy as np
import pytest

from scenegraph.sensors import RotaryEncoders, RotaryEncoders_
from systems.autodiff import AutoDiffXd, ExtractGradient, InitializeAutoDiff


def test_rotary_encoders_calibrate_then_round_down_to_whole_ticks():
    import math
    from scenegraph.sensors import RotaryEncoders, RotaryEncoders_
    assert RotaryEncoders_[float] is RotaryEncoders
    encoders = RotaryEncoders(input_port_size=5, input_vector_indices=[0, 2],
                              ticks_per_revolution=[100, 200])
    context = encoders.CreateDefaultContext()
    encoders.get_input_port().FixValue(context, [0.1, 9.0, -0.37, 4.0, 5.0])
    tick0, tick1 = 2 * math.pi / 100, 2 * math.pi / 200
    np.testing.assert_allclose(encoders.get_output_port().Eval(context),
                               [1 * tick0, -12 * tick1], rtol=1e-12)
    encoders.set_calibration_offsets(context, [0.05, -0.01])
    np.testing.assert_allclose(encoders.get_output_port().Eval(context),
                               [0.0, -12 * tick1], rtol=1e-12)
    np.testing.assert_array_equal(encoders.get_calibration_offsets(context), [0.05, -0.01])
    plain = RotaryEncoders(3, [1])                       # no quantization
    plain_context = plain.CreateDefaultContext()
    plain.get_input_port().FixValue(plain_context, [1.0, 2.5, 3.0])
    assert plain.get_output_port().Eval(plain_context).tolist() == [2.5]
    assert RotaryEncoders([10, 20]).get_input_port().size() == 2
    with pytest.raises(ValueError, match=r"indices \[5\] are outside the input"):
        RotaryEncoders(input_port_size=5, input_vector_indices=[5])
    with pytest.raises(ValueError, match="ticks_per_revolution must be >= 1"):
        RotaryEncoders([10, 0])
    with pytest.raises(ValueError, match="2 offsets for 1 encoders"):
        plain.set_calibration_offsets(plain_context, [0.1, 0.2])


def test_rotary_encoders_autodiff():
    """Unquantized: y = u[indices] − offsets, derivatives passed through; quantized: the
    floor's derivative is zero (piecewise constant)."""
    encoders = RotaryEncoders_[AutoDiffXd](input_port_size=3, input_vector_indices=[2, 0])
    context = encoders.CreateDefaultContext()
    encoders.set_calibration_offsets(context, [AutoDiffXd(0.1, [0, 0, 0, 1.0]), 0.2])
    encoders.get_input_port().FixValue(
        context, InitializeAutoDiff([1.0, 2.0, 3.0], 4).ravel())
    y = encoders.get_output_port().Eval(context)
    assert [e.value() for e in y] == [2.9, 0.8]
    np.testing.assert_array_equal(ExtractGradient(y), [[0, 0, 1, -1], [1, 0, 0, 0]])
    quantized = RotaryEncoders([100]).ToAutoDiffXd()
    assert type(quantized) is RotaryEncoders_[AutoDiffXd]
    context = quantized.CreateDefaultContext()
    quantized.get_input_port().FixValue(context, [AutoDiffXd(1.0, [1.0])])
    out = quantized.get_output_port().Eval(context)[0]
    assert out.value() == pytest.approx(np.floor(100 / (2 * np.pi)) * 2 * np.pi / 100)
    assert not np.any(out.derivatives())
