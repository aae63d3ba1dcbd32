"""Per-pair hydroelastic contact: which algorithm, or why there is no surface.

compute_contact_surface(id_A, rep_A, X_WA, id_B, rep_B, X_WB, representation)
takes two geometries' representations (see representation.py, or None for a
geometry without hydroelastic properties) and world poses X_WG, and returns
(ContactSurfaceResult, ContactSurface | None). kCalculated with None means the
pair does not touch. The other results are Drake's refusals; the caller turns
them into Drake's RuntimeError with contact_surface_error_message().

Dispatch is one table keyed by the representation kinds:
  compliant mesh – rigid mesh        rigid triangles clipped by compliant tets
  compliant mesh – rigid half space  half-space boundary sliced through the tets
  compliant half space – rigid mesh  rigid triangles inside the half space
  compliant mesh – compliant mesh    equilibrium surface per tet pair
  compliant half space – compliant mesh  equilibrium surface (beyond Drake; can
                                      be refused as Drake does)
  rigid – rigid                      kRigidRigid
  half space – half space            kHalfSpaceHalfSpace
  missing representation             kUnsupported
The surface's normals point out of N into M with id_M < id_N (ContactSurface
enforces the order). Compliant–compliant work is done in an order that
depends only on the geometries (not on their ids), so swapping registration
order flips the force exactly.
"""
from __future__ import annotations

import enum

import numpy as np

from scenegraph.hydroelastic import mesh_intersection as mi
from scenegraph.hydroelastic._arrays import pose_to_Rp
from scenegraph.hydroelastic.contact_builder import build_contact_surface
from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
from scenegraph.hydroelastic.representation import (RigidHalfSpace, RigidMesh, SoftHalfSpace,
                                                    SoftMesh)


class ContactSurfaceResult(enum.Enum):
    """Outcome of a per-pair contact-surface computation (Drake's names)."""

    kCalculated = 0
    kUnsupported = 1
    kRigidRigid = 2
    kCompliantHalfSpaceCompliantMesh = 3
    kHalfSpaceHalfSpace = 4


def _relative(X_WA, X_WB):
    """(R_AB, p_AB) from two world poses (R, p)."""
    R_WA, p_WA = X_WA
    R_WB, p_WB = X_WB
    return R_WA.T @ R_WB, R_WA.T @ (p_WB - p_WA)


def _soft_rigid_mesh(id_S, soft, X_WS, id_R, rigid, X_WR, rep):
    polygons = mi.soft_volume_rigid_surface(soft, rigid, *X_WR, *X_WS)
    return build_contact_surface(id_S, id_R, polygons, *X_WS, rep)


def _soft_rigid_half_space(id_S, soft, X_WS, id_H, _half_space, X_WH, rep):
    R_SH, p_SH = _relative(X_WS, X_WH)
    batch = mi.soft_volume_rigid_half_space(soft, R_SH, p_SH)
    return build_contact_surface(id_S, id_H, batch, *X_WS, rep)


def _soft_half_space_rigid_mesh(id_H, half_space, X_WH, id_R, rigid, X_WR, rep):
    R_RH, p_RH = _relative(X_WR, X_WH)
    batch = mi.soft_half_space_rigid_surface(half_space.pressure_scale, rigid, R_RH, p_RH,
                                             half_space.margin)
    return build_contact_surface(id_H, id_R, batch, *X_WR, rep)


def _geometry_order_key(rep, X_WG):
    """A total order of (representation, pose) that does not involve the ids."""
    R, p = X_WG
    return rep.order_key, R.tobytes(), p.tobytes()


def _soft_soft(id_A, soft_A, X_WA, id_B, soft_B, X_WB, rep):
    if _geometry_order_key(soft_B, X_WB) < _geometry_order_key(soft_A, X_WA):
        id_A, soft_A, X_WA, id_B, soft_B, X_WB = id_B, soft_B, X_WB, id_A, soft_A, X_WA
    polygons = mi.soft_volume_soft_volume(soft_A, soft_B, *X_WB, *X_WA)
    return build_contact_surface(id_A, id_B, polygons, *X_WA, rep)


def _soft_half_space_soft_mesh(id_H, half_space, X_WH, id_N, soft, X_WN, rep):
    R_NH, p_NH = _relative(X_WN, X_WH)
    batch = mi.soft_half_space_soft_volume(half_space.pressure_scale, soft, R_NH, p_NH,
                                           half_space.margin)
    return build_contact_surface(id_H, id_N, batch, *X_WN, rep)


def _pose(X) -> tuple:
    """(R (3, 3), p (3,)) contiguous float64 arrays from any pose form pose_to_Rp takes."""
    if type(X) is tuple and len(X) == 2:
        R, p = X
        if (type(R) is np.ndarray and type(p) is np.ndarray and R.dtype == np.float64
                and p.dtype == np.float64 and R.shape == (3, 3) and p.shape == (3,)
                and R.flags.c_contiguous and p.flags.c_contiguous):
            return X
    R, p = pose_to_Rp(X)
    return np.ascontiguousarray(R, dtype=float), np.ascontiguousarray(p, dtype=float)


