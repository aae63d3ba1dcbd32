"""What every multibody element (body, frame, joint, actuator) has: its plant,
its index, its model instance and its name."""
from __future__ import annotations

__all__ = ["MultibodyElement"]


class MultibodyElement:
    """Base of RigidBody, Frame, Joint and JointActuator.

    An element belongs to no plant until the plant's Add* method takes it;
    then ``GetParentPlant()``, ``index()`` and ``model_instance()`` are set.
    """

    __slots__ = ("_plant", "_index", "_model_instance", "_name", "_ephemeral")
    _INDEX_TYPE = int
    _KIND = "element"

    def __init__(self, name: str, model_instance=None):
        if not isinstance(name, str):
            raise TypeError(f"{type(self).__name__}: name must be a str; got "
                            f"{type(name).__name__}")
        if not name:
            # pydrake's words (for a Joint or a model instance it aborts the process).
            raise RuntimeError(f"The name parameter to the {type(self).__name__} "
                               f"constructor is required.")
        self._plant = None
        self._index = None
        self._model_instance = model_instance
        self._name = name
        self._ephemeral = False

    def name(self) -> str:
        """The element's name (unique among its kind within its model instance)."""
        return self._name

    def index(self):
        """The element's index in its plant.

        Raises:
          RuntimeError: the element has not been added to a plant."""
        if self._index is None:
            raise RuntimeError(f"{type(self).__name__} '{self._name}' has not been added to "
                               f"a MultibodyPlant")
        return self._index

    def model_instance(self):
        """The ModelInstanceIndex this element belongs to."""
        return self._model_instance

    def GetParentPlant(self):
        """The MultibodyPlant this element was added to.

        Raises:
          RuntimeError: not added to a plant yet."""
        if self._plant is None:
            raise RuntimeError(f"{type(self).__name__} '{self._name}' has not been added to "
                               f"a MultibodyPlant")
        return self._plant

    def is_ephemeral(self) -> bool:
        """True for elements the plant added itself at Finalize (the floating
        joints of unjointed bodies)."""
        return self._ephemeral

    def scoped_name(self):
        """The ScopedName "<model instance name>::<name>"."""
        from scenegraph.multibody.scoped_name import ScopedName
        plant = self.GetParentPlant()
        return ScopedName(plant.GetModelInstanceName(self._model_instance), self._name)

    def _plant_checked(self, what: str):
        if self._plant is None:
            raise RuntimeError(f"{type(self).__name__}.{what}: '{self._name}' has not been "
                               f"added to a MultibodyPlant")
        return self._plant

    def __repr__(self) -> str:
        if self._plant is None:
            return f"<{type(self).__name__} name='{self._name}' (not in a plant)>"
        return (f"<{type(self).__name__} name='{self._name}' index={int(self._index)} "
                f"model_instance={int(self._model_instance)}>")
