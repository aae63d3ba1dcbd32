"""System type names are Drake's for the library's systems."""

from scenegraph import SceneGraph
from systems.framework import LeafSystem
from systems.primitives import Adder


def test_system_type_names_are_drakes_for_library_systems():
    class Mine(LeafSystem):
        pass

    assert Adder(3, 10).GetSystemType() == "drake::systems::Adder<double>"
    assert SceneGraph().GetSystemType() == "drake::geometry::SceneGraph<double>"
    assert Mine().GetSystemType() == f"{__name__}.{Mine.__qualname__}"
