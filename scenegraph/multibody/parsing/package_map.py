"""PackageMap: package names to folders, and the URI resolution of model files.

pydrake's PackageMap, with one documented difference: a new map is empty.
Drake's default map holds its own ``drake`` and ``drake_models`` packages; this
library ships no models, so ``PackageMap()`` and ``PackageMap.MakeEmpty()``
are the same. Remote packages need the network, which this library never
uses: ``AddRemote`` raises.

``resolve_uri`` is Drake's rule for every file a model names (meshes,
textures, ``AddModelsFromUrl``):

* ``package://name/rest`` and ``model://name/rest``: the package's folder /
  rest. ``package:///name/rest`` (three slashes, seen in some example-robot-data
  files) names the package ``''``; pydrake refuses it. Here, when ``name`` is a
  known package, it is read as ``package://name/rest`` with a ParsingWarning.
* ``file:///abs/path``: the absolute path.
* any other ``scheme://``: an error.
* a plain path: absolute, or relative to the model file's folder. A model
  given as a string has no folder, so a plain path there is an error (Drake's
  rule; use ``file://`` or ``package://``).

The path must exist.
"""
from __future__ import annotations

import dataclasses
import os
import re

from scenegraph.multibody.parsing.diagnostics import Diagnostics, ParsingWarning, warn_at_caller
from scenegraph.multibody.parsing.xml_tree import parse_xml

__all__ = ["PackageMap", "resolve_uri", "UriError"]

_URI = re.compile(r"^([a-z0-9+.-]+)://([^/]*)/+(.*)$", re.DOTALL)


class UriError(RuntimeError):
    """A URI that does not resolve to an existing file (the message says why)."""


def resolve_uri(uri: str, package_map: "PackageMap", root_dir: str) -> str:
    """The normalised absolute path `uri` names (see the module docstring).

    Args:
      uri: the filename as written in the model.
      package_map: the packages known to the parser.
      root_dir: the model file's folder, or "" for a model given as a string.
    Raises:
      UriError: unknown package, unsupported scheme, a plain path in a string
        model, or a path that does not exist (the message gives the URI and,
        where it got that far, the resolved path).
    """
    match = _URI.match(uri)
    if match:
        scheme, package, rest = match.groups()
        if scheme == "file":
            path = "/" + rest
        elif scheme in ("package", "model"):
            if package == "" and "/" in rest and package_map.Contains(rest.split("/", 1)[0]):
                # "package:///name/rest" names the empty package; pydrake refuses it.
                # The package meant is plain: read it so, and say so.
                fixed = f"{scheme}://{rest}"
                warn_at_caller(ParsingWarning(
                    f"URI '{uri}' names the empty package (three slashes); read as "
                    f"'{fixed}' (pydrake refuses it)"))
                package, rest = rest.split("/", 1)
            if not package_map.Contains(package):
                hint = (" (a URI with three slashes names the empty package; write "
                        "package://<name>/...)") if package == "" else ""
                raise UriError(f"URI '{uri}' refers to unknown package '{package}'{hint}")
            deprecation = package_map._deprecations.get(package)
            if deprecation is not None:
                warn_at_caller(UserWarning(f"In URI '{uri}': Package '{package}' is "
                                           f"deprecated: {deprecation}"))
            path = os.path.join(package_map.GetPath(package), rest)
        else:
            raise UriError(f"URI '{uri}' specifies an unsupported scheme; supported schemes "
                           f"are 'file://', 'model://', and 'package://'.")
    else:
        if not root_dir:
            raise UriError(f"URI '{uri}' is invalid when parsing a string instead of a "
                           f"filename.")
        path = uri if os.path.isabs(uri) else os.path.join(os.path.abspath(root_dir), uri)
    path = os.path.normpath(path)
    if not os.path.exists(path):
        raise UriError(f"URI '{uri}' resolved to '{path}' which does not exist.")
    return path


