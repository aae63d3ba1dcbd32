"""Proximity-property helpers for hydroelastic and point contact (Drake's names).

Group "hydroelastic": "compliance_type" (a HydroelasticType),
"hydroelastic_modulus" [Pa], "resolution_hint" [m], "slab_thickness" [m].
Group "material": "coulomb_friction" (CoulombFriction),
"hunt_crossley_dissipation" [s/m], "point_contact_stiffness" [N/m],
"relaxation_time" [s].

Every helper validates all of its values and checks that none of the
properties it would add exists before it adds anything, so a rejected call
leaves ``properties`` unchanged.
"""
from __future__ import annotations

import enum
import math

from systems.common.overloads import signatures
from scenegraph.geometry_properties import ProximityProperties

HYDRO_GROUP = "hydroelastic"
COMPLIANCE_TYPE = "compliance_type"
HYDROELASTIC_MODULUS = "hydroelastic_modulus"
RESOLUTION_HINT = "resolution_hint"
SLAB_THICKNESS = "slab_thickness"
MATERIAL_GROUP = "material"
FRICTION = "coulomb_friction"
HC_DISSIPATION = "hunt_crossley_dissipation"
POINT_STIFFNESS = "point_contact_stiffness"
RELAXATION_TIME = "relaxation_time"


class HydroelasticType(enum.IntEnum):
    """Compliance of a geometry's hydroelastic representation (Drake's enum)."""

    kUndefined = 0
    kRigid = 1
    kSoft = 2

    def __str__(self) -> str:
        return {0: "undefined", 1: "rigid", 2: "compliant"}[int(self)]


def hydroelastic_type_from_string(name: str) -> HydroelasticType:
    """'undefined' | 'rigid' | 'compliant' -> HydroelasticType."""
    table = {"undefined": HydroelasticType.kUndefined, "rigid": HydroelasticType.kRigid,
             "compliant": HydroelasticType.kSoft}
    if name not in table:
        raise RuntimeError(f"Unknown hydroelastic compliance type '{name}'; expected one of "
                           "'undefined', 'rigid', 'compliant'")
    return table[name]


def get_hydroelastic_type(properties) -> HydroelasticType:
    """The ("hydroelastic", "compliance_type") of ``properties`` (kUndefined if absent)."""
    if properties is None:
        return HydroelasticType.kUndefined
    return properties.GetPropertyOrDefault(HYDRO_GROUP, COMPLIANCE_TYPE,
                                           HydroelasticType.kUndefined)


class CoulombFriction:
    """Static and dynamic Coulomb friction coefficients (unitless).

    Raises:
      RuntimeError: if a coefficient is negative or not finite, or if
        dynamic_friction > static_friction.
    """

    __slots__ = ("_static", "_dynamic")

    def __init__(self, static_friction: float = 0.0, dynamic_friction: float = 0.0):
        s, d = float(static_friction), float(dynamic_friction)
        for name, v in (("static", s), ("dynamic", d)):
            if not math.isfinite(v):
                raise RuntimeError(f"The given {name} friction ({v}) is not finite.")
            if v < 0.0:
                raise RuntimeError(f"The given {name} friction ({v}) is negative.")
        if d > s:
            raise RuntimeError(f"The given dynamic friction ({d}) is greater than the given "
                               f"static friction ({s}); dynamic friction must be less than or "
                               "equal to static friction.")
        self._static = s
        self._dynamic = d

    def static_friction(self) -> float:
        """The static friction coefficient μs (≥ 0)."""
        return self._static

    def dynamic_friction(self) -> float:
        """The dynamic friction coefficient μd (0 ≤ μd ≤ μs)."""
        return self._dynamic

    def __eq__(self, other):
        return (isinstance(other, CoulombFriction) and self._static == other._static
                and self._dynamic == other._dynamic)

    def __hash__(self):
        return hash((self._static, self._dynamic))

    def __getstate__(self):
        return (self._static, self._dynamic)

    def __setstate__(self, state):
        self._static, self._dynamic = state

    def __repr__(self) -> str:
        return f"CoulombFriction(static_friction={self._static}, dynamic_friction={self._dynamic})"


