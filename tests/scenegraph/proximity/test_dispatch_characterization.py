"""Accuracy characterization of the pair kernels, with Drake's methodology.

Shapes about 20 cm in size are placed at a known 2 mm separation or 2 mm
penetration over many random orientations: a point Ca on A's surface with a
unique outward normal n (a smooth point, a face interior, a cylinder rim) and
a point Cb on B's surface with normal −n (B randomly spun about n) are put at
Cb = Ca + δ n, δ = ±2 mm. The exact signed distance is then δ and the normal
nhat_BA = −n (the contact is smooth or flat on the scale of 2 mm, so the
minimum translation is along n). characterization.characterize() returns the
worst errors per shape pair, next to Drake's published figures (PRECISION.md);
`python -m tests.scenegraph.proximity.characterization` prints the docs table.

Targets (asserted): every pair exact to rounding — distance and penetration
depth ≤ 1e-12 m, witnesses on the surfaces to 1e-12 m (the oracle's point
distance of Ca to ∂A and Cb to ∂B), normals ≤ 1e-12 — and never worse than
Drake's figure (below 1e-14 m, i.e. rounding, Drake's figure is taken as
1e-14).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.characterization import KINDS, SHAPES, _rows


@pytest.mark.parametrize("pair", list(itertools.combinations_with_replacement(KINDS, 2)),
                         ids=lambda p: f"{p[0]}-{p[1]}")
def test_characterization(pair):
    (row,) = [r for r in _rows() if r["pair"] == pair]
    target = row["target"]
    assert row["distance_error"] <= target
    assert row["witness_error"] <= target
    assert row["normal_error"] <= target
    if row["drake_distance"] is not None:
        assert row["distance_error"] <= max(row["drake_distance"], 1e-14)
    if pair == ("HalfSpace", "HalfSpace"):
        return
    assert row["penetration_error"] <= target
    assert row["penetration_error"] <= max(row["drake_penetration"], 1e-14)


def test_halfspace_pair_penetration_is_refused():
    d = shape_data_from_reference(SHAPES["HalfSpace"])
    with pytest.raises(RuntimeError, match="Halfspace' and 'Halfspace"):
        dispatch.penetration_pairs([d], np.eye(3)[None], np.zeros((1, 3)), [d],
                                   np.eye(3)[None], np.zeros((1, 3)))

