"""Random shapes and poses shared by the broadphase tests."""

from __future__ import annotations


def random_shapes(rng, n):
    shapes = []
    for k in range(n):
        kind = ["Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "Convex", "Mesh"][k % 7]
        if kind == "Sphere":
            shapes.append((kind, {"radius": rng.uniform(0.02, 0.1)}))
        elif kind == "Box":
            w, d, h = rng.uniform(0.02, 0.2, 3)
            shapes.append((kind, {"width": w, "depth": d, "height": h}))
        elif kind in ("Capsule", "Cylinder"):
            shapes.append((kind, {"radius": rng.uniform(0.01, 0.06), "length": rng.uniform(0.02, 0.2)}))
        elif kind == "Ellipsoid":
            a, b, c = rng.uniform(0.02, 0.1, 3)
            shapes.append((kind, {"a": a, "b": b, "c": c}))
        else:
            shapes.append((kind, {"vertices": rng.normal(size=(int(rng.integers(4, 30)), 3)) * 0.05}))
    return shapes
