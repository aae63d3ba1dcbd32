"""Graphviz output in Drake 1.51's format (pydrake's text for the same systems, ids
aside), drawn through GetGraphvizFragment so that Python overrides of
DoGetGraphvizFragment are honoured and options reach subsystems as Drake filters
them. The references below were printed by pydrake 1.51.1
(tools/graphviz_vs_pydrake.py compares more cases side by side)."""
import re
import shutil
import subprocess

import pytest

from systems.framework import Diagram, DiagramBuilder, LeafSystem
from systems.primitives import Adder, ConstantVectorSource, Gain, Integrator

# pydrake 1.51.1: Adder(2, 1) named "add".
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

# pydrake 1.51.1: ConstantVectorSource -> Adder -> Integrator, Adder's second input
# exported as "u", the Integrator's output as "x", the diagram named "inner".
INNER_DOT = """digraph _6 {
rankdir=LR
subgraph cluster6diagram {
color=black
concentrate=true
label=<<TABLE BORDER="0"><TR><TD>
<B>Diagram</B><BR/>
name=inner
</TD></TR></TABLE>>;
subgraph clusters6in {
rank=same
color=lightgrey
style=filled
label="input ports"
s6in [shape=none, label=<
<TABLE BORDER="0" COLOR="blue" CELLSPACING="3" STYLE="rounded">
<TR><TD BORDER="1" PORT="0">u</TD></TR>
</TABLE>
>];
}
subgraph clusters6out {
rank=same
color=lightgrey
style=filled
label="output ports"
s6out [shape=none, label=<
<TABLE BORDER="0" COLOR="green" CELLSPACING="3" STYLE="rounded">
<TR><TD BORDER="1" PORT="0">x</TD></TR>
</TABLE>
>];
}
subgraph cluster6subsystems {
color=white
label=""
s2 [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>ConstantVectorSource</B><BR/>
name=src
</TD></TR>
<TR>
<TD PORT="u0" BORDER="1" COLOR="grey" ROWSPAN="1" SIDES="BL"></TD>
<TD PORT="y0" BORDER="1" >y0</TD>
</TR>
</TABLE>
>];
s3 [shape=none, border=0, label=<
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
s4 [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>Integrator</B><BR/>
name=integ
</TD></TR>
<TR>
<TD PORT="u0" BORDER="1" >u0</TD>
<TD PORT="y0" BORDER="1" >y0</TD>
</TR>
</TABLE>
>];
s2:y0:e -> s3:u0:w
s3:y0:e -> s4:u0:w
s6in:0:e -> s3:u1:w [color=blue];
s4:y0:e -> s6out:0:w [color=green];
}
}
}
"""

# pydrake 1.51.1: a LeafSystem with inputs in0, in1 and outputs out0..out2 named
# "ports" (TYPE stands for the class's module.qualname), plain and split "I/O".
PORTS_2X3_DOT = """digraph _2 {
rankdir=LR
s2 [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>TYPE</B><BR/>
name=ports
</TD></TR>
<TR>
<TD PORT="u0" BORDER="1" >in0</TD>
<TD PORT="y0" BORDER="1" >out0</TD>
</TR>
<TR>
<TD PORT="u1" BORDER="1" >in1</TD>
<TD PORT="y1" BORDER="1" >out1</TD>
</TR>
<TR>
<TD PORT="u2" BORDER="1" COLOR="grey" ROWSPAN="1" SIDES="BL"></TD>
<TD PORT="y2" BORDER="1" >out2</TD>
</TR>
</TABLE>
>];
}
"""

PORTS_2X3_SPLIT_DOT = """digraph _2 {
rankdir=LR
s2in [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>TYPE</B><BR/>
name=ports
</TD></TR>
<TR>
<TD PORT="u0" BORDER="1" >in0</TD>
<TD BORDER="1" STYLE="dotted" COLOR="cadetblue" ROWSPAN="2">
<FONT COLOR="cadetblue">(split)</FONT>
</TD>
</TR>
<TR>
<TD PORT="u1" BORDER="1" >in1</TD>
</TR>
</TABLE>
>];
s2out [shape=none, border=0, label=<
<TABLE BORDER="0" CELLSPACING="0">
<TR><TD BORDER="1" COLSPAN="2">
<B>TYPE</B><BR/>
name=ports
</TD></TR>
<TR>
<TD BORDER="1" STYLE="dotted" COLOR="cadetblue" ROWSPAN="3">
<FONT COLOR="cadetblue">(split)</FONT>
</TD>
<TD PORT="y0" BORDER="1" >out0</TD>
</TR>
<TR>
<TD PORT="y1" BORDER="1" >out1</TD>
</TR>
<TR>
<TD PORT="y2" BORDER="1" >out2</TD>
</TR>
</TABLE>
>];
}
"""


