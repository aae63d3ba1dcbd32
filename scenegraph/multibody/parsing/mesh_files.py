"""Mesh shapes for a model's geometries, each mesh file read once per parse.

Any format trimesh reads is accepted (STL binary or ASCII, OBJ, DAE through
pycollada, glTF/GLB, PLY, ...), through ``scenegraph.Mesh`` / ``Convex``.

* A visual mesh is always a ``Mesh`` (open or closed), not read while parsing
  (its file is read when first used, as pydrake does).
* A collision mesh declared convex (``<drake:declare_convex/>``) is a
  ``Convex``. Otherwise it is a ``Mesh`` when SceneGraph's proximity check
  accepts it (a closed surface, small enough for the exact mesh queries), and
  a ``Convex`` of the same file and scale when it does not: its convex hull,
  which is the meaning Drake gives every collision mesh anyway. The geometry
  keeps the name Drake would give it ("Mesh") either way.
* A mesh with vertices but no triangles (a point-cloud file) is refused,
  except as a declared convex, whose hull needs points only.

``MeshLoader`` remembers the shapes it built (by path, scale and role), so a
file named by several geometries of one parse is read once (a collision mesh
that becomes a Convex reuses the vertices already read); every geometry gets
its own shallow copy, sharing the vertex arrays.
"""
from __future__ import annotations

import copy

import numpy as np

__all__ = ["MeshLoader", "MeshFileError", "UnreadableMeshError"]


class MeshFileError(RuntimeError):
    """A mesh file that cannot serve as the geometry (the message says why)."""


class UnreadableMeshError(MeshFileError):
    """A mesh file that exists but could not be parsed into vertices."""


class MeshLoader:
    """Builds the Mesh/Convex shapes of one parse (see the module docstring)."""

    def __init__(self):
        self._shapes: dict = {}
        self._checked: set = set()    # keys of Meshes whose triangles were checked

    def visual(self, path: str, scale3: np.ndarray):
        """A Mesh of the file at `path` [file units × scale3 -> m]. Not read here:
        a Mesh reads its file at its first use (a viewer drawing it), as pydrake
        never reads visual meshes while parsing; a collision use of the same
        file and scale shares the read."""
        from scenegraph.shapes import Mesh

        from scenegraph.mesh_io import file_has_triangles

        key = (path, _scale_key(scale3), "Mesh")
        mesh = self._shapes.get(key)
        if mesh is None:
            has_triangles = file_has_triangles(path)   # from its bytes, not parsed
            if has_triangles is None:
                mesh = self._mesh(path, scale3)        # no quick answer: read it
            elif not has_triangles:
                raise MeshFileError(f"the mesh file '{path}' holds no triangles (a point "
                                    f"cloud?): a Mesh needs faces")
            else:
                mesh = self._shapes[key] = _construct(Mesh, path, scale3)
        return copy.copy(mesh)

    def collision(self, path: str, scale3: np.ndarray, declare_convex: bool):
        """A Mesh when SceneGraph's proximity check accepts it, else (or when
        declared convex) a Convex of the same file and scale."""
        key = (path, _scale_key(scale3), "collision", declare_convex)
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._declared_convex(path, scale3) if declare_convex else \
                self._collision_mesh(path, scale3)
            self._shapes[key] = shape
        return copy.copy(shape)

    # ------------------------------------------------------------------
    def _mesh(self, path: str, scale3):
        key = (path, _scale_key(scale3), "Mesh")
        mesh = self._shapes.get(key)
        if mesh is None:
            from scenegraph.shapes import Mesh

            mesh = _construct(Mesh, path, scale3)
        if key not in self._checked:
            try:
                faces = mesh.mesh_faces()
            except (RuntimeError, ValueError) as exc:
                raise UnreadableMeshError(f"the mesh file '{path}' could not be loaded as a "
                                          f"Mesh: {exc}") from None
            if faces is None or len(faces) == 0:
                raise MeshFileError(f"the mesh file '{path}' holds {len(mesh.mesh_vertices())} "
                                    f"vertices and no triangles (a point cloud?): a Mesh needs "
                                    f"faces")
            self._checked.add(key)
            self._shapes[key] = mesh
        return mesh

    def _declared_convex(self, path: str, scale3):
        from scenegraph.shapes import Convex

        return _checked_convex(_construct(Convex, path, scale3), path)

    def _collision_mesh(self, path: str, scale3):
        from scenegraph.proximity_shape_check import check_proximity_shape

        mesh = self._mesh(path, scale3)
        try:
            check_proximity_shape(mesh, describe=False)   # only the verdict is used
        except ValueError:
            return _checked_convex(_convex_of(mesh, path, scale3), path)  # open or too large
        return mesh


def _scale_key(scale3) -> tuple:
    return tuple(float(s) for s in scale3)


def _scale_argument(scale3):
    s = np.asarray(scale3, dtype=float)
    return float(s[0]) if s[0] == s[1] == s[2] else s


def _construct(cls, path: str, scale3):
    try:
        return cls(path, _scale_argument(scale3))
    except (RuntimeError, ValueError, TypeError) as exc:
        raise UnreadableMeshError(f"the mesh file '{path}' could not be loaded as a "
                                  f"{cls.__name__}: {exc}") from None


def _convex_of(mesh, path: str, scale3):
    """The Convex of the same file and scale as `mesh`, sharing its vertex
    arrays (no second parse of the file); built from the file if the Mesh does
    not have the layout this relies on."""
    from scenegraph.shapes import Convex, Mesh

    if type(mesh) is Mesh and hasattr(mesh, "_V") and hasattr(mesh, "_finish"):
        convex = copy.copy(mesh)
        try:
            convex.__class__ = Convex
            convex._finish()     # Convex's own check that the points span a volume
            return convex
        except (TypeError, AttributeError):
            pass
        except (RuntimeError, ValueError) as exc:
            raise MeshFileError(f"the mesh file '{path}' is neither a closed surface nor the "
                                f"boundary of a volume: {exc}") from None
    return _construct(Convex, path, scale3)


def _checked_convex(convex, path: str):
    from scenegraph.proximity_shape_check import check_proximity_shape

    try:
        check_proximity_shape(convex)
    except MeshFileError:
        raise
    except ValueError as exc:
        raise MeshFileError(f"the convex hull of '{path}' cannot take part in proximity "
                            f"queries: {exc}") from None
    except RuntimeError as exc:   # a Convex reads its file at its first use
        raise UnreadableMeshError(f"the mesh file '{path}' could not be loaded as a "
                                  f"Convex: {exc}") from None
    return convex
