"""Graphviz DOT output for Systems, in Drake's format: a leaf is an HTML-table node
listing its ports, a Diagram a cluster with its exported ports, subsystems and
connections.

Every System draws itself through ``GetGraphvizFragment`` → ``DoGetGraphvizFragment``
(so a Python override of ``DoGetGraphvizFragment`` is honoured, also inside a
Diagram); the ``options`` dict travels unchanged to every subsystem. The option
``split="I/O"`` draws a leaf as two nodes, one for its inputs and one for its outputs.
"""
from __future__ import annotations

import html

__all__ = ["GraphvizFragment", "GraphvizFragmentParams", "leaf_fragment",
           "diagram_fragment", "type_label"]


class GraphvizFragment:
    """A system's DOT text (``fragments``, a list of str) and the DOT endpoints of its
    ports (``input_ports``, ``output_ports``: lists of "node:port" str)."""

    def __init__(self, fragments=None, input_ports=None, output_ports=None):
        self.fragments = list(fragments or [])
        self.input_ports = list(input_ports or [])
        self.output_ports = list(output_ports or [])

    def __repr__(self) -> str:
        return (f"GraphvizFragment(input_ports={self.input_ports!r}, "
                f"output_ports={self.output_ports!r}, {len(self.fragments)} fragments)")


class GraphvizFragmentParams:
    """What ``DoGetGraphvizFragment`` receives: ``max_depth`` (levels of nested
    diagrams still to expand), ``options`` (dict str -> str), ``node_id`` (the DOT id
    to use, "s<N>") and ``header_lines`` (HTML lines of the node's title)."""

    def __init__(self, max_depth: int = 2**31 - 1, options=None, node_id: str = "",
                 header_lines=None):
        self.max_depth = max_depth
        self.options = dict(options or {})
        self.node_id = node_id
        self.header_lines = list(header_lines or [])

    def __repr__(self) -> str:
        return (f"GraphvizFragmentParams(max_depth={self.max_depth}, "
                f"options={self.options!r}, node_id={self.node_id!r}, "
                f"header_lines={self.header_lines!r})")


def type_label(system) -> str:
    """The title Drake prints: the class name for this library's systems, the full
    ``module.qualname`` for a user's Python class."""
    cls = type(system)
    module = cls.__module__ or ""
    if module.split(".")[0] in ("systems", "scenegraph"):
        return cls.__name__
    return f"{module}.{cls.__qualname__}"


def header_lines(system) -> list:
    lines = [f"<B>{html.escape(type_label(system))}</B>"]
    name = system.get_name()
    if name and name != system.GetMemoryObjectName():
        lines.append(f"name={html.escape(system.get_name())}")
    return lines


def _table(node_id: str, params, inputs: list, outputs: list, rows: int) -> str:
    """One HTML-table node: the header, then input cells left and output cells
    right; the shorter side's last cell spans the remaining rows."""
    out = [f"{node_id} [shape=none, border=0, label=<\n",
           '<TABLE BORDER="0" CELLSPACING="0">\n'
           '<TR><TD BORDER="1" COLSPAN="2">\n' + "<BR/>\n".join(params.header_lines)
           + "\n</TD></TR>\n"]

    def cell(cells, i, side):
        n = len(cells)
        if n == 0:
            if i > 0:
                return ""
            prefix, sides = ("u0", "BL") if side == "u" else ("y0", "BR")
            return (f'<TD PORT="{prefix}" BORDER="1" COLOR="grey" ROWSPAN="{rows}" '
                    f'SIDES="{sides}"></TD>\n')
        if i >= n:
            return ""
        port, text = cells[i]
        span = f'ROWSPAN="{rows - n + 1}"' if (i == n - 1 and n < rows) else ""
        if port is None:  # a split placeholder; `text` is its row span
            return (f'<TD BORDER="1" STYLE="dotted" COLOR="cadetblue" ROWSPAN="{text}">\n'
                    '<FONT COLOR="cadetblue">(split)</FONT>\n</TD>\n')
        return f'<TD PORT="{port}" BORDER="1" {span}>{html.escape(text)}</TD>\n'
    for i in range(max(len(inputs), len(outputs), 1)):
        out.append("<TR>\n")
        out.append(cell(inputs, i, "u"))
        out.append(cell(outputs, i, "y"))
        out.append("</TR>\n")
    out.append("</TABLE>\n>];\n")
    return "".join(out)


