"""The hand-written bad calls of attack_cases.py (robot loading: the Parser and
MultibodyPlant, tried as an attacker and as a careless user would), each with
what this library answers. tools/attack_cases_vs_drake.py runs the same cases
in pydrake 1.51.1; where the two differ, the comment says what pydrake does.

Cases that read special files (a FIFO, /dev/zero, /dev/urandom) run in a
forked child with a time limit and an address-space limit, so that a
regression fails the test instead of hanging or exhausting the machine.
"""
import re

import pytest

from tests.robustness import attack_cases
from tests.robustness.isolated import run_isolated

R, T, V, P = "RuntimeError", "TypeError", "ValueError", "ParsingError"

# name -> (error type, regex of the message) or ("ok", value)
EXPECTED = {
    "GetBodyByName of a missing name": (R, r"no body named 'nope' anywhere in the model "
                                           r"\(valid names: ball, link1, link2, world\)"),
    "GetBodyByName in a missing model instance": (R, r"no model instance with index 99"),
    "get_body with an out-of-range BodyIndex": (R, r"BodyIndex\(99\) is out of range"),
    "get_body with a JointIndex": (T, r"expected a BodyIndex; got JointIndex\(0\)"),
    "get_joint with a BodyIndex": (T, r"expected a JointIndex; got BodyIndex\(1\)"),
    "get_body with a plain int": ("ok", "link1"),            # pydrake: TypeError
    "get_body with a negative BodyIndex": (R, r"BodyIndex\(-1\) is out of range"),
    "get_frame with a huge FrameIndex": (R, r"FrameIndex\(2147483647\) is out of range"),
    # Names must be str (before: str(7) was looked up, None was "not there").
    "GetJointByName with a non-string": (T, r"GetJointByName\(\): name must be a str; got "
                                            r"int 7"),
    "HasBodyNamed with None": (T, r"HasBodyNamed\(\): name must be a str; got NoneType"),
    "HasJointNamed with None": (T, r"HasJointNamed\(\): name must be a str"),
    "GetFrameByName with an int": (T, r"GetFrameByName\(\): name must be a str; got int 3"),
    "AddRigidBody with an int name": (T, r"AddRigidBody\(\): name must be a str; got int 5"),
    # Empty names are refused, as pydrake's (it aborts the process for a joint or
    # a model instance); before, all four were accepted.
    "a joint with an empty name": (R, r"The name parameter to the RevoluteJoint constructor "
                                      r"is required"),
    "a frame with an empty name": (R, r"The name parameter to the FixedOffsetFrame"),
    "a model instance with an empty name": (R, r"AddModelInstance: a model instance name "
                                               r"must not be empty"),
    "an empty body name": (R, r"The name parameter to the RigidBody constructor is required"),
    "GetModelInstanceByName of a missing name": (R, r"no model instance named 'nope'"),
    "EvalBodyPoseInWorld with the diagram's context": (R, r"passed the root Diagram's "
                                                          r"Context"),
    "EvalBodyPoseInWorld with SceneGraph's context": (
        R, r"MultibodyPlant system named 'plant' was passed the Context of a system named "
           r"'scene_graph' instead of the appropriate subsystem Context"),
    "EvalBodyPoseInWorld with another plant's context": (
        R, r"named 'plant' was passed the Context of a system named 'plant': another object "
           r"of the same type and name"),
    "EvalBodyPoseInWorld of another plant's body": (R, r"'link1' .* is not a body of this "
                                                       r"plant"),
    "GetPositions with another plant's context": (R, r"another object of the same type"),
    # pydrake answers with the other plant's frame as if it were its own.
    "CalcRelativeTransform with another plant's frame": (R, r"frame 'link1' is not a frame "
                                                            r"of this plant"),
    "SetPositions with None for the context": (T, r"Expected a Context; got NoneType"),
    # pydrake refuses non-finite q and v in SetPositions/SetVelocities
    # (DRAKE_THROW_UNLESS(AllFinite(q))); here they are stored, and the first
    # SceneGraph query names the frame with the non-finite pose. Reported.
    "SetPositions with a NaN, then a pose": ("ok", [None, None, None]),
    "SetPositions with an inf, then a query": (R, r"reported a non-finite pose for frame"),
    "SetVelocities with a NaN": ("ok", None),
    "SetPositions of the wrong size": (R, r"expected a vector of size 9; got shape \(2,\)"),
    "SetPositions with an (nq, 1) column": ("ok", [0.0, 0.0, 1.0] + [0.0] * 6),
    "SetPositions with text": ("ok", 0.5),                  # as pydrake (numpy parses it)
    "SetPositions with None": (R, r"expected a vector of size 9; got shape \(\)"),
    "SetPositions of a missing model instance": (R, r"no model instance with index 99"),
    "SetPositionsInArray of the wrong size": (R, r"expected a vector of size 9"),
    "MapVelocityToQDot with a short v": (R, r"expected a vector of size 8; got shape \(1,\)"),
    "CalcPointsPositions with N x 3 points": (R, r"points must be a 3×n array; got shape "
                                                 r"\(2, 3\)"),
    "CalcPointsPositions with a NaN point": ("ok", [None, None, None]),
    "CalcJacobianSpatialVelocity with a 2-vector point": (R, r"a point must have 3 "
                                                             r"coordinates"),
    "SetFreeBodyPose of a jointed body": (R, r"Body 'link1' is not a free body"),
    "SetFreeBodyPose with a NaN translation": ("ok", None),
    "GetFreeBodyPose of a jointed body": (R, r"Body 'link1' is not a free body"),
    "AddRigidBody after Finalize": (R, r"Post-finalize calls to 'AddRigidBody\(\)'"),
    "Finalize twice": (R, r"Post-finalize calls to 'Finalize\(\)'"),
    "a duplicate body name": (R, r"already contains a body named 'x'"),
    "a revolute joint with a zero axis": (R, r"the axis \[0\.0, 0\.0, 0\.0\] has \(nearly\) "
                                             r"zero length"),
    # pydrake accepts a NaN axis.
    "a revolute joint with a NaN axis": (V, r"axis must be 3 finite numbers; got "
                                            r"\[nan, 0\.0, 1\.0\]"),
    "a revolute joint with lower > upper": (R, r"a lower position limit \[1\.0\] exceeds "
                                               r"the upper \[-1\.0\]"),
    "a joint from a body to itself": (R, r"are on the same body 'b'"),
    # pydrake accepts it and closes the loop itself (documented difference).
    "a second parent joint": (R, r"would make body 'DefaultModelInstance::b' the child of a "
                                 r"second joint"),
    "WeldFrames of the world to itself": (R, r"are on the same body 'world'"),
    "WeldFrames with a NaN pose": ("ok", [None, None, None]),
    "a negative mass": (R, r"mass is not positive and finite: -1"),
    # Before: numpy's LinAlgError "Eigenvalues did not converge" (pydrake: False).
    "an inertia of infinite moments": ("ok", False),
    "an inertia that violates the triangle inequality": (R, r"MakeFromCentralInertia"),
    "AddModels of a missing file": (P, r"missing\.urdf:0: error: cannot read the file"),
    "AddModels of an unknown extension": (R, r"robot\.txt' is not a recognized type"),
    "AddModelsFromString of an empty string": (P, r"<literal-string>\.urdf:1: error: Failed "
                                                  r"to parse XML string"),
    "AddModelsFromString of URDF text typed 'sdf'": (P, r"root element is <robot>"),
    "AddModelsFromString of an unknown type": (R, r"'<literal-string>\.yaml' is not a "
                                                  r"recognized type"),
    "the same model file added twice": (P, r"twice\.urdf:2: error: This model already "
                                           r"contains a model instance named 'r'"),
    "AddModels after Finalize": (R, r"late\.urdf': the plant is finalized"),
    "a URDF origin with NaN": (P, r"nan\.urdf:3: .*'xyz' must be 3 numbers; got 'nan 0 0'"),
    "a URDF mass of text": (P, r"mass\.urdf:3: .*'value' must be a single num"),
    # Before: both loaded (a body of infinite mass or inertia); pydrake refuses
    # them ("Expected single value for attribute 'value' got 'inf'").
    "a URDF mass of inf": (P, r"inf\.urdf:3: .*<mass> attribute 'value' must be a finite "
                              r"number; got 'inf'"),
    "a URDF inertia of 1e400": (P, r"big\.urdf:3: .*<inertia> attribute 'ixx' must be a "
                                   r"finite number; got '1e400'"),
    # The plant's and SceneGraph's own refusals, met while committing a parsed
    # model: before, a bare RuntimeError that named no file (pydrake's is bare
    # too); the plant is left as it was either way.
    "an MJCF body with two geoms of one name": (P, r"geoms\.xml: error: The name 'm::g' has "
                                                   r"already been used by geometry"),
    "two MJCF joints of one name": (P, r"joints\.xml: error: Model instance 'm' already "
                                       r"contains a frame named 'j_parent'"),
    "a URDF negative mass": ("ok", [2, 0]),                  # as pydrake
    "a URDF sphere of radius 0": (P, r"r0\.urdf:3: .*Sphere radius should be > 0"),
    "a URDF box of two sizes": (P, r"box2\.urdf:3: .*'size' must be 3 numbers"),
    "a URDF mesh in an unknown package": (P, r"unknown package 'no_such_package'"),
    "a URDF mesh naming a folder": (P, r"dir\.urdf:3: .*not a regular file"),
    "a xacro file": (R, r"r\.urdf\.xacro' is not a recognized type"),
    # pydrake never returns.
    "an MJCF model that includes itself": (P, r"self\.xml:1: .*the file includes itself"),
    # The standard library's expat refuses both; pydrake loads the XML bomb's
    # model and ignores the external entity.
    "an XML bomb (billion laughs)": (P, r"bomb\.urdf:15: error: Failed to parse XML file: "
                                        r"limit on input amplification factor"),
    "an external entity naming /etc/passwd": (P, r"xxe\.urdf:3: .*reference to external "
                                                 r"entity"),
    "a chain of 300 links": ("ok", [302, 300]),
    # Before: the parser read the whole "file" to look for triangles (forever).
    # As pydrake: a visual mesh is read at its first use.
    "a visual mesh that is a FIFO": ("ok", [2, 0]),
    "a visual mesh linked to /dev/zero": ("ok", [2, 0]),
    "a collision mesh linked to /dev/urandom": (P, r"rnd\.urdf:3: .*not a regular file"),
    "AddModels of a FIFO": (P, r"pipe\.urdf:0: error: cannot read the file: it is not a "
                               r"regular file"),
    "AddModels of a folder named like a model": (P, r"robot\.urdf:0: .*not a regular file"),
    # Before (and in pydrake): never returns.
    "an MJCF include of a FIFO": (P, r"main\.xml:1: error: <include file=\"inc\.xml\"> "
                                     r"attribute 'file': .*inc\.xml' is not a regular file"),
    "a URDF with a NUL byte": (P, r"nul\.urdf:3: error: Failed to parse XML file: not "
                                  r"well-formed"),
    "a link name of 100 000 characters": ("ok", [2, 0]),
    "a mesh scale of 1e308 cubed": ("ok", [2, 0]),
    # --- second pass: meshes that are not meshes (pydrake: collision meshes
    # become convex hulls, and it refuses most of these with other words) --------------
    "a collision mesh .obj that is a PNG image": (P, r"image\.obj' is not a text OBJ file: "
                                                     r"it holds binary data"),
    # Before and after: refused without allocating 2**31 triangles.
    "a collision mesh .stl claiming 2**31 triangles": (P, r"stl\.urdf:3: .*liar\.stl' could "
                                                          r"not be loaded as a Mesh"),
    # pydrake aborts the process (an assertion in TriangleSurfaceMesh).
    "a collision mesh .obj with a face index out of range": (P, r"idx\.urdf:3: .*idx\.obj"),
    # pydrake loads it.
    "a collision mesh .obj with a NaN vertex": (P, r"nanv\.obj"),
    "a collision mesh .obj of vertices only": (P, r"pts\.obj' holds 4 vertices and no "
                                                  r"triangles"),
    "an empty collision mesh .obj": (P, r"empty\.urdf:3: .*empty\.obj"),
    "a collision mesh .dae that is an XML bomb": (P, r"dae\.urdf:3: .*bomb\.dae' could not "
                                                     r"be loaded"),
    # pydrake aborts the process (vtk_gltf_uri_loader.cc); nothing is read here.
    "a collision mesh .gltf whose buffer is /etc/passwd": (P, r"m\.gltf' could not be "
                                                              r"parsed"),
    "a collision mesh with scale 0": (P, r"Mesh \|scale\| cannot be < 1e-8"),
    "a collision mesh with scale -1": ("ok", [2, 0]),           # as pydrake
    # pydrake's hull of coplanar points is flat; here a Convex needs a volume.
    "a declared-convex mesh of coplanar points": (P, r"needs at least 4 non-coplanar "
                                                     r"vertices"),
    "a collision mesh in an unknown format": (P, r"m\.xyz"),
    # Before: RecursionError (no file named). tinyxml2's limit, as pydrake.
    "MJCF bodies nested 1500 deep": (P, r"deep\.xml:1: error: Failed to parse XML file: "
                                        r"<joint> is nested 501 elements deep; at most 500 "
                                        r"are read \(XML_ELEMENT_DEPTH_EXCEEDED\)"),
    "MJCF bodies nested 480 deep": ("ok", [481, 480]),         # as pydrake
    # Before: a ParsingError saying "maximum recursion depth exceeded".
    "SDFormat models nested 480 deep": ("ok", [481, 0]),       # as pydrake
    # Before: accepted (pydrake refuses it, XML_ELEMENT_DEPTH_EXCEEDED).
    "an unknown URDF element nested 5000 deep": (P, r"junk\.urdf:3: error: Failed to parse "
                                                    r"XML file: <junk> is nested 501"),
    "MJCF includes chained 60 deep": ("ok", [2, 1]),
    "a URDF with 20 MB of comment": ("ok", [2, 0]),
    "a URDF attribute of 5 MB": ("ok", [2, 0]),
    # Both libraries take time quadratic in the geometries of one link (Drake's
    # name uniquifying), so the case stays at 500.
    "a URDF link with 500 collision spheres": ("ok", [2, 0]),
    "an SDFormat pose of nan": (P, r"nan\.sdf:1: error: <pose> of <link name=\"a\"> must be "
                                   r"6 finite numbers"),
    "an SDFormat version 99": (P, r"v99\.sdf:1: .*'version' must be 'major\.minor'"),
    "an SDFormat file without <sdf>": (P, r"bare\.sdf:1: error: the root element is "
                                          r"<model>"),
    # Before: never returned. pydrake: "Unable to find uri".
    "an SDFormat include of a FIFO": (P, r"main\.sdf:1: error: <include> <uri>model\.sdf"
                                         r"</uri>: .*model\.sdf' is not a regular file"),
    "an SDFormat mesh at an http:// URI": (P, r"specifies an unsupported scheme"),
    # pydrake tries to download drake_models from GitHub.
    "a URDF mesh escaping its package with ..": (P, r"unknown package 'drake_models'"),
    "an SDFormat inertial mass of -inf": ("ok", [2, 0]),       # warns; as pydrake
    # Before (and in pydrake): never returns.
    "PackageMap.AddPackageXml of a FIFO": (R, r"cannot read the manifest '.*package\.xml': "
                                              r"it is not a regular file"),
    # Found by the fuzz. Before: the first two loaded (an infinite moment; an
    # axis of NaN raised a ValueError naming no file), the URDF axis raised
    # that ValueError, the tiny mass a RuntimeError from SolidSphereWithMass
    # naming no file. pydrake refuses all four (the last naming no file).
    "an SDFormat inertia moment of 1e400": (P, r"ixx\.sdf:1: error: .*<ixx> of <inertia> "
                                               r"must be a number; got '1e400'"),
    "an SDFormat joint axis of 1e999": (P, r"axis\.sdf:1: error: .*<xyz> of <axis> must be 3 "
                                           r"numbers; got '1e999 0 0'"),
    "an SDFormat joint limit of inf": ("ok", [3, 1]),         # as pydrake
    "a URDF joint axis of 1e999": (P, r"axis\.urdf:3: error: joint 'j': <axis> attribute "
                                      r"'xyz' must be 3 finite numbers; got '1e999 0 0'"),
    "a URDF mass of 1e-320 with an unphysical inertia": ("ok", [2, 0]),   # warns: 1 kg
    "AddModels with None": (T, r"AddModels\(\): incompatible function arguments"),
    "AddModels with a pathlib.Path": ("ok", 1),
    "AddModelsFromString with bytes": ("ok", 1),
    "Parser of a SceneGraph": (T, r"__init__\(\): incompatible function arguments"),
    "a package folder that does not exist": (R, r"PackageMap::Add cannot add 'nowhere_pkg' "
                                                r"because directory .* does not exist"),
}

