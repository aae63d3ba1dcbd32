"""SystemBase (the scalar-independent base of every System), its Graphviz API, and
SystemVisitor (pydrake's names).

``GetGraphvizString(max_depth=None, options={})`` draws the system through
``GetGraphvizFragment`` → ``DoGetGraphvizFragment(params)``; override the latter to
change a system's drawing (call ``super().DoGetGraphvizFragment(params)`` for the
default and edit its ``fragments``).
"""
from __future__ import annotations

import itertools

from . import graphviz

__all__ = ["SystemBase", "SystemVisitor"]

_system_ids = itertools.count(1)


def next_system_id() -> int:
    """A process-wide increasing id (Drake's SystemId), used in DOT node names."""
    return next(_system_ids)


class _SystemMeta(type):
    """Checks, as pydrake does, that a subclass's ``__init__`` ran the framework's
    (``super().__init__()``): otherwise the object has no ports, state or id, and
    the first use would fail far from the cause."""

    def __call__(cls, *args, **kwargs):
        system = super().__call__(*args, **kwargs)
        if "_system_id" not in system.__dict__:
            raise TypeError(f"{_framework_base_name(cls)}.__init__() must be called when "
                            f"overriding __init__")
        return system

    @property
    def __signature__(cls):
        """The signature of ``cls(...)``: that of ``__init__`` without ``self`` (so
        inspect.signature does not report this metaclass's ``__call__``)."""
        import inspect
        try:
            signature = inspect.signature(cls.__init__)
        except (TypeError, ValueError):
            return None
        parameters = list(signature.parameters.values())[1:]
        return signature.replace(parameters=parameters)


def _framework_base_name(cls) -> str:
    """``systems.framework.LeafSystem`` for a user class derived from LeafSystem: the
    nearest library class in the MRO, under its package's public module name."""
    for base in cls.__mro__:
        module = base.__module__
        if module.startswith(("systems.", "scenegraph.")):
            public = ".".join(module.split(".")[:2]) if module.startswith("systems.") \
                else "scenegraph"
            return f"{public}.{base.__name__}"
    return cls.__qualname__  # pragma: no cover - every System derives from SystemBase


class SystemBase(metaclass=_SystemMeta):
    """Base of System (pydrake's ``SystemBase``): naming, ports, tickets and cache
    entries are implemented by System; this class holds the Graphviz API."""

    GraphvizFragment = graphviz.GraphvizFragment
    GraphvizFragmentParams = graphviz.GraphvizFragmentParams

    def GetGraphvizFragment(self, max_depth=None, options={}):  # noqa: B006
        """(Advanced) This system's DOT text without the enclosing ``digraph``, and
        the DOT ids of its ports, for drawing it inside another graph. Arguments as
        GetGraphvizString. Raises TypeError for a non-int `max_depth` or options not
        mapping str to str, ValueError for a negative `max_depth`."""
        depth, options = graphviz.validate_arguments(max_depth, options)
        params = graphviz.GraphvizFragmentParams(
            max_depth=depth, options=options, node_id=f"s{self._system_id}",
            header_lines=graphviz.header_lines(self))
        fragment = self.DoGetGraphvizFragment(params)
        if not isinstance(fragment, graphviz.GraphvizFragment):
            raise TypeError(f"{type(self).__name__}.DoGetGraphvizFragment() must return a "
                            f"GraphvizFragment; got {type(fragment).__name__}")
        return fragment

    def DoGetGraphvizFragment(self, params):
        """The default drawing: one HTML-table node listing the ports (a cluster for a
        Diagram). Override to customise; `params` is a GraphvizFragmentParams."""
        if getattr(self, "_is_diagram", False):
            return graphviz.diagram_fragment(self, params)
        return graphviz.leaf_fragment(self, params)

    def GetGraphvizString(self, max_depth=None, options={}) -> str:  # noqa: B006
        """A Graphviz DOT graph of this system, drawn like Drake: left-to-right, each
        system a table with input ports left and output ports right, edges from
        output to input ports, a Diagram a cluster with its exported ports on its
        border (see systems.framework.graphviz).

        Args:
            max_depth: levels of nested Diagrams drawn as clusters (None: all; 0 draws
                this Diagram as one node listing its exported ports).
            options: dict str -> str. ``{"split": "I/O"}`` draws a leaf as separate
                input and output nodes; a key ``"<subsystem name>/<key>"`` passes
                ``<key>`` to that subsystem only (nested: ``"a/b/split"``).
        Raises TypeError / ValueError as GetGraphvizFragment.
        Render with ``dot -Tsvg`` or systems.drawing.plot_system_graphviz."""
        fragment = self.GetGraphvizFragment(max_depth, options)
        return (f"digraph _{self._system_id} {{\nrankdir=LR\n"
                + "".join(fragment.fragments) + "}\n")


class SystemVisitor:
    """Double dispatch over systems (pydrake's ``SystemVisitor``): ``system.Accept(v)``
    calls ``v.VisitDiagram(system)`` for a Diagram and ``v.VisitSystem(system)``
    otherwise. Override both."""

    def VisitSystem(self, system) -> None:
        """Called by Accept for a leaf system; override it."""
        raise NotImplementedError("SystemVisitor.VisitSystem() must be overridden")

    def VisitDiagram(self, diagram) -> None:
        """Called by Accept for a Diagram; override it."""
        raise NotImplementedError("SystemVisitor.VisitDiagram() must be overridden")
