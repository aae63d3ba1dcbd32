"""One test per bad input of the geometry API: each call is refused with the
documented error type, the message names the offending id or value, and the
model, the context's geometry state (every role's version included) and the
answers of every proximity query are exactly as before."""
import math

import numpy as np
import pytest

from scenegraph import (Box, CollisionFilterDeclaration, Convex, FilterId, FramePoseVector,
                        FrameId, GeometryFrame, GeometryId, GeometryInstance, GeometrySet,
                        HalfSpace, Mesh, ProximityProperties, Role, RoleAssign, SourceId,
                        Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from tests.robustness.scenes import Scene, assert_unchanged, capture, finite_answers
from scenegraph import SceneGraph

NAN, INF = math.nan, math.inf


def _cube_faces(drop=0):
    """Triangles of the unit cube (1-based OBJ indices), minus `drop` of them."""
    faces = [(1, 3, 2), (1, 4, 3), (5, 6, 7), (5, 7, 8), (1, 2, 6), (1, 6, 5),
             (2, 3, 7), (2, 7, 6), (3, 4, 8), (3, 8, 7), (4, 1, 5), (4, 5, 8)]
    return faces[:len(faces) - drop]


def _write_obj(tmp, name, vertices, faces):
    path = tmp / name
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in vertices)
                    + "".join(f"f {a} {b} {c}\n" for a, b, c in faces))
    return str(path)


CUBE = [(x, y, z) for z in (0, 1) for (x, y) in ((0, 0), (1, 0), (1, 1), (0, 1))]


def _triangle(tmp):
    return Mesh(_write_obj(tmp, "triangle.obj", CUBE[:3], [(1, 2, 3)]))


def _quad(tmp):
    return Mesh(_write_obj(tmp, "quad.obj", CUBE[:4], [(1, 2, 3), (1, 3, 4)]))


def _open_box(tmp):
    return Mesh(_write_obj(tmp, "open_box.obj", CUBE, _cube_faces(drop=2)))


def _new(sc, shape, X=RigidTransform(), name="new", props=None):
    instance = GeometryInstance(X, shape, name)
    if props is not None:
        instance.set_proximity_properties(props)
    return instance


def _binary_obj(tmp):
    path = tmp / "binary.obj"
    path.write_bytes(b"v 0 0 0\n\x00\x01\x02\xff\xfe binary junk")
    return Mesh(str(path))


def _out_of_range_obj(tmp):
    return Mesh(_write_obj(tmp, "bad_index.obj", CUBE[:3], [(1, 2, 9)]))


# name -> (call(scene, tmp_path), error type, regex the message must match)

def _take_model_manager(scene, tmp) -> None:
    scene.manager = scene.sg.collision_filter_manager()


def _take_context_manager(scene, tmp) -> None:
    scene.manager = scene.sg.collision_filter_manager(scene.context)