_R = ContactSurfaceResult
# (kind of A, kind of B) -> (handler taking the pair in that order | result code).
_DISPATCH = {
    (SoftMesh, RigidMesh): _soft_rigid_mesh,
    (SoftMesh, RigidHalfSpace): _soft_rigid_half_space,
    (SoftHalfSpace, RigidMesh): _soft_half_space_rigid_mesh,
    (SoftMesh, SoftMesh): _soft_soft,
    (SoftHalfSpace, SoftMesh): _soft_half_space_soft_mesh,
    (SoftHalfSpace, SoftHalfSpace): _R.kHalfSpaceHalfSpace,
    (SoftHalfSpace, RigidHalfSpace): _R.kHalfSpaceHalfSpace,
    (RigidMesh, RigidMesh): _R.kRigidRigid,
    (RigidMesh, RigidHalfSpace): _R.kRigidRigid,
    (RigidHalfSpace, RigidHalfSpace): _R.kRigidRigid,
}


def compute_contact_surface(id_A, rep_A, X_WA, id_B, rep_B, X_WB,
                            representation=HydroelasticContactRepresentation.kTriangle,
                            allow_compliant_half_space: bool = True):
    """(ContactSurfaceResult, ContactSurface | None) for geometries A and B.

    rep_A / rep_B: SoftMesh, SoftHalfSpace, RigidMesh, RigidHalfSpace or None
    (no hydroelastic representation). X_WA / X_WB: world poses (RigidTransform,
    4×4 array or (R, p)). allow_compliant_half_space=False refuses a compliant
    half space against a compliant mesh as Drake does
    (kCompliantHalfSpaceCompliantMesh). The surface (if any) has id_M < id_N.
    """
    if rep_A is None or rep_B is None:
        return ContactSurfaceResult.kUnsupported, None
    entry = _DISPATCH.get((type(rep_A), type(rep_B)))
    swapped = False
    if entry is None:
        entry = _DISPATCH.get((type(rep_B), type(rep_A)))
        swapped = True
        if entry is None:
            return ContactSurfaceResult.kUnsupported, None
    if isinstance(entry, ContactSurfaceResult):
        return entry, None
    if entry is _soft_half_space_soft_mesh and not allow_compliant_half_space:
        return ContactSurfaceResult.kCompliantHalfSpaceCompliantMesh, None
    if swapped:
        id_A, rep_A, X_WA, id_B, rep_B, X_WB = id_B, rep_B, X_WB, id_A, rep_A, X_WA
    rep = HydroelasticContactRepresentation(representation)
    return ContactSurfaceResult.kCalculated, entry(id_A, rep_A, _pose(X_WA), id_B, rep_B,
                                                   _pose(X_WB), rep)


def drake_shape_name(shape_or_name) -> str:
    """The shape name Drake prints in contact errors ('Halfspace' for a HalfSpace)."""
    name = shape_or_name if isinstance(shape_or_name, str) else type(shape_or_name).__name__
    return "Halfspace" if name == "HalfSpace" else name


def contact_surface_error_message(result: ContactSurfaceResult, shape_A, id_A, shape_B, id_B,
                                  compliance_A: str = "undefined",
                                  compliance_B: str = "undefined") -> str:
    """Drake's RuntimeError text for a refused pair (shape_* a Shape or its type name)."""
    a, b = drake_shape_name(shape_A), drake_shape_name(shape_B)
    if result == ContactSurfaceResult.kUnsupported:
        return ("Requested a contact surface between a pair of geometries without hydroelastic "
                f"representation for at least one shape: a {compliance_A} {a} with id {id_A} "
                f"and a {compliance_B} {b} with id {id_B}")
    if result == ContactSurfaceResult.kRigidRigid:
        return (f"Requested contact between two rigid objects ({a} with id {id_A}, {b} with id "
                f"{id_B}); that is not allowed in hydroelastic-only contact. Please consider "
                "using hydroelastics with point-contact fallback, e.g., "
                "QueryObject::ComputeContactSurfacesWithFallback() or "
                "MultibodyPlant::set_contact_model(ContactModel::kHydroelasticWithFallback)")
    if result == ContactSurfaceResult.kCompliantHalfSpaceCompliantMesh:
        return ("Requested hydroelastic contact between two compliant geometries, one of which is "
                f"a half space ({a} with id {id_A}, {b} with id {id_B}); that is not allowed")
    if result == ContactSurfaceResult.kHalfSpaceHalfSpace:
        return (f"Requested contact between two half spaces with ids {id_A} and {id_B}; that is "
                "not allowed")
    raise ValueError(f"contact_surface_error_message(): {result} is not a refusal")
