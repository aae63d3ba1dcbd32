"""Hydroelastic representations of geometries, built once per shape and properties.

- SoftMesh: a compliant shape as a tetrahedral VolumeMesh with a pressure
  field p = E·e [Pa], plus per-tetrahedron arrays and a BVH for the queries.
- SoftHalfSpace: a compliant half space; pressure = pressure_scale·depth with
  pressure_scale = E / slab_thickness [Pa/m] (Drake's model: linear in depth).
- RigidMesh: a rigid shape as a TriangleSurfaceMesh with a BVH.
- RigidHalfSpace: a rigid half space (no mesh).

Everything is expressed in the geometry's frame G. Build with
make_hydroelastic_representation(shape, properties) (Drake's property names in
group "hydroelastic"), or make_compliant_representation /
make_rigid_representation with explicit values. Results are cached by shape
parameters and properties, so identical geometries share one representation
(representations are immutable).
"""
from __future__ import annotations

import collections
import math
import os

import numpy as np

from scenegraph.hydroelastic import make_fields as mf
from scenegraph.hydroelastic import make_meshes as mm
from scenegraph.hydroelastic.bvh import Bvh
from scenegraph.hydroelastic.clipping import tet_face_planes
from scenegraph.hydroelastic.mesh_io_hydro import is_watertight, read_vtk_volume_mesh
from scenegraph.hydroelastic.surface_mesh import TriangleSurfaceMesh
from scenegraph.hydroelastic.volume_mesh import ConvertVolumeToSurfaceMesh

HYDRO_GROUP = "hydroelastic"
COMPLIANCE_TYPE = "compliance_type"
MODULUS = "hydroelastic_modulus"
RESOLUTION_HINT = "resolution_hint"
SLAB_THICKNESS = "slab_thickness"
MARGIN = "margin"


class HydroelasticPropertyError(RuntimeError, ValueError):
    """Invalid hydroelastic properties or shape data (a RuntimeError, as Drake, and a ValueError)."""


class SoftMesh:
    """Compliant volume: mesh_G (VolumeMesh) and pressure_G (VolumeMeshFieldLinear, Pa);
    with a margin δ [m] the mesh is of the shape inflated by δ and the pressure is
    zero on the original surface, negative in the margin layer.

    Cached arrays, all in G: tet_p (T, 4, 3) [m], grad (T, 3) [Pa/m],
    at_Go (T,) [Pa] (each tet's linear pressure at G's origin), grad_unit
    (T, 3), face_n (T, 4, 3) / face_d (T, 4) outward face planes, bvh, and
    kernel_rows (the same data as the compiled kernels read it).
    """

    is_half_space = False
    is_soft = True

    def __init__(self, mesh, pressure, margin: float = 0.0):
        self.mesh = mesh
        self.pressure = pressure
        self.margin = float(margin)
        tets = mesh.tetrahedra_array()
        self.tet_p = mesh.vertices_array()[tets]
        self.tet_values = pressure.values()[tets]
        self.grad = pressure.gradients_array()
        self.at_Go = pressure.values_at_origin_array()
        norm = np.linalg.norm(self.grad, axis=1, keepdims=True)
        # A tet with no pressure gradient gets NaN, so it fails every "normal along the
        # gradient" test (as Drake's normalized zero vector does).
        self.grad_unit = np.where(norm > 0, self.grad / np.where(norm > 0, norm, 1.0), np.nan)
        self.face_n, self.face_d = tet_face_planes(self.tet_p)
        self.bvh = Bvh(self.tet_p)
        # What the compiled kernels read: one row per tetrahedron, in hierarchy order
        # (layout in contact_kernels.py).
        T = self.tet_p.shape[0]
        rows = np.concatenate([self.tet_p.reshape(T, 12), self.face_n.reshape(T, 12), self.face_d,
                               self.grad, self.at_Go[:, None], self.grad_unit, np.zeros((T, 1))],
                              axis=1)
        self.kernel_rows = np.ascontiguousarray(rows[self.bvh.order])
        #: Orders representations independently of geometry ids (see calculator.py).
        self.order_key = (T, mesh.num_vertices(), mesh.vertices_array()[0].tobytes())

    def hydroelastic_mesh(self):
        return self.mesh


class SoftHalfSpace:
    """Compliant half space z ≤ δ in G (δ = margin [m], 0 by default); pressure =
    pressure_scale·(−z) [Pa] (negative in the margin layer), scale in Pa/m."""

    is_half_space = True
    is_soft = True

    def __init__(self, pressure_scale: float, margin: float = 0.0):
        self.pressure_scale = float(pressure_scale)
        self.margin = float(margin)

    def hydroelastic_mesh(self):
        return None