CASES = {
    # --- non-finite poses ---
    "RegisterGeometry with a NaN pose": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, Sphere(0.1), RigidTransform([NAN, 0.0, 0.0]), "nan_ball")),
        RuntimeError, r"RegisterGeometry: geometry \d+ \('nan_ball'\) .*non-finite pose "
                      r"X_PG: translation \[nan, 0\.0, 0\.0\]"),
    "RegisterAnchoredGeometry with an inf pose": (
        lambda sc, tmp: sc.sg.RegisterAnchoredGeometry(sc.a, _new(
            sc, Sphere(0.1), RigidTransform([0.0, INF, 0.0]), "far")),
        RuntimeError, r"RegisterAnchoredGeometry: geometry \d+ \('far'\) .*non-finite pose "
                      r"X_PG: translation "
                      r"\[0\.0, inf, 0\.0\]"),
    "RegisterGeometry on a geometry with a NaN pose": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.ball, _new(
            sc, Sphere(0.1), RigidTransform([0.0, 0.0, NAN]), "child")),
        RuntimeError, r"\('child'\) .*non-finite pose X_PG"),
    "ChangeShape with a NaN pose": (
        lambda sc, tmp: sc.sg.ChangeShape(sc.a, sc.ball, Sphere(0.3),
                                          RigidTransform([NAN, 1.0, 2.0])),
        RuntimeError, r"ChangeShape: geometry \d+ \('ball'\) .*X_FG: translation "
                      r"\[nan, 1\.0, 2\.0\]"),
    "HalfSpace.MakePose with a NaN point": (
        lambda sc, tmp: HalfSpace.MakePose([0.0, 0.0, 1.0], [0.0, NAN, 0.0]),
        RuntimeError, r"p_FB must be finite; got \[0\.0, nan, 0\.0\]"),
    "HalfSpace.MakePose with a zero normal": (
        lambda sc, tmp: HalfSpace.MakePose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        RuntimeError, r"zero \(or non-finite\) normal vector \[0\.0, 0\.0, 0\.0\]"),
    "a non-finite frame pose reaches the query": (
        lambda sc, tmp: (sc.sg.get_source_pose_port(sc.b).FixValue(
            sc.context, FramePoseVector({sc.g: RigidTransform([NAN, 0.0, 0.0])})),
            sc.query().ComputePointPairPenetration()),
        RuntimeError, r"non-finite pose for frame \d+ \('g'\)"),
    # Finite but huge poses (their differences overflow: a zero nhat_BA_W and a
    # wrong distance): refused past the documented ±1e150 m.
    "a frame pose 1e300 m from the origin reaches a pair query": (
        lambda sc, tmp: (sc.sg.get_source_pose_port(sc.b).FixValue(
            sc.context, FramePoseVector({sc.g: RigidTransform([1e300, 0.0, 0.0])})),
            sc.query().ComputeSignedDistancePairClosestPoints(sc.ball, sc.box)),
        RuntimeError, r"Geometry \d+ is at p_WG = \[1e\+300, 0\.0, 0\.0\] m: proximity "
                      r"queries need every geometry within ±1e\+150 m of the world origin"),
    "a frame pose 2e154 m from the origin reaches the point query": (
        lambda sc, tmp: (sc.sg.get_source_pose_port(sc.b).FixValue(
            sc.context, FramePoseVector({sc.g: RigidTransform([0.0, -2e154, 0.0])})),
            sc.query().ComputeSignedDistanceToPoint([0.0, 0.0, 0.0])),
        RuntimeError, r"is at p_WG = \[0\.0, -2e\+154, 0\.0\] m"),
    "a query point 1e300 m from the origin": (
        lambda sc, tmp: sc.query().ComputeSignedDistanceToPoint([1e300, 0.0, 0.0]),
        ValueError, r"p_WQ must be within ±1e\+150 m of the world origin; got "
                    r"\[1e\+300, 0\.0, 0\.0\]"),
    "a batch of query points, one 1e200 m from the origin": (
        lambda sc, tmp: sc.query().compute_signed_distance_to_points(
            [[0.0, 0.0, 0.0], [0.0, 0.0, -1e200]]),
        ValueError, r"query point 1 is not within ±1e\+150 m of the world origin: "
                    r"\[0\.0, 0\.0, -1e\+200\]"),
    "a ray origin 1e160 m from the origin": (
        lambda sc, tmp: sc.query().cast_rays(np.array([[0.0, 1e160, 0.0]]),
                                             np.array([[0.0, -1.0, 0.0]])),
        ValueError, r"cast_rays: p_WO row 0 is not within ±1e\+150 m of the world origin: "
                    r"\[0\.0, 1e\+160, 0\.0\]"),
    # --- meshes that cannot take part in proximity queries ---
    "AssignRole proximity to a one-triangle Mesh": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.mesh, ProximityProperties()),
        ValueError, r"Geometry \d+ \('tri'\) cannot have the proximity role: Mesh "
                    r"'.*triangle\.obj'", lambda sc, tmp: _with_mesh(sc, _triangle(tmp), "tri")),
    "AssignRole proximity to a flat quad Mesh": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.mesh, ProximityProperties()),
        ValueError, r"\('quad'\) .*'.*quad\.obj' .*coplanar",
        lambda sc, tmp: _with_mesh(sc, _quad(tmp), "quad")),
    "AssignRole proximity to an open Mesh": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.mesh, ProximityProperties()),
        ValueError, r"\('open'\) .*'.*open_box\.obj' is not a closed surface \(4 edge",
        lambda sc, tmp: _with_mesh(sc, _open_box(tmp), "open")),
    "RegisterGeometry of an open Mesh carrying proximity properties": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, _open_box(tmp), name="open", props=ProximityProperties())),
        ValueError, r"\('open'\) .*open_box\.obj' is not a closed surface"),
    "ChangeShape of a proximity geometry to a flat Mesh": (
        lambda sc, tmp: sc.sg.ChangeShape(sc.a, sc.ball, _quad(tmp)),
        ValueError, r"\('ball'\) cannot have the proximity role: Mesh '.*quad\.obj'"),
    # A Mesh reads its file at the first use (as pydrake's): registering it with
    # the proximity role is such a use, and refuses the file by name.
    "a binary file given as an OBJ mesh": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, _binary_obj(tmp), name="binary", props=ProximityProperties())),
        RuntimeError, r"'.*binary\.obj' is not a text OBJ file: it holds binary data"),
    "an OBJ face with an out-of-range vertex index": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, _out_of_range_obj(tmp), name="bad", props=ProximityProperties())),
        RuntimeError, r"'.*bad_index\.obj'.*9"),
    "a mesh file that does not exist": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, Mesh(str(tmp / "missing.obj")), name="missing",
            props=ProximityProperties())),
        (RuntimeError, OSError), r"missing\.obj"),
    "a Convex of coplanar points": (
        lambda sc, tmp: Convex(np.array([[0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0],
                                         [0.0, 0.0, 0.0, 0.0]])),
        RuntimeError, r"Convex"),
    # --- typed ids ---
    "AssignRole with a FrameId for the geometry": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.f, ProximityProperties()),
        TypeError, r"geometry_id must be a GeometryId; got FrameId \d+"),
    "RemoveGeometry with a FrameId": (
        lambda sc, tmp: sc.sg.RemoveGeometry(sc.a, sc.f),
        TypeError, r"geometry_id must be a GeometryId; got FrameId"),
    "ChangeShape with a FrameId": (
        lambda sc, tmp: sc.sg.ChangeShape(sc.a, sc.f, Sphere(1.0)),
        TypeError, r"geometry_id must be a GeometryId; got FrameId"),
    "inspector.GetShape with a FrameId": (
        lambda sc, tmp: sc.sg.model_inspector().GetShape(sc.f),
        TypeError, r"geometry_id must be a GeometryId; got FrameId \d+"),
    "inspector.GetParentFrame with a GeometryId": (
        lambda sc, tmp: sc.sg.model_inspector().GetParentFrame(sc.ball),
        TypeError, r"frame_id must be a FrameId; got GeometryId \d+"),
    "inspector.FramesForSource with a FrameId": (
        lambda sc, tmp: sc.sg.model_inspector().FramesForSource(sc.f),
        TypeError, r"source_id must be a SourceId; got FrameId"),
    "ComputeSignedDistancePairClosestPoints with a FrameId": (
        lambda sc, tmp: sc.query().ComputeSignedDistancePairClosestPoints(sc.f, sc.box),
        TypeError, r"geometry_id_A must be a GeometryId; got FrameId \d+"),
    "ComputeSignedDistancePairClosestPoints with None": (
        lambda sc, tmp: sc.query().ComputeSignedDistancePairClosestPoints(sc.ball, None),
        TypeError, r"geometry_id_B must be a GeometryId; got NoneType None"),
    "get_source_pose_port with a FrameId": (
        lambda sc, tmp: sc.sg.get_source_pose_port(sc.f),
        TypeError, r"source_id must be a SourceId; got FrameId"),
    "FramePoseVector keyed by a GeometryId": (
        lambda sc, tmp: FramePoseVector({sc.ball: RigidTransform()}),
        TypeError, r"id must be a FrameId; got GeometryId \d+"),
    "RegisterGeometry with a SourceId as parent": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.a, _new(sc, Sphere(1.0))),
        TypeError, r"FrameId or GeometryId, got SourceId"),
    # --- collision filters ---
    # (Acquiring a manager bumps the proximity version, as pydrake's does: the
    # managers are taken before the snapshot.)
    "CollisionFilterManager.Apply(None)": (
        lambda sc, tmp: sc.manager.Apply(None),
        TypeError, r"Apply\(\): declaration must be a CollisionFilterDeclaration; got None",
        _take_model_manager),
    "CollisionFilterManager.ApplyTransient(None)": (
        lambda sc, tmp: sc.manager.ApplyTransient(None),
        TypeError, r"ApplyTransient\(\): declaration must be .*; got None",
        _take_context_manager),
    "CollisionFilterManager.RemoveDeclaration with a GeometryId": (
        lambda sc, tmp: sc.manager.RemoveDeclaration(sc.ball),
        TypeError, r"filter_id must be a FilterId; got GeometryId", _take_model_manager),
    "a filter declaration naming an unregistered geometry": (
        lambda sc, tmp: sc.manager.Apply(
            CollisionFilterDeclaration().ExcludeWithin(
                GeometrySet([sc.ball, GeometryId.get_new_id()]))),
        RuntimeError, r"geometry id that doesn't belong to the SceneGraph: \d+",
        _take_model_manager),
    "a filter declaration given a list instead of a GeometrySet": (
        lambda sc, tmp: CollisionFilterDeclaration().ExcludeWithin([sc.ball]),
        TypeError, r"expected a GeometrySet, got list"),
    # --- foreign and unknown ids, names ---
    "a geometry on another source's frame": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.g, _new(sc, Sphere(1.0))),
        RuntimeError, r"frame \d+ \('g'\) does not belong to source \d+ \('alpha'\)"),
    "AssignRole to another source's geometry": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.box, IllustrationPropertiesFactory()),
        RuntimeError, r"Geometry \d+ \('box'\) does not belong to source \d+ \('alpha'\)"),
    "an unregistered source": (
        lambda sc, tmp: sc.sg.RegisterFrame(SourceId.get_new_id(), GeometryFrame("x")),
        RuntimeError, r"source \d+ is not registered"),
    "an unregistered frame": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, FrameId.get_new_id(),
                                               _new(sc, Sphere(1.0))),
        RuntimeError, r"Referenced frame \d+ has not been registered"),
    "a duplicate source name (before any context)": (
        lambda sc, tmp: _fresh_scene_graph_with("beta").RegisterSource("beta"),
        RuntimeError, r"duplicate name: 'beta'"),
    "a source registered after a context was made": (
        lambda sc, tmp: sc.sg.RegisterSource("gamma"),
        RuntimeError, r"Context has already been allocated"),
    "a duplicate frame name in a source": (
        lambda sc, tmp: sc.sg.RegisterFrame(sc.a, GeometryFrame("f")),
        RuntimeError, r"name 'f'.*'alpha'"),
    "a duplicate geometry name in a role on a frame": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, _new(
            sc, Sphere(1.0), name="ball", props=ProximityProperties())),
        RuntimeError, r"name 'ball' has already been used by geometry \d+"),
    "AssignRole kNew twice": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.ball, ProximityProperties()),
        RuntimeError, r"geometry \d+ \('ball'\) for the first time; it already has"),
    "AssignRole kReplace without the role": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.picture, ProximityProperties(),
                                         RoleAssign.kReplace),
        RuntimeError, r"geometry \d+ \('picture'\); it has not had the role"),
    "AssignRole with a dict for properties": (
        lambda sc, tmp: sc.sg.AssignRole(sc.a, sc.ball, {"friction": 1}),
        TypeError, r"got dict"),
    "RenameGeometry to an empty name": (
        lambda sc, tmp: sc.sg.RenameGeometry(sc.ball, "   "),
        RuntimeError, r"geometry \d+ \('ball'\) cannot be given the empty name"),
    "RemoveRole with a SourceId": (
        lambda sc, tmp: sc.sg.RemoveRole(sc.a, sc.a, Role.kProximity),
        TypeError, r"SourceId"),
    # --- bad values ---
    "a non-orthonormal rotation": (
        lambda sc, tmp: RotationMatrix(np.diag([1.0, 2.0, 1.0])),
        RuntimeError, r"orthonormal|not a rotation"),
    "a negative sphere radius": (
        lambda sc, tmp: Sphere(-1.0),
        RuntimeError, r"-1"),
    "a NaN box dimension": (
        lambda sc, tmp: Box(1.0, NAN, 1.0),
        RuntimeError, r"depth must be finite \(was nan\)"),
    "a NaN query point": (
        lambda sc, tmp: sc.query().ComputeSignedDistanceToPoint([0.0, NAN, 0.0]),
        ValueError, r"p_WQ must be finite; got \[0\.0, nan, 0\.0\]"),
    "a negative max_distance": (
        lambda sc, tmp: sc.query().ComputeSignedDistancePairwiseClosestPoints(-1.0),
        ValueError, r"max_distance .*-1"),
    "RegisterGeometry with a Shape instead of a GeometryInstance": (
        lambda sc, tmp: sc.sg.RegisterGeometry(sc.a, sc.f, Sphere(1.0)),
        TypeError, r"GeometryInstance, got Sphere"),
}