def _numbers_out(text):
    return re.sub(r"\d+", "N", text)


def _nodes(dot):
    """Node ids declared in the DOT text."""
    return re.findall(r"^(\w+) \[shape=none", dot, flags=re.M)


def _edges(dot):
    """(from, to, attributes) of every edge."""
    return re.findall(r"^(\S+) -> (\S+?)(?: \[(.*)\])?;?$", dot, flags=re.M)


def _clusters(dot):
    return re.findall(r"^subgraph (cluster\w+) \{", dot, flags=re.M)


def _id(system):
    return system._system_id


def _inner():
    builder = DiagramBuilder()
    src = builder.AddNamedSystem("src", ConstantVectorSource([1.0]))
    add = builder.AddNamedSystem("add", Adder(2, 1))
    integ = builder.AddNamedSystem("integ", Integrator(1))
    builder.Connect(src.get_output_port(), add.get_input_port(0))
    builder.ExportInput(add.get_input_port(1), "u")
    builder.Connect(add.get_output_port(), integ.get_input_port())
    builder.ExportOutput(integ.get_output_port(), "x")
    diagram = builder.Build()
    diagram.set_name("inner")
    return diagram, src, add, integ


def _outer():
    """Diagram "outer": the inner diagram feeding a Gain named "gain"."""
    inner, src, add, integ = _inner()
    builder = DiagramBuilder()
    builder.AddSystem(inner)
    gain = builder.AddNamedSystem("gain", Gain(2.0, 1))
    builder.Connect(inner.get_output_port(), gain.get_input_port())
    builder.ExportInput(inner.get_input_port(), "outer_u")
    builder.ExportOutput(gain.get_output_port(), "y")
    outer = builder.Build()
    outer.set_name("outer")
    return outer, inner, add, gain


class Ports(LeafSystem):
    """n_in vector inputs in0.. and n_out vector outputs out0.. (size 1)."""

    def __init__(self, n_in, n_out):
        super().__init__()
        for i in range(n_in):
            self.DeclareVectorInputPort(f"in{i}", 1)
        for i in range(n_out):
            self.DeclareVectorOutputPort(f"out{i}", 1, lambda context, output: None)


TYPE = "tests.systems.framework.test_graphviz.Ports"


# --- Drake's text -----------------------------------------------------------------
def test_leaf_dot_text_is_drakes():
    adder = Adder(2, 1)
    adder.set_name("add")
    assert _numbers_out(adder.GetGraphvizString()) == _numbers_out(ADDER_DOT)


def test_diagram_dot_text_is_drakes():
    diagram = _inner()[0]
    assert _numbers_out(diagram.GetGraphvizString()) == _numbers_out(INNER_DOT)


def test_a_longer_output_column_gets_a_grey_filler_below_the_inputs():
    ports = Ports(2, 3)
    ports.set_name("ports")
    dot = ports.GetGraphvizString().replace(TYPE, "TYPE")
    assert _numbers_out(dot) == _numbers_out(PORTS_2X3_DOT)


def test_split_draws_inputs_and_outputs_as_two_nodes_as_drake():
    ports = Ports(2, 3)
    ports.set_name("ports")
    dot = ports.GetGraphvizString(options={"split": "I/O"}).replace(TYPE, "TYPE")
    assert _numbers_out(dot) == _numbers_out(PORTS_2X3_SPLIT_DOT)
    fragment = ports.GetGraphvizFragment(options={"split": "I/O"})
    node = f"s{_id(ports)}"
    assert fragment.input_ports == [f"{node}in:u0", f"{node}in:u1"]
    assert fragment.output_ports == [f"{node}out:y0", f"{node}out:y1", f"{node}out:y2"]


def test_a_system_without_ports_is_a_title_only():
    dot = Ports(0, 0).GetGraphvizString()
    assert "<TR>\n" not in dot and "PORT=" not in dot


def test_names_are_escaped_as_drake_escapes_them():
    ports = Ports(1, 1)
    ports.set_name("a<b>&c\"d'e")
    assert "name=a&lt;b&gt;&amp;c\"d'e\n" in ports.GetGraphvizString()


