"""The simulator statistics summary and PrintSimulatorStatistics' printout."""

import pytest

from systems.analysis import PrintSimulatorStatistics, Simulator
from systems.framework import DiagramBuilder
from systems.primitives import ConstantVectorSource, Integrator
import contextlib
import io
import json


def test_statistics_summary_and_printout(capsys):
    builder = DiagramBuilder()
    integrator = builder.AddSystem(Integrator(1))
    source = builder.AddSystem(ConstantVectorSource([1.0]))
    builder.Connect(source.get_output_port(), integrator.get_input_port())
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    summary = dict(simulator.get_integrator().GetStatisticsSummary())
    assert summary["integrator_num_steps_taken"] == simulator.get_integrator(
    ).get_num_steps_taken()
    assert summary["integrator_largest_step_size_taken"] == pytest.approx(0.1)
    PrintSimulatorStatistics(simulator)
    text = capsys.readouterr().out
    assert text.startswith("General stats regarding discrete updates:\n")
    assert "Stats for integrator RungeKutta3Integrator with error control:" in text
    assert '"integrator_num_steps_taken"' in text


def test_print_simulator_statistics_writes_null_for_nan_as_drake():
    simulator = Simulator(Integrator(2))
    simulator.Initialize()
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        PrintSimulatorStatistics(simulator)
    printed = text.getvalue()
    assert "Initial time step taken = nan        s" in printed   # fmt's {:10.6g}
    summary = json.loads(printed.split("JSON Statistics:\n", 1)[1])
    assert summary["integrator_actual_initial_step_size_taken"] is None
    assert "NaN" not in printed
