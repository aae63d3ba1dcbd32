"""Compiled world-pose composition (kinematics_vector.PoseComposer).

One call per pose set: unpacks the frames' poses in their parents, checks
that they are finite, composes X_WF = X_WP·X_PF down every frame chain
(frames in registration order, so a parent is always composed before its
children) and places every geometry, X_WG = X_WF·X_FG. Products are written
out term by term, ((a0·b0 + a1·b1) + a2·b2); numpy's matmul may sum in
another order, so the two agree to rounding (≤ 1 ulp per entry), not bit
for bit.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

__all__ = ["world_poses", "geometry_world_poses"]


@njit(inline="always")
def _compose(R_A, p_A, a, R_B, p_B, b, R_out, p_out, c):
    """X_out[c] = X_A[a]·X_B[b] (rotations (·, 3, 3), positions (·, 3));
    inlined (a call would reference-count its six arrays)."""
    for i in range(3):
        r0, r1, r2 = R_A[a, i, 0], R_A[a, i, 1], R_A[a, i, 2]
        for j in range(3):
            R_out[c, i, j] = r0 * R_B[b, 0, j] + r1 * R_B[b, 1, j] + r2 * R_B[b, 2, j]
        p_out[c, i] = (r0 * p_B[b, 0] + r1 * p_B[b, 1] + r2 * p_B[b, 2]) + p_A[a, i]


@njit
def world_poses(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG, check,
                R_WF, p_WF, R_WG, p_WG):
    """See _world_poses_into (the frames' poses are outputs too)."""
    return _world_poses_into(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG,
                             check, R_WF, p_WF, R_WG, p_WG)


@njit
def geometry_world_poses(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG,
                         check, R_WG, p_WG):
    """world_poses with the frames' poses in scratch arrays made here (a
    pose change needs the geometries' only: WorldPoses composes the frames'
    when they are asked for), so that the caller allocates two outputs, not
    four. Same status and the same R_WG, p_WG bit for bit."""
    nF = parent_index.shape[0]
    return _world_poses_into(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG,
                             check, np.empty((nF, 3, 3)), np.empty((nF, 3)), R_WG, p_WG)


@njit(inline="always")
def _world_poses_into(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG, check,
                      R_WF, p_WF, R_WG, p_WG):
    """Fills the world poses; returns 0 if every output is finite and every
    geometry position is within about ±1.3e150 m of the origin, 1 if `check`
    found a non-finite input (outputs unfinished), 2 if the inputs are
    finite but a product overflowed (an output entry is ±inf or NaN) or a
    geometry is farther than that (proximity arithmetic squares differences
    of positions: beyond it, distances overflow; the engine refuses such
    poses, see proximity/engine.py POSITION_LIMIT).

    Args:
      parent_index (nF,) int64: parent row of each frame (row 0 the world).
      R_in (3M, 3), p_in (3M,) [m]: poses in their parents of the frames
        rows[k] (R_PF stacked, p_PF concatenated); rows (M,) int64, a
        permutation of 1..nF−1.
      geometry_frame_index (nG,) int64; R_FG (nG, 3, 3), p_FG (nG, 3) [m]:
        each geometry's frame row and pose in that frame.
      check: bool, stop at the first non-finite input entry.
      R_WF (nF, 3, 3), p_WF (nF, 3): out, X_WF (the world's identity in
        row 0); R_WG (nG, 3, 3), p_WG (nG, 3): out, X_WG [m]. Outputs are
        written, not allocated, so that no array is boxed on return.
    """
    nF = parent_index.shape[0]
    for i in range(3):
        p_WF[0, i] = 0.0
        for j in range(3):
            R_WF[0, i, j] = 1.0 if i == j else 0.0
    # X_PF into the X_WF rows first; frames are in registration order, so a
    # parent's X_WF is final before its children's products read it.
    for k in range(rows.shape[0]):
        f = rows[k]
        for i in range(3):
            for j in range(3):
                x = R_in[3 * k + i, j]
                if check and not math.isfinite(x):
                    return 1
                R_WF[f, i, j] = x
            x = p_in[3 * k + i]
            if check and not math.isfinite(x):
                return 1
            p_WF[f, i] = x
    for f in range(1, nF):
        par = parent_index[f]
        if par > 0:  # children of the world keep X_WF = X_PF
            # X_PF of f, read out before its row is overwritten with X_WF.
            a00, a01, a02 = R_WF[f, 0, 0], R_WF[f, 0, 1], R_WF[f, 0, 2]
            a10, a11, a12 = R_WF[f, 1, 0], R_WF[f, 1, 1], R_WF[f, 1, 2]
            a20, a21, a22 = R_WF[f, 2, 0], R_WF[f, 2, 1], R_WF[f, 2, 2]
            t0, t1, t2 = p_WF[f, 0], p_WF[f, 1], p_WF[f, 2]
            for i in range(3):
                r0, r1, r2 = R_WF[par, i, 0], R_WF[par, i, 1], R_WF[par, i, 2]
                R_WF[f, i, 0] = r0 * a00 + r1 * a10 + r2 * a20
                R_WF[f, i, 1] = r0 * a01 + r1 * a11 + r2 * a21
                R_WF[f, i, 2] = r0 * a02 + r1 * a12 + r2 * a22
                p_WF[f, i] = (r0 * t0 + r1 * t1 + r2 * t2) + p_WF[par, i]
    nG = R_FG.shape[0]
    total = 0.0
    for g in range(nG):
        _compose(R_WF, p_WF, geometry_frame_index[g], R_FG, p_FG, g, R_WG, p_WG, g)
        for i in range(3):
            # (x·1e4)² overflows to inf exactly when |x| > ~1.3e150 m.
            scaled = p_WG[g, i] * 1e4
            total += scaled * scaled * 0.0
            for j in range(3):
                total += R_WG[g, i, j] * 0.0
    # x·0 is 0 for every finite x and NaN for ±inf and NaN: one sum tells
    # (positions past ~1.3e150 m give inf·0 as well).
    return 0 if total == 0.0 else 2