# --- structure: ports, edges, clusters, max_depth ------------------------------------
def test_each_system_is_a_table_with_inputs_left_and_outputs_right():
    adder = Adder(3, 1)
    dot = adder.GetGraphvizString()
    assert dot.startswith(f"digraph _{_id(adder)} {{\nrankdir=LR\n")
    rows = re.findall(r"<TR>\n(.*?)</TR>", dot, flags=re.S)
    cells = [re.findall(r'<TD PORT="(\w+)"', row) for row in rows]
    assert cells == [["u0", "y0"], ["u1"], ["u2"]]   # the output spans all 3 rows
    assert 'PORT="y0" BORDER="1" ROWSPAN="3">sum<' in dot


def test_connections_run_from_output_port_east_to_input_port_west():
    outer, inner, add, gain = _outer()
    edges = _edges(outer.GetGraphvizString())
    a, g, i, o = (f"s{_id(s)}" for s in (add, gain, inner, outer))
    integ = inner.GetSubsystemByName("integ")
    src = inner.GetSubsystemByName("src")
    assert sorted(edges) == sorted([
        (f"s{_id(src)}:y0:e", f"{a}:u0:w", ""),             # inner's connections
        (f"{a}:y0:e", f"s{_id(integ)}:u0:w", ""),
        (f"{i}in:0:e", f"{a}:u1:w", "color=blue"),          # inner's exported ports
        (f"s{_id(integ)}:y0:e", f"{i}out:0:w", "color=green"),
        (f"{i}out:0:e", f"{g}:u0:w", ""),                   # outer's connection
        (f"{o}in:0:e", f"{i}in:0:w", "color=blue"),         # outer's exported ports
        (f"{g}:y0:e", f"{o}out:0:w", "color=green"),
    ])


def test_nested_diagrams_are_clusters_with_their_exported_ports_on_the_border():
    outer, inner, add, gain = _outer()
    dot = outer.GetGraphvizString()
    i, o = _id(inner), _id(outer)
    assert _clusters(dot) == [f"cluster{o}diagram", f"clusters{o}in", f"clusters{o}out",
                              f"cluster{o}subsystems", f"cluster{i}diagram",
                              f"clusters{i}in", f"clusters{i}out",
                              f"cluster{i}subsystems"]
    assert 'label="input ports"\ns%din [shape=none' % o in dot
    assert '<TR><TD BORDER="1" PORT="0">outer_u</TD></TR>' in dot
    assert '<TR><TD BORDER="1" PORT="0">x</TD></TR>' in dot
    assert set(_nodes(dot)) == {f"s{o}in", f"s{o}out", f"s{i}in", f"s{i}out",
                                f"s{_id(add)}", f"s{_id(gain)}",
                                f"s{_id(inner.GetSubsystemByName('src'))}",
                                f"s{_id(inner.GetSubsystemByName('integ'))}"}


def test_max_depth_limits_the_nesting():
    outer, inner, add, gain = _outer()
    i, o = _id(inner), _id(outer)
    one = outer.GetGraphvizString(max_depth=1)
    assert _clusters(one) == [f"cluster{o}diagram", f"clusters{o}in", f"clusters{o}out",
                              f"cluster{o}subsystems"]
    assert set(_nodes(one)) == {f"s{o}in", f"s{o}out", f"s{i}", f"s{_id(gain)}"}
    assert (f"s{i}:y0:e", f"s{_id(gain)}:u0:w", "") in _edges(one)
    assert '<TD PORT="u0" BORDER="1" >u</TD>' in one     # inner as a leaf: its ports
    zero = outer.GetGraphvizString(max_depth=0)
    assert _clusters(zero) == [] and _nodes(zero) == [f"s{o}"] and _edges(zero) == []
    assert outer.GetGraphvizString(max_depth=2) == outer.GetGraphvizString()


# --- options and overrides ------------------------------------------------------------
def test_options_reach_a_subsystem_only_under_its_name():
    outer, inner, add, gain = _outer()
    a, g = f"s{_id(add)}", f"s{_id(gain)}"
    plain = set(_nodes(outer.GetGraphvizString(options={"split": "I/O"})))
    assert a in plain and g in plain                     # not passed down unprefixed
    just_gain = set(_nodes(outer.GetGraphvizString(options={"gain/split": "I/O"})))
    assert {g + "in", g + "out", a} <= just_gain and g not in just_gain
    nested = set(_nodes(outer.GetGraphvizString(options={"inner/add/split": "I/O"})))
    assert {a + "in", a + "out", g} <= nested and a not in nested