def _same_directory(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class PackageMap:
    """Maps ROS-style package names to their folders (pydrake's PackageMap).

    ``PackageMap()`` is empty here (Drake's holds ``drake`` and
    ``drake_models``); ``PackageMap(other)`` copies `other`.
    """

    @dataclasses.dataclass
    class RemoteParams:
        """Where a remote package would be downloaded from (never used here)."""

        urls: list = dataclasses.field(default_factory=list)
        sha256: str = ""
        archive_type: str | None = None
        strip_prefix: str | None = None

    def __init__(self, other: "PackageMap | None" = None):
        if other is None:
            self._paths: dict[str, str] = {}
            self._deprecations: dict[str, str] = {}
        else:
            self._paths = dict(other._paths)
            self._deprecations = dict(other._deprecations)

    @staticmethod
    def MakeEmpty() -> "PackageMap":
        """An empty map (the same as ``PackageMap()`` in this library)."""
        return PackageMap()

    # ------------------------------------------------------------- editing
    def Add(self, package_name: str, package_path) -> None:
        """Adds a package whose folder is `package_path` (stored as given).

        Raises:
          RuntimeError: the folder does not exist, or `package_name` is already
            mapped to a different folder.
        """
        path = os.fspath(package_path)
        if not os.path.isdir(path):
            raise RuntimeError(f"PackageMap::Add cannot add '{package_name}' because "
                               f"directory '{path}' does not exist")
        self._emplace(package_name, path, "PackageMap::Add()")

    def _emplace(self, package_name: str, path: str, who: str) -> None:
        existing = self._paths.get(package_name)
        if existing is None:
            self._paths[package_name] = path
            return
        if not _same_directory(existing, path):
            raise RuntimeError(f"{who} cannot add '{package_name}' because the local paths "
                               f"are not equivalent ('{existing}' vs '{path}')")

    def AddMap(self, other_map: "PackageMap") -> None:
        """Adds every package of `other_map`.

        Raises:
          RuntimeError: a package of both maps has different folders (nothing is
            added then).
        """
        for name, path in other_map._paths.items():
            existing = self._paths.get(name)
            if existing is not None and not _same_directory(existing, path):
                raise RuntimeError(f"PackageMap::AddMap cannot merge the package definition "
                                   f"for '{name}' because the local paths are not equivalent "
                                   f"('{existing}' vs '{path}')")
        for name, path in other_map._paths.items():
            self._paths.setdefault(name, path)
            if name in other_map._deprecations:
                self._deprecations.setdefault(name, other_map._deprecations[name])

    def AddPackageXml(self, filename) -> None:
        """Adds the package described by a ``package.xml`` manifest: its
        ``<name>``, at the manifest's folder.

        Raises:
          RuntimeError: unreadable or malformed manifest, no ``<package>`` or
            ``<name>`` element, or a name already mapped elsewhere.
        """
        filename = os.fspath(filename)
        name, deprecation = _read_manifest(filename)
        self.Add(name, os.path.dirname(filename))
        if deprecation is not None:
            self._deprecations[name] = deprecation

    def AddRemote(self, package_name: str, params) -> None:
        """Not available: this library never downloads.

        Raises:
          RuntimeError: always, naming the package.
        """
        raise RuntimeError(f"PackageMap::AddRemote('{package_name}'): remote packages are "
                           f"not supported by this library (it never uses the network); "
                           f"download the package and use Add() or PopulateFromFolder()")

    def Remove(self, package_name: str) -> None:
        """Removes a package; RuntimeError if it is not in the map."""
        if self._paths.pop(package_name, None) is None:
            raise RuntimeError(f"Could not find and remove package://{package_name} from "
                               f"the search path.")
        self._deprecations.pop(package_name, None)

    # ------------------------------------------------------------- queries
    def Contains(self, package_name: str) -> bool:
        """True if a package named `package_name` is in the map."""
        return package_name in self._paths

    def size(self) -> int:
        """The number of packages in the map."""
        return len(self._paths)

    def GetPackageNames(self) -> list:
        """The package names, sorted (as Drake's std::map keeps them)."""
        return sorted(self._paths)

    def GetPath(self, package_name: str) -> str:
        """The folder of `package_name`; RuntimeError (naming the known
        packages) if it is not in the map."""
        try:
            return self._paths[package_name]
        except KeyError:
            known = ", ".join(sorted(self._paths)) or "none"
            raise RuntimeError(f"PackageMap::GetPath(): package '{package_name}' is not in "
                               f"the map (known packages: {known})") from None

    def ResolveUrl(self, url: str) -> str:
        """The absolute path of a ``package://``, ``model://`` or ``file://`` URL.

        Raises:
          RuntimeError: unknown package or scheme, a plain path, or a path that
            does not exist.
        """
        try:
            return resolve_uri(url, self, "")
        except UriError as exc:
            raise RuntimeError(f"error: {exc}") from None

    # ------------------------------------------------------------ crawling
    def PopulateFromFolder(self, path) -> None:
        """Adds every package whose ``package.xml`` lies in `path` or below
        (hidden folders skipped; a package found again at another folder is
        ignored with a warning)."""
        path = os.fspath(path)
        if not path:
            raise RuntimeError("PackageMap::PopulateFromFolder(): the path is empty")
        self._crawl(path, stop_at_package=False, stop_markers=())

    def PopulateFromEnvironment(self, environment_variable: str) -> None:
        """Crawls every folder of a ':'-separated environment variable (nothing
        if unset). ROS_PACKAGE_PATH is refused: use PopulateFromRosPackagePath."""
        if not environment_variable:
            raise RuntimeError("PackageMap::PopulateFromEnvironment(): the variable name "
                               "is empty")
        if environment_variable == "ROS_PACKAGE_PATH":
            raise RuntimeError(
                "PackageMap::PopulateFromEnvironment() must not be used to load a "
                "\"ROS_PACKAGE_PATH\"; use PopulateFromRosPackagePath() instead.")
        for folder in os.environ.get(environment_variable, "").split(":"):
            if folder:
                self._crawl(folder, stop_at_package=False, stop_markers=())

    def PopulateFromRosPackagePath(self) -> None:
        """Crawls ROS_PACKAGE_PATH as ROS does: not below a package, and not
        into folders marked AMENT_IGNORE, CATKIN_IGNORE or COLCON_IGNORE."""
        for folder in os.environ.get("ROS_PACKAGE_PATH", "").split(":"):
            if folder:
                self._crawl(folder, stop_at_package=True,
                            stop_markers=("AMENT_IGNORE", "CATKIN_IGNORE", "COLCON_IGNORE"))

    def _crawl(self, folder: str, stop_at_package: bool, stop_markers) -> None:
        folder = os.path.normpath(folder)
        if any(os.path.exists(os.path.join(folder, marker)) for marker in stop_markers):
            return
        manifest = os.path.join(folder, "package.xml")
        if os.path.exists(manifest):
            name, deprecation = _read_manifest(manifest)
            package_path = folder + "/"
            if name not in self._paths:
                self._paths[name] = package_path
                if deprecation is not None:
                    self._deprecations[name] = deprecation
            elif not _same_directory(self._paths[name], package_path):
                warn_at_caller(UserWarning(
                    f"PackageMap is ignoring newly-found path for package '{name}' because the "
                    f"local paths are not equivalent ('{self._paths[name]}' vs "
                    f"'{package_path}')"))
            if stop_at_package:
                return
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            warn_at_caller(UserWarning(f"Unable to open directory: {folder}"))
            return
        for entry in entries:
            if entry.is_dir() and not entry.name.startswith("."):
                self._crawl(entry.path, stop_at_package, stop_markers)

    # -------------------------------------------------------------- python
    def __copy__(self) -> "PackageMap":
        return PackageMap(self)

    def __deepcopy__(self, memo) -> "PackageMap":
        return PackageMap(self)

    def __str__(self) -> str:
        lines = ["PackageMap:"]
        if not self._paths:
            lines.append("  [EMPTY!]")
        lines += [f"  - {name}: {path}" for name, path in sorted(self._paths.items())]
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"<PackageMap {self.size()} packages: {', '.join(self.GetPackageNames())}>"


def _read_manifest(filename: str) -> tuple[str, str | None]:
    """(package name, deprecation message or None) of a package.xml."""
    if os.path.exists(filename) and not os.path.isfile(filename):
        raise RuntimeError(f"PackageMap: cannot read the manifest '{filename}': it is not a "
                           f"regular file (a folder, a FIFO or a device)")
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RuntimeError(f"PackageMap: cannot read the manifest '{filename}': "
                           f"{exc.strerror}") from None
    try:
        root = parse_xml(data, Diagnostics(filename), "file")
    except RuntimeError as exc:
        raise RuntimeError(f"PackageMap: failed to parse the manifest: {exc}") from None
    if root.tag != "package":
        raise RuntimeError(f"PackageMap: the manifest '{filename}' does not contain "
                           f"element <package>.")
    name_node = root.find("name")
    if name_node is None or not name_node.text:
        raise RuntimeError(f"PackageMap: the <package> element of '{filename}' has no "
                           f"<name> (or an empty one).")
    deprecation = None
    export = root.find("export")
    if export is not None and export.find("deprecated") is not None:
        text = " ".join(export.find("deprecated").text.split())
        deprecation = text or "(no explanation given)"
    return name_node.text, deprecation
