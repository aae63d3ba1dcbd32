"""Graphviz output in Drake's format, drawn through GetGraphvizFragment so that Python
overrides of DoGetGraphvizFragment and the options dict reach every subsystem."""
import re

from systems.framework import DiagramBuilder, LeafSystem
from systems.primitives import Adder, ConstantVectorSource, Gain

# pydrake 1.51.1's Adder(2, 1) named "add", with the system id replaced by N.
ADDER_DOT = """digraph _N {
rankdir=LR
sN [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>Adder</B><BR/>
name=add
</TD></TR>
<TR>
<TD PORT="u0" BORDER="1" >u0</TD>
<TD PORT="y0" BORDER="1" ROWSPAN="2">sum</TD>
</TR>
<TR>
<TD PORT="u1" BORDER="1" >u1</TD>
</TR>
</TABLE>
>];
}
"""


def _numbers_out(text):
    return re.sub(r"\d+", "N", text)


def test_leaf_dot_text_is_drakes():
    adder = Adder(2, 1)
    adder.set_name("add")
    assert _numbers_out(adder.GetGraphvizString()) == _numbers_out(ADDER_DOT)


class Tagged(LeafSystem):
    """Appends a comment to its default drawing and records what it was given."""

    def __init__(self):
        super().__init__()
        self.DeclareVectorInputPort("u", 1)
        self.params = []

    def DoGetGraphvizFragment(self, params):
        self.params.append((params.max_depth, dict(params.options), params.node_id,
                            list(params.header_lines)))
        fragment = super().DoGetGraphvizFragment(params)
        fragment.fragments.append("// tagged\n")
        return fragment


def test_override_inside_a_diagram_is_honoured_and_receives_the_options():
    builder = DiagramBuilder()
    tagged = builder.AddNamedSystem("tagged", Tagged())
    source = builder.AddSystem(ConstantVectorSource([1.0]))
    builder.Connect(source.get_output_port(), tagged.get_input_port())
    diagram = builder.Build()
    dot = diagram.GetGraphvizString(options={"plugins": "off"})
    assert "// tagged\n" in dot
    (max_depth, options, node_id, header), = tagged.params
    assert options == {"plugins": "off"}
    assert max_depth == 2**31 - 2          # one level below the diagram
    assert node_id == f"s{tagged._system_id}"
    assert header == ["<B>tests.systems.framework.test_graphviz.Tagged</B>", "name=tagged"]
    assert f"{node_id}:u0:w" in dot        # the connection still reaches the port


def test_split_option_draws_inputs_and_outputs_as_two_nodes():
    gain = Gain(2.0, 1)
    dot = gain.GetGraphvizString(options={"split": "I/O"})
    node = f"s{gain._system_id}"
    assert f"{node}in [shape=none" in dot and f"{node}out [shape=none" in dot
    assert dot.count("(split)") == 2
    fragment = gain.GetGraphvizFragment(options={"split": "I/O"})
    assert fragment.input_ports == [f"{node}in:u0"]
    assert fragment.output_ports == [f"{node}out:y0"]


def test_max_depth_zero_draws_a_diagram_as_one_node_with_its_exported_ports():
    builder = DiagramBuilder()
    gain = builder.AddNamedSystem("g", Gain(2.0, 1))
    builder.ExportInput(gain.get_input_port(), "in")
    builder.ExportOutput(gain.get_output_port(), "out")
    diagram = builder.Build()
    flat = diagram.GetGraphvizString(max_depth=0)
    assert "subgraph" not in flat
    assert '<TD PORT="u0" BORDER="1" >in</TD>' in flat
    assert '<TD PORT="y0" BORDER="1" >out</TD>' in flat
    nested = diagram.GetGraphvizString()
    assert f"s{diagram._system_id}in:0:e -> s{gain._system_id}:u0:w [color=blue];" in nested
    assert f"s{gain._system_id}:y0:e -> s{diagram._system_id}out:0:w [color=green];" in nested
