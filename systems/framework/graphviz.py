"""Graphviz DOT output for Systems, in Drake 1.51's format (the same text as pydrake's
``GetGraphvizString`` up to system ids, which count construction order).

Layout: the graph is ranked left to right (``rankdir=LR``). A leaf System is one
HTML-table node: a header row (bold class name, then ``name=...``), then one row per
port with the inputs in the left column (DOT ports ``u0, u1, ...``) and the outputs
in the right column (``y0, y1, ...``). A connection is an edge from an output port's
east side to an input port's west side (``s1:y0:e -> s2:u0:w``). A Diagram is a
cluster ``cluster<id>diagram`` holding a grey ``input ports`` cluster (node
``s<id>in``, DOT ports ``0, 1, ...``, blue edges to the subsystems serving them), a
grey ``output ports`` cluster (node ``s<id>out``, green edges) and a white cluster
of its subsystems; nested Diagrams are nested clusters down to ``max_depth`` levels,
below which a Diagram is drawn as a leaf node listing its exported ports.

Every System draws itself through ``GetGraphvizFragment`` → ``DoGetGraphvizFragment``
(so a Python override of ``DoGetGraphvizFragment`` is honoured, also inside a
Diagram). Options (dict str -> str) are Drake's: ``{"split": "I/O"}`` draws a leaf
as two nodes (inputs, outputs); a Diagram hands a subsystem named ``name`` the
options whose key starts with ``"name/"``, with that prefix removed (so
``{"plant/split": "I/O"}`` splits only the subsystem named ``plant``).
"""
from __future__ import annotations

__all__ = ["GraphvizFragment", "GraphvizFragmentParams", "leaf_fragment",
           "diagram_fragment", "type_label", "header_lines", "html_escape",
           "filter_options", "validate_arguments"]


class GraphvizFragment:
    """A system's DOT text (``fragments``, a list of str, concatenated in order) and
    the DOT endpoints of its ports (``input_ports``, ``output_ports``: lists of
    ``"node:port"`` str, indexed like the system's ports)."""

    def __init__(self, fragments=None, input_ports=None, output_ports=None):
        self.fragments = list(fragments or [])
        self.input_ports = list(input_ports or [])
        self.output_ports = list(output_ports or [])

    def __repr__(self) -> str:
        return (f"GraphvizFragment(input_ports={self.input_ports!r}, "
                f"output_ports={self.output_ports!r}, {len(self.fragments)} fragments)")


class GraphvizFragmentParams:
    """What ``DoGetGraphvizFragment`` receives: ``max_depth`` (levels of nested
    diagrams still to expand, int >= 0), ``options`` (dict str -> str), ``node_id``
    (the DOT id to use, ``"s<system id>"``) and ``header_lines`` (HTML lines of the
    node's title). Constructible here (pydrake's has no constructor: an extension)."""

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


def html_escape(text: str) -> str:
    """Drake's HtmlEscape: ``&``, ``<`` and ``>`` become entities; quotes stay."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def validate_arguments(max_depth, options) -> tuple:
    """``(max_depth as int, options as a dict copy)`` for GetGraphvizFragment /
    GetGraphvizString; raises TypeError for a non-integer depth or options that are
    not a dict of str to str, ValueError for a negative depth."""
    if max_depth is None:
        depth = 2**31 - 1
    else:
        if isinstance(max_depth, bool) or not hasattr(max_depth, "__index__"):
            raise TypeError(f"GetGraphvizString(): max_depth must be an int or None; "
                            f"got {max_depth!r}")
        depth = max_depth.__index__()
        if depth < 0:
            raise ValueError(f"GetGraphvizString(): max_depth must be >= 0; got {depth}")
    if not isinstance(options, dict):
        raise TypeError(f"GetGraphvizString(): options must be a dict of str to str; "
                        f"got {type(options).__name__}")
    for key, value in options.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"GetGraphvizString(): options must map str to str; got "
                            f"{key!r}: {value!r}")
    return depth, dict(options)


def type_label(system) -> str:
    """The title Drake prints: the class name for this library's systems, the full
    ``module.qualname`` for a user's Python class (as pydrake prints it)."""
    cls = type(system)
    module = cls.__module__ or ""
    if module.split(".")[0] in ("systems", "scenegraph"):
        return cls.__name__
    return f"{module}.{cls.__qualname__}"


def header_lines(system) -> list:
    """The node title's HTML lines: ``<B>type</B>`` and, when the system was given a
    name, ``name=<name>``."""
    lines = [f"<B>{html_escape(type_label(system))}</B>"]
    name = system.get_name()
    if name and name != system.GetMemoryObjectName():
        lines.append(f"name={html_escape(name)}")
    return lines


def port_labels(system, inputs: bool) -> list:
    """The HTML-escaped names of the system's input (or output) ports, by index."""
    ports = system._input_ports if inputs else system._output_ports
    return [html_escape(port.get_name()) for port in ports]


