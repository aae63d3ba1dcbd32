"""scenegraph.multibody's SDFormat Parser against pydrake 1.51.1's, on the
project's own SDFormat models (every element this library reads: nested
models, includes by package://, model:// folder and relative path,
relative_to chains, frames, a merge include, a static model, a world with
several models, world frames and joints) and on the SDFormat examples pydrake
ships (copied into tests/scenegraph/multibody/models/sdf/drake).

pydrake's answers are stored in tests/reference_data/sdf
(tools/sdf_drake_reference.py): structure, actuators, geometries, collision
candidates, and at three seeded q every body's pose and every candidate
pair's signed distance. One difference is adjudicated by SDFormat's own
rule: a <frame> attached to a joint sits at the joint frame (pydrake puts it
at the joint's child link origin, ignoring the joint's pose in that link).

Units: m, rad. X_WB: pose of body B in world W; X_BF: frame F in body B.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scenegraph.math import RigidTransform
from scenegraph.multibody import BodyIndex, FrameIndex, ModelInstanceIndex
from tests.scenegraph.multibody.distance_checks import independent_distance
from tests.scenegraph.multibody.sdf_data import load, model_path, recorded_models, reference

POSE_TOL = 1e-12            # m, per entry, against pydrake
PRIMITIVE_DISTANCE_TOL = 1e-6
MESH_DISTANCE_TOL = 1e-4
INDEPENDENT_TOL = 1e-8      # m, against independent_distance
MODELS = recorded_models()

# (model, frame) -> (joint, X_JF as written in the file): <frame attached_to="joint">.
FRAMES_ON_JOINTS = {("own_every_element", "on_slider"): ("slider", RigidTransform([0, 0.01, 0]))}


@dataclasses.dataclass
class Loaded:
    ref: dict
    diagram: object
    plant: object
    scene_graph: object
    added: list
    contexts: dict = dataclasses.field(default_factory=dict)

    def root_context(self, i: int):
        if i not in self.contexts:
            context = self.diagram.CreateDefaultContext()
            self.plant.SetPositions(self.plant.GetMyMutableContextFromRoot(context),
                                    np.array(self.ref["configurations"][i]["q"]))
            self.contexts[i] = context
        return self.contexts[i]


@pytest.fixture(scope="module")
def models():
    """Each model loaded once for this module (an error is kept and re-raised
    by each test of the model)."""
    cache = {}

    def get(key):
        if key not in cache:
            try:
                cache[key] = Loaded(reference(key), *load(model_path(key)))
            except Exception as error:  # noqa: BLE001
                cache[key] = error
        if isinstance(cache[key], Exception):
            raise cache[key]
        return cache[key]
    return get


def test_every_recorded_model_is_here():
    """The own models and Drake's eight example SDFs, none refused by pydrake."""
    assert {"own_every_element", "own_world"} <= set(MODELS)
    assert len([k for k in MODELS if k.startswith("drake_")]) == 8


# ---------------------------------------------------------------- structure

@pytest.mark.parametrize("key", MODELS)
def test_model_instances_and_bodies_match_in_index_order(key, models):
    """Model instances (nested ones as "outer::inner", in Drake's order, and
    AddModels' return value), then every body's name, instance and
    floating-base flag in index order."""
    r = models(key)
    plant = r.plant
    assert [plant.GetModelInstanceName(ModelInstanceIndex(i))
            for i in range(plant.num_model_instances())] == r.ref["model_instances"]
    assert [int(m) for m in r.added] == r.ref["added_model_instances"]
    ours = [(b.name(), int(b.model_instance()), b.is_floating_base_body(), b.default_mass())
            for b in (plant.get_body(BodyIndex(i)) for i in range(1, plant.num_bodies()))]
    assert ours == [(b["name"], b["model_instance"], b["is_floating_base_body"], b["mass"])
                    for b in r.ref["bodies"][1:]]