def _with_mesh(sc, mesh, name):
    """Setup: registers `mesh` on frame f (no role) as sc.mesh, then a fresh
    context (registration after the context changes only the model)."""
    sc.mesh = sc.sg.RegisterGeometry(sc.a, sc.f, _new(sc, mesh, name=name))


def _fresh_scene_graph_with(source_name):
    from scenegraph import SceneGraph
    scene_graph = SceneGraph()
    scene_graph.RegisterSource(source_name)
    return scene_graph


def IllustrationPropertiesFactory():
    from scenegraph import IllustrationProperties
    return IllustrationProperties()


@pytest.mark.parametrize("name", list(CASES))
def test_bad_geometry_input_is_refused_by_name_and_changes_nothing(name, tmp_path):
    call, error_type, pattern, *setup = CASES[name]
    scene = Scene()
    for step in setup:
        step(scene, tmp_path)
    before = capture(scene)
    answers = finite_answers(scene)
    with pytest.raises(error_type, match=pattern):
        call(scene, tmp_path)
    if "frame pose" in name and "reaches" in name:
        # The bad pose is the input itself: restore it; nothing else changed.
        scene.sg.get_source_pose_port(scene.b).FixValue(
            scene.context, FramePoseVector({scene.g: RigidTransform([0.3, 0.0, 0.1])}))
    assert_unchanged(scene, before)
    assert finite_answers(scene) == answers


