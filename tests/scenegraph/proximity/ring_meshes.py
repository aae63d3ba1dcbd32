"""Voxel meshes with closed-form signed distances (a ring, an L shape) shared by the mesh
distance tests."""

from __future__ import annotations

import numpy as np


H = 0.05  # voxel edge [m]


def voxel_mesh(filled: np.ndarray, h: float = H):
    """Closed, outward-oriented boundary mesh of a union of grid cubes."""
    filled = np.asarray(filled, bool)
    pad = np.pad(filled, 1)
    quads = []
    for ax in range(3):
        u, v = (ax + 1) % 3, (ax + 2) % 3
        for s in (1, -1):
            shift = np.roll(pad, -s, axis=ax)
            faces = np.argwhere(pad & ~shift) - 1
            for cell in faces:
                base = cell.copy()
                if s > 0:
                    base[ax] += 1
                corners = []
                for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    c = base.copy()
                    c[u] += du
                    c[v] += dv
                    corners.append(c)
                quads.append(corners if s > 0 else corners[::-1])
    Q = np.array(quads)                              # (nq, 4, 3) integer grid points
    keys, inv = np.unique(Q.reshape(-1, 3), axis=0, return_inverse=True)
    idx = inv.reshape(-1, 4)
    F = np.concatenate([idx[:, [0, 1, 2]], idx[:, [0, 2, 3]]])
    return keys * h, F


def ring_mesh():
    f = np.ones((3, 3, 1), bool)
    f[1, 1, 0] = False
    return voxel_mesh(f)
