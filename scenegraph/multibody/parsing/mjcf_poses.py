"""MJCF <compiler> settings and the poses of bodies, geoms, sites and joints.

A pose X_PF (frame F of an element in its parent body's frame P) is given by
``pos`` [m] and at most one orientation attribute (MuJoCo's "frame
orientations"):

* ``quat="w x y z"``: a quaternion, normalised (a zero one is an error);
* ``axisangle="x y z a"``: a rotation by a about the (normalised) axis;
* ``euler="a b c"``: three rotations about the axes of ``compiler/eulerseq``
  (default "xyz"): lower-case letters rotate about the moving (new) axes,
  upper-case ones about the fixed axes;
* ``xyaxes="x1 x2 x3 y1 y2 y3"``: F's x axis, and its y axis made
  orthogonal to x (Gram-Schmidt); z = x × y;
* ``zaxis="x y z"``: the smallest rotation taking +z to the given vector (a
  rotation by π about x when the vector points along −z, as MuJoCo's
  mju_quatZ2Vec).

Angles (axisangle, euler, a hinge's range and ref) are in degrees unless
``compiler angle="radian"`` (MuJoCo's default is degrees).

``fromto="x1 y1 z1 x2 y2 z2"`` on a geom replaces all of these: F's origin is
the midpoint and its z axis points from the first point to the second
(``zaxis`` rule).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from scenegraph.multibody.parsing.mjcf_defaults import ORIENTATION_ATTRIBUTES

__all__ = ["Compiler", "read_compiler", "numbers", "read_pose", "rotation_z_to",
           "fromto_pose"]


@dataclasses.dataclass
class Compiler:
    """The <compiler> settings this reader uses.

    angle_unit: radians per unit of the file's angles (π/180 for degrees).
    eulerseq: three of x y z X Y Z. meshdir: folder of mesh files (None: the
    main file's folder). autolimits: a range alone limits a joint.
    inertiafromgeom: "auto", "true" or "false".
    """

    angle_unit: float = math.pi / 180.0
    eulerseq: str = "xyz"
    meshdir: str | None = None
    autolimits: bool = True
    inertiafromgeom: str = "auto"


# Compiler attributes that would change the model MuJoCo builds (warned);
# the others (texturedir, usethread, ...) do not concern this reader.
_COMPILER_CHANGES_MODEL = ("boundmass", "boundinertia", "settotalmass", "balanceinertia",
                           "strippath", "fitaabb", "fusestatic", "discardvisual", "alignfree")


def read_compiler(nodes, document) -> Compiler:
    """The Compiler of the model's <compiler> elements (later ones override)."""
    compiler = Compiler()
    for node in nodes:
        d = document.diagnostics_for(node)
        angle = node.get("angle")
        if angle is not None:
            if angle not in ("degree", "radian"):
                d.error(node.line, f"<compiler> attribute 'angle' must be 'degree' or "
                                   f"'radian'; got '{angle}'")
            compiler.angle_unit = math.pi / 180.0 if angle == "degree" else 1.0
        seq = node.get("eulerseq")
        if seq is not None:
            if len(seq) != 3 or any(c not in "xyzXYZ" for c in seq):
                d.error(node.line, f"<compiler> attribute 'eulerseq' must be three of the "
                                   f"letters x y z X Y Z; got '{seq}'")
            compiler.eulerseq = seq
        for attribute in ("assetdir", "meshdir"):     # meshdir wins over assetdir
            if node.get(attribute) is not None:
                compiler.meshdir = node.get(attribute)
        for attribute in ("autolimits",):
            value = node.get(attribute)
            if value is not None:
                if value not in ("true", "false"):
                    d.error(node.line, f"<compiler> attribute '{attribute}' must be 'true' or "
                                       f"'false'; got '{value}'")
                compiler.autolimits = value == "true"
        value = node.get("inertiafromgeom")
        if value is not None:
            if value not in ("true", "false", "auto"):
                d.error(node.line, f"<compiler> attribute 'inertiafromgeom' must be 'true', "
                                   f"'false' or 'auto'; got '{value}'")
            compiler.inertiafromgeom = value
        coordinate = node.get("coordinate")
        if coordinate not in (None, "local"):
            d.error(node.line, f"<compiler> attribute 'coordinate': only 'local' is supported "
                               f"(MuJoCo removed 'global'); got '{coordinate}'")
        for attribute in _COMPILER_CHANGES_MODEL:
            if node.get(attribute) is not None:
                d.warning(node.line, f"<compiler> attribute '{attribute}' is not supported "
                                     f"and is ignored (the model is read as written)")
    return compiler


def numbers(element, attributes: dict, name: str, count, d, default=None, at_least=False):
    """The attribute `name` of `attributes` (the element's, defaults applied)
    as a float array.

    count: exact number of values (or the minimum when `at_least`), None for
    any number. Returns `default` when absent. An error naming the element and
    attribute for text that is not numbers, or the wrong count.
    """
    text = attributes.get(name)
    if text is None:
        return default
    fields = text.split()
    try:
        values = np.array([float(f) for f in fields], dtype=float)
    except ValueError:
        values = None
    ok = values is not None and np.isfinite(values).all() and (
        count is None or (len(values) >= count if at_least else len(values) == count))
    if not ok:
        from scenegraph.multibody.parsing.xml_tree import describe

        need = "numbers" if count is None else (
            f"at least {count} number{'s' if count > 1 else ''}" if at_least else
            ("a single number" if count == 1 else f"{count} numbers"))
        d.error(element.line, f"{describe(element)} attribute '{name}' must be {need}; got "
                              f"'{text}'")
    return values


def _quaternion_matrix(w, x, y, z) -> np.ndarray:
    """R of the unit quaternion (w, x, y, z)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _axis_angle(axis, angle: float) -> np.ndarray:
    """R of a rotation by `angle` [rad] about the unit vector `axis`."""
    half = 0.5 * angle
    s = math.sin(half)
    return _quaternion_matrix(math.cos(half), axis[0] * s, axis[1] * s, axis[2] * s)


def rotation_z_to(v) -> np.ndarray:
    """R_PF whose z axis is the direction of `v` (3,), by the smallest
    rotation from P's z; π about x for a v along −z (MuJoCo's rule).
    Returns None for a zero v."""
    v = np.asarray(v, dtype=float)
    norm = float(np.linalg.norm(v))
    if norm < 1e-15:
        return None
    u = v / norm
    axis = np.array([-u[1], u[0], 0.0])            # z × u
    s = float(np.linalg.norm(axis))
    if s < 1e-15:
        return np.eye(3) if u[2] > 0 else np.diag([1.0, -1.0, -1.0])
    return _axis_angle(axis / s, math.atan2(s, float(u[2])))


def read_pose(element, attributes: dict, compiler: Compiler, d):
    """X_PF of an element from pos and its orientation attribute (module docstring)."""
    from scenegraph.math import RigidTransform, RotationMatrix
    from scenegraph.multibody.parsing.xml_tree import describe

    p = numbers(element, attributes, "pos", 3, d, np.zeros(3))
    given = [a for a in ORIENTATION_ATTRIBUTES if a in attributes]
    if len(given) > 1:
        d.error(element.line, f"{describe(element)} has more than one orientation attribute "
                              f"({', '.join(given)}); give at most one of quat, axisangle, "
                              f"euler, xyaxes, zaxis")
    if not given:
        return RigidTransform(p)
    kind = given[0]
    if kind == "quat":
        q = numbers(element, attributes, "quat", 4, d)
        n = float(np.linalg.norm(q))
        if n < 1e-12:
            d.error(element.line, f"{describe(element)} attribute 'quat' is zero; a "
                                  f"quaternion must have a non-zero norm")
        R = _quaternion_matrix(*(q / n))
    elif kind == "axisangle":
        a = numbers(element, attributes, "axisangle", 4, d)
        n = float(np.linalg.norm(a[:3]))
        if n < 1e-12:
            d.error(element.line, f"{describe(element)} attribute 'axisangle' has a zero axis")
        R = _axis_angle(a[:3] / n, a[3] * compiler.angle_unit)
    elif kind == "euler":
        e = numbers(element, attributes, "euler", 3, d) * compiler.angle_unit
        R = np.eye(3)
        for letter, angle in zip(compiler.eulerseq, e):
            axis = np.eye(3)["xyz".index(letter.lower())]
            step = _axis_angle(axis, angle)
            R = R @ step if letter.islower() else step @ R
    elif kind == "xyaxes":
        a = numbers(element, attributes, "xyaxes", 6, d)
        x, y = a[:3], a[3:]
        if np.linalg.norm(x) < 1e-12 or np.linalg.norm(y - (y @ x) / (x @ x) * x) < 1e-12:
            d.error(element.line, f"{describe(element)} attribute 'xyaxes': the x axis is zero "
                                  f"or the y axis is parallel to it")
        x = x / np.linalg.norm(x)
        y = y - (y @ x) * x
        y = y / np.linalg.norm(y)
        z = np.cross(x, y)
        R = np.column_stack([x, y, z / np.linalg.norm(z)])
    else:
        z = numbers(element, attributes, "zaxis", 3, d)
        R = rotation_z_to(z)
        if R is None:
            d.error(element.line, f"{describe(element)} attribute 'zaxis' is zero")
    return RigidTransform(RotationMatrix(R), p)


def fromto_pose(element, fromto: np.ndarray, d):
    """(X_PF, length) of a geom's fromto: F at the midpoint, z from the first
    point to the second; length = the distance between them [m]."""
    from scenegraph.math import RigidTransform, RotationMatrix
    from scenegraph.multibody.parsing.xml_tree import describe

    a, b = fromto[:3], fromto[3:]
    R = rotation_z_to(b - a)
    if R is None:
        d.error(element.line, f"{describe(element)} attribute 'fromto': the two points are the "
                              f"same, so the geom has no direction")
    return RigidTransform(RotationMatrix(R), 0.5 * (a + b)), float(np.linalg.norm(b - a))