def test_a_refused_mesh_never_poisons_the_other_pairs(tmp_path):
    """The mesh keeps its other roles; every query of the scene answers as
    before (pydrake answers all of them too)."""
    scene = Scene()
    answers = finite_answers(scene)
    for make in (_triangle, _quad, _open_box):
        gid = scene.sg.RegisterGeometry(scene.a, scene.f, _new(scene, make(tmp_path),
                                                               name=make.__name__))
        with pytest.raises(ValueError):
            scene.sg.AssignRole(scene.a, gid, ProximityProperties())
        scene.sg.AssignRole(scene.a, gid, IllustrationPropertiesFactory())
    scene.context = scene.sg.CreateDefaultContext()
    scene.sg.get_source_pose_port(scene.a).FixValue(
        scene.context, FramePoseVector({scene.f: RigidTransform([0.0, 0.0, 0.1])}))
    scene.sg.get_source_pose_port(scene.b).FixValue(
        scene.context, FramePoseVector({scene.g: RigidTransform([0.3, 0.0, 0.1])}))
    assert finite_answers(scene) == answers


def test_closed_mesh_with_duplicated_vertices_is_accepted(tmp_path):
    """An STL-style cube (each triangle with its own three vertices) is closed
    once exact duplicates are welded, as the point query welds them."""
    V, F = [], []
    for a, b, c in _cube_faces():
        F.append((len(V) + 1, len(V) + 2, len(V) + 3))
        V.extend([CUBE[a - 1], CUBE[b - 1], CUBE[c - 1]])
    scene = Scene()
    gid = scene.sg.RegisterAnchoredGeometry(scene.a, _new(
        scene, Mesh(_write_obj(tmp_path, "soup.obj", V, F)), RigidTransform([3.0, 0, 0]),
        "soup"))
    scene.sg.AssignRole(scene.a, gid, ProximityProperties())
    scene.context = scene.sg.CreateDefaultContext()
    scene.sg.get_source_pose_port(scene.a).FixValue(
        scene.context, FramePoseVector({scene.f: RigidTransform()}))
    scene.sg.get_source_pose_port(scene.b).FixValue(
        scene.context, FramePoseVector({scene.g: RigidTransform()}))
    inside = [d for d in scene.query().ComputeSignedDistanceToPoint([3.5, 0.5, 0.25])
              if d.id_G == gid]
    assert inside[0].distance == pytest.approx(-0.25, abs=1e-12)