class RigidMesh:
    """Rigid surface: mesh_G (TriangleSurfaceMesh) with a triangle BVH."""

    is_half_space = False
    is_soft = False

    def __init__(self, mesh: TriangleSurfaceMesh):
        self.mesh = mesh
        self.bvh = Bvh.from_simplices(mesh.vertices_array(), mesh.triangles_array())
        # What the compiled kernels read: one row per triangle (vertices, unit normal),
        # in hierarchy order (layout in contact_kernels.py).
        F = mesh.num_triangles()
        rows = np.concatenate([mesh.vertices_array()[mesh.triangles_array()].reshape(F, 9),
                               mesh.face_normals_array()], axis=1)
        self.kernel_rows = np.ascontiguousarray(rows[self.bvh.order])

    def hydroelastic_mesh(self):
        return self.mesh


class RigidHalfSpace:
    """Rigid half space z ≤ 0 in G (no mesh)."""

    is_half_space = True
    is_soft = False

    def hydroelastic_mesh(self):
        return None


# --- validation ---------------------------------------------------------------------------
def _positive(value, compliance: str, shape_name: str, prop: str) -> float:
    full = f"('{HYDRO_GROUP}', '{prop}')"
    if value is None:
        raise HydroelasticPropertyError(f"Cannot create {compliance} {shape_name}; missing the {full} "
                                        "property")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise HydroelasticPropertyError(f"Cannot create {compliance} {shape_name}; the {full} property "
                                        f"must be a number; given {value!r}") from None
    if not math.isfinite(v):
        raise HydroelasticPropertyError(f"Cannot create {compliance} {shape_name}; the {full} property "
                                        f"must be finite; given {v}")
    if v <= 0:
        raise HydroelasticPropertyError(f"Cannot create {compliance} {shape_name}; the {full} property "
                                        f"must be positive; given {v}")
    return v


def _non_negative(value, shape_name: str, prop: str) -> float:
    full = f"('{HYDRO_GROUP}', '{prop}')"
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise HydroelasticPropertyError(f"Cannot create soft {shape_name}; the {full} property "
                                        f"must be a number; given {value!r}") from None
    if not (math.isfinite(v) and v >= 0.0):
        raise HydroelasticPropertyError(f"Cannot create soft {shape_name}; the {full} property "
                                        f"must be non-negative and finite; given {v}")
    return v


def _mesh_points(shape) -> np.ndarray:
    """(N, 3) vertices [m] of a Mesh/Convex shape, scale applied."""
    if hasattr(shape, "mesh_vertices"):
        return np.asarray(shape.mesh_vertices(), dtype=float).reshape(-1, 3)
    hull = shape.GetConvexHull()
    return np.array([hull.vertex(i) for i in range(hull.num_vertices())], dtype=float)


def _is_vtk(shape) -> bool:
    ext = shape.extension() if hasattr(shape, "extension") else ""
    return str(ext).lower() == ".vtk"


def _vtk_volume(shape):
    scale = shape.scale3() if hasattr(shape, "scale3") else shape.scale()
    return read_vtk_volume_mesh(shape.filename(), scale)


def _describe(shape) -> str:
    try:
        return f"'{shape.filename()}'"
    except Exception:
        return "(in-memory mesh)"


