"""A link's SpatialInertia from a model file's mass properties (Drake's rule).

The file gives the mass m [kg], the centre of mass Bcm and the inertia frame Bi
(X_BBi: Bi's origin is Bcm) and the six moments and products of inertia about
Bcm expressed in Bi [kg·m²], matrix entries as written (ixy is I[0, 1]). The
result is M_BBo_B, about the body origin Bo, expressed in the body frame B:

* no mass and no inertia at all: SpatialInertia(0, 0, 0) (a massless link);
* otherwise ``MakeFromCentralInertia(m, p_BoBcm_B, I_BBcm_Bi re-expressed in B)``;
* when the inertia cannot be physical (a negative moment, the triangle
  inequality broken) or the mass is not positive, a warning and, as Drake
  does, a plausible stand-in: a solid sphere of water density (1000 kg/m³)
  with the given mass (1 kg when the mass is not positive, or so small that the
  sphere's volume underflows) at Bcm.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["spatial_inertia_from_file"]

_PLAUSIBLE_DENSITY = 1000.0  # kg/m³, water


def _stand_in(mass: float, p_BoBcm_B: np.ndarray):
    from scenegraph.multibody.inertia import SpatialInertia

    m = mass if (math.isfinite(mass) and mass > 0.0) else 1.0
    radius = ((3.0 / (4.0 * math.pi)) * (m / _PLAUSIBLE_DENSITY)) ** (1.0 / 3.0)
    volume = (4.0 / 3.0) * math.pi * radius * radius * radius
    if not _PLAUSIBLE_DENSITY * volume > 0.0:
        # A mass so small (1e-320 kg) that its sphere's volume underflows: the
        # 1 kg stand-in (pydrake refuses the file with an error naming no file).
        return _stand_in(1.0, p_BoBcm_B)
    M_BBcm = SpatialInertia.SolidSphereWithMass(_PLAUSIBLE_DENSITY * volume, radius)
    return M_BBcm.Shift(-p_BoBcm_B)


def spatial_inertia_from_file(X_BBi, mass: float, ixx: float, iyy: float, izz: float,
                              ixy: float, ixz: float, iyz: float, warn):
    """M_BBo_B (see the module docstring). `warn(message)` reports a stand-in."""
    from scenegraph.multibody.inertia import RotationalInertia, SpatialInertia

    p_BoBcm_B = np.asarray(X_BBi.translation(), dtype=float)
    I_BBcm_Bi = RotationalInertia(ixx, iyy, izz, ixy, ixz, iyz)
    if not I_BBcm_Bi.CouldBePhysicallyValid():
        I = I_BBcm_Bi.CopyToFullMatrix3()
        moments = np.linalg.eigvalsh(I) if np.isfinite(I).all() else I.diagonal()
        warn(f"While parsing inertia matrix: the rotational inertia {I.tolist()} cannot "
             f"be physical (its principal moments {[float(x) for x in moments]} must be "
             f"non-negative and satisfy the triangle inequality); using a solid sphere of "
             f"density 1000 kg/m³ instead")
        return _stand_in(mass, p_BoBcm_B)
    if mass == 0.0 and not I_BBcm_Bi.CopyToFullMatrix3().any():
        return SpatialInertia.Zero()
    if not (math.isfinite(mass) and mass > 0.0):
        warn(f"While re-expressing as central inertia: the mass {mass} kg is not positive "
             f"but the inertia is not zero; using a solid sphere of density 1000 kg/m³ "
             f"instead")
        return _stand_in(mass, p_BoBcm_B)
    I_BBcm_B = I_BBcm_Bi.ReExpress(X_BBi.rotation())
    try:
        return SpatialInertia.MakeFromCentralInertia(mass, p_BoBcm_B, I_BBcm_B)
    except (RuntimeError, ValueError) as exc:
        warn(f"While re-expressing as central inertia: {exc}; using a solid sphere of "
             f"density 1000 kg/m³ instead")
        return _stand_in(mass, p_BoBcm_B)
