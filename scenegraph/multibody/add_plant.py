"""AddMultibodyPlantSceneGraph and AddMultibodyPlant: a plant and a SceneGraph
added to a DiagramBuilder and wired together (pydrake.multibody.plant)."""
from __future__ import annotations

from dataclasses import dataclass

from systems.common.overloads import overloaded_function

__all__ = ["AddMultibodyPlantSceneGraph", "AddMultibodyPlant",
           "AddMultibodyPlantSceneGraphResult", "MultibodyPlantConfig"]


class AddMultibodyPlantSceneGraphResult:
    """(plant, scene_graph): unpacks as a tuple, as in pydrake."""

    __slots__ = ("plant", "scene_graph")

    def __init__(self, plant, scene_graph):
        self.plant, self.scene_graph = plant, scene_graph

    def __iter__(self):
        return iter((self.plant, self.scene_graph))

    def __getitem__(self, index):
        return (self.plant, self.scene_graph)[index]

    def __len__(self) -> int:
        return 2


@dataclass
class MultibodyPlantConfig:
    """pydrake 1.51's plant configuration, with its defaults. time_step [s] is used;
    the contact settings are applied to the plant as pydrake does (and only stored
    there: no dynamics here); use_sampled_output_ports and sap_near_rigid_threshold
    are kept on the config only."""

    time_step: float = 0.001
    use_sampled_output_ports: bool = True
    penetration_allowance: float = 0.001
    stiction_tolerance: float = 0.0001
    contact_model: str = "hydroelastic_with_fallback"
    discrete_contact_approximation: str = "lagged"
    sap_near_rigid_threshold: float = 1.0
    contact_surface_representation: str = "polygon"
    adjacent_bodies_collision_filters: bool = True


def _wire(builder, plant, scene_graph):
    from scenegraph.scene_graph import SceneGraph
    from systems.framework import DiagramBuilder
    if not isinstance(builder, DiagramBuilder):
        raise TypeError(f"AddMultibodyPlantSceneGraph: builder must be a DiagramBuilder; "
                        f"got {type(builder).__name__}")
    if scene_graph is None:
        scene_graph = SceneGraph()
        scene_graph.set_name("scene_graph")
    if not plant.get_name():
        plant.set_name("plant")
    builder.AddSystem(plant)
    builder.AddSystem(scene_graph)
    plant.RegisterAsSourceForSceneGraph(scene_graph)
    builder.Connect(plant.get_geometry_pose_output_port(),
                    scene_graph.get_source_pose_port(plant.get_source_id()))
    builder.Connect(scene_graph.get_query_output_port(),
                    plant.get_geometry_query_input_port())
    return AddMultibodyPlantSceneGraphResult(plant, scene_graph)


@overloaded_function
def AddMultibodyPlantSceneGraph(builder, time_step, scene_graph=None):
    """Adds a new MultibodyPlant(time_step) (named "plant") and a SceneGraph
    (named "scene_graph", or `scene_graph` if given) to `builder`, registers
    the plant as a geometry source and connects geometry_pose → SceneGraph
    and SceneGraph's query → geometry_query. Returns (plant, scene_graph)."""
    from scenegraph.multibody.multibody_plant import MultibodyPlant
    if hasattr(time_step, "RegisterAsSourceForSceneGraph"):
        return _wire(builder, time_step, scene_graph)
    return _wire(builder, MultibodyPlant(time_step), scene_graph)


@AddMultibodyPlantSceneGraph.overload
def AddMultibodyPlantSceneGraph(builder, plant, scene_graph=None):
    return _wire(builder, plant, scene_graph)


@overloaded_function
def AddMultibodyPlant(config, builder):
    """AddMultibodyPlantSceneGraph with a MultibodyPlantConfig's time_step
    (its contact settings are stored on the plant)."""
    return _add_from_config(config, None, builder)


@AddMultibodyPlant.overload
def AddMultibodyPlant(plant_config, scene_graph_config, builder):
    return _add_from_config(plant_config, scene_graph_config, builder)


def _add_from_config(config, scene_graph_config, builder):
    from scenegraph.scene_graph import SceneGraph
    from scenegraph.multibody.multibody_plant import MultibodyPlant
    from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
    from scenegraph.multibody.plant_unsupported import (ContactModel,
                                                        DiscreteContactApproximation)
    plant = MultibodyPlant(config.time_step)
    # Drake's ApplyMultibodyPlantConfig, with its names and errors.
    models = {"point": ContactModel.kPoint, "hydroelastic": ContactModel.kHydroelastic,
              "hydroelastic_with_fallback": ContactModel.kHydroelasticWithFallback}
    approximations = {"tamsi": DiscreteContactApproximation.kTamsi,
                      "sap": DiscreteContactApproximation.kSap,
                      "similar": DiscreteContactApproximation.kSimilar,
                      "lagged": DiscreteContactApproximation.kLagged}
    representations = {"triangle": HydroelasticContactRepresentation.kTriangle,
                       "polygon": HydroelasticContactRepresentation.kPolygon}
    if config.contact_model not in models:
        raise RuntimeError(f"Unknown contact_model: '{config.contact_model}'")
    plant.set_contact_model(models[config.contact_model])
    if plant.time_step() > 0:
        if config.discrete_contact_approximation not in approximations:
            raise RuntimeError(f"Unknown discrete_contact_approximation: "
                               f"'{config.discrete_contact_approximation}'")
        plant.set_discrete_contact_approximation(
            approximations[config.discrete_contact_approximation])
    if config.contact_surface_representation not in representations:
        raise RuntimeError(f"Unknown hydroelastic contact representation: "
                           f"'{config.contact_surface_representation}'")
    plant.set_contact_surface_representation(
        representations[config.contact_surface_representation])
    plant.set_penetration_allowance(config.penetration_allowance)
    plant.set_stiction_tolerance(config.stiction_tolerance)
    plant.set_adjacent_bodies_collision_filters(config.adjacent_bodies_collision_filters)
    scene_graph = SceneGraph()
    scene_graph.set_name("scene_graph")
    if scene_graph_config is not None:
        scene_graph.set_config(scene_graph_config)
    return _wire(builder, plant, scene_graph)