def leaf_fragment(system, params) -> GraphvizFragment:
    """Drake's default drawing of a System as one node (or two with split="I/O")."""
    inputs = [(f"u{i}", p.get_name()) for i, p in enumerate(system._input_ports)]
    outputs = [(f"y{i}", p.get_name()) for i, p in enumerate(system._output_ports)]
    node = params.node_id
    rows = max(len(inputs), len(outputs), 1)
    if params.options.get("split") == "I/O":
        fragments = [_table(node + "in", params, inputs, [(None, max(len(inputs), 1))], rows),
                     _table(node + "out", params, [(None, max(len(outputs), 1))], outputs,
                            rows)]
        return GraphvizFragment(fragments, [f"{node}in:u{i}" for i in range(len(inputs))],
                                [f"{node}out:y{i}" for i in range(len(outputs))])
    return GraphvizFragment([_table(node, params, inputs, outputs, rows)],
                            [f"{node}:u{i}" for i in range(len(inputs))],
                            [f"{node}:y{i}" for i in range(len(outputs))])


def _port_cluster(node: str, kind: str, names: list) -> str:
    color, label = ("blue", "input ports") if kind == "in" else ("green", "output ports")
    rows = "".join(f'<TR><TD BORDER="1" PORT="{i}">{html.escape(n)}</TD></TR>\n'
                   for i, n in enumerate(names))
    return (f"subgraph clusters{node[1:]}{kind} {{\nrank=same\ncolor=lightgrey\n"
            f"style=filled\nlabel=\"{label}\"\n{node}{kind} [shape=none, label=<\n"
            f'<TABLE BORDER="0" COLOR="{color}" CELLSPACING="3" STYLE="rounded">\n'
            f"{rows}</TABLE>\n>];\n}}\n")


def diagram_fragment(diagram, params) -> GraphvizFragment:
    """A Diagram as a cluster of its subsystems' fragments (each from their own
    GetGraphvizFragment, one level shallower), or as one node when max_depth is 0."""
    if params.max_depth <= 0:
        return leaf_fragment(diagram, params)
    node = params.node_id
    number = node[1:]
    parts = [f"subgraph cluster{number}diagram {{\ncolor=black\nconcentrate=true\n"
             f"label=<<TABLE BORDER=\"0\"><TR><TD>\n" + "<BR/>\n".join(params.header_lines)
             + "\n</TD></TR></TABLE>>;\n"]
    if diagram._input_ports:
        parts.append(_port_cluster(node, "in", [p.get_name() for p in diagram._input_ports]))
    if diagram._output_ports:
        parts.append(_port_cluster(node, "out", [p.get_name()
                                                 for p in diagram._output_ports]))
    parts.append(f"subgraph cluster{number}subsystems {{\ncolor=white\nlabel=\"\"\n")
    subs = [s.GetGraphvizFragment(params.max_depth - 1, params.options)
            for s in diagram._systems]
    for sub in subs:
        parts.extend(sub.fragments)
    for (dst, dst_port), (src, src_port) in sorted(diagram._connections.items()):
        parts.append(f"{subs[src].output_ports[src_port]}:e -> "
                     f"{subs[dst].input_ports[dst_port]}:w\n")
    for k in range(len(diagram._input_ports)):
        for sub_index, sub_port in diagram._input_port_map[k]:
            parts.append(f"{node}in:{k}:e -> {subs[sub_index].input_ports[sub_port]}:w "
                         "[color=blue];\n")
    for k in range(len(diagram._output_ports)):
        sub_index, sub_port = diagram._output_port_map[k]
        parts.append(f"{subs[sub_index].output_ports[sub_port]}:e -> {node}out:{k}:w "
                     "[color=green];\n")
    parts.append("}\n}\n")
    return GraphvizFragment(parts,
                            [f"{node}in:{k}" for k in range(len(diagram._input_ports))],
                            [f"{node}out:{k}" for k in range(len(diagram._output_ports))])
