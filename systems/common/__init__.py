"""The bottom layer both ``systems`` and ``scenegraph`` build on (pydrake.common's place).

Library machinery, not pydrake API (an extension): ``systems.common.overloads`` (one
public name with several keyword-aware signatures, as pybind11 gives pydrake),
``systems.common.scalar_templates`` (the ``X_[float]`` template spellings) and
``systems.common.numerics`` (scalar helpers such as ``wrap_to`` that systems needs).
Nothing here imports ``systems.framework`` or ``scenegraph``.
"""
