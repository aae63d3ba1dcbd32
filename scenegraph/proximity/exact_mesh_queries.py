"""Exact meshes in a ProximityScene's pair queries (issue 32).

A scene whose rows include an exact mesh (is_exact_mesh: a closed
Mesh with ("proximity", "exact_mesh") = True) builds an ExactRows at its
first pair query. The compiled pair query runs as always, with every Mesh as
its convex hull; then ExactRows.patch re-answers the selected pairs that hold
an exact mesh, at the triangles (exact_mesh.exact_pair), and keeps those the
query still selects. That is complete because a mesh lies inside its hull:

  * a pair whose exact solids overlap has overlapping hulls, so the hull
    penetration query has selected it;
  * a pair's exact distance is at least its hull distance, so a pair within
    max_distance exactly is within it for the hulls.

FindCollisionCandidates needs nothing: a mesh's box and its hull's box are
the same. HasCollisions (first_hit) takes the hull-penetrating pairs, returns
the first without an exact mesh, else the first whose exact solids overlap.
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled import layout

#: The proximity property (group, name) that opts a Mesh in.
EXACT_MESH_PROPERTY = ("proximity", "exact_mesh")


def is_exact_mesh(shape, properties) -> bool:
    """Whether a geometry opts in: a Mesh whose proximity properties hold
    ("proximity", "exact_mesh") = True (any other value: False)."""
    if type(shape).__name__ != "Mesh" or properties is None:
        return False
    group, name = EXACT_MESH_PROPERTY
    try:
        return properties.HasProperty(group, name) and properties.GetProperty(group,
                                                                               name) is True
    except Exception:
        return False

__all__ = ["ExactRows", "build_exact_rows", "is_exact_mesh", "EXACT_MESH_PROPERTY"]


def _label(scene, row: int) -> str:
    shape = scene.reps[row].shape
    name = ""
    try:
        name = shape.source().description()
    except Exception:
        pass
    where = f" ({name})" if name else ""
    return f"geometry {scene.ids[row]}{where}"


def build_exact_rows(scene):
    """ExactRows of the scene, or None when no row is an exact mesh.

    Raises:
      ValueError: a Mesh with ("proximity", "exact_mesh") = True is not
        closed (naming the geometry).

    Scenes without an exact mesh import nothing more (exact_mesh.py and its
    kernels are imported only here, when one is found).
    """
    rows = [k for k, rep in enumerate(scene.reps)
            if is_exact_mesh(rep.shape, scene.properties[k])]
    if not rows:
        return None
    return ExactRows(scene, rows)


class ExactRows:
    """The exact-mesh rows of a scene and their pair answers.

    exact: (n,) bool, the rows that are exact meshes; shapes: per row, the
    ExactShape built at the first pair that needs it (exact meshes at
    construction, so an open one is refused at once)."""

    def __init__(self, scene, rows):
        from scenegraph.proximity.exact_mesh import (ExactShape, exact_collides, exact_mesh_bvh,
                                                     exact_pair)
        self._ExactShape, self._exact_pair = ExactShape, exact_pair
        self._exact_collides = exact_collides
        n = len(scene.ids)
        self.exact = np.zeros(n, dtype=bool)
        self.exact[rows] = True
        self._scene = scene
        self._shapes = [None] * n
        for k in rows:
            shape = scene.reps[k].shape
            faces = shape.mesh_faces()
            if faces is None:
                raise ValueError(f"{_label(scene, k)}: ('proximity', 'exact_mesh') needs a "
                                 f"Mesh with triangles (this one has vertices only)")
            self._shapes[k] = ExactShape.from_mesh(
                exact_mesh_bvh(shape.mesh_vertices(), faces, _label(scene, k)))

    def shape(self, row: int) -> ExactShape:
        found = self._shapes[row]
        if found is None:
            found = self._shapes[row] = self._ExactShape.from_shape_data(
                self._scene.reps[row].data)
        return found

    def answer(self, R, p, a: int, b: int):
        """exact_mesh.exact_pair of rows a, b at poses R (n, 3, 3), p (n, 3)."""
        return self._exact_pair(self.shape(a), R[a], p[a], self.shape(b), R[b], p[b])

    def patch(self, R, p, rows, values, flags: int, max_distance: float):
        """(rows, values) of a select/select_rows result with the pairs that
        hold an exact mesh re-answered exactly (module docstring); pairs no
        longer selected are dropped. values (K, ≥10) as pair_queries writes
        them under `flags` (FLAG_NEGATE: depths, the penetration query;
        FLAG_IN_FRAMES: witnesses in the geometries' frames)."""
        if not len(rows):
            return rows, values
        mine = np.flatnonzero(self.exact[rows[:, 0]] | self.exact[rows[:, 1]])
        if not len(mine):
            return rows, values
        keep = np.ones(len(rows), dtype=bool)
        values = np.array(values, copy=True)
        negate = bool(flags & layout.FLAG_NEGATE)
        in_frames = bool(flags & layout.FLAG_IN_FRAMES)
        for k in mine.tolist():
            a, b = int(rows[k, 0]), int(rows[k, 1])
            phi, ca, cb, nhat, overlapping = self.answer(R, p, a, b)
            if negate:
                if not overlapping:
                    keep[k] = False
                    continue
                values[k, layout.VALUE_PHI] = -phi + 0.0
            else:
                if phi > max_distance:
                    keep[k] = False
                    continue
                values[k, layout.VALUE_PHI] = phi
            if in_frames:
                ca = R[a].T @ (ca - p[a])
                cb = R[b].T @ (cb - p[b])
            values[k, layout.VALUE_CA:layout.VALUE_CA + 3] = ca
            values[k, layout.VALUE_CB:layout.VALUE_CB + 3] = cb
            values[k, layout.VALUE_NHAT:layout.VALUE_NHAT + 3] = nhat
        if keep.all():
            return rows, values
        return np.ascontiguousarray(rows[keep]), np.ascontiguousarray(values[keep])

    def patch_solve(self, R, p, pairs, values, max_distance: float):
        """QUERY_SOLVE's values (K, NUM_SOLVE_VALUES) of the row pairs (K, 2),
        in W, with the pairs that hold an exact mesh re-answered: status
        EXACT, or FARTHER (distance kept, NaN witnesses) past max_distance.
        The batched pair queries and the distance Jacobians read these."""
        if not len(pairs):
            return values
        mine = np.flatnonzero(self.exact[pairs[:, 0]] | self.exact[pairs[:, 1]])
        if not len(mine):
            return values
        values = np.array(values, copy=True)
        for k in mine.tolist():
            a, b = int(pairs[k, 0]), int(pairs[k, 1])
            phi, ca, cb, nhat, _ = self.answer(R, p, a, b)
            values[k, layout.VALUE_PHI] = phi
            if phi > max_distance:
                values[k, layout.VALUE_CA:layout.VALUE_NHAT + 3] = np.nan
                values[k, layout.VALUE_STATUS] = layout.FARTHER
                continue
            values[k, layout.VALUE_CA:layout.VALUE_CA + 3] = ca
            values[k, layout.VALUE_CB:layout.VALUE_CB + 3] = cb
            values[k, layout.VALUE_NHAT:layout.VALUE_NHAT + 3] = nhat
            values[k, layout.VALUE_STATUS] = layout.EXACT
        return values

    def patch_manifolds(self, rows, values, counts, out) -> None:
        """Contact manifolds (contact_manifold.py) of the penetration query's
        rows (K, 2) and values (K, 10) (depths, witnesses in W): the pairs
        that hold an exact mesh get one point, their deepest (the
        penetration's witnesses and depth), in place of the hull kernel's
        points. counts (K,), out (K, MAX_POINTS, 7) = (p_WCa, p_WCb, depth)."""
        if not len(rows):
            return
        mine = np.flatnonzero(self.exact[rows[:, 0]] | self.exact[rows[:, 1]])
        if not len(mine):
            return
        counts[mine] = 1
        out[mine] = np.nan
        out[mine, 0, 0:3] = values[mine, layout.VALUE_CA:layout.VALUE_CA + 3]
        out[mine, 0, 3:6] = values[mine, layout.VALUE_CB:layout.VALUE_CB + 3]
        out[mine, 0, 6] = values[mine, layout.VALUE_PHI]

    def first_hit(self, scene, R, p):
        """HasCollisions' (row A, row B) of a colliding unfiltered pair, or None."""
        rows, _, stats = scene.query(R, p, layout.QUERY_SELECT, 0.0, 0.0)
        for a, b in rows.tolist():
            if not (self.exact[a] or self.exact[b]):
                return a, b
        for a, b in rows.tolist():
            if self._exact_collides(self.shape(a), R[a], p[a], self.shape(b), R[b], p[b]):
                return a, b
        return None