SPECIAL_FILES = ("FIFO", "/dev/")


def test_every_case_has_an_expectation():
    assert sorted(EXPECTED) == sorted(attack_cases.CASES)


@pytest.fixture(scope="module")
def api():
    return attack_cases.api_here()


@pytest.mark.parametrize("name", list(attack_cases.CASES))
def test_bad_call(name, api, tmp_path):
    if any(word in name for word in SPECIAL_FILES):
        record = run_isolated(attack_cases.run_case, (name, api, tmp_path), timeout=60.0)
    else:
        record = attack_cases.run_case(name, api, tmp_path)
    kind, expected = EXPECTED[name]
    if kind == "ok":
        assert record == {"outcome": "ok", "value": expected}
    else:
        assert record["outcome"] == "error", record
        assert record["type"] == kind, record
        assert re.search(expected, record["message"]), record["message"]


def _add_srdf_fifo(tmp_path):
    import os

    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder

    plant, _ = AddMultibodyPlantSceneGraph(DiagramBuilder(), 0.0)
    parser = Parser(plant)
    (instance,) = parser.AddModelsFromString(attack_cases._urdf(attack_cases.LINK), "urdf")
    os.mkfifo(tmp_path / "robot.srdf")
    try:
        parser.add_srdf(str(tmp_path / "robot.srdf"), instance)
    except Exception as error:  # noqa: BLE001 - the outcome is the point
        return {"outcome": "error", "type": type(error).__name__, "message": str(error)}
    return {"outcome": "ok", "value": None}


def test_an_srdf_that_is_a_fifo_is_refused(tmp_path):
    """Parser.add_srdf (an extension) refuses a FIFO as it refuses a model
    file that is one (before: it never returned)."""
    record = run_isolated(_add_srdf_fifo, (tmp_path,), timeout=60.0)
    assert record["outcome"] == "error", record
    assert record["type"] == "ParsingError"
    assert re.search(r"robot\.srdf:0: error: cannot read the file: it is not a regular file",
                     record["message"])


def test_parsing_leaves_the_recursion_limit_as_it_was(api, tmp_path):
    """The parser raises Python's recursion limit while it reads (nesting up to
    the XML reader's 500 levels) and restores it after, refusal or not."""
    import sys

    before = sys.getrecursionlimit()
    attack_cases.run_case("SDFormat models nested 480 deep", api, tmp_path / "a")
    attack_cases.run_case("MJCF bodies nested 1500 deep", api, tmp_path / "b")
    assert sys.getrecursionlimit() == before
