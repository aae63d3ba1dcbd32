"""Dependency tickets: names for the sources a computation may depend on.

A ticket identifies one value-source (time, a state group, a parameter, an
input port, a cache entry, ...) of one System. Computations declare their
prerequisites as a set of tickets; the Context's dependency graph invalidates
exactly the computations downstream of a changed source.

Built-in tickets have fixed numbers shared by every System; tickets for a
System's own declarations (a discrete group, an input port, a cache entry,
...) are numbered from ``FIRST_DYNAMIC_TICKET`` in declaration order.
"""
from __future__ import annotations

from enum import IntEnum

__all__ = ["DependencyTicket", "BuiltInTicket", "FIRST_DYNAMIC_TICKET",
           "BUILT_IN_SUBSCRIBERS"]


class DependencyTicket(int):
    """An opaque, hashable ticket number (pydrake's ``DependencyTicket``)."""

    __slots__ = ()

    def __new__(cls, arg0: int = -1234567, /):
        return super().__new__(cls, arg0)

    def __repr__(self) -> str:
        return f"DependencyTicket({int(self)})"

    def is_valid(self) -> bool:
        """True if the ticket holds a value ≥ 0 (a default-constructed one does not)."""
        return int(self) >= 0


class BuiltInTicket(IntEnum):
    """The ticket numbers every System shares (Drake's internal numbering)."""

    nothing = 0
    time = 1
    accuracy = 2
    q = 3
    v = 4
    z = 5
    xc = 6
    xd = 7
    xa = 8
    x = 9
    pn = 10
    pa = 11
    all_parameters = 12
    all_input_ports = 13
    all_sources_except_input_ports = 14
    all_sources = 15
    configuration = 16
    kinematics = 17
    xcdot = 18
    pe = 19
    ke = 20
    pc = 21
    pnc = 22


FIRST_DYNAMIC_TICKET = 23

# prerequisite -> the built-in trackers that subscribe to it. Drake's rules:
# configuration covers q, discrete and abstract state, parameters and
# accuracy; kinematics adds v; all_sources adds the input ports.
_T = BuiltInTicket
BUILT_IN_SUBSCRIBERS: dict[int, tuple[int, ...]] = {
    _T.time: (_T.all_sources_except_input_ports,),
    _T.accuracy: (_T.all_sources_except_input_ports, _T.configuration),
    _T.q: (_T.xc, _T.configuration),
    _T.v: (_T.xc, _T.kinematics),
    _T.z: (_T.xc,),
    _T.xc: (_T.x,),
    _T.xd: (_T.x, _T.configuration),
    _T.xa: (_T.x, _T.configuration),
    _T.x: (_T.all_sources_except_input_ports,),
    _T.pn: (_T.all_parameters,),
    _T.pa: (_T.all_parameters,),
    _T.all_parameters: (_T.all_sources_except_input_ports, _T.configuration),
    _T.all_input_ports: (_T.all_sources,),
    _T.all_sources_except_input_ports: (_T.all_sources,),
    _T.configuration: (_T.kinematics,),
}
del _T
