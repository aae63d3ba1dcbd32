"""DiagramBuilder: wiring, exporting, nesting, graph, algebraic loops, Graphviz
and every bad-input case (the builder stays usable after a rejected call)."""
import re
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from systems.framework import AbstractValue, Diagram, DiagramBuilder, LeafSystem
from systems.framework.diagram_builder import _descendants, _find_cycle

from .fixtures import AbstractEcho, Scaler, StateSource
from tests.systems.framework.callback_systems import Callbacks
from systems.primitives import Gain


class Feedthrough(LeafSystem):
    """y = u (direct feedthrough, default prerequisites)."""

    def __init__(self, size=1):
        super().__init__()
        self.DeclareVectorInputPort("u", size)
        self.DeclareVectorOutputPort(
            "y", size, lambda c, o: o.SetFromVector(self.get_input_port(0).Eval(c)))


def _builder_with(*systems):
    builder = DiagramBuilder()
    for name, system in systems:
        builder.AddNamedSystem(name, system)
    return builder


def test_connect_and_build_a_chain():
    builder = _builder_with(("source", StateSource()), ("scaler", Scaler(k=2.0)))
    source = builder.GetSubsystemByName("source")
    scaler = builder.GetSubsystemByName("scaler")
    builder.Connect(source, scaler)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    np.testing.assert_array_equal(
        scaler.get_output_port(0).Eval(diagram.GetSubsystemContext(scaler, context)),
        [2.0, 4.0])
    assert [s.get_name() for s in diagram.GetSystems()] == ["source", "scaler"]
    assert diagram.GetSubsystemByName("scaler") is scaler


def test_connection_graph_is_a_networkx_digraph():
    builder = _builder_with(("source", StateSource()), ("scaler", Scaler()))
    source, scaler = builder.GetSystems()
    builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    graph = builder.connection_graph()
    assert isinstance(graph, nx.DiGraph)
    assert list(graph.edges(data="ports")) == [(source, scaler, [(0, 0)])]


def test_unnamed_systems_get_unique_memory_names():
    builder = DiagramBuilder()
    a = builder.AddSystem(Scaler())
    b = builder.AddSystem(Scaler())
    assert a.get_name() != b.get_name()
    assert re.fullmatch(r".*Scaler@[0-9a-f]{16}", a.get_name())


def test_mismatched_vector_sizes_are_rejected_with_names_and_sizes():
    builder = _builder_with(("source", StateSource()), ("scaler", Scaler(size=3)))
    with pytest.raises(RuntimeError, match="mismatched vector sizes while connecting output "
                                           "port x of System source to input port u of "
                                           "System scaler: output size 2, input size 3"):
        builder.Connect(builder.GetSubsystemByName("source").get_output_port(0),
                        builder.GetSubsystemByName("scaler").get_input_port(0))
    assert not builder.IsConnectedOrExported(
        builder.GetSubsystemByName("scaler").get_input_port(0))
    builder.Build()


def test_mixing_vector_and_abstract_ports_is_rejected():
    builder = _builder_with(("source", StateSource()), ("echo", AbstractEcho()))
    with pytest.raises(RuntimeError, match="cannot mix vector-valued and abstract-valued"):
        builder.Connect(builder.GetSubsystemByName("source").get_output_port(0),
                        builder.GetSubsystemByName("echo").get_input_port(0))


