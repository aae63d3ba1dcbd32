"""ComputeContactSurfaces(+WithFallback) for one ProximityScene: builds the
geometries' hydroelastic representations once per geometry state and runs the
per-pair contact-surface calculator over the broadphase candidates.

A compliant geometry with a hydroelastic margin δ takes part in the broadphase
with its box grown as Drake grows it: its box in its own frame inflated by δ
on every side (so a pair is a candidate when the inflated boxes overlap).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled.layout import FLAG_NEGATE, FLAG_REFUSE_HALFSPACE_PAIRS
from scenegraph.query_results import PenetrationAsPointPair

__all__ = ["ContactQuery"]


class ContactQuery:
    """Hydroelastic contact queries of one ProximityScene (its ids,
    representations, proximity properties, boxes and candidate pairs)."""

    def __init__(self, scene):
        self._scene = scene
        self._ids = scene.ids
        self._reps = scene.reps
        self._properties = scene.properties
        self._hydro = None
        self._margins = None

    def _hydro_representations(self) -> list:
        """Per row: the geometry's hydroelastic representation or None (built
        once per shape and properties, and cached across engines)."""
        if self._hydro is None:
            from scenegraph.hydroelastic.representation import make_hydroelastic_representation
            self._hydro = [make_hydroelastic_representation(rep.shape, props)
                           for rep, props in zip(self._reps, self._properties)]
        return self._hydro

    def _margin_per_row(self) -> np.ndarray:
        """(n,) hydroelastic margin δ [m] of each compliant geometry, 0 for the others."""
        if self._margins is None:
            self._margins = np.array([rep.margin if rep is not None and rep.is_soft else 0.0
                                      for rep in self._hydro_representations()], dtype=float)
        return self._margins

    def _candidate_pairs(self, R, p) -> np.ndarray:
        """Broadphase pairs, each compliant box grown by its margin in its own frame."""
        margins = self._margin_per_row()
        top = float(margins.max()) if margins.size else 0.0
        if top == 0.0:
            return self._scene.candidates(R, p, 0.0)
        # A superset first (every box grown by the largest reach, δ·√3 per axis) ...
        pairs = self._scene.candidates(R, p, top * 3.0 ** 0.5)
        if not len(pairs):
            return pairs
        # ... then each box grown by R_WG·(δ, δ, δ)'s reach: δ·Σⱼ|R_ij| along world axis i.
        lo, hi = self._scene.boxes(R, p, 0.0)
        grow = margins[:, None] * np.abs(R).sum(axis=2)
        lo, hi = lo - grow, hi + grow
        a, b = pairs[:, 0], pairs[:, 1]
        keep = np.all(lo[a] <= hi[b], axis=1) & np.all(lo[b] <= hi[a], axis=1)
        return pairs[keep]

    def _compliance(self, row: int) -> str:
        from scenegraph.hydroelastic.representation import compliance_of
        props = self._properties[row]
        value = props.GetPropertyOrDefault("hydroelastic", "compliance_type", None) \
            if props.HasGroup("hydroelastic") else None
        kind = compliance_of(value)
        return {"rigid": "rigid", "soft": "compliant"}.get(kind, "undefined")

    def _contact(self, world_poses, representation, fallback: bool):
        from scenegraph.hydroelastic.calculator import (ContactSurfaceResult,
                                                        compute_contact_surface,
                                                        contact_surface_error_message)
        R, p, _ = self._scene.poses(world_poses)
        hydro = self._hydro_representations()
        pairs = self._candidate_pairs(R, p)
        ids = self._ids
        surfaces, refused = [], []
        for a, b in pairs.tolist():
            result, surface = compute_contact_surface(
                ids[a], hydro[a], (R[a], p[a]), ids[b], hydro[b], (R[b], p[b]),
                representation, allow_compliant_half_space=True)
            if result is ContactSurfaceResult.kCalculated:
                if surface is not None:
                    surfaces.append(surface)
            elif fallback:
                refused.append((a, b))
            else:
                raise RuntimeError(contact_surface_error_message(
                    result, self._reps[a].shape, ids[a], self._reps[b].shape, ids[b],
                    self._compliance(a), self._compliance(b)))
        return surfaces, refused, R, p

    def ComputeContactSurfaces(self, world_poses, representation) -> list:
        """ContactSurfaces of every unfiltered pair whose boxes overlap, sorted
        by (id_M, id_N); raises Drake's errors for pairs that cannot have one."""
        surfaces, _, _, _ = self._contact(world_poses, representation, fallback=False)
        return surfaces

    def ComputeContactSurfacesWithFallback(self, world_poses, representation) -> tuple:
        """(surfaces, point pairs): contact surfaces where both geometries have
        a compatible hydroelastic representation, PenetrationAsPointPair for
        the other penetrating pairs."""
        surfaces, refused, R, p = self._contact(world_poses, representation, fallback=True)
        point_pairs = []
        if refused:
            # The penetration query on the refused pairs, in one compiled call:
            # their depths and witnesses in W; two half spaces raise Drake's error.
            rows, block, _ = self._scene.select_rows(
                R, p, np.array(refused, dtype=np.int64), 0.0,
                FLAG_NEGATE | FLAG_REFUSE_HALFSPACE_PAIRS, "ComputeContactSurfacesWithFallback",
                check=False)
            point_pairs = PenetrationAsPointPair._rows_of(self._ids, rows, block)
        return surfaces, point_pairs