# --- builders -------------------------------------------------------------------------------
def _build_soft(shape, E, hint, thickness, margin=0.0):
    """The compliant representation; with margin δ > 0 the mesh is of the shape
    inflated by δ (Drake's inflated shapes) and the field is zero on the original
    surface."""
    name = type(shape).__name__
    d = margin
    if name == "HalfSpace":
        t = _positive(thickness, "soft", "HalfSpace", SLAB_THICKNESS)
        return SoftHalfSpace(E / t, d)
    if name == "Sphere":
        h = _positive(hint, "soft", name, RESOLUTION_HINT)
        R = shape.radius() + d
        mesh = mm.make_sphere_volume_mesh(R, h)
        return SoftMesh(mesh, mf.make_sphere_pressure_field(mesh, R, E, d), d)
    if name == "Ellipsoid":
        h = _positive(hint, "soft", name, RESOLUTION_HINT)
        a, b, c = shape.a() + d, shape.b() + d, shape.c() + d
        mesh = mm.make_ellipsoid_volume_mesh(a, b, c, h)
        return SoftMesh(mesh, mf.make_ellipsoid_pressure_field(mesh, a, b, c, E, d), d)
    if name == "Box":
        size = (shape.width() + 2 * d, shape.depth() + 2 * d, shape.height() + 2 * d)
        mesh = mm.make_box_volume_mesh(*size)
        return SoftMesh(mesh, mf.make_box_pressure_field(mesh, size, E, d), d)
    if name == "Cylinder":
        h = _positive(hint, "soft", name, RESOLUTION_HINT)
        r, length = shape.radius() + d, shape.length() + 2 * d
        mesh = mm.make_cylinder_volume_mesh(r, length, h)
        return SoftMesh(mesh, mf.make_cylinder_pressure_field(mesh, r, length, E, d), d)
    if name == "Capsule":
        h = _positive(hint, "soft", name, RESOLUTION_HINT)
        r = shape.radius() + d
        mesh = mm.make_capsule_volume_mesh(r, shape.length(), h)
        return SoftMesh(mesh, mf.make_capsule_pressure_field(mesh, E, r, d), d)
    if name in ("Mesh", "Convex"):
        if d > 0:
            raise HydroelasticPropertyError(
                f"Cannot create soft {name} {_describe(shape)}: the ('{HYDRO_GROUP}', '{MARGIN}') "
                f"property (given {d}) is not supported for compliant {name} shapes in this "
                "library; use a margin of 0 or leave it out")
        if _is_vtk(shape):
            mesh = _vtk_volume(shape)
            return SoftMesh(mesh, mf.make_volume_mesh_pressure_field(mesh, E))
        if name == "Mesh":
            faces = shape.mesh_faces() if hasattr(shape, "mesh_faces") else None
            if faces is not None and not is_watertight(faces):
                raise HydroelasticPropertyError(
                    f"Cannot create soft Mesh {_describe(shape)}: a compliant mesh must be a closed, "
                    "watertight, consistently oriented surface (some edge is not shared by exactly "
                    "two triangles)")
        try:
            mesh = mm.make_convex_volume_mesh(_mesh_points(shape))
        except ValueError as err:
            raise HydroelasticPropertyError(f"Cannot create soft {name} {_describe(shape)}: {err}") from None
        return SoftMesh(mesh, mf.make_convex_pressure_field(mesh, E))
    return None


def _build_rigid(shape, hint):
    name = type(shape).__name__
    if name == "HalfSpace":
        return RigidHalfSpace()
    if name == "Box":
        return RigidMesh(mm.make_box_surface_mesh(shape.width(), shape.depth(), shape.height()))
    if name == "Sphere":
        h = _positive(hint, "rigid", name, RESOLUTION_HINT)
        return RigidMesh(mm.make_sphere_surface_mesh(shape.radius(), h))
    if name == "Ellipsoid":
        h = _positive(hint, "rigid", name, RESOLUTION_HINT)
        return RigidMesh(mm.make_ellipsoid_surface_mesh(shape.a(), shape.b(), shape.c(), h))
    if name == "Cylinder":
        h = _positive(hint, "rigid", name, RESOLUTION_HINT)
        return RigidMesh(mm.make_cylinder_surface_mesh(shape.radius(), shape.length(), h))
    if name == "Capsule":
        h = _positive(hint, "rigid", name, RESOLUTION_HINT)
        return RigidMesh(mm.make_capsule_surface_mesh(shape.radius(), shape.length(), h))
    if name in ("Mesh", "Convex"):
        if _is_vtk(shape):
            return RigidMesh(ConvertVolumeToSurfaceMesh(_vtk_volume(shape)))
        faces = shape.mesh_faces() if hasattr(shape, "mesh_faces") else None
        if name == "Mesh" and faces is not None and len(faces):
            return RigidMesh(TriangleSurfaceMesh(np.asarray(faces), _mesh_points(shape)))
        try:
            return RigidMesh(mm.make_convex_surface_mesh(_mesh_points(shape)))
        except ValueError as err:
            raise HydroelasticPropertyError(f"Cannot create rigid {name} {_describe(shape)}: {err}") from None
    return None


def _shape_key(shape):
    name = type(shape).__name__
    getters = {"Sphere": ("radius",), "Box": ("width", "depth", "height"),
               "Cylinder": ("radius", "length"), "Capsule": ("radius", "length"),
               "Ellipsoid": ("a", "b", "c"), "HalfSpace": ()}
    if name in getters:
        return (name,) + tuple(float(getattr(shape, g)()) for g in getters[name])
    if name in ("Mesh", "Convex"):
        try:
            path = os.fspath(shape.filename())
            stamp = os.stat(path).st_mtime_ns
        except Exception:
            path, stamp = None, None
        scale = tuple(np.atleast_1d(shape.scale3() if hasattr(shape, "scale3") else shape.scale()))
        pts = _mesh_points(shape)
        faces = shape.mesh_faces() if hasattr(shape, "mesh_faces") else None
        fh = None if faces is None else hash(np.asarray(faces).tobytes())
        return (name, path, stamp, scale, hash(pts.tobytes()), pts.shape, fh)
    return None