def test_mismatched_abstract_types_are_rejected():
    # As in pydrake 1.51: Make(1) is a Value[object] (drake::pydrake::Object), which
    # does not match a Value[str] input; the message is Drake's.
    class IntSource(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractOutputPort("n", lambda: AbstractValue.Make(1),
                                           lambda c, o: o.set_value(1))

    builder = _builder_with(("ints", IntSource()), ("echo", AbstractEcho()))
    with pytest.raises(RuntimeError, match=re.escape(
            "DiagramBuilder::Connect: Mismatched value types while connecting output "
            "port n of System ints (type drake::pydrake::Object) to input port in of "
            "System echo (type std::string)")):
        builder.Connect(builder.GetSubsystemByName("ints").get_output_port(0),
                        builder.GetSubsystemByName("echo").get_input_port(0))
    assert not builder.IsConnectedOrExported(
        builder.GetSubsystemByName("echo").get_input_port(0))


def test_value_object_ports_connect_to_each_other():
    class AnySource(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractOutputPort("n", lambda: AbstractValue.Make(1),
                                           lambda c, o: o.set_value([1, 2]))

    class AnySink(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractInputPort("u", AbstractValue.Make(None))

    builder = _builder_with(("any", AnySource()), ("sink", AnySink()))
    builder.Connect(builder.GetSubsystemByName("any").get_output_port(0),
                    builder.GetSubsystemByName("sink").get_input_port(0))
    diagram = builder.Build()
    sink = diagram.GetSubsystemByName("sink")
    context = diagram.CreateDefaultContext()
    assert sink.get_input_port(0).Eval(sink.GetMyContextFromRoot(context)) == [1, 2]


def test_connecting_a_system_not_in_the_builder_names_it():
    builder = _builder_with(("source", StateSource()))
    stranger = Scaler()
    stranger.set_name("stranger")
    with pytest.raises(RuntimeError, match="System 'stranger' \\(Scaler\\) has not been "
                                           "added to this DiagramBuilder"):
        builder.Connect(builder.GetSubsystemByName("source").get_output_port(0),
                        stranger.get_input_port(0))


def test_adding_a_system_twice_or_to_two_builders_is_rejected():
    builder = DiagramBuilder()
    scaler = builder.AddNamedSystem("scaler", Scaler())
    with pytest.raises(RuntimeError, match="already been added to this DiagramBuilder"):
        builder.AddSystem(scaler)
    # pydrake's lifetime test accepts any error matching "already.*different Diagram".
    with pytest.raises(RuntimeError, match="already.*different Diagram"):
        DiagramBuilder().AddSystem(scaler)
    assert builder.GetSystems() == [scaler]


def test_two_systems_with_the_same_name_are_rejected():
    builder = DiagramBuilder()
    builder.AddNamedSystem("twin", Scaler())
    second = Scaler()
    with pytest.raises(RuntimeError, match="already contains a System named 'twin'"):
        builder.AddNamedSystem("twin", second)
    assert second.get_name() == "" and len(builder.GetSystems()) == 1
    with pytest.raises(RuntimeError, match="already contains a System named 'twin'"):
        builder.AddNamedSystem("other", Scaler()).set_name("twin")


def test_connecting_an_input_twice_is_rejected():
    builder = _builder_with(("a", StateSource()), ("b", StateSource()), ("s", Scaler()))
    a, b, s = builder.GetSystems()
    builder.Connect(a.get_output_port(0), s.get_input_port(0))
    with pytest.raises(RuntimeError, match="input port u of System s is already connected "
                                           "to output port x of System a"):
        builder.Connect(b.get_output_port(0), s.get_input_port(0))
    with pytest.raises(RuntimeError, match="already connected"):
        builder.ExportInput(s.get_input_port(0))


def test_building_twice_is_rejected():
    builder = _builder_with(("s", Scaler()))
    builder.Build()
    with pytest.raises(RuntimeError, match="Build\\(\\) or BuildInto\\(\\) has already been "
                                           "called"):
        builder.Build()
    with pytest.raises(RuntimeError, match="may no longer be used"):
        builder.AddSystem(Scaler())


def test_export_input_output_with_default_names_and_connect_input():
    builder = _builder_with(("a", Scaler(k=2.0)), ("b", Scaler(k=3.0)))
    a, b = builder.GetSystems()
    index = builder.ExportInput(a.get_input_port(0))
    builder.ConnectInput("a_u", b.get_input_port(0))
    builder.ExportOutput(a.get_output_port(0))
    builder.ExportOutput(b.get_output_port(0), "b_out")
    diagram = builder.Build()
    assert index == 0
    assert diagram.get_input_port(0).get_name() == "a_u"
    assert [p.get_name() for p in diagram._output_ports] == ["a_y", "b_out"]
    context = diagram.CreateDefaultContext()
    diagram.get_input_port(0).FixValue(context, [1.0, 1.0])
    np.testing.assert_array_equal(diagram.GetOutputPort("b_out").Eval(context), [3.0, 3.0])
    assert diagram.HasDirectFeedthrough(0, 1)


def test_nested_diagram_routes_inputs_and_outputs():
    inner_builder = DiagramBuilder()
    scaler = inner_builder.AddNamedSystem("scaler", Scaler(k=5.0))
    inner_builder.ExportInput(scaler.get_input_port(0), "in")
    inner_builder.ExportOutput(scaler.get_output_port(0), "out")
    inner = inner_builder.Build()
    inner.set_name("inner")

    outer_builder = DiagramBuilder()
    source = outer_builder.AddNamedSystem("source", StateSource(x0=(1.0, 2.0)))
    outer_builder.AddSystem(inner)
    outer_builder.Connect(source.get_output_port(0), inner.get_input_port(0))
    outer_builder.ExportOutput(inner.get_output_port(0), "y")
    outer = outer_builder.Build()
    context = outer.CreateDefaultContext()
    np.testing.assert_array_equal(outer.get_output_port(0).Eval(context), [5.0, 10.0])
    assert scaler.GetSystemPathname() == "::_::inner::scaler"
    context.SetContinuousState([2.0, 2.0])
    np.testing.assert_array_equal(outer.get_output_port(0).Eval(context), [10.0, 10.0])
    assert scaler.calls.n == 2


def test_build_into_a_diagram_subclass():
    class MyDiagram(Diagram):
        def __init__(self):
            super().__init__()
            builder = DiagramBuilder()
            builder.AddNamedSystem("s", StateSource(x0=(7.0, 8.0)))
            builder.ExportOutput(builder.GetSubsystemByName("s").get_output_port(0), "x")
            builder.BuildInto(self)

    diagram = MyDiagram()
    np.testing.assert_array_equal(
        diagram.get_output_port(0).Eval(diagram.CreateDefaultContext()), [7.0, 8.0])


def test_algebraic_loop_error_names_every_system_and_port():
    builder = _builder_with(("f", Feedthrough()), ("g", Feedthrough()))
    f, g = builder.GetSystems()
    builder.Connect(f.get_output_port(0), g.get_input_port(0))
    builder.Connect(g.get_output_port(0), f.get_input_port(0))
    with pytest.raises(RuntimeError) as error:
        builder.Build()
    text = str(error.value)
    assert text.startswith("Reported algebraic loop detected in DiagramBuilder:")
    for line in ("InputPort[0] (u) of System ::f (Feedthrough) is direct-feedthrough to",
                 "OutputPort[0] (y) of System ::f (Feedthrough) is connected to",
                 "InputPort[0] (u) of System ::g (Feedthrough) is direct-feedthrough to",
                 "OutputPort[0] (y) of System ::g (Feedthrough) is connected to"):
        assert line in text
    assert not builder.already_built()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20))
def test_the_loop_search_finds_a_cycle_exactly_when_networkx_does(edges):
    graph = {}
    for a, b in edges:
        graph.setdefault(a, [])
        graph.setdefault(b, [])
        if b not in graph[a]:
            graph[a].append(b)
    cycle = _find_cycle(graph)
    has_cycle = not nx.is_directed_acyclic_graph(nx.DiGraph(list(edges)))
    assert (cycle is not None) == has_cycle
    if cycle is not None:
        assert all(b in graph[a] for a, b in cycle)                 # real edges
        assert all(cycle[k][1] == cycle[k + 1][0] for k in range(len(cycle) - 1))
        assert cycle[-1][1] == cycle[0][0]                          # closed
    for node in graph:
        assert _descendants(graph, node) == nx.descendants(nx.DiGraph(graph), node) | (
            {node} if any(node in c for c in nx.simple_cycles(nx.DiGraph(graph))) else set())


def test_connection_graph_follows_disconnect_and_removal():
    builder = _builder_with(("source", StateSource()), ("a", Scaler()), ("b", Scaler()))
    source, a, b = builder.GetSystems()
    builder.Connect(source.get_output_port(0), a.get_input_port(0))
    builder.Connect(source.get_output_port(0), b.get_input_port(0))
    builder.Disconnect(source.get_output_port(0), a.get_input_port(0))
    assert list(builder.connection_graph().edges(data="ports")) == [(source, b, [(0, 0)])]
    builder.RemoveSystem(b)
    graph = builder.connection_graph()
    assert list(graph.nodes) == [source, a] and list(graph.edges) == []


def test_building_a_diagram_does_not_import_networkx():
    code = ("import sys\n"
            "from systems.framework import DiagramBuilder\n"
            "from systems.primitives import ConstantVectorSource, Gain\n"
            "builder = DiagramBuilder()\n"
            "source = builder.AddSystem(ConstantVectorSource([1.0]))\n"
            "gain = builder.AddSystem(Gain(2.0, 1))\n"
            "builder.Connect(source.get_output_port(), gain.get_input_port())\n"
            "builder.Build()\n"
            "print('networkx' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_a_loop_through_a_state_output_is_not_algebraic():
    class Integrator(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(1)
            self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort(
                "x", 1, lambda c, o: o.SetFromVector(
                    c.get_continuous_state_vector().CopyToVector()),
                {self.xc_ticket()})

        def DoCalcTimeDerivatives(self, context, derivatives):
            derivatives.SetFromVector(self.get_input_port(0).Eval(context))

    builder = _builder_with(("integrator", Integrator()), ("f", Feedthrough()))
    integrator, f = builder.GetSystems()
    builder.Connect(integrator.get_output_port(0), f.get_input_port(0))
    builder.Connect(f.get_output_port(0), integrator.get_input_port(0))
    diagram = builder.Build()
    assert not diagram.HasAnyDirectFeedthrough()


def test_subsystem_lookup_errors_list_the_names():
    builder = _builder_with(("a", Scaler()), ("b", Scaler()))
    diagram = builder.Build()
    with pytest.raises(RuntimeError, match=r"no.*subsystem named 'c'.*\{a, b\}"):
        diagram.GetSubsystemByName("c")


# --- Graphviz: a strict parser for the DOT statement grammar we emit ------------------
_TOKEN = re.compile(r'\s*(?:(?P<id>[A-Za-z_][A-Za-z_0-9]*|-?\d+(?:\.\d+)?)|'
                    r'(?P<str>"(?:[^"\\]|\\.)*")|(?P<op>->|[{}\[\];=,:]))')


def _html_string(text, pos):
    """End of the DOT HTML string <...> starting at `pos` (angle brackets nest)."""
    depth = 0
    for end in range(pos, len(text)):
        depth += {"<": 1, ">": -1}.get(text[end], 0)
        if depth == 0:
            return end + 1
    raise AssertionError(f"unterminated HTML string at {text[pos:pos + 30]!r}")


def _tokens(text):
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        while text[pos].isspace():
            pos += 1
        if text[pos] == "<":
            end = _html_string(text, pos)
            out.append(text[pos:end])
            pos = end
            continue
        match = _TOKEN.match(text, pos)
        assert match, f"bad DOT token at {text[pos:pos + 30]!r}"
        out.append(match.group(match.lastgroup))
        pos = match.end()
    return out


def _parse_dot(text):
    """Parses `digraph ID { stmt* }` with node, edge, attribute and subgraph
    statements; returns (number of nodes, number of edges)."""
    tokens = _tokens(text)
    pos = 0
    counts = {"nodes": 0, "edges": 0}

    def take(expected=None):
        nonlocal pos
        token = tokens[pos]
        assert expected is None or token == expected, f"expected {expected}, got {token}"
        pos += 1
        return token

    def is_id(token):
        return token not in "{}[];=,:" and token != "->"

    def attr_list():
        take("[")
        while tokens[pos] != "]":
            assert is_id(take())
            take("=")
            assert is_id(take())
            if tokens[pos] == ",":
                take(",")
        take("]")

    def node_id():
        assert is_id(take())
        for _ in range(2):          # node:port and node:port:compass
            if tokens[pos] == ":":
                take(":")
                assert is_id(take())

    def stmt_list():
        while tokens[pos] != "}":
            if tokens[pos] == "subgraph":
                take("subgraph")
                assert is_id(take())
                take("{")
                stmt_list()
                take("}")
            else:
                node_id()
                if tokens[pos] == "=":
                    take("=")
                    assert is_id(take())
                elif tokens[pos] == "->":
                    while tokens[pos] == "->":
                        take("->")
                        node_id()
                    counts["edges"] += 1
                    if tokens[pos] == "[":
                        attr_list()
                else:
                    counts["nodes"] += 1
                    if tokens[pos] == "[":
                        attr_list()
            if pos < len(tokens) and tokens[pos] == ";":
                take(";")

    take("digraph")
    assert is_id(take())
    take("{")
    stmt_list()
    take("}")
    assert pos == len(tokens)
    return counts["nodes"], counts["edges"]


def test_graphviz_string_is_valid_dot_with_every_system_and_connection():
    builder = _builder_with(("source", StateSource()), ("scaler", Scaler()),
                            ("tricky", Scaler()))
    source, scaler, tricky = builder.GetSystems()
    tricky.set_name('name with "quotes" {and} <braces>')
    builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    builder.Connect(scaler.get_output_port(0), tricky.get_input_port(0))
    builder.ExportOutput(tricky.get_output_port(0), "out")
    diagram = builder.Build()
    nodes, edges = _parse_dot(diagram.GetGraphvizString())
    assert nodes == 4       # three systems and one exported output
    assert edges == 3       # two connections and the export


def test_graphviz_of_a_nested_diagram_and_a_leaf_are_valid_dot():
    inner_builder = _builder_with(("s", Scaler()))
    inner_builder.ExportInput(inner_builder.GetSubsystemByName("s").get_input_port(0), "in")
    inner = inner_builder.Build()
    outer_builder = DiagramBuilder()
    source = outer_builder.AddNamedSystem("source", StateSource())
    outer_builder.AddNamedSystem("inner", inner)
    outer_builder.Connect(source.get_output_port(0), inner.get_input_port(0))
    outer = outer_builder.Build()
    assert _parse_dot(outer.GetGraphvizString()) == (3, 2)
    assert _parse_dot(outer.GetGraphvizString(max_depth=1)) == (2, 1)
    assert _parse_dot(Scaler().GetGraphvizString()) == (1, 0)


def test_one_system_in_two_builders_is_refused_with_pydrakes_words():
    # pydrake's lifetime test accepts an error from either AddSystem or Build that
    # matches "already.*different Diagram"; here AddSystem refuses at once.
    system = Callbacks()
    first = DiagramBuilder()
    first.AddSystem(system)
    first.Build()
    second = DiagramBuilder()
    with pytest.raises(RuntimeError, match="already.*different Diagram"):
        second.AddSystem(system)
    assert second.empty()


def test_builder_remove_disconnect_and_connect_to_same():
    builder = DiagramBuilder()
    assert builder.empty()
    a, b, c = (builder.AddNamedSystem(n, Gain(1.0, 1)) for n in "abc")
    builder.Connect(a.get_output_port(), b.get_input_port())
    builder.ConnectToSame(b.get_input_port(), c.get_input_port())
    assert builder.IsConnectedOrExported(c.get_input_port())
    builder.Disconnect(a.get_output_port(), c.get_input_port())
    assert not builder.IsConnectedOrExported(c.get_input_port())
    with pytest.raises(RuntimeError, match="is not connected"):
        builder.Disconnect(a.get_output_port(), c.get_input_port())
    builder.RemoveSystem(a)
    assert [s.get_name() for s in builder.GetSystems()] == ["b", "c"]
    assert not builder.IsConnectedOrExported(b.get_input_port())
    DiagramBuilder().AddSystem(a)            # free again after removal
