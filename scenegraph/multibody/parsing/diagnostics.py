"""Errors and warnings of the model parsers, each naming the file and line.

Drake's parsers report through a diagnostic policy whose messages read
``<file>:<line>: error: <message>`` (or ``warning:``); the file is the model
file's absolute path, or ``<literal-string>.urdf`` for text given in memory.
Errors raise at once (Drake's default policy); nothing has been added to the
plant at that point, because every reader here validates the whole model before
making a single plant call.

Three kinds of report:

* ``ParsingError`` (a RuntimeError, as pydrake raises): the model is refused.
* ``ParsingWarning``: what Drake warns about (a renamed duplicate geometry, a
  joint friction the plant does not model, ...). ``Parser.SetStrictParsing()``
  turns these into errors, as in Drake.
* ``IgnoredElementWarning`` (an extension): an element this library skips
  (``<gazebo>``, ``<sensor>``, ...), reported once per element name per parse,
  naming the file, the number of such elements and the first line. Drake skips
  these silently, so strict parsing does not turn them into errors.
"""
from __future__ import annotations

import os
import sys
import warnings

__all__ = ["ParsingError", "ParsingWarning", "IgnoredElementWarning", "Diagnostics",
           "LITERAL_STRING_STEM", "warn_at_caller"]

# Drake's name for a model given as text (DataSource::GetStem of contents).
LITERAL_STRING_STEM = "<literal-string>"


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_OVERLOADS = os.path.join("systems", "common", "overloads.py")


def warn_at_caller(warning: Warning) -> None:
    """warnings.warn, attributed to the first frame outside this package and
    the overload dispatcher (the user's AddModels call)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and (frame.f_code.co_filename.startswith(_PACKAGE_DIR)
                                 or frame.f_code.co_filename.endswith(_OVERLOADS)):
        frame, level = frame.f_back, level + 1
    warnings.warn(warning, stacklevel=level)


class ParsingError(RuntimeError):
    """A model file (or string) that cannot be loaded.

    Attributes:
      filename: the absolute path of the file, or ``<literal-string>.<type>``.
      line: the 1-based line of the offending element, or None.
    """

    def __init__(self, message: str, filename: str = "", line: int | None = None):
        super().__init__(message)
        self.filename = filename
        self.line = line


class ParsingWarning(UserWarning):
    """A Drake parser warning (strict parsing makes it an error)."""


class IgnoredElementWarning(UserWarning):
    """An element this library skips (extension; never an error)."""


class Diagnostics:
    """Formats and raises (or warns) the reports of one parse of one source.

    Args:
      source_name: the file's absolute path, or ``<literal-string>.urdf``.
      strict: warnings become errors (Parser.SetStrictParsing()).
    """

    def __init__(self, source_name: str, strict: bool = False):
        self.source_name = source_name
        self.strict = strict
        self._ignored: dict[str, list] = {}   # element name -> [count, first line, parent]

    def _where(self, line) -> str:
        return f"{self.source_name}:{line}" if line else self.source_name

    def error(self, line, message: str):
        """Raises ParsingError('<file>:<line>: error: <message>')."""
        raise ParsingError(f"{self._where(line)}: error: {message}", self.source_name, line)

    def warning(self, line, message: str) -> None:
        """Warns ParsingWarning('<file>:<line>: warning: <message>'), or raises
        ParsingError with the same text as an error under strict parsing."""
        if self.strict:
            self.error(line, message)
        warn_at_caller(ParsingWarning(f"{self._where(line)}: warning: {message}"))

    def ignore(self, tag: str, parent: str, line) -> None:
        """Records an element skipped by this library (reported by flush_ignored)."""
        entry = self._ignored.get(tag)
        if entry is None:
            self._ignored[tag] = [1, line, parent]
        else:
            entry[0] += 1

    def flush_ignored(self) -> None:
        """Warns once per skipped element name (IgnoredElementWarning), in the
        order of their first lines, then forgets."""
        for tag, (count, line, parent) in sorted(self._ignored.items(),
                                                 key=lambda item: item[1][1] or 0):
            times = "" if count == 1 else f" ({count} elements; the first)"
            warn_at_caller(IgnoredElementWarning(
                f"{self._where(line)}: ignoring <{tag}>{times} inside <{parent}>: this "
                f"library does not read it"))
        self._ignored.clear()
