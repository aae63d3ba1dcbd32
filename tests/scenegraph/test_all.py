"""scenegraph.all mirrors pydrake.all: every public name of the pydrake-mirroring modules in
one namespace, pydrake.all's precedence where names clash, and star imports that never
bind a submodule over math or all."""
import builtins
import importlib
import math as stdlib_math
import types

import numpy as np
import pytest

import scenegraph
import scenegraph.all as sg_all
import scenegraph.math
import scenegraph.multibody

# The modules that mirror one of pydrake.all's modules (scenegraph.all's docstring).
MIRRORED = ["systems.framework", "systems.analysis", "systems.primitives", "scenegraph",
            "scenegraph.math", "scenegraph.multibody", "scenegraph.sensors",
            "systems.trajectories", "systems.drawing"]


def _public(module_name: str) -> dict:
    """A module's public names: its ``__all__``."""
    module = importlib.import_module(module_name)
    return {name: getattr(module, name) for name in module.__all__}


def _winners() -> dict:
    """name -> the object of the last module in scenegraph.all's precedence exporting it."""
    out = {}
    for module_name in sg_all._PRECEDENCE:
        out.update(_public(module_name))
    return out


@pytest.mark.parametrize("module_name", MIRRORED)
def test_every_public_name_of_each_mirrored_module_is_in_scenegraph_all(module_name):
    assert module_name in sg_all._PRECEDENCE
    winners = _winners()
    missing = [n for n in _public(module_name) if n not in sg_all.__all__]
    assert not missing, f"{module_name} names absent from scenegraph.all: {missing}"
    for name, value in _public(module_name).items():
        assert getattr(sg_all, name) is winners[name], name
        # Another object only where a later module in pydrake.all's order exports the name.
        if getattr(sg_all, name) is not value:
            later = sg_all._PRECEDENCE[sg_all._PRECEDENCE.index(module_name) + 1:]
            assert any(name in _public(m) for m in later), name


def test_scenegraph_all_holds_nothing_else():
    assert sorted(sg_all.__all__) == sorted(_winners())
    assert not any(isinstance(getattr(sg_all, n), types.ModuleType) for n in sg_all.__all__)


def test_precedence_is_pydrake_alls():
    """pydrake.all: trajectories, then geometry.all, multibody.all, systems.all (analysis,
    drawing, framework, primitives, sensors), and pydrake.math re-imported last to win."""
    order = sg_all._PRECEDENCE
    assert order[-1] == "scenegraph.math"
    expected = ["systems.trajectories", "scenegraph", "scenegraph.multibody",
                "systems.analysis", "systems.drawing", "systems.framework",
                "systems.primitives", "scenegraph.sensors", "scenegraph.math"]
    assert [m for m in order if m in expected] == expected
    # pydrake.all.abs is pydrake.math.abs (elementwise), over Python's builtin.
    assert sg_all.abs is scenegraph.math.abs and sg_all.abs is not builtins.abs
    assert sg_all.max is scenegraph.math.max


def test_clashes_between_mirrored_modules_are_documented():
    """A name two modules export as different objects must be listed here with its winner
    and explained in scenegraph/all.py's docstring (today: none; CoulombFriction is one
    class exported by scenegraph and scenegraph.multibody)."""
    documented = {}   # name -> winning module
    seen, clashes = {}, {}
    for module_name in sg_all._PRECEDENCE:
        for name, value in _public(module_name).items():
            if name in seen and seen[name] is not value:
                clashes[name] = module_name
            seen[name] = value
    assert clashes == documented
    assert sg_all.CoulombFriction is scenegraph.CoulombFriction \
        is scenegraph.multibody.CoulombFriction


def test_scenegraph_all_of_scenegraph_is_its_public_non_module_names():
    public = {n for n, v in vars(scenegraph).items()
              if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert set(scenegraph.__all__) == public
    assert "math" not in scenegraph.__all__ and "all" not in scenegraph.__all__
    assert {"SceneGraph", "SceneGraph_", "Box", "kHasRenderEngineVtk"} <= public


@pytest.mark.parametrize("star", ["scenegraph", "scenegraph.all", "scenegraph.multibody",
                                  "scenegraph.math"])
def test_star_import_keeps_math_and_all(star):
    namespace = {}
    exec(f"import math\nfrom {star} import *\n", namespace)
    assert namespace["math"] is stdlib_math
    assert namespace.get("all", builtins.all) is builtins.all
    assert "multibody" not in namespace and "proximity" not in namespace
    # The submodules themselves stay reachable as attributes.
    assert scenegraph.all is sg_all and scenegraph.math.RigidTransform is \
        sg_all.RigidTransform


_URDF = """<?xml version="1.0"?>
<robot name="arm">
  <link name="link1">
    <inertial><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01"
      ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="link2">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"
      ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="world"/><child link="link1"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="link1"/><child link="link2"/><origin xyz="0.7 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def test_a_pydrake_all_scripts_imports_work():
    """The imports of a typical pydrake.all script, used as that script uses them: a
    two-link planar arm (links 0.7 m, revolute joints about z) from a URDF string."""
    from scenegraph.all import (AddMultibodyPlantSceneGraph, DiagramBuilder,
                                JacobianWrtVariable, MeshcatVisualizer, Parser,
                                RigidTransform, RollPitchYaw, Simulator, StartMeshcat)
    assert StartMeshcat is scenegraph.StartMeshcat
    assert MeshcatVisualizer is scenegraph.MeshcatVisualizer
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    Parser(plant).AddModelsFromString(_URDF, "urdf")
    plant.Finalize()
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    q1, q2 = 0.3, -0.8
    plant.SetPositions(plant_context, [q1, q2])
    simulator.Initialize()
    link2 = plant.GetBodyByName("link2")
    X_WL2 = plant.EvalBodyPoseInWorld(plant_context, link2)
    expected = RigidTransform(RollPitchYaw(0, 0, q1 + q2),
                              [0.7 * np.cos(q1), 0.7 * np.sin(q1), 0])
    assert X_WL2.IsNearlyEqualTo(expected, 1e-12)
    # v_WL2o_W = J·q̇ for the link2 origin: column 1 is z × p_WL2o, column 2 is zero.
    J = plant.CalcJacobianTranslationalVelocity(
        plant_context, JacobianWrtVariable.kQDot, link2.body_frame(), [0, 0, 0],
        plant.world_frame(), plant.world_frame())
    np.testing.assert_allclose(J, [[-0.7 * np.sin(q1), 0], [0.7 * np.cos(q1), 0], [0, 0]],
                               atol=1e-12)
    query = scene_graph.get_query_output_port().Eval(
        scene_graph.GetMyContextFromRoot(context))
    assert len(query.inspector().GetAllGeometryIds()) == 1