def test_filter_id_of_another_kind_is_refused_by_is_active():
    scene = Scene()
    manager = scene.sg.collision_filter_manager(scene.context)
    fid = manager.ApplyTransient(CollisionFilterDeclaration().ExcludeWithin(
        GeometrySet([scene.ball, scene.box])))
    assert manager.IsActive(fid)
    assert not manager.IsActive(FilterId.get_new_id())
    with pytest.raises(TypeError, match=r"filter_id must be a FilterId; got FrameId"):
        manager.IsActive(scene.f)


def _two_balls(x_a, x_b):
    """(query object, [id_a, id_b]): unit proximity spheres at (x_a, 0, 0)
    and (x_b, 0, 0) on their own frames (every geometry a proximity one)."""
    from scenegraph import SceneGraph
    sg = SceneGraph()
    source = sg.RegisterSource("far")
    ids, poses = [], {}
    for k, x in enumerate((x_a, x_b)):
        frame = sg.RegisterFrame(source, GeometryFrame(f"f{k}"))
        ids.append(sg.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(), Sphere(1.0), f"ball{k}")))
        sg.AssignRole(source, ids[-1], ProximityProperties())
        poses[frame] = RigidTransform([x, 0.0, 0.0])
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
    return sg.get_query_output_port().Eval(context), ids


