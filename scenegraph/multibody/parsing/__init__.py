"""pydrake.multibody.parsing for this library: Parser, PackageMap and
CollisionFilterGroups (URDF models; SRDF as an extension)."""
from scenegraph.multibody.parsing.collision_filter_groups import CollisionFilterGroups
from scenegraph.multibody.parsing.diagnostics import (IgnoredElementWarning, ParsingError,
                                                      ParsingWarning)
from scenegraph.multibody.parsing.package_map import PackageMap
from scenegraph.multibody.parsing.parser import Parser
from scenegraph.multibody.parsing.srdf import SrdfDescription

__all__ = ["Parser", "PackageMap", "CollisionFilterGroups", "ParsingError", "ParsingWarning",
           "IgnoredElementWarning", "SrdfDescription"]
