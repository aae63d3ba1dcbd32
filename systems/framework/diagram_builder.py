"""DiagramBuilder: adds systems, connects and exports ports, checks for
algebraic loops and builds a Diagram (pydrake's ``DiagramBuilder``).

Every method validates its arguments before changing anything, so a rejected
call leaves the builder exactly as it was. The connection graph between
systems is kept as plain dicts (``connection_graph()`` hands out a networkx
``DiGraph`` of it); algebraic loops are found on a port-level graph whose
edges are connections plus each subsystem's direct-feedthrough pairs, by a
depth-first search of our own (networkx's import, ~0.1 s, is paid only by
connection_graph()).
"""
from __future__ import annotations

from systems.common.overloads import overloaded
from .diagram import Diagram
from .indices import InputPortIndex, OutputPortIndex
from .input_port import InputPort, PortDataType, UseDefaultName, _same_value_type
from .output_port import OutputPort
from .system import System
from .value import cpp_type_name

__all__ = ["DiagramBuilder"]


def _describe_system(system) -> str:
    return f"{system.GetSystemPathname()} ({type(system).__name__})"


class DiagramBuilder:
    """Assembles systems into a Diagram."""

    def __init__(self):
        self._systems = []
        self._system_by_name = {}
        self._connections = {}          # InputPort -> OutputPort
        self._exported_inputs = []      # [(name, [InputPort, ...])]
        self._exported_input_index = {}  # InputPort -> diagram input index
        self._exported_outputs = []     # [(name, OutputPort)]
        # (out system, in system) -> [(output index, input index), ...], in the
        # order the connections were made.
        self._edges = {}
        self._built = False

    # --- systems -----------------------------------------------------------------
    def _throw_if_built(self) -> None:
        if self._built:
            raise RuntimeError(
                "DiagramBuilder: Build() or BuildInto() has already been called to "
                "create a Diagram; this DiagramBuilder may no longer be used.")

    def AddSystem(self, system):
        """Adds `system` (taking ownership) and returns it.

        Raises:
          TypeError: `system` is not a System.
          RuntimeError: it was already added (to this or another builder), or the
            builder was already built.
        """
        self._throw_if_built()
        if not isinstance(system, System):
            raise TypeError(f"AddSystem(): expected a System; got "
                            f"{type(system).__name__}")
        if system._owner is self:
            raise RuntimeError(f"AddSystem(): System '{system.get_name()}' has already "
                               f"been added to this DiagramBuilder")
        if system._owner is not None:
            raise RuntimeError(
                f"AddSystem(): System '{system.get_name()}' has already been added to a "
                f"different DiagramBuilder or built into a different Diagram; a System "
                f"can only be added once")
        name = system.get_name() or system.GetMemoryObjectName()
        if name in self._system_by_name:
            raise RuntimeError(
                f"AddSystem(): this DiagramBuilder already contains a System named "
                f"'{name}'; System names must be unique within a Diagram")
        system._name = name
        system._owner = self
        self._systems.append(system)
        self._system_by_name[name] = system
        return system

    def AddNamedSystem(self, name: str, system):
        """Sets the name of `system` and adds it."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"AddNamedSystem(): name must be a non-empty str; got "
                             f"{name!r}")
        if name in self._system_by_name and self._system_by_name[name] is not system:
            raise RuntimeError(
                f"AddNamedSystem(): this DiagramBuilder already contains a System "
                f"named '{name}'; System names must be unique within a Diagram")
        self._throw_if_built()
        if isinstance(system, System) and system._owner is None:
            old = system._name
            system._name = name
            try:
                return self.AddSystem(system)
            except Exception:
                system._name = old
                raise
        return self.AddSystem(system)

    def _rename(self, system, name: str) -> None:
        """Called by System.set_name for a system this builder owns."""
        if name in self._system_by_name and self._system_by_name[name] is not system:
            raise RuntimeError(
                f"set_name(): this DiagramBuilder already contains a System named "
                f"'{name}'; System names must be unique within a Diagram")
        del self._system_by_name[system.get_name()]
        self._system_by_name[name] = system

    def GetSystems(self) -> list:
        """The systems added so far, in order (the mutable form is the same call)."""
        return list(self._systems)

    GetMutableSystems = GetSystems

    def HasSubsystemNamed(self, name: str) -> bool:
        """True if a system added so far is named `name`."""
        return name in self._system_by_name

    def GetSubsystemByName(self, name: str):
        """The system named `name` (the mutable form is the same call).

        Raises:
          RuntimeError: no system has that name (the message lists the names).
        """
        system = self._system_by_name.get(name)
        if system is None:
            names = ", ".join(sorted(self._system_by_name)) or "none"
            raise RuntimeError(f"DiagramBuilder: no System named '{name}' (the systems "
                               f"are named {{{names}}})")
        return system

    GetMutableSubsystemByName = GetSubsystemByName

    def already_built(self) -> bool:
        """True once Build() or BuildInto() has run (the builder is then spent)."""
        return self._built

    def empty(self) -> bool:
        """True when no System has been added."""
        return not self._systems

    def RemoveSystem(self, system) -> None:
        """Removes `system` with its connections and exported ports (later exported
        ports move down one index per removed port); the System may be added again."""
        self._throw_if_built()
        self._check_owned(system, "RemoveSystem")
        self._connections = {i: o for i, o in self._connections.items()
                             if i.get_system() is not system and o.get_system() is not system}
        exported = []
        for name, ports in self._exported_inputs:
            kept = [p for p in ports if p.get_system() is not system]
            if kept:
                exported.append((name, kept))
        self._exported_inputs = exported
        self._exported_input_index = {p: k for k, (_, ports) in enumerate(exported)
                                      for p in ports}
        self._exported_outputs = [(n, o) for n, o in self._exported_outputs
                                  if o.get_system() is not system]
        self._systems.remove(system)
        del self._system_by_name[system.get_name()]
        self._edges = {pair: ports for pair, ports in self._edges.items()
                       if system not in pair}
        system._owner = None

    def Disconnect(self, source: OutputPort, dest: InputPort) -> None:
        """Removes the connection source -> dest made by Connect.

        Raises:
          RuntimeError: the two ports are not connected to each other.
        """
        self._throw_if_built()
        if self._connections.get(dest) is not source:
            raise RuntimeError(
                f"DiagramBuilder::Disconnect(): output port {source.get_name()} of System "
                f"{source.get_system().get_name()} is not connected to input port "
                f"{dest.get_name()} of System {dest.get_system().get_name()}")
        del self._connections[dest]
        out_system, in_system = source.get_system(), dest.get_system()
        ports = self._edges[out_system, in_system]
        ports.remove((source._index, dest._index))
        if not ports:
            del self._edges[out_system, in_system]

    def ConnectToSame(self, exemplar: InputPort, dest: InputPort) -> None:
        """Connects `dest` to whatever `exemplar` is connected to: the same output
        port, or the same exported Diagram input. Does nothing when `exemplar` is
        neither connected nor exported."""
        self._throw_if_built()
        if exemplar in self._connections:
            self.Connect(self._connections[exemplar], dest)
        elif exemplar in self._exported_input_index:
            self.ConnectInput(self._exported_input_index[exemplar], dest)

    def connection_graph(self):
        """A networkx DiGraph of the systems and their connections (an
        extension): every added system is a node, and an edge from a source
        system to a destination carries ``ports=[(output index, input index),
        ...]``. A new graph at every call."""
        import networkx as nx
        graph = nx.DiGraph()
        graph.add_nodes_from(self._systems)
        for (out_system, in_system), ports in self._edges.items():
            graph.add_edge(out_system, in_system, ports=list(ports))
        return graph

    def connection_map(self) -> dict:
        """{(destination system, input index): (source system, output index)} for every
        connection made so far."""
        return {(i.get_system(), i.get_index()): (o.get_system(), o.get_index())
                for i, o in self._connections.items()}

    def num_input_ports(self) -> int:
        """The number of diagram inputs exported so far."""
        return len(self._exported_inputs)

    def num_output_ports(self) -> int:
        """The number of diagram outputs exported so far."""
        return len(self._exported_outputs)

    # --- connections -------------------------------------------------------------
    def _check_owned(self, system, method: str) -> None:
        if system._owner is not self:
            raise RuntimeError(
                f"DiagramBuilder::{method}(): System '{system.get_name()}' "
                f"({type(system).__name__}) has not been added to this DiagramBuilder "
                f"using AddSystem")

    def _check_input_free(self, port: InputPort, method: str) -> None:
        if port in self._connections:
            source = self._connections[port]
            raise RuntimeError(
                f"DiagramBuilder::{method}(): input port {port.get_name()} of System "
                f"{port.get_system().get_name()} is already connected to output port "
                f"{source.get_name()} of System {source.get_system().get_name()}")
        if port in self._exported_input_index:
            raise RuntimeError(
                f"DiagramBuilder::{method}(): input port {port.get_name()} of System "
                f"{port.get_system().get_name()} is already exported as a Diagram "
                f"input")

    def Connect(self, src, dest) -> None:
        """``Connect(output_port, input_port)`` or ``Connect(system_a, system_b)``
        (each with exactly one output and one input port respectively).

        Raises:
          RuntimeError: a port's system was not added here, the sizes or types
            differ, the input is already connected or exported, or the builder was
            already built; nothing changes.
        """
        self._throw_if_built()
        if isinstance(src, System) and isinstance(dest, System):
            self._check_owned(src, "Connect")
            self._check_owned(dest, "Connect")
            if src.num_output_ports() != 1 or dest.num_input_ports() != 1:
                raise RuntimeError(
                    f"DiagramBuilder::Connect(system, system): System "
                    f"'{src.get_name()}' must have exactly one output port (it has "
                    f"{src.num_output_ports()}) and System '{dest.get_name()}' exactly "
                    f"one input port (it has {dest.num_input_ports()})")
            src, dest = src.get_output_port(0), dest.get_input_port(0)
        if not isinstance(src, OutputPort) or not isinstance(dest, InputPort):
            raise TypeError("Connect(): expected (OutputPort, InputPort) or "
                            "(System, System)")
        out_system, in_system = src.get_system(), dest.get_system()
        self._check_owned(out_system, "Connect")
        self._check_owned(in_system, "Connect")
        self._check_input_free(dest, "Connect")
        _check_compatible(src, dest)
        self._connections[dest] = src
        self._edges.setdefault((out_system, in_system), []).append((src._index, dest._index))

    def ExportInput(self, input, name=None) -> InputPortIndex:
        """Makes `input` an input port of the Diagram; returns its index.

        Raises:
          RuntimeError: its system was not added here, the input is already
            connected or exported, or the name is taken.
        """
        self._throw_if_built()
        if not isinstance(input, InputPort):
            raise TypeError("ExportInput(): expected an InputPort")
        self._check_owned(input.get_system(), "ExportInput")
        self._check_input_free(input, "ExportInput")
        if name is None or isinstance(name, UseDefaultName):
            name = f"{input.get_system().get_name()}_{input.get_name()}"
        if any(existing == name for existing, _ in self._exported_inputs):
            raise RuntimeError(f"DiagramBuilder::ExportInput(): the Diagram already has "
                               f"an input port named '{name}'")
        index = len(self._exported_inputs)
        self._exported_inputs.append((name, [input]))
        self._exported_input_index[input] = index
        return InputPortIndex(index)

    @overloaded.typed(diagram_port_name=str)
    def ConnectInput(self, diagram_port_name, input) -> None:
        """Connects `input` to the already exported Diagram input of that name."""
        self._connect_input(diagram_port_name, input)

    @ConnectInput.overload
    def ConnectInput(self, diagram_port_index, input) -> None:
        """Connects `input` to the already exported Diagram input of that index."""
        self._connect_input(diagram_port_index, input)

    def _connect_input(self, diagram_port, input) -> None:
        self._throw_if_built()
        if not isinstance(input, InputPort):
            raise TypeError("ConnectInput(): expected an InputPort")
        if isinstance(diagram_port, str):
            matches = [i for i, (n, _) in enumerate(self._exported_inputs)
                       if n == diagram_port]
            if not matches:
                raise RuntimeError(f"DiagramBuilder::ConnectInput(): the Diagram has no "
                                   f"input port named '{diagram_port}'")
            index = matches[0]
        else:
            index = int(diagram_port)
            if not (0 <= index < len(self._exported_inputs)):
                raise RuntimeError(f"DiagramBuilder::ConnectInput(): the Diagram has no "
                                   f"input port {index}")
        self._check_owned(input.get_system(), "ConnectInput")
        self._check_input_free(input, "ConnectInput")
        first = self._exported_inputs[index][1][0]
        if first._data_type != input._data_type or first._size != input._size:
            raise RuntimeError(
                f"DiagramBuilder::ConnectInput(): input port {input.get_name()} of "
                f"System {input.get_system().get_name()} (size {input.size()}) does not "
                f"match Diagram input '{self._exported_inputs[index][0]}' "
                f"(size {first.size()})")
        self._exported_inputs[index][1].append(input)
        self._exported_input_index[input] = index

    def ExportOutput(self, output, name=None) -> OutputPortIndex:
        """Makes `output` an output port of the Diagram; returns its index.

        Raises:
          RuntimeError: its system was not added here, or the name is taken.
        """
        self._throw_if_built()
        if not isinstance(output, OutputPort):
            raise TypeError("ExportOutput(): expected an OutputPort")
        self._check_owned(output.get_system(), "ExportOutput")
        if name is None or isinstance(name, UseDefaultName):
            name = f"{output.get_system().get_name()}_{output.get_name()}"
        if any(existing == name for existing, _ in self._exported_outputs):
            raise RuntimeError(f"DiagramBuilder::ExportOutput(): the Diagram already "
                               f"has an output port named '{name}'")
        self._exported_outputs.append((name, output))
        return OutputPortIndex(len(self._exported_outputs) - 1)

    def IsConnectedOrExported(self, port: InputPort) -> bool:
        """True if input `port` is connected to an output or exported as a diagram input."""
        return port in self._connections or port in self._exported_input_index

    # --- build -------------------------------------------------------------------
    def Build(self) -> Diagram:
        """Builds the Diagram. Raises if names clash or an algebraic loop exists;
        the builder is left usable in that case."""
        diagram = Diagram()
        self.BuildInto(diagram)
        return diagram

    def BuildInto(self, target: Diagram) -> None:
        """Builds the diagram into `target`, a new Diagram (e.g. of a Diagram subclass).

        Raises:
          RuntimeError: the builder was already used, `target` is not a new Diagram,
            two systems share a name, or the connections form an algebraic loop.
        """
        self._throw_if_built()
        if not isinstance(target, Diagram) or target._built:
            raise RuntimeError("BuildInto(): the target must be a new, unbuilt Diagram")
        self._check_unique_names()
        self._check_for_algebraic_loops()
        target._initialize(self._systems, self._connections,
                           [(n, list(ports)) for n, ports in self._exported_inputs],
                           list(self._exported_outputs))
        self._built = True

    def _check_unique_names(self) -> None:
        seen = {}
        for system in self._systems:
            name = system.get_name()
            if name in seen:
                raise RuntimeError(
                    f"Diagram contains two Systems named '{name}'; System names must "
                    f"be unique within a Diagram")
            seen[name] = system

    def _check_for_algebraic_loops(self) -> None:
        graph = _port_graph(self._systems, self._connections.items())
        cycle = _find_cycle(graph)
        if cycle is None:
            return
        lines = []
        for node_from, node_to in cycle:
            lines.append(f"  {_describe_port(node_from)} "
                         f"{'is direct-feedthrough to' if node_from[0] == 'in' else 'is connected to'}")
        lines.append(f"  {_describe_port(cycle[0][0])}")
        raise RuntimeError(
            "Reported algebraic loop detected in DiagramBuilder:\n" + "\n".join(lines)
            + "\nA System may have conservatively reported that one of its output ports "
            "depends on an input port, making one of the 'is direct-feedthrough to' "
            "lines above spurious. If that is the case, remove the spurious dependency "
            "by declaring the output port's prerequisites_of_calc (for example "
            "{self.xc_ticket()} for a port that depends on continuous state only).")


def _check_compatible(src: OutputPort, dest: InputPort) -> None:
    where = (f"output port {src.get_name()} of System {src.get_system().get_name()} to "
             f"input port {dest.get_name()} of System {dest.get_system().get_name()}")
    if src._data_type != dest._data_type:
        raise RuntimeError(f"DiagramBuilder::Connect(): cannot mix vector-valued and "
                           f"abstract-valued ports while connecting {where}")
    if src._data_type == PortDataType.kVectorValued:
        if src._size != dest._size:
            raise RuntimeError(f"DiagramBuilder::Connect(): mismatched vector sizes while "
                               f"connecting {where}: output size {src.size()}, input "
                               f"size {dest.size()}")
        return
    produced_type = getattr(type(src.Allocate()), "_value_type", object)
    expected = getattr(type(dest._model), "_value_type", object)
    if not _same_value_type(expected, produced_type):
        # Drake's words; types named as pydrake names them (std::string, double,
        # drake::pydrake::Object for Value[object] ...).
        raise RuntimeError(
            f"DiagramBuilder::Connect: Mismatched value types while connecting "
            f"output port {src.get_name()} of System {src.get_system().get_name()} "
            f"(type {cpp_type_name(produced_type)}) to input port {dest.get_name()} "
            f"of System {dest.get_system().get_name()} (type "
            f"{cpp_type_name(expected)})")


def _port_graph(systems, connections) -> dict:
    """Port-level graph {node: [successor, ...]} (nodes and successors in the
    order first met): connection edges out->in, feedthrough edges in->out;
    a node is ("in" | "out", system, port index)."""
    graph = {}

    def add_edge(a, b):
        successors = graph.setdefault(a, [])
        graph.setdefault(b, [])
        if b not in successors:
            successors.append(b)

    for system in systems:
        for i, j in system._feedthrough_pairs():
            add_edge(("in", system, i), ("out", system, j))
    for dest, src in connections:
        add_edge(("out", src.get_system(), src._index), ("in", dest.get_system(), dest._index))
    return graph


def _find_cycle(graph: dict):
    """The edges [(a, b), ..., (z, a)] of a directed cycle of `graph` (from
    _port_graph), or None: an iterative depth-first search from each node in
    order, successors in order; the first edge back to a node on the current
    path closes the cycle, which is reported from that node."""
    done = set()
    for start in graph:
        if start in done:
            continue
        path, on_path = [start], {start: 0}
        iterators = [iter(graph[start])]
        while iterators:
            node = next(iterators[-1], None)
            if node is None:
                finished = path.pop()
                del on_path[finished]
                done.add(finished)
                iterators.pop()
                continue
            if node in on_path:
                loop = path[on_path[node]:] + [node]
                return list(zip(loop[:-1], loop[1:]))
            if node not in done:
                on_path[node] = len(path)
                path.append(node)
                iterators.append(iter(graph[node]))
    return None


def _descendants(graph: dict, node) -> set:
    """Every node reachable from `node` in `graph` (from _port_graph), itself
    excluded unless a cycle returns to it."""
    seen, stack = set(), list(graph.get(node, ()))
    while stack:
        other = stack.pop()
        if other not in seen:
            seen.add(other)
            stack.extend(graph[other])
    return seen


def _describe_port(node) -> str:
    kind, system, index = node
    if kind == "in":
        port = system.get_input_port(index)
        return (f"InputPort[{index}] ({port.get_name()}) of System "
                f"{_describe_system(system)}")
    port = system.get_output_port(index)
    return f"OutputPort[{index}] ({port.get_name()}) of System {_describe_system(system)}"


def _diagram_feedthrough(diagram: Diagram) -> set:
    """(diagram input, diagram output) pairs joined by a feedthrough path."""
    systems = diagram._systems
    connections = [(systems[d].get_input_port(dp), systems[s].get_output_port(sp))
                   for (d, dp), (s, sp) in diagram._connections.items()]
    graph = _port_graph(systems, connections)
    pairs = set()
    for k, targets in enumerate(diagram._input_port_map):
        reachable = set()
        for sub_index, sub_port in targets:
            node = ("in", systems[sub_index], sub_port)
            if node in graph:
                reachable |= _descendants(graph, node)
        for j, (out_index, out_port) in enumerate(diagram._output_port_map):
            if ("out", systems[out_index], out_port) in reachable:
                pairs.add((k, j))
    return pairs
