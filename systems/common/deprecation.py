"""DrakeDeprecationWarning: the category of the warnings deprecated pydrake names give
(pydrake.common.deprecation's class). As pydrake does at import, a ``once`` filter is
installed for it, so each deprecation message shows once per process although Python
ignores DeprecationWarning outside ``__main__`` by default."""
from __future__ import annotations

import warnings

__all__ = ["DrakeDeprecationWarning"]


class DrakeDeprecationWarning(DeprecationWarning):
    """A deprecated pydrake name or argument was used (pydrake's category; a
    DeprecationWarning that can be filtered without touching other libraries')."""


warnings.simplefilter("once", DrakeDeprecationWarning)
