"""Graphviz DOT output for Systems: a leaf is a record node listing its ports;
a Diagram is a cluster with its exported ports, subsystems and connections."""
from __future__ import annotations

__all__ = ["system_graphviz"]


def _escape_record(text: str) -> str:
    out = []
    for ch in text:
        if ch in '{}|<> "\\':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _node_id(system) -> str:
    return f"s{id(system)}"


def _record_node(system) -> str:
    inputs = "|".join(f"<u{i}>{_escape_record(p.get_name())}"
                      for i, p in enumerate(system._input_ports))
    outputs = "|".join(f"<y{i}>{_escape_record(p.get_name())}"
                       for i, p in enumerate(system._output_ports))
    title = _escape_record(system.get_name() or type(system).__name__)
    label = "{" + title + "|{{" + inputs + "}|{" + outputs + "}}}"
    return f"{_node_id(system)} [shape=record, label={_quote(label)}];"


def _port_ref(system, kind: str, index: int, depth: int) -> str:
    """The DOT endpoint of a port, descending into drawn sub-diagrams."""
    if system._is_diagram and depth > 0:
        if kind == "y":
            sub_index, sub_port = system._output_port_map[index]
            return _port_ref(system._systems[sub_index], "y", sub_port, depth - 1)
        return f"{_node_id(system)}_u{index}"
    return f"{_node_id(system)}:{kind}{index}"


def _diagram_lines(diagram, depth: int) -> list:
    lines = [f"subgraph cluster{_node_id(diagram)} {{",
             f"label={_quote(diagram.get_name() or type(diagram).__name__)};",
             "color=black;"]
    for k, port in enumerate(diagram._input_ports):
        lines.append(f"{_node_id(diagram)}_u{k} [shape=ellipse, color=blue, "
                     f"label={_quote(port.get_name())}];")
        for sub_index, sub_port in diagram._input_port_map[k]:
            target = diagram._systems[sub_index]
            lines.append(f"{_node_id(diagram)}_u{k} -> "
                         f"{_port_ref(target, 'u', sub_port, depth - 1)};")
    for k, port in enumerate(diagram._output_ports):
        lines.append(f"{_node_id(diagram)}_y{k} [shape=ellipse, color=green, "
                     f"label={_quote(port.get_name())}];")
        sub_index, sub_port = diagram._output_port_map[k]
        source = diagram._systems[sub_index]
        lines.append(f"{_port_ref(source, 'y', sub_port, depth - 1)} -> "
                     f"{_node_id(diagram)}_y{k};")
    for system in diagram._systems:
        if system._is_diagram and depth > 1:
            lines.extend(_diagram_lines(system, depth - 1))
        else:
            lines.append(_record_node(system))
    for (dst, dst_port), (src, src_port) in sorted(diagram._connections.items()):
        source = _port_ref(diagram._systems[src], "y", src_port, depth - 1)
        target = _port_ref(diagram._systems[dst], "u", dst_port, depth - 1)
        lines.append(f"{source} -> {target};")
    lines.append("}")
    return lines


def system_graphviz(system, max_depth: int) -> str:
    """DOT text for `system`, drawing nested diagrams down to `max_depth` levels."""
    lines = [f"digraph _{id(system)} {{", "rankdir=LR;"]
    if system._is_diagram and max_depth > 0:
        lines.extend(_diagram_lines(system, max_depth))
    else:
        lines.append(_record_node(system))
    lines.append("}")
    return "\n".join(lines) + "\n"
