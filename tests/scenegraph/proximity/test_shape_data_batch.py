"""ShapeData built in batches (shape_data_from_shapes: one pass per primitive
kind) and kept on a Mesh or Convex between AssignRole and the first query
(the first query after registering a scene).

Expected values are closed forms of the shapes' parameters: a Box's params
are its half sizes and its size their norm; a Capsule's size is r + L/2, a
Cylinder's hypot(r, L/2), an Ellipsoid's its largest semi-axis."""
from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

from scenegraph import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere
from scenegraph.proximity.shape_data import shape_data_from_shape, shape_data_from_shapes

CUBE = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])
CUBE_FACES = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                       [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]])


def _mixed():
    return [Sphere(0.5), Box(0.2, 0.4, 0.8), Capsule(0.1, 0.6), Cylinder(0.3, 0.8),
            Ellipsoid(0.1, 0.3, 0.2), HalfSpace(), Convex(CUBE.T.copy(), "cube", 0.5),
            Sphere(0.25), Box(1.0, 1.0, 1.0)]


def test_batched_values_are_the_closed_forms_in_input_order():
    data = shape_data_from_shapes(_mixed())
    assert [d.kind for d in data] == ["Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid",
                                      "HalfSpace", "Convex", "Sphere", "Box"]
    expected_params = [[0.5, 0, 0], [0.1, 0.2, 0.4], [0.1, 0.3, 0], [0.3, 0.4, 0],
                       [0.1, 0.3, 0.2], [0, 0, 0], [0, 0, 0], [0.25, 0, 0], [0.5, 0.5, 0.5]]
    for d, params in zip(data, expected_params):
        np.testing.assert_array_equal(d.params, params)
        assert not d.params.flags.writeable
    sizes = [d.size for d in data]
    assert sizes[0] == 0.5 and sizes[7] == 0.25
    assert sizes[1] == math.sqrt(0.1 ** 2 + 0.2 ** 2 + 0.4 ** 2)
    assert sizes[2] == 0.1 + 0.3
    assert sizes[3] == math.hypot(0.3, 0.4) == 0.5
    assert sizes[4] == 0.3
    assert sizes[5] == math.inf
    assert sizes[6] == math.sqrt(3) * 0.5          # the cube's corners, scaled by 0.5
    assert sizes[8] == math.sqrt(3 * 0.25)


def test_batched_equals_one_at_a_time():
    shapes = _mixed()
    for a, b in zip(shape_data_from_shapes(shapes), [shape_data_from_shape(s) for s in shapes]):
        assert (a.kind, a.type_name, a.size) == (b.kind, b.type_name, b.size)
        np.testing.assert_array_equal(a.params, b.params)
        if a.kind == "Convex":
            assert a.hull is b.hull


class _DuckSphere:
    """A duck-typed shape whose class is named Sphere (Drake's accessor names)."""

    def __init__(self, radius):
        self._r = radius

    def radius(self):
        return self._r


_DuckSphere.__name__ = "Sphere"


@pytest.mark.parametrize("radius, message", [
    (-1.0, "Sphere: parameter radius must be positive and finite, got -1.0"),
    (math.nan, "Sphere: parameter radius must be positive and finite, got nan"),
    ("wide", "Sphere: parameter radius must be a number, got 'wide'"),
])
def test_a_bad_primitive_in_a_batch_raises_its_own_error(radius, message):
    shapes = [Sphere(0.1), _DuckSphere(radius), Sphere(0.2)]
    with pytest.raises(ValueError) as batched:
        shape_data_from_shapes(shapes)
    assert str(batched.value) == message
    with pytest.raises(ValueError) as single:
        shape_data_from_shape(shapes[1])
    assert str(single.value) == message


def test_a_convex_keeps_its_shape_data_for_itself_and_its_copies():
    shape = Convex(CUBE.T.copy(), "cube")
    data = shape_data_from_shape(shape)
    assert shape_data_from_shape(shape) is data
    assert shape_data_from_shape(copy.deepcopy(shape)) is data
    assert shape_data_from_shape(shape.Clone()) is data
    # The packed arrays' share of the hull is built with it (at AssignRole).
    assert "packed_parts" in data.hull.cache


def test_a_pickled_shape_does_not_carry_its_shape_data():
    shape = Mesh(CUBE.T.copy(), faces=CUBE_FACES, label="cube")
    bare = len(pickle.dumps(shape))
    data = shape_data_from_shape(shape)
    data.hull                                        # built: 8 vertices, 6 facets
    assert len(pickle.dumps(shape)) < bare + 200
    copy_ = pickle.loads(pickle.dumps(shape))
    again = shape_data_from_shape(copy_)
    assert again is not data and again.size == data.size == math.sqrt(3)
    assert shape_data_from_shape(copy_) is again


def test_a_mesh_keeps_its_hull_deferred_in_the_kept_shape_data():
    shape = Mesh(CUBE.T.copy(), faces=CUBE_FACES, label="cube")
    data = shape_data_from_shape(shape)
    assert not data.hull_is_built
    assert shape_data_from_shape(shape) is data
    assert len(data.hull.vertices) == 8
    assert shape_data_from_shape(shape).hull_is_built
