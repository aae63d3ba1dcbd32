"""Scalar conversion, as far as a float-only library has it: SystemScalarConverter and
the System methods ToAutoDiffXd, ToSymbolic, ToScalarType[T] and their *Maybe forms.

Converting to AutoDiffXd or symbolic scalars is not offered: the plain forms raise a
RuntimeError naming the system (pydrake's message for a system without conversion
support), the *Maybe forms return None.
"""
from __future__ import annotations

from systems.common.scalar_templates import ScalarTemplateMethod, scalar_name

__all__ = ["SystemScalarConverter", "ScalarConversionMixin"]


class SystemScalarConverter:
    """Conversions a System supports (pydrake's ``SystemScalarConverter``): none here."""

    SupportedScalars = (float,)
    SupportedConversionPairs = ()

    class _IsConvertible:
        __overloads__ = ()   # indexed, not called: ``IsConvertible[T, U]()``

        def __getitem__(self, params):
            return lambda: False

    IsConvertible = _IsConvertible()

    def __copy__(self) -> "SystemScalarConverter":
        return SystemScalarConverter()


def _not_offered(system, scalar: str):
    return RuntimeError(f"System {system.GetSystemPathname()} of type "
                        f"{type(system).__name__} does not support scalar conversion to "
                        f"type {scalar} (this library computes in float only)")


class ScalarConversionMixin:
    """System's scalar-conversion API (mixed into System)."""

    ToScalarType = ScalarTemplateMethod("ToScalarType", maybe=False)
    ToScalarTypeMaybe = ScalarTemplateMethod("ToScalarTypeMaybe", maybe=True)

    def ToAutoDiffXd(self):
        """Not offered: this library computes in float only.

        Raises:
          RuntimeError: always (pydrake's message for a system without conversion).
        """
        raise _not_offered(self, "drake::AutoDiffXd")

    def ToAutoDiffXdMaybe(self):
        """None: conversion to AutoDiffXd is not offered."""
        return None

    def ToSymbolic(self):
        """Not offered: this library computes in float only.

        Raises:
          RuntimeError: always (pydrake's message for a system without conversion).
        """
        raise _not_offered(self, "drake::symbolic::Expression")

    def ToSymbolicMaybe(self):
        """None: conversion to symbolic scalars is not offered."""
        return None

    def get_system_scalar_converter(self) -> SystemScalarConverter:
        """A SystemScalarConverter that supports no conversions."""
        return SystemScalarConverter()


del scalar_name
