"""Random rotations for the proximity tests (a uniformly random unit
quaternion, as a matrix), shared so every test draws the same way."""
import numpy as np


def random_rotation(rng) -> np.ndarray:
    """A (3, 3) rotation matrix, uniformly distributed, drawn from `rng`."""
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
