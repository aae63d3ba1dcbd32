"""Pictures of System diagrams (pydrake.systems.drawing): ``plot_system_graphviz`` and
``plot_graphviz`` draw a DOT graph in matplotlib, and a Diagram shows as SVG in
Jupyter (``Diagram._repr_svg_``).

Rendering needs Graphviz: the ``dot`` program on PATH (``apt-get install graphviz``)
or, failing that, ``pydot`` able to reach a Graphviz install. Without either, the
plotting functions raise a RuntimeError saying so; plotting also needs matplotlib
(an ImportError says so when it is missing). ``render_graphviz`` (an extension, not
in pydrake) returns the rendered bytes for saving to a file.
"""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import warnings

__all__ = ["plot_graphviz", "plot_system_graphviz", "render_graphviz",
           "running_as_notebook"]

try:
    # As pydrake: decided once at import; only a Jupyter kernel counts as a notebook.
    from IPython import get_ipython

    running_as_notebook = bool(get_ipython() and hasattr(get_ipython(), "kernel"))
except ImportError:
    running_as_notebook = False

_INSTALL_HINT = ("install Graphviz so that the `dot` program is on PATH (e.g. "
                 "`apt-get install graphviz`, `brew install graphviz`, "
                 "`conda install graphviz`)")


class _GraphvizUnavailable(RuntimeError):
    """Neither the dot program nor a working pydot was found."""


def _dot_program():
    """The path of Graphviz's ``dot`` program, or None."""
    return shutil.which("dot")


def _render_with_pydot(dot_text: str, format: str) -> bytes:
    try:
        import pydot
    except ImportError:
        raise _GraphvizUnavailable(
            f"rendering a Graphviz graph needs Graphviz's `dot` program, which was not "
            f"found on PATH (pydot, of the `drawing` extra, is not installed either): "
            f"{_INSTALL_HINT}") from None
    graphs = pydot.graph_from_dot_data(dot_text)
    graph = graphs[0] if isinstance(graphs, list) else graphs
    if graph is None:
        raise RuntimeError("pydot could not parse the DOT text")
    try:
        return graph.create(format=format)
    except Exception as error:  # pydot reports a missing program in several ways
        raise _GraphvizUnavailable(
            f"pydot could not run Graphviz ({type(error).__name__}: {error}); "
            f"{_INSTALL_HINT}") from error


def render_graphviz(dot_text: str, format: str = "svg", timeout: float = 60.0) -> bytes:
    """(Extension, not in pydrake.) Renders DOT text with Graphviz and returns the
    file's bytes.

    Args:
        dot_text: a DOT graph, e.g. ``system.GetGraphvizString()``.
        format: a Graphviz output format (``"svg"``, ``"png"``, ``"pdf"``, ...).
        timeout: seconds allowed for ``dot`` before giving up [s].
    Raises:
        TypeError: `dot_text` is not a str.
        ValueError: `format` is not a plain format name.
        RuntimeError: Graphviz is not available (the message says how to install it),
            ``dot`` rejected the text (its error is quoted) or ran over `timeout`.
    """
    if not isinstance(dot_text, str):
        raise TypeError(f"render_graphviz(): dot_text must be a str; got "
                        f"{type(dot_text).__name__}")
    if not isinstance(format, str) or not re.fullmatch(r"[a-z0-9_]+(:[a-z0-9_]+)*", format):
        raise ValueError(f"render_graphviz(): format must be a Graphviz format name such "
                         f"as 'svg' or 'png'; got {format!r}")
    program = _dot_program()
    if program is None:
        return _render_with_pydot(dot_text, format)
    try:
        run = subprocess.run([program, f"-T{format}"], input=dot_text.encode("utf-8"),
                             capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Graphviz `dot -T{format}` took longer than {timeout} s; "
                           "gave up") from None
    if run.returncode != 0 or not run.stdout:
        message = run.stderr.decode("utf-8", "replace").strip()
        raise RuntimeError(f"Graphviz `dot -T{format}` failed (exit code {run.returncode}): "
                           f"{message}")
    return run.stdout


def _plt():
    """matplotlib.pyplot, imported on first use."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("plot_graphviz needs matplotlib: `pip install matplotlib` (or "
                          "the library's `drawing` extra: `pip install "
                          "'scenegraph-systems[drawing]'`); importing it failed with: "
                          f"{error}") from error
    return plt


def plot_graphviz(dot_text):
    """Renders a DOT graph in matplotlib (as pydrake): in a Jupyter kernel, displays
    it as SVG and returns None; otherwise draws it as an image on the current axes
    (axes turned off) and returns matplotlib's AxesImage.

    Raises ImportError without matplotlib (outside Jupyter), RuntimeError without
    Graphviz or when ``dot`` rejects the text (see render_graphviz)."""
    if running_as_notebook:
        from IPython.display import SVG, display
        return display(SVG(render_graphviz(dot_text, "svg")))
    plt = _plt()
    image = plt.imread(io.BytesIO(render_graphviz(dot_text, "png")), format="png")
    plt.axis("off")
    return plt.imshow(image, aspect="equal")


def plot_system_graphviz(system, **kwargs):
    """Renders a System's Graphviz drawing in matplotlib: ``plot_graphviz(
    system.GetGraphvizString(**kwargs))`` (`kwargs`: ``max_depth``, ``options``)."""
    return plot_graphviz(system.GetGraphvizString(**kwargs))


def _repr_svg(system):
    """SVG text of `system`'s drawing for Jupyter, or None with a RuntimeWarning
    saying why (Graphviz missing or failing), so that Jupyter shows the text repr."""
    try:
        return render_graphviz(system.GetGraphvizString(), "svg").decode("utf-8")
    except RuntimeError as error:
        warnings.warn(f"no SVG picture of the system {system.get_name()!r}: {error}",
                      RuntimeWarning, stacklevel=3)
        return None
