"""Every multibody class offered has pydrake's template name, and the templates construct
and check their arguments."""

import json
from pathlib import Path

import numpy as np
import pytest

import scenegraph
import scenegraph.all as sg_all
import scenegraph.math
import scenegraph.multibody
import scenegraph.multibody.templates as mb_templates


PYDRAKE_API = json.loads((Path(__file__).parents[2] / "reference_data" / "pydrake_api.json")
                         .read_text(encoding="utf-8"))


def _offered_template_bases():
    """(template name, our class) for each pydrake.multibody template whose class we offer."""
    out = []
    for module in ("pydrake.multibody.math", "pydrake.multibody.plant",
                   "pydrake.multibody.tree"):
        for name, entry in PYDRAKE_API["modules"][module]["names"].items():
            if entry["kind"] == "template" and hasattr(scenegraph.multibody, name[:-1]):
                out.append((name, getattr(scenegraph.multibody, name[:-1])))
    return out


def test_every_offered_multibody_class_has_its_template_name():
    pairs = _offered_template_bases()
    assert {"MultibodyPlant_", "RigidBody_", "Frame_", "Joint_", "RevoluteJoint_",
            "SpatialInertia_", "SpatialVelocity_", "Body_"} <= {n for n, _ in pairs}
    for name, cls in pairs:
        template = getattr(mb_templates, name)
        assert template[float] is cls and template[None] is cls, name
        assert getattr(sg_all, name) is template, name
        with pytest.raises(RuntimeError, match=rf"{name}\[AutoDiffXd\]"):
            template["AutoDiffXd"]
    assert set(mb_templates.__all__) == {n for n, _ in pairs}


def test_multibody_templates_construct_and_check():
    from scenegraph.multibody import MultibodyPlant, SpatialVelocity
    plant = mb_templates.MultibodyPlant_[float](time_step=0.01)
    assert isinstance(plant, MultibodyPlant) and plant.time_step() == 0.01
    assert mb_templates.MultibodyPlant_.is_instantiation(MultibodyPlant)
    V = mb_templates.SpatialVelocity_[None](w=[1, 2, 3], v=[4, 5, 6])
    assert isinstance(V, SpatialVelocity)
    np.testing.assert_array_equal(V.get_coeffs(), [1, 2, 3, 4, 5, 6])
    with pytest.raises(RuntimeError, match="Expression"):
        mb_templates.RigidBody_["Expression"]
