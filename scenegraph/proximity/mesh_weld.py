"""Welding a triangle mesh's exact duplicate vertices, in numpy (no compiled
kernel): files that store every triangle's corners separately (STL, triangle
soups) become closed surfaces once the copies of a corner are one vertex.
Used by the mesh distance queries (mesh_distance.load_mesh_bvh) and by the
closedness check of a Mesh given the proximity role (proximity_shape_check),
which then imports neither the mesh tree nor numba."""
from __future__ import annotations

import numpy as np

__all__ = ["weld_vertices"]


def weld_vertices(V: np.ndarray, F: np.ndarray):
    """(V', F'): exact duplicate vertex positions merged (the first occurrence
    kept, vertices in their original order), faces re-indexed. O(V log V);
    returns the input itself when no position repeats."""
    order = np.lexsort((V[:, 2], V[:, 1], V[:, 0]))
    S = V[order]
    new = np.ones(len(S), dtype=bool)
    new[1:] = (S[1:] != S[:-1]).any(axis=1)
    if new.all():
        return V, F
    group = np.empty(len(V), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    rep = np.full(int(new.sum()), len(V), dtype=np.int64)
    np.minimum.at(rep, group, np.arange(len(V), dtype=np.int64))
    by_first = np.argsort(rep)
    renumber = np.empty(len(rep), dtype=np.int64)
    renumber[by_first] = np.arange(len(rep))
    return V[rep[by_first]], renumber[group][F]