def leaf_fragment(system, params) -> GraphvizFragment:
    """Drake's default drawing of a System: one table node, or two with
    ``options["split"] == "I/O"`` (inputs node ``<id>in``, outputs node ``<id>out``,
    each with a dotted "(split)" cell in place of the other column). When the columns
    differ in length, a single port in the shorter column spans every row; otherwise
    a grey cell fills the rest of the shorter column."""
    split = params.options.get("split") == "I/O"
    node_in = params.node_id + "in" if split else params.node_id
    node_out = params.node_id + "out" if split else params.node_id
    labels_in, labels_out = port_labels(system, True), port_labels(system, False)
    n_in, n_out = len(labels_in), len(labels_out)
    low, high = min(n_in, n_out), max(n_in, n_out)
    labels = [[labels_in[i] if i < n_in else None, labels_out[i] if i < n_out else None]
              for i in range(high)]
    styles = [["", ""] for _ in range(high)]
    if n_in != n_out:
        short = 0 if n_in < n_out else 1
        if low == 1:
            styles[0][short] = f'ROWSPAN="{high}"'
        else:
            labels[low][short] = ""
            styles[low][short] = (f'COLOR="grey" ROWSPAN="{high - low}" '
                                  f'SIDES="{"BL" if short == 0 else "BR"}"')
    result = GraphvizFragment(input_ports=[f"{node_in}:u{i}" for i in range(n_in)],
                              output_ports=[f"{node_out}:y{i}" for i in range(n_out)])
    nodes = [(node_in, n_in, 0), (node_out, n_out, 1)] if split else [(node_in, high, None)]
    for node_id, rows, live in nodes:
        result.fragments.append(
            f'{node_id} [shape=none, border=0, label=<\n<TABLE BORDER="0" CELLSPACING="0">\n'
            '<TR><TD BORDER="1" COLSPAN="2">\n' + "<BR/>\n".join(params.header_lines)
            + "\n</TD></TR>\n")
        for i in range(rows):
            result.fragments.append("<TR>\n")
            for column in (0, 1):
                if live is not None and column != live:
                    if i == 0:
                        result.fragments.append(
                            '<TD BORDER="1" STYLE="dotted" COLOR="cadetblue" '
                            f'ROWSPAN="{n_out if column == 0 else n_in}">\n'
                            '<FONT COLOR="cadetblue">(split)</FONT>\n</TD>\n')
                    continue
                if labels[i][column] is not None:
                    result.fragments.append(
                        f'<TD PORT="{"uy"[column]}{i}" BORDER="1" {styles[i][column]}>'
                        f"{labels[i][column]}</TD>\n")
            result.fragments.append("</TR>\n")
        result.fragments.append("</TABLE>\n>];\n")
    return result


def filter_options(options: dict, subsystem) -> dict:
    """The options a Diagram passes to `subsystem`: those whose key starts with
    ``"<subsystem name>/"``, with that prefix removed (Drake's FilterGraphvizOptions)."""
    prefix = subsystem.get_name() + "/"
    return {key[len(prefix):]: value for key, value in options.items()
            if key.startswith(prefix)}


def _port_cluster(fragments: list, port_ids: list, kind: str, node: str, color: str,
                  labels: list) -> None:
    fragments.append(f'subgraph cluster{node} {{\nrank=same\ncolor=lightgrey\nstyle=filled\n'
                     f'label="{kind} ports"\n{node} [shape=none, label=<\n'
                     f'<TABLE BORDER="0" COLOR="{color}" CELLSPACING="3" STYLE="rounded">\n')
    for i, label in enumerate(labels):
        fragments.append(f'<TR><TD BORDER="1" PORT="{i}">{label}</TD></TR>\n')
        port_ids.append(f"{node}:{i}")
    fragments.append("</TABLE>\n>];\n}\n")


def diagram_fragment(diagram, params) -> GraphvizFragment:
    """A Diagram as a cluster of its exported ports and its subsystems' fragments
    (each from the subsystem's own GetGraphvizFragment, one level shallower, with its
    filtered options), or as a leaf node when ``params.max_depth`` is 0."""
    if params.max_depth <= 0:
        return leaf_fragment(diagram, params)
    subs = [s.GetGraphvizFragment(params.max_depth - 1, filter_options(params.options, s))
            for s in diagram._systems]
    number = params.node_id[1:]
    result = GraphvizFragment()
    result.fragments.append(
        f"subgraph cluster{number}diagram {{\ncolor=black\nconcentrate=true\n"
        'label=<<TABLE BORDER="0"><TR><TD>\n' + "<BR/>\n".join(params.header_lines)
        + "\n</TD></TR></TABLE>>;\n")
    if diagram._input_ports:
        _port_cluster(result.fragments, result.input_ports, "input",
                      params.node_id + "in", "blue", port_labels(diagram, True))
    if diagram._output_ports:
        _port_cluster(result.fragments, result.output_ports, "output",
                      params.node_id + "out", "green", port_labels(diagram, False))
    result.fragments.append(f'subgraph cluster{number}subsystems {{\ncolor=white\nlabel=""\n')
    for sub in subs:
        result.fragments.extend(sub.fragments)
    for (dst, dst_port), (src, src_port) in sorted(diagram._connections.items()):
        result.fragments.append(f"{subs[src].output_ports[src_port]}:e -> "
                                f"{subs[dst].input_ports[dst_port]}:w\n")
    for k, targets in enumerate(diagram._input_port_map):
        for sub_index, sub_port in targets:
            result.fragments.append(f"{result.input_ports[k]}:e -> "
                                    f"{subs[sub_index].input_ports[sub_port]}:w [color=blue];\n")
    for k, (sub_index, sub_port) in enumerate(diagram._output_port_map):
        result.fragments.append(f"{subs[sub_index].output_ports[sub_port]}:e -> "
                                f"{result.output_ports[k]}:w [color=green];\n")
    result.fragments.append("}\n}\n")
    return result