@pytest.mark.parametrize("key", MODELS)
def test_joints_and_actuators_match_in_index_order(key, models):
    """Name, type, bodies, frames (the parent's body frame itself when the
    joint frame is exactly on it) and q/v slots of every joint, the static
    models' "sdformat_model_static_world_welds_to_<link>" welds and the
    floating joints Finalize adds included; then the actuators."""
    r = models(key)
    fields = ("name", "type_name", "parent_body", "child_body", "frame_on_parent",
              "frame_on_child", "position_start", "num_positions", "velocity_start",
              "num_velocities")
    ours = []
    for index in r.plant.GetJointIndices():
        j = r.plant.get_joint(index)
        ours.append((j.name(), j.type_name(), j.parent_body().name(), j.child_body().name(),
                     j.frame_on_parent().name(), j.frame_on_child().name(), j.position_start(),
                     j.num_positions(), j.velocity_start(), j.num_velocities()))
    assert ours == [tuple(j[f] for f in fields) for j in r.ref["joints"]]
    actuators = [r.plant.get_joint_actuator(i) for i in r.plant.GetJointActuatorIndices()]
    assert [(a.name(), a.joint().name(), a.effort_limit()) for a in actuators] == [
        (a["name"], a["joint"], float(a["effort_limit"])) for a in r.ref["actuators"]]


@pytest.mark.parametrize("key", MODELS)
def test_sizes_names_limits_and_default_positions_match(key, models):
    """num_positions/num_velocities, GetPositionNames(), position limits and
    default positions (a free body's pose in the file)."""
    r = models(key)
    plant = r.plant
    assert (plant.num_positions(), plant.num_velocities()) == (r.ref["num_positions"],
                                                               r.ref["num_velocities"])
    assert list(plant.GetPositionNames()) == r.ref["position_names"]
    np.testing.assert_allclose(plant.GetDefaultPositions(), r.ref["default_positions"],
                               rtol=0, atol=1e-12)
    for i, record in enumerate(r.ref["joints"]):
        joint = plant.get_joint(plant.GetJointIndices()[i])
        for name in ("position_lower_limits", "position_upper_limits"):
            theirs = np.array([float(x) for x in record[name]])
            np.testing.assert_array_equal(getattr(joint, name)(), theirs,
                                          err_msg=f"{record['name']} {name}")


@pytest.mark.parametrize("key", MODELS)
def test_frames_match(key, models):
    """Every frame in index order — body frames, each model's "__model__",
    the joints' "_parent"/"_child" frames, the <frame>s — with its body,
    model instance and X_BF (1e-12). A <frame> attached to a joint is
    adjudicated by SDFormat's rule instead: X_BF = X_BJ·X_JF, J the joint's
    frame on its child link; pydrake's X_BF there is X_JF alone."""
    r = models(key)
    ours = [r.plant.get_frame(FrameIndex(i)) for i in range(r.plant.num_frames())]
    assert [(f.name(), f.body().name(), int(f.model_instance())) for f in ours] == [
        (f["name"], f["body"], f["model_instance"]) for f in r.ref["frames"]]
    for frame, record in zip(ours, r.ref["frames"]):
        X_BF = frame.GetFixedPoseInBodyFrame()
        on_joint = FRAMES_ON_JOINTS.get((key, frame.name()))
        if on_joint is not None:
            joint_name, X_JF = on_joint
            X_BJ = r.plant.GetJointByName(joint_name).frame_on_child().GetFixedPoseInBodyFrame()
            np.testing.assert_allclose(X_BF.GetAsMatrix4(), (X_BJ @ X_JF).GetAsMatrix4(),
                                       rtol=0, atol=POSE_TOL)
            np.testing.assert_allclose(record["X_BF"], X_JF.GetAsMatrix4(), rtol=0,
                                       atol=POSE_TOL)     # pydrake's, measured
            continue
        np.testing.assert_allclose(X_BF.GetAsMatrix4(), record["X_BF"], rtol=0, atol=POSE_TOL,
                                   err_msg=frame.name())


# --------------------------------------------------------------- kinematics

@pytest.mark.parametrize("key", MODELS)
def test_body_poses_match_at_three_configurations(key, models):
    """X_WB of every body at each recorded q (seeded: revolute and prismatic
    within limits, ball angles within ±1 rad, free bodies' quaternions random)."""
    r = models(key)
    worst = 0.0
    for i, config in enumerate(r.ref["configurations"]):
        context = r.plant.GetMyContextFromRoot(r.root_context(i))
        for b in range(r.plant.num_bodies()):
            body = r.plant.get_body(BodyIndex(b))
            X_WB = r.plant.EvalBodyPoseInWorld(context, body).GetAsMatrix4()
            worst = max(worst, float(np.max(np.abs(X_WB - np.array(config["X_WB"][body.name()])))))
    assert worst <= POSE_TOL


# ------------------------------------------------------------------ geometry

def _collision_keys(plant, scene_graph) -> dict:
    inspector = scene_graph.model_inspector()
    keys = {}
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        for g in plant.GetCollisionGeometriesForBody(body):
            keys[g] = (body.name(), inspector.GetName(g).split("::")[-1])
    return keys


