"""Parser: pydrake.multibody.parsing.Parser for URDF files (and strings).

Each AddModels call reads the whole source into a ModelDescription (every
element checked, every mesh loaded) before the first plant call, then commits
it inside the plant's rollback transaction: a failed AddModels leaves the plant
and its SceneGraph exactly as they were.

File types are chosen by extension (or ``file_type`` for strings) through
``_FORMATS``: adding a reader for a format is one entry there. URDF (.urdf),
MJCF (.xml, mjcf_reader.py) and SDFormat (.sdf, sdf_reader.py) are read;
model directives (.dmd.yaml) and bare meshes (.obj) are refused with a
message saying so. A source's models are committed together (all or none);
AddModels returns every instance added, nested SDFormat models included.

Extensions (snake_case): ``add_srdf(file_name, model_instance)`` applies an
SRDF's ``<disable_collisions>`` (see srdf.py).
"""
from __future__ import annotations

import contextlib
import os
import sys

from systems.common.overloads import overloaded
from scenegraph.gc_pause import paused_gc
from scenegraph.multibody.parsing.collision_filter_groups import CollisionFilterGroups
from scenegraph.multibody.parsing.diagnostics import (LITERAL_STRING_STEM, Diagnostics,
                                                      ParsingError)
from scenegraph.multibody.parsing.mesh_files import MeshLoader
from scenegraph.multibody.parsing.model_loader import commit_models
from scenegraph.multibody.parsing.package_map import PackageMap, UriError, resolve_uri
from scenegraph.multibody.parsing.urdf_geometry import ReadContext
from scenegraph.multibody.parsing.urdf_reader import read_urdf
from scenegraph.multibody.parsing.xml_tree import MAX_ELEMENT_DEPTH

#: Python frames a reader or the commit may use per level of XML nesting.
_FRAMES_PER_LEVEL = 8

__all__ = ["Parser"]


def _read_urdf_format(data, ctx, with_geometry, what):
    return [read_urdf(data, ctx, with_geometry, what)]


def _read_mjcf_format(data, ctx, with_geometry, what):
    from scenegraph.multibody.parsing.mjcf_reader import read_mjcf

    return [read_mjcf(data, ctx, with_geometry, what)]


def _read_sdf_format(data, ctx, with_geometry, what):
    from scenegraph.multibody.parsing.sdf_reader import read_sdf

    return read_sdf(data, ctx, with_geometry, what)


# extension -> reader(data, ReadContext, with_geometry, "file" | "string") -> [descriptions],
# or the name of a format not read yet.
_FORMATS = {
    ".urdf": _read_urdf_format,
    ".sdf": _read_sdf_format,
    ".xml": _read_mjcf_format,
    ".dmd.yaml": "model directives",
    ".obj": "a bare OBJ mesh",
}


def _format_of(name: str):
    lower = name.lower()
    for extension, reader in _FORMATS.items():
        if lower.endswith(extension):
            return extension, reader
    raise RuntimeError(f"The file '{name}' is not a recognized type. Known types are: "
                       f".urdf, .sdf, .xml (Mujoco), .dmd.yaml, .obj")


def _reader_for(name: str):
    extension, reader = _format_of(name)
    if isinstance(reader, str):
        read = ", ".join(e for e, r in _FORMATS.items() if not isinstance(r, str))
        raise RuntimeError(f"Parser: '{name}' is {reader} ({extension}), which this library "
                           f"does not read yet; it reads {read}")
    return reader


def _is_plant(value) -> bool:
    return hasattr(value, "AddRigidBody") and hasattr(value, "AddModelInstance")


def _is_scene_graph_or_none(value) -> bool:
    return value is None or hasattr(value, "RegisterSource")


def _is_builder(value) -> bool:
    return hasattr(value, "AddSystem") and hasattr(value, "Connect")


def _is_plant_or_none(value) -> bool:
    return value is None or _is_plant(value)


