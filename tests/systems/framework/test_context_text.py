"""Printed forms of contexts as pydrake 1.51 prints them: str(context) of leaf and diagram
contexts. Every expected text below is pydrake's own output for the same script."""
import numpy as np

from systems.framework import BasicVector, DiagramBuilder, LeafSystem, Value


class Stateful(LeafSystem):
    def __init__(self, xc=None, groups=(), params=(), n_abstract=0, n_abstract_params=0):
        super().__init__()
        if xc is not None:
            self.DeclareContinuousState(BasicVector(xc))
        for group in groups:
            self.DeclareDiscreteState(np.array(group, dtype=float))
        for _ in range(n_abstract):
            self.DeclareAbstractState(Value("s"))
        for param in params:
            self.DeclareNumericParameter(BasicVector(param))
        for _ in range(n_abstract_params):
            self.DeclareAbstractParameter(Value("p"))


def test_leaf_context_summary_with_drakes_number_formats():
    system = Stateful([0.5, -1.25e-7, 3.14159265358979, 1e10],
                      [[1, 22.5], [np.nan, np.inf, -np.inf]], [[1e-300, 123456789.0]],
                      n_abstract=2, n_abstract_params=3)
    system.set_name("sys")
    context = system.CreateDefaultContext()
    context.SetTime(1.23456789)
    assert str(context) == (
        "::sys Context\n"
        "--------------\n"
        "Time: 1.23456789\n"
        "States:\n"
        "  4 continuous states\n"
        "                 0.5        -1.25e-07 3.14159265358979      10000000000\n"
        "  2 discrete state groups with\n"
        "     2 states\n"
        "          1 22.5\n"
        "     3 states\n"
        "        nan  inf -inf\n"
        "  2 abstract states\n"
        "\n"
        "Parameters:\n"
        "  1 numeric parameter groups with\n"
        "     2 parameters\n"
        "          1e-300 123456789\n"
        "  3 abstract parameters\n")


def test_vector_entries_have_sixteen_digits_and_time_is_shortest():
    system = Stateful([0.1 + 0.2, 1 / 3, 2 / 3 * 1e-5, 1e16, -0.0])
    system.set_name("s")
    context = system.CreateDefaultContext()
    lines = str(context).split("\n")
    assert lines[5] == ("                      0.3    0.3333333333333333 6.666666666666667e-06"
                        "                 1e+16                    -0")
    for t, text in ((1e15, "1000000000000000"), (1e16, "1e+16"), (1e-5, "1e-05"),
                    (0.1 + 0.2, "0.30000000000000004"), (100.0, "100")):
        context.SetTime(t)
        assert str(context).split("\n")[2] == f"Time: {text}"


def test_stateless_leaf_context_prints_its_time_only():
    system = Stateful()
    system.set_name("_")
    assert str(system.CreateDefaultContext()) == "::_ Context\n------------\nTime: 0\n"
    parameters_only = Stateful(n_abstract_params=1)
    parameters_only.set_name("sys")
    context = parameters_only.CreateDefaultContext()
    context.SetTime(1e-9)
    assert str(context) == ("::sys Context\n--------------\nTime: 1e-09\nParameters:\n"
                            "  1 abstract parameters\n")


def test_diagram_context_prints_totals_then_each_subcontext_with_content():
    builder = DiagramBuilder()
    builder.AddNamedSystem("a", Stateful([1.0, 2.0], [[3.0]], [[4.0]], 1, 1))
    inner_builder = DiagramBuilder()
    inner_builder.AddNamedSystem("x", Stateful([5.0]))
    inner = inner_builder.Build()
    inner.set_name("inner")
    builder.AddSystem(inner)
    builder.AddNamedSystem("e", Stateful())  # nothing to print: left out
    diagram = builder.Build()
    diagram.set_name("dia")
    context = diagram.CreateDefaultContext()
    context.SetTime(0.25)
    assert str(context) == (
        "::dia Context (of a Diagram)\n"
        "-----------------------------\n"
        "3 total continuous states\n"
        "1 total discrete states in 1 groups\n"
        "1 total abstract states\n"
        "1 total numeric parameters in 1 groups\n"
        "1 total abstract parameters\n"
        "\n"
        "::dia::a Context\n"
        "-----------------\n"
        "Time: 0.25\n"
        "States:\n"
        "  2 continuous states\n"
        "    1 2\n"
        "  1 discrete state groups with\n"
        "     1 states\n"
        "       3\n"
        "  1 abstract states\n"
        "\n"
        "Parameters:\n"
        "  1 numeric parameter groups with\n"
        "     1 parameters\n"
        "       4\n"
        "  1 abstract parameters\n"
        "\n"
        "::dia::inner Context (of a Diagram)\n"
        "------------------------------------\n"
        "1 total continuous states\n"
        "\n"
        "::dia::inner::x Context\n"
        "------------------------\n"
        "Time: 0.25\n"
        "States:\n"
        "  1 continuous states\n"
        "    5\n"
        "\n")
