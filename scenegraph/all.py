"""Every public name of the library's pydrake-mirroring modules in one namespace, as
``pydrake.all``: a script's ``from pydrake.all import X`` ports as
``from scenegraph.all import X``.

Re-exported (pydrake's module in brackets): systems.autodiff
[pydrake.autodiffutils], systems.trajectories [pydrake.trajectories], scenegraph [pydrake.geometry, plus pydrake.perception's
PointCloud], scenegraph.multibody [pydrake.multibody.plant, .tree, .math, .parsing,
.meshcat], systems.analysis, systems.drawing, systems.framework [also
pydrake.common.value], systems.primitives, systems.sensors (when present) and
scenegraph.sensors [pydrake.systems.*], and scenegraph.math [pydrake.math]. As with
pydrake.all, a star import brings pydrake.math's elementwise ``abs``, ``max``, ``min``,
``pow`` ... over Python's builtins.

Precedence: where two of these modules export one name for different objects, the
module imported later here wins, and the order is pydrake.all's own: its
"last one imported wins" rule with pydrake.math imported again at the end ("Ensure
.math imports win"), so scenegraph.math comes last. ``_PRECEDENCE`` lists the modules
in that order (tests/scenegraph/test_all.py checks every name against it). No such
clash exists today; CoulombFriction is exported by both scenegraph and
scenegraph.multibody as the same class.

``__all__`` holds the public names that are not modules, so ``from scenegraph.all
import *`` never binds ``math``, ``all`` or another submodule.
"""
import importlib.util as _importlib_util
import types as _types

# pydrake.all imports pydrake.autodiffutils first, and pydrake.trajectories before its
# submodules' .all modules.
from systems.autodiff import *  # noqa: F401,F403
from systems.trajectories import *  # noqa: F401,F403
# pydrake.geometry.all
from scenegraph import *  # noqa: F401,F403
# pydrake.multibody.all (math, meshcat, parsing, plant, tree), with the template names
# (MultibodyPlant_, RigidBody_, ...) that scenegraph.multibody also re-exports.
from scenegraph.multibody import *  # noqa: F401,F403
from scenegraph.multibody.templates import *  # noqa: F401,F403
# pydrake.systems.all, in its order: analysis, drawing, framework, primitives, sensors.
from systems.analysis import *  # noqa: F401,F403
from systems.drawing import *  # noqa: F401,F403
from systems.framework import *  # noqa: F401,F403
from systems.primitives import *  # noqa: F401,F403

if _importlib_util.find_spec("systems.sensors") is not None:
    from systems.sensors import *  # noqa: F401,F403
from scenegraph.sensors import *  # noqa: F401,F403
# pydrake.math last, as pydrake.all re-imports it last so that it wins.
from scenegraph.math import *  # noqa: F401,F403

# The modules above in import order: for a name several of them export, the last wins.
_PRECEDENCE = tuple(
    _name for _name in (
        "systems.autodiff", "systems.trajectories", "scenegraph", "scenegraph.multibody",
        "scenegraph.multibody.templates", "systems.analysis", "systems.drawing",
        "systems.framework", "systems.primitives", "systems.sensors", "scenegraph.sensors",
        "scenegraph.math")
    if _importlib_util.find_spec(_name) is not None)

__all__ = [_name for _name, _value in dict(globals()).items()
           if not _name.startswith("_") and not isinstance(_value, _types.ModuleType)]