_CACHE: "collections.OrderedDict" = collections.OrderedDict()
_CACHE_SIZE = 256


def _cached(key, build):
    if key is not None and key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    rep = build()
    if key is not None:
        _CACHE[key] = rep
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return rep


def make_compliant_representation(shape, hydroelastic_modulus, resolution_hint=None,
                                  slab_thickness=None, margin=None):
    """SoftMesh / SoftHalfSpace for `shape` (None for unsupported shapes).

    hydroelastic_modulus E [Pa]; resolution_hint [m] (Sphere, Ellipsoid,
    Cylinder, Capsule); slab_thickness [m] (HalfSpace); margin δ [m] (≥ 0,
    default 0): the shape is inflated by δ and its pressure is zero on the
    original surface (Sphere, Ellipsoid, Box, Cylinder, Capsule, HalfSpace).
    Raises HydroelasticPropertyError for missing, non-positive or non-finite
    values, a negative margin or a positive one on a Mesh or Convex, a
    non-watertight compliant Mesh, or a .vtk file that is not tetrahedral.
    """
    name = type(shape).__name__
    E = _positive(hydroelastic_modulus, "soft", name, MODULUS)
    margin = 0.0 if margin is None else _non_negative(margin, name, MARGIN)
    if resolution_hint is not None:
        resolution_hint = _positive(resolution_hint, "soft", name, RESOLUTION_HINT)
    if slab_thickness is not None and name == "HalfSpace":
        slab_thickness = _positive(slab_thickness, "soft", name, SLAB_THICKNESS)
    used_hint = resolution_hint if name in ("Sphere", "Ellipsoid", "Cylinder", "Capsule") else None
    used_t = slab_thickness if name == "HalfSpace" else None
    shape_key = _shape_key(shape)
    key = None if shape_key is None else ("soft", shape_key, E, used_hint, used_t, margin)
    try:
        return _cached(key, lambda: _build_soft(shape, E, used_hint, used_t, margin))
    except ValueError as err:
        if isinstance(err, HydroelasticPropertyError):
            raise
        raise HydroelasticPropertyError(f"Cannot create soft {name}: {err}") from None


def make_rigid_representation(shape, resolution_hint=None):
    """RigidMesh / RigidHalfSpace for `shape` (None for unsupported shapes).

    resolution_hint [m] is required for Sphere, Ellipsoid, Cylinder, Capsule;
    Box, HalfSpace, Mesh and Convex ignore it.
    """
    name = type(shape).__name__
    if resolution_hint is not None:
        resolution_hint = _positive(resolution_hint, "rigid", name, RESOLUTION_HINT)
    used_hint = resolution_hint if name in ("Sphere", "Ellipsoid", "Cylinder", "Capsule") else None
    shape_key = _shape_key(shape)
    key = None if shape_key is None else ("rigid", shape_key, used_hint)
    try:
        return _cached(key, lambda: _build_rigid(shape, used_hint))
    except ValueError as err:
        if isinstance(err, HydroelasticPropertyError):
            raise
        raise HydroelasticPropertyError(f"Cannot create rigid {name}: {err}") from None


def compliance_of(value) -> str | None:
    """'rigid', 'soft' or None from a compliance_type property value (enum or string)."""
    if value is None:
        return None
    text = str(getattr(value, "name", value)).lower()
    if "rigid" in text:
        return "rigid"
    if "soft" in text or "compliant" in text:
        return "soft"
    return None


def make_hydroelastic_representation(shape, properties):
    """The representation SceneGraph stores for a geometry with proximity `properties`.

    Reads Drake's properties ("hydroelastic", "compliance_type" /
    "hydroelastic_modulus" / "resolution_hint" / "slab_thickness" / "margin";
    as in Drake, a margin only affects compliant geometries). Returns None when
    the properties declare no (or undefined) compliance or the shape has no
    hydroelastic support.
    """
    if properties is None or not properties.HasGroup(HYDRO_GROUP):
        return None

    def get(name):
        return properties.GetPropertyOrDefault(HYDRO_GROUP, name, None)

    compliance = compliance_of(get(COMPLIANCE_TYPE))
    if compliance == "rigid":
        return make_rigid_representation(shape, get(RESOLUTION_HINT))
    if compliance == "soft":
        return make_compliant_representation(shape, get(MODULUS), get(RESOLUTION_HINT),
                                             get(SLAB_THICKNESS), get(MARGIN))
    return None