def _positive(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {value!r}") from None
    if not (math.isfinite(v) and v > 0.0):
        raise RuntimeError(f"The {name} must be positive and finite; given {v}")
    return v


def _check_properties(properties, func: str) -> None:
    if not isinstance(properties, ProximityProperties):
        raise TypeError(f"{func}: properties must be ProximityProperties, got "
                        f"{type(properties).__name__}")


def _add_all(properties, func: str, entries) -> None:
    """Adds (group, name, value) entries, refusing if any already exists."""
    for group, name, _ in entries:
        if properties.HasProperty(group, name):
            raise RuntimeError(f"{func}: the properties already contain ('{group}', '{name}'); "
                               "it would be added twice")
    for group, name, value in entries:
        properties.AddProperty(group, name, value)


@signatures("(resolution_hint, properties)", "(properties)")
def AddRigidHydroelasticProperties(*args, **kwargs) -> None:
    """AddRigidHydroelasticProperties(resolution_hint, properties) or
    AddRigidHydroelasticProperties(properties).

    Raises:
      RuntimeError: resolution_hint not positive and finite, or a property
        already present.
    """
    func = "AddRigidHydroelasticProperties"
    if "properties" in kwargs:
        args = args + (kwargs.pop("properties"),)
    if "resolution_hint" in kwargs:
        args = (kwargs.pop("resolution_hint"),) + args
    if kwargs or len(args) not in (1, 2):
        raise TypeError(f"{func}: expected (resolution_hint, properties) or (properties)")
    properties = args[-1]
    _check_properties(properties, func)
    entries = []
    if len(args) == 2:
        entries.append((HYDRO_GROUP, RESOLUTION_HINT, _positive("resolution_hint", args[0])))
    entries.append((HYDRO_GROUP, COMPLIANCE_TYPE, HydroelasticType.kRigid))
    _add_all(properties, func, entries)


def AddCompliantHydroelasticProperties(resolution_hint: float, hydroelastic_modulus: float,
                                       properties: ProximityProperties) -> None:
    """Marks the geometry compliant with pressure p = E·e (E = hydroelastic_modulus [Pa]),
    tessellated with edges of about ``resolution_hint`` [m].

    Raises:
      RuntimeError: a value not positive and finite, or a property already present.
    """
    func = "AddCompliantHydroelasticProperties"
    _check_properties(properties, func)
    entries = [(HYDRO_GROUP, RESOLUTION_HINT, _positive("resolution_hint", resolution_hint)),
               (HYDRO_GROUP, COMPLIANCE_TYPE, HydroelasticType.kSoft),
               (HYDRO_GROUP, HYDROELASTIC_MODULUS,
                _positive("hydroelastic_modulus", hydroelastic_modulus))]
    _add_all(properties, func, entries)


def AddCompliantHydroelasticPropertiesForHalfSpace(slab_thickness: float,
                                                   hydroelastic_modulus: float,
                                                   properties: ProximityProperties) -> None:
    """Compliant half space modelled as a slab of ``slab_thickness`` [m] with
    modulus ``hydroelastic_modulus`` [Pa].

    Raises:
      RuntimeError: a value not positive and finite, or a property already present.
    """
    func = "AddCompliantHydroelasticPropertiesForHalfSpace"
    _check_properties(properties, func)
    entries = [(HYDRO_GROUP, SLAB_THICKNESS, _positive("slab_thickness", slab_thickness)),
               (HYDRO_GROUP, COMPLIANCE_TYPE, HydroelasticType.kSoft),
               (HYDRO_GROUP, HYDROELASTIC_MODULUS,
                _positive("hydroelastic_modulus", hydroelastic_modulus))]
    _add_all(properties, func, entries)


@signatures("(dissipation, point_stiffness, friction, properties)",
            "(properties, dissipation=None, point_stiffness=None, friction=None)")
def AddContactMaterial(*args, **kwargs) -> None:
    """AddContactMaterial(dissipation, point_stiffness, friction, properties) or
    AddContactMaterial(properties, dissipation=None, point_stiffness=None, friction=None).

    Only values that are not None are added: dissipation [s/m] (>= 0, finite),
    point_stiffness [N/m] (> 0, finite), friction (a CoulombFriction).

    Raises:
      RuntimeError: a negative or non-finite dissipation, a non-positive or
        non-finite stiffness, or a property already present.
    """
    func = "AddContactMaterial"
    names = ("dissipation", "point_stiffness", "friction")
    if args and isinstance(args[0], ProximityProperties):
        properties, rest = args[0], args[1:]
        values = dict(zip(names, rest))
    else:
        values = dict(zip(names, args[:3]))
        properties = args[3] if len(args) > 3 else kwargs.pop("properties", None)
    for k in names:
        if k in kwargs:
            values[k] = kwargs.pop(k)
    if kwargs:
        raise TypeError(f"{func}: unexpected arguments {sorted(kwargs)}")
    _check_properties(properties, func)
    entries = []
    d = values.get("dissipation")
    if d is not None:
        d = float(d)
        if not math.isfinite(d) or d < 0.0:
            raise RuntimeError(f"The dissipation can't be negative or non-finite; given {d}")
        entries.append((MATERIAL_GROUP, HC_DISSIPATION, d))
    k = values.get("point_stiffness")
    if k is not None:
        k = float(k)
        if not (math.isfinite(k) and k > 0.0):
            raise RuntimeError(f"The point_contact_stiffness must be strictly positive and "
                               f"finite; given {k}")
        entries.append((MATERIAL_GROUP, POINT_STIFFNESS, k))
    friction = values.get("friction")
    if friction is not None:
        if not isinstance(friction, CoulombFriction):
            raise TypeError(f"{func}: friction must be a CoulombFriction, got "
                            f"{type(friction).__name__}")
        entries.append((MATERIAL_GROUP, FRICTION, friction))
    _add_all(properties, func, entries)
