"""Drake's Graphviz decoration of systems that talk to Meshcat: a ``path=...`` line in
the node's title and a dashed magenta edge to a ``Meshcat`` node."""
from __future__ import annotations

import copy

__all__ = ["meshcat_graphviz_fragment"]


def _resolve(path: str) -> str:
    if path.startswith("/"):
        return path
    return "/drake" if not path else f"/drake/{path}"


def meshcat_graphviz_fragment(base_method, params, path: str, subscribe: bool = False):
    """The fragment of ``base_method(params)`` (the plain LeafSystem drawing) decorated
    for a system publishing to the Meshcat `path` (and reading from it if
    `subscribe`)."""
    new_params = copy.copy(params)
    new_params.header_lines = list(params.header_lines) + [f"path={_resolve(path)}"]
    result = base_method(new_params)
    node = params.node_id
    result.fragments.append("meshcat_in [label=Meshcat, color=magenta];\n"
                            f"{node}:e -> meshcat_in [style=dashed, color=magenta]\n")
    if subscribe:
        result.fragments.append("meshcat_out [label=Meshcat, color=magenta];\n"
                                f"meshcat_out -> {node}:w [style=dashed, color=magenta]\n")
    return result
