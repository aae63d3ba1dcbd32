"""SceneGraphConfig and DefaultProximityProperties (Drake's defaults).

Defaults are back-filled into a geometry's proximity properties by
``GeometryState.ApplyProximityDefaults``; a value already present is never
overwritten, and a default of None adds nothing.
"""
from __future__ import annotations

import copy
import dataclasses
import math
from typing import Optional


@dataclasses.dataclass
class DefaultProximityProperties:
    """SceneGraph-wide default contact properties (units in field docs).

    compliance_type: 'undefined', 'rigid' or 'compliant'.
    hydroelastic_modulus [Pa], resolution_hint [m], slab_thickness [m],
    margin [m], dynamic_friction / static_friction (unitless, both or neither),
    hunt_crossley_dissipation [s/m], relaxation_time [s], point_stiffness [N/m].
    """

    compliance_type: str = "undefined"
    hydroelastic_modulus: Optional[float] = 1e7
    resolution_hint: Optional[float] = 0.02
    slab_thickness: Optional[float] = None
    margin: Optional[float] = None
    dynamic_friction: Optional[float] = 0.5
    static_friction: Optional[float] = 0.5
    hunt_crossley_dissipation: Optional[float] = 50.0
    relaxation_time: Optional[float] = 0.1
    point_stiffness: Optional[float] = 1e6

    def ValidateOrThrow(self) -> None:
        """Raises RuntimeError naming the first inconsistent value."""
        if self.compliance_type not in ("undefined", "rigid", "compliant"):
            raise RuntimeError(f"Unknown hydroelastic compliance type '{self.compliance_type}'; "
                               "expected 'undefined', 'rigid' or 'compliant'")
        positive = ("hydroelastic_modulus", "resolution_hint", "slab_thickness",
                    "point_stiffness")
        non_negative = ("margin", "hunt_crossley_dissipation", "relaxation_time",
                        "dynamic_friction", "static_friction")
        for name in positive + non_negative:
            v = getattr(self, name)
            if v is None:
                continue
            if not math.isfinite(v):
                raise RuntimeError(f"DefaultProximityProperties.{name} must be finite; got {v}")
            if name in positive and v <= 0.0:
                raise RuntimeError(f"DefaultProximityProperties.{name} must be positive; got {v}")
            if name in non_negative and v < 0.0:
                raise RuntimeError(f"DefaultProximityProperties.{name} must be non-negative; "
                                   f"got {v}")
        if (self.static_friction is None) != (self.dynamic_friction is None):
            raise RuntimeError("DefaultProximityProperties: static_friction and "
                               "dynamic_friction must both be set or both be None; got "
                               f"static={self.static_friction}, dynamic={self.dynamic_friction}")
        if self.static_friction is not None:
            from scenegraph.hydroelastic.properties import CoulombFriction
            CoulombFriction(self.static_friction, self.dynamic_friction)

    def __deepcopy__(self, memo):
        return dataclasses.replace(self)


BROADPHASE_METHODS = ("auto", "nxn", "sap", "explicit")


@dataclasses.dataclass
class SceneGraphConfig:
    """Configuration of a SceneGraph.

    default_proximity_properties: Drake's field.
    broadphase (this library's extension): how candidate pairs are found —
      "auto" (chosen by scene size and density), "nxn" (all pairs), "sap"
      (sweep and prune) or "explicit" (only `broadphase_pairs`).
    broadphase_pairs (extension): for "explicit", the (GeometryId, GeometryId)
      pairs to consider; filters still apply.
    """

    default_proximity_properties: DefaultProximityProperties = dataclasses.field(
        default_factory=DefaultProximityProperties)
    broadphase: str = "auto"
    broadphase_pairs: Optional[list] = None

    def ValidateOrThrow(self) -> None:
        """Checks the defaults and the broadphase settings.

        Raises:
          RuntimeError: an invalid default proximity property, an unknown broadphase
            name, or broadphase_pairs given without "explicit" (or missing with it).
        """
        self.default_proximity_properties.ValidateOrThrow()
        if self.broadphase not in BROADPHASE_METHODS:
            raise RuntimeError(f"SceneGraphConfig.broadphase must be one of "
                               f"{BROADPHASE_METHODS}; got {self.broadphase!r}")
        if (self.broadphase == "explicit") != (self.broadphase_pairs is not None):
            raise RuntimeError("SceneGraphConfig: broadphase_pairs must be given exactly "
                               "when broadphase is 'explicit'")

    def __repr__(self) -> str:
        """pydrake's repr; the extension fields are listed only when not at their
        defaults."""
        text = f"SceneGraphConfig(default_proximity_properties={self.default_proximity_properties!r}"
        if self.broadphase != "auto" or self.broadphase_pairs is not None:
            text += (f", broadphase={self.broadphase!r}, "
                     f"broadphase_pairs={self.broadphase_pairs!r}")
        return text + ")"

    def __deepcopy__(self, memo):
        return SceneGraphConfig(copy.deepcopy(self.default_proximity_properties),
                                self.broadphase,
                                None if self.broadphase_pairs is None
                                else list(self.broadphase_pairs))


def backfill_proximity_defaults(properties, defaults: DefaultProximityProperties) -> bool:
    """Adds each default (not None) that ``properties`` lacks; True if any was added.

    Groups and names are Drake's: ("hydroelastic", compliance_type |
    hydroelastic_modulus | resolution_hint | slab_thickness | margin) and
    ("material", hunt_crossley_dissipation | relaxation_time |
    point_contact_stiffness | coulomb_friction).
    """
    from scenegraph.hydroelastic import properties as hp

    fill = [(hp.HYDRO_GROUP, hp.COMPLIANCE_TYPE,
             hp.hydroelastic_type_from_string(defaults.compliance_type)),
            (hp.HYDRO_GROUP, hp.HYDROELASTIC_MODULUS, defaults.hydroelastic_modulus),
            (hp.HYDRO_GROUP, hp.RESOLUTION_HINT, defaults.resolution_hint),
            (hp.HYDRO_GROUP, hp.SLAB_THICKNESS, defaults.slab_thickness),
            (hp.HYDRO_GROUP, "margin", defaults.margin),
            (hp.MATERIAL_GROUP, hp.HC_DISSIPATION, defaults.hunt_crossley_dissipation),
            (hp.MATERIAL_GROUP, hp.RELAXATION_TIME, defaults.relaxation_time),
            (hp.MATERIAL_GROUP, hp.POINT_STIFFNESS, defaults.point_stiffness)]
    if defaults.static_friction is not None:
        fill.append((hp.MATERIAL_GROUP, hp.FRICTION, hp.CoulombFriction(
            defaults.static_friction, defaults.dynamic_friction)))
    changed = False
    for group, name, value in fill:
        if value is not None and not properties.HasProperty(group, name):
            properties.AddProperty(group, name, value)
            changed = True
    return changed
