"""The bottom layer both ``systems`` and ``scenegraph`` build on (pydrake.common's place).

Library machinery (an extension, not pydrake API): ``systems.common.overloads`` (one
public name with several keyword-aware signatures, as pybind11 gives pydrake),
``systems.common.scalar_templates`` (the ``X_[float]`` template spellings) and
``systems.common.numerics`` (scalar helpers such as ``wrap_to`` that systems needs);
and ``systems.common.deprecation`` (pydrake.common.deprecation's
DrakeDeprecationWarning). Nothing here imports ``systems.framework`` or ``scenegraph``
(tests/project/test_layers.py).
"""