class Tagged(LeafSystem):
    """Adds a header line and a comment to its default drawing; records its params."""

    def __init__(self):
        super().__init__()
        self.DeclareVectorInputPort("u", 1)
        self.params = []

    def DoGetGraphvizFragment(self, params):
        self.params.append((params.max_depth, dict(params.options), params.node_id,
                            list(params.header_lines)))
        params.header_lines = params.header_lines + ["tag=yes"]
        fragment = super().DoGetGraphvizFragment(params)
        fragment.fragments = fragment.fragments + ["// tagged\n"]
        return fragment


def test_a_python_override_inside_a_diagram_is_honoured_with_its_options():
    builder = DiagramBuilder()
    tagged = builder.AddNamedSystem("tagged", Tagged())
    source = builder.AddNamedSystem("source", ConstantVectorSource([1.0]))
    builder.Connect(source.get_output_port(), tagged.get_input_port())
    diagram = builder.Build()
    dot = diagram.GetGraphvizString(options={"tagged/plugins": "off", "other/x": "y"})
    assert "// tagged\n" in dot and "name=tagged<BR/>\ntag=yes\n" in dot
    (max_depth, options, node_id, header), = tagged.params
    assert options == {"plugins": "off"}
    assert max_depth == 2**31 - 2          # one level below the diagram
    assert node_id == f"s{_id(tagged)}"
    assert header == [f"<B>{__name__}.Tagged</B>", "name=tagged"]
    assert (f"s{_id(source)}:y0:e", f"{node_id}:u0:w", "") in _edges(dot)


def test_a_python_diagram_subclass_is_titled_by_its_class():
    class Wrapped(Diagram):
        def __init__(self):
            super().__init__()
            builder = DiagramBuilder()
            builder.AddSystem(Gain(1.0, 1))
            builder.BuildInto(self)

    dot = Wrapped().GetGraphvizString()
    assert ("<B>tests.systems.framework.test_graphviz."
            "test_a_python_diagram_subclass_is_titled_by_its_class.&lt;locals&gt;.Wrapped</B>"
            in dot)


def test_an_override_must_return_a_fragment():
    class Broken(LeafSystem):
        def DoGetGraphvizFragment(self, params):
            return "digraph {}"

    with pytest.raises(TypeError, match="Broken.DoGetGraphvizFragment.*GraphvizFragment"):
        Broken().GetGraphvizString()


@pytest.mark.parametrize("kwargs, error, match", [
    ({"max_depth": -1}, ValueError, "max_depth must be >= 0; got -1"),
    ({"max_depth": 1.5}, TypeError, "max_depth must be an int or None; got 1.5"),
    ({"options": {"split": 1}}, TypeError, "must map str to str; got 'split': 1"),
    ({"options": [("split", "I/O")]}, TypeError, "options must be a dict"),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, match):
    with pytest.raises(error, match=re.escape(match)):
        Gain(1.0, 1).GetGraphvizString(**kwargs)


# --- rendering --------------------------------------------------------------------------
def test_dot_lays_the_chain_out_left_to_right_when_graphviz_is_installed():
    """Rendered by Graphviz when its `dot` is installed (.ci/run installs it): the
    source, adder and integrator sit left to right; without it, nothing to lay out
    and systems.drawing says what is missing (test_drawing.py)."""
    diagram, src, add, integ = _inner()
    dot_program = shutil.which("dot")
    if dot_program is None:
        from systems.drawing import render_graphviz
        with pytest.raises(RuntimeError, match="dot"):
            render_graphviz(diagram.GetGraphvizString(), "plain")
        return
    plain = subprocess.run([dot_program, "-Tplain"], input=diagram.GetGraphvizString(),
                           capture_output=True, text=True, check=True, timeout=60).stdout
    x = {line.split()[1]: float(line.split()[2]) for line in plain.splitlines()
         if line.startswith("node ")}
    assert x[f"s{_id(src)}"] < x[f"s{_id(add)}"] < x[f"s{_id(integ)}"]
    assert x[f"s{_id(diagram)}in"] < x[f"s{_id(add)}"] < x[f"s{_id(diagram)}out"]