def test_poses_up_to_the_limit_answer_exactly():
    """Unit spheres 1e150 m either side of the origin (the documented limit):
    φ = 2e150 − 2 (= 2e150 in floating point), the normal along x."""
    query, ids = _two_balls(1e150, -1e150)
    result = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
    assert result.distance == 2e150
    np.testing.assert_array_equal(result.nhat_BA_W, [1.0, 0.0, 0.0])
    assert [d.distance for d in query.ComputeSignedDistanceToPoint([1e150, 0.0, 0.0])] == [
        -1.0, 2e150]
    assert not query.HasCollisions()


@pytest.mark.parametrize("x", [1e155, 1e300, -1.7e308])
def test_poses_past_the_limit_are_refused_by_every_query(x):
    """Before the limit was enforced, a pair more than ~1.3e154 m apart
    returned φ = −1 and nhat_BA_W = 0, the point query 0 m and a ray no hit
    (silently wrong)."""
    query, ids = _two_balls(0.0, x)
    pattern = rf"Geometry {ids[1]} is at p_WG = \[{x!r}, 0\.0, 0\.0\] m".replace("+", r"\+")
    for call in (lambda: query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1]),
                 query.ComputeSignedDistancePairwiseClosestPoints,
                 query.ComputePointPairPenetration, query.HasCollisions,
                 lambda: query.ComputeSignedDistanceToPoint([0.0, 0.0, 0.0]),
                 # (a ray towards a sphere 1e160 m away reported no hit)
                 lambda: query.cast_rays(np.zeros((1, 3)), np.array([[1.0, 0.0, 0.0]]))):
        with pytest.raises(RuntimeError, match=pattern):
            call()