class Parser:
    """Adds models from files or strings to a MultibodyPlant (pydrake's Parser).

    Forms: ``Parser(plant, scene_graph=None, model_name_prefix='')``,
    ``Parser(plant, model_name_prefix)`` and ``Parser(builder, plant=None,
    scene_graph=None, model_name_prefix='')`` (the plant defaults to the
    builder's system named "plant"). A scene_graph given here is registered as
    the plant's geometry source if the plant has none.

    The package map starts empty (pydrake's holds Drake's own packages).
    """

    @overloaded.typed(plant=_is_plant, scene_graph=_is_scene_graph_or_none,
                      model_name_prefix=str)
    def __init__(self, plant, scene_graph=None, model_name_prefix=''):
        self._setup(None, plant, scene_graph, model_name_prefix)

    @__init__.overload(plant=_is_plant, model_name_prefix=str)
    def __init__(self, plant, model_name_prefix):
        self._setup(None, plant, None, model_name_prefix)

    @__init__.overload(builder=_is_builder, plant=_is_plant_or_none,
                       scene_graph=_is_scene_graph_or_none, model_name_prefix=str)
    def __init__(self, builder, plant=None, scene_graph=None, model_name_prefix=''):
        if plant is None:
            if not builder.HasSubsystemNamed("plant"):
                raise RuntimeError("Parser(builder): the builder has no system named 'plant'; "
                                   "pass the plant")
            plant = builder.GetSubsystemByName("plant")
        systems = builder.GetSystems()
        if not any(system is plant for system in systems):
            raise RuntimeError("The provided plant must be one of the systems in the builder")
        if scene_graph is not None and not any(system is scene_graph for system in systems):
            raise RuntimeError("The provided scene_graph must be one of the systems in the "
                               "builder")
        self._setup(builder, plant, scene_graph, model_name_prefix)

    def _setup(self, builder, plant, scene_graph, model_name_prefix) -> None:
        self._builder = builder
        self._plant = plant
        self._prefix = model_name_prefix
        self._package_map = PackageMap()
        self._strict = False
        self._auto_renaming = False
        self._filter_records: list = []
        if scene_graph is not None and not plant.geometry_source_is_registered():
            plant.RegisterAsSourceForSceneGraph(scene_graph)

    # ------------------------------------------------------------ accessors
    def package_map(self) -> PackageMap:
        """The (mutable) package map used to resolve package:// URIs."""
        return self._package_map

    def plant(self):
        """The MultibodyPlant models are added to."""
        return self._plant

    def builder(self):
        """The DiagramBuilder given at construction, or None."""
        return self._builder

    def scene_graph(self):
        """The plant's SceneGraph when it has one (before Finalize), else None."""
        if not self._plant.geometry_source_is_registered():
            return None
        getter = getattr(self._plant, "_scene_graph_pre_finalize", None)
        return getter() if getter is not None else getattr(self._plant, "_scene_graph", None)

    def SetStrictParsing(self) -> None:
        """From now on, warnings are errors."""
        self._strict = True

    def SetAutoRenaming(self, value: bool) -> None:
        """With auto-renaming, a model whose name is taken becomes "name_1",
        "name_2", ... instead of an error."""
        self._auto_renaming = bool(value)

    def GetAutoRenaming(self) -> bool:
        """Whether a model whose name is taken is renamed (with a suffix)
        instead of refused."""
        return self._auto_renaming

    def GetCollisionFilterGroups(self):
        """The collision filter groups and pairs of every model this parser
        added, scoped with the models' current names."""
        result = CollisionFilterGroups()
        for record in self._filter_records:
            record.add_to(result, self._plant)
        return result

    # ---------------------------------------------------------- AddModels
    @overloaded.typed(file_name=lambda v: isinstance(v, (str, os.PathLike)))
    def AddModels(self, file_name):
        """Adds every model of the file (chosen by extension); returns their
        ModelInstanceIndex list."""
        return self._add_from_file(file_name)

    @AddModels.overload
    def AddModels(self, *, url):
        """The file a package://, model:// or file:// URL names."""
        return self.AddModelsFromUrl(url)

    @AddModels.overload
    def AddModels(self, *, file_contents, file_type):
        """Text in memory; `file_type` is the extension without the dot ("urdf")."""
        return self.AddModelsFromString(file_contents, file_type)

    def AddModelsFromUrl(self, url: str):
        """AddModels of the file a package://, model:// or file:// URL names."""
        try:
            path = resolve_uri(url, self._package_map, "")
        except UriError as exc:
            raise ParsingError(f"error: {exc}") from None
        return self._add_from_file(path)

    def AddModelsFromString(self, file_contents: str, file_type: str):
        """AddModels of text in memory; `file_type` is "urdf", "sdf" or "xml"
        (with or without the dot).
        Meshes must be named by package://, model:// or file:// URIs (a string
        has no folder for relative paths, as in Drake)."""
        extension = file_type if file_type.startswith(".") else "." + file_type
        source_name = LITERAL_STRING_STEM + extension
        reader = _reader_for(source_name)
        return self._add(reader, file_contents, source_name, "", "string")

    def _add_from_file(self, file_name):
        path = os.path.abspath(os.fspath(file_name))
        reader = _reader_for(path)
        if os.path.exists(path) and not os.path.isfile(path):
            raise ParsingError(f"{path}:0: error: cannot read the file: it is not a regular "
                               f"file (a folder, a FIFO or a device)", path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise ParsingError(f"{path}:0: error: cannot read the file: {exc.strerror}",
                               path) from None
        return self._add(reader, data, path, os.path.dirname(path), "file")

    def _add(self, reader, data, source_name, root_dir, what):
        plant = self._plant
        if plant.is_finalized():
            raise RuntimeError(f"Parser: cannot add '{source_name}': the plant is finalized "
                               f"(add models before MultibodyPlant.Finalize())")
        diagnostics = Diagnostics(source_name, self._strict)
        ctx = ReadContext(diagnostics, self._package_map, root_dir, MeshLoader())
        with _room_for_nesting(), paused_gc(promote=False):
            try:
                models = reader(data, ctx, plant.geometry_source_is_registered(), what)
            finally:
                diagnostics.flush_ignored()
            names = self._model_names([m for m in models if not m.world_scope], diagnostics)
            try:
                added, records = commit_models(plant, models, names)
            except (ParsingError, RecursionError, NotImplementedError):
                raise
            except RuntimeError as error:
                # The plant's or SceneGraph's own refusal (a duplicate frame or
                # geometry name ...): the plant is as it was; name the source.
                raise ParsingError(f"{source_name}: error: {error}", source_name) from None
        self._filter_records.extend(records)
        return added

    def _model_names(self, models, diagnostics) -> list:
        """The model instance names (prefix, then auto-renaming), checked
        against the plant's and each other's before anything is added."""
        taken = set()
        names = []
        for model in models:
            name = f"{self._prefix}::{model.name}" if self._prefix else model.name
            if self._plant.HasModelInstanceNamed(name) or name in taken:
                if not self._auto_renaming:
                    diagnostics.error(model.line, f"This model already contains a model "
                                                  f"instance named '{name}'. Model instance "
                                                  f"names must be unique within a given model "
                                                  f"(use Parser.SetAutoRenaming(True) to add "
                                                  f"it as '{name}_1')")
                base = name
                for k in range(1, self._plant.num_model_instances() + len(taken) + 1):
                    name = f"{base}_{k}"
                    if not self._plant.HasModelInstanceNamed(name) and name not in taken:
                        break
            taken.add(name)
            names.append(name)
        return names

    # ---------------------------------------------------------- extensions
    def add_srdf(self, file_name, model_instance):
        """Extension: applies an SRDF file to a model this plant holds.

        Each ``<disable_collisions link1 link2 reason>`` excludes collisions
        between the geometries of the two bodies of `model_instance`; the other
        elements (groups, group states, end effectors, virtual and passive
        joints) are read and returned, not applied. Returns an SrdfDescription.

        Raises:
          ParsingError: malformed XML, or a link that is not a body of
            `model_instance` (nothing is applied then).
        """
        from scenegraph.multibody.parsing.srdf import add_srdf

        return add_srdf(self._plant, os.fspath(file_name), model_instance, self._strict)

    def __repr__(self) -> str:
        return f"<Parser prefix={self._prefix!r} packages={self._package_map.GetPackageNames()}>"


@contextlib.contextmanager
def _room_for_nesting():
    """Python's recursion limit raised, for the block, to what the readers and
    the commit need for any nesting the XML reader accepts (they recurse once
    or a few times per level, and it accepts MAX_ELEMENT_DEPTH levels: pydrake
    reads SDFormat models nested ~500 deep). On Python >= 3.11 a Python-to-
    Python call uses no C stack, so the higher limit is safe."""
    previous = sys.getrecursionlimit()
    needed = len(_frames()) + _FRAMES_PER_LEVEL * MAX_ELEMENT_DEPTH + 200
    if needed > previous:
        sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if needed > previous and sys.getrecursionlimit() == needed:
            sys.setrecursionlimit(previous)


def _frames() -> list:
    frames, frame = [], sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames
