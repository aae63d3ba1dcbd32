"""Template spellings of pydrake.geometry names (X_[float], X_[AutoDiffXd]) resolve to the
plain classes."""

import pytest

import scenegraph
from scenegraph import FramePoseVector, MeshcatVisualizer, QueryObject, SceneGraph


def test_template_spellings_resolve_to_the_plain_classes():
    assert scenegraph.SceneGraph_[float] is SceneGraph
    assert scenegraph.QueryObject_[None] is QueryObject
    assert scenegraph.FramePoseVector_[float] is FramePoseVector
    assert scenegraph.MeshcatVisualizer_[float] is MeshcatVisualizer
    assert scenegraph.Plane_[float] is scenegraph.Plane
    with pytest.raises(Exception, match="AutoDiffXd"):
        scenegraph.SceneGraph_["AutoDiffXd"]