def test_the_query_point_limit_is_the_engines():
    from scenegraph import query_object
    from scenegraph.proximity import engine
    assert query_object.POSITION_LIMIT == engine.POSITION_LIMIT == 1e150


def test_an_open_mesh_checked_for_its_verdict_only_skips_counting_its_open_edges(
        tmp_path, monkeypatch):
    # The Parser only needs to know a collision mesh is open (it then uses the
    # mesh's hull): the count of open edges is left out of that message.
    from scenegraph import proximity_shape_check

    def counted(F):
        raise AssertionError("the open edges were counted")

    monkeypatch.setattr(proximity_shape_check, "_open_edge_count", counted)
    with pytest.raises(ValueError, match=r"open_box\.obj' is not a closed surface \(some "
                                         r"edges do not belong"):
        proximity_shape_check.check_proximity_shape(_open_box(tmp_path), describe=False)


@pytest.mark.parametrize("make, message", [
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), 5),
     r"GeometryInstance: name must be a str; got int 5"),
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), None),
     r"GeometryInstance: name must be a str; got NoneType None"),
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), "x").set_name(b"y"),
     r"GeometryInstance: name must be a str; got bytes b'y'"),
    (lambda: GeometryFrame(None), r"GeometryFrame: frame_name must be a str; got NoneType"),
    (lambda: SceneGraph().RegisterSource(5), r"RegisterSource: name must be a str; got int 5"),
], ids=["instance int", "instance None", "set_name bytes", "frame None", "source int"])
def test_a_name_that_is_not_text_is_refused(make, message):
    with pytest.raises(TypeError, match=message):
        make()


def test_rename_geometry_refuses_a_name_that_is_not_text_and_changes_nothing():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), Sphere(1.0),
                                                              "ball"))
    version = sg.model_inspector().geometry_version()
    with pytest.raises(TypeError, match=r"RenameGeometry: name must be a str; got int 7"):
        sg.RenameGeometry(gid, 7)
    assert sg.model_inspector().GetName(gid) == "ball"
    assert sg.model_inspector().geometry_version().IsSameAs(version, Role.kProximity)


def _pair(shape_a, shape_b, p_WB):
    """(query, id_a, id_b, keep-alive): A at the origin, B at p_WB."""
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    ids, poses = [], {}
    for name, shape, p in (("a", shape_a, [0.0, 0.0, 0.0]), ("b", shape_b, p_WB)):
        frame = sg.RegisterFrame(source, GeometryFrame(name))
        ids.append(sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(),
                                                                       shape, name)))
        sg.AssignRole(source, ids[-1], ProximityProperties())
        poses[frame] = RigidTransform(p)
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
    return sg.get_query_output_port().Eval(context), ids[0], ids[1], (sg, context)


@pytest.mark.parametrize("call, error, message", [
    (lambda q: q.ComputeSignedDistanceToPoint([0.0, 0.0, 5.0], math.nan), ValueError,
     r"threshold must be non-negative; got nan"),                    # pydrake: []
    (lambda q: q.ComputeSignedDistancePairwiseClosestPoints(math.nan), ValueError,
     r"max_distance must be non-negative; got nan"),                 # pydrake: []
    (lambda q: q.ComputeSignedDistanceToPoint([1.0, 2.0]), ValueError,
     r"p_WQ must have 3 entries; got shape \(2,\)"),
])
def test_a_nan_bound_or_a_short_point_is_refused(call, error, message):
    query, _, _, _keep = _pair(Sphere(1.0), Sphere(1.0), [3.0, 0.0, 0.0])
    with pytest.raises(error, match=message):
        call(query)