@pytest.mark.parametrize("key", MODELS)
def test_geometries_match(key, models):
    """Every registered geometry in registration order: scoped name, body,
    roles, shape parameters and X_FG (1e-12; a plane's HalfSpace frame
    included)."""
    r = models(key)
    inspector = r.scene_graph.model_inspector()
    ids = sorted(inspector.GetAllGeometryIds(), key=lambda g: g.get_value())
    assert len(ids) == len(r.ref["geometries"])
    for g, record in zip(ids, r.ref["geometries"]):
        roles = [role for role, props in (
            ("proximity", inspector.GetProximityProperties(g)),
            ("illustration", inspector.GetIllustrationProperties(g)),
            ("perception", inspector.GetPerceptionProperties(g))) if props is not None]
        body = r.plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name()
        assert (inspector.GetName(g), body, roles) == (record["name"], record["body"],
                                                       record["roles"])
        shape = inspector.GetShape(g)
        assert type(shape).__name__ == record["shape"]["type"] or {
            type(shape).__name__, record["shape"]["type"]} <= {"Mesh", "Convex"}
        for name, value in record["shape"].items():
            if name not in ("type", "filename"):
                np.testing.assert_allclose(np.asarray(getattr(shape, name)(), float), value,
                                           rtol=0, atol=POSE_TOL, err_msg=record["name"])
        np.testing.assert_allclose(inspector.GetPoseInFrame(g).GetAsMatrix4(), record["X_FG"],
                                   rtol=0, atol=POSE_TOL, err_msg=record["name"])


@pytest.mark.parametrize("key", MODELS)
def test_collision_candidates_match(key, models):
    """GetCollisionCandidates() as (body, geometry name) pairs equals
    pydrake's: Drake's joint and weld filters, the static welds and the
    <drake:collision_filter_group> exclusions (nested groups included)."""
    r = models(key)
    keys = _collision_keys(r.plant, r.scene_graph)
    ours = sorted(sorted([list(keys[a]), list(keys[b])])
                  for a, b in r.scene_graph.model_inspector().GetCollisionCandidates())
    assert ours == r.ref["collision_candidates"]


# ------------------------------------------------------------------ distances

@pytest.mark.parametrize("key", [k for k in MODELS if reference(k)["collision_candidates"]])
def test_signed_distances_and_penetrating_pairs_match(key, models):
    """ComputeSignedDistancePairClosestPoints for every candidate pair at each
    recorded q: within 1e-6 m of pydrake's between primitives (1e-4 m with a
    mesh hull), or, beyond that, within 1e-8 m of an independent computation
    (distance_checks.py) that pydrake is farther from; where pydrake refused
    the pair (a HalfSpace floor against anything but a sphere), within 1e-8 m
    of the half space's support function. The penetrating body pairs
    (distance < 0) are those of the accepted values."""
    r = models(key)
    keys = _collision_keys(r.plant, r.scene_graph)
    ids = {v: k for k, v in keys.items()}
    mismatches = []
    for i, config in enumerate(r.ref["configurations"]):
        query = r.scene_graph.get_query_output_port().Eval(
            r.scene_graph.GetMyContextFromRoot(r.root_context(i)))
        inspector = query.inspector()
        ours_pen, accepted_pen = set(), set()
        for pair, value in zip(r.ref["collision_candidates"], config["signed_distances"]):
            a, b = ids[tuple(pair[0])], ids[tuple(pair[1])]
            distance = query.ComputeSignedDistancePairClosestPoints(a, b).distance
            hull = any(type(inspector.GetShape(g)).__name__ in ("Mesh", "Convex")
                       for g in (a, b))
            tolerance = MESH_DISTANCE_TOL if hull else PRIMITIVE_DISTANCE_TOL
            accepted = value
            if isinstance(value, dict) or not abs(distance - value) <= tolerance:
                accepted = independent_distance(query, a, b)
                if np.isnan(accepted) or abs(distance - accepted) > INDEPENDENT_TOL or (
                        not isinstance(value, dict)
                        and abs(value - accepted) <= abs(distance - accepted)):
                    mismatches.append((i, pair, distance, value, accepted))
            bodies = tuple(sorted([pair[0][0], pair[1][0]]))
            if distance < 0:
                ours_pen.add(bodies)
            if accepted < 0:
                accepted_pen.add(bodies)
        assert ours_pen == accepted_pen, i
    assert not mismatches, mismatches[:10]
