"""The names of a finalized plant's coordinates (GetPositionNames and kin):
"<instance>_<joint>_<suffix>", as pydrake forms them."""
from __future__ import annotations

from systems.common.overloads import overloaded

__all__ = ["PlantNames"]


class PlantNames:
    """Mixin of MultibodyPlant: GetPositionNames, GetVelocityNames,
    GetStateNames, GetActuatorNames."""

    def _coordinate_names(self, which, model_instance, add_prefix, always_suffix, what):
        self._throw_if_not_finalized(what)
        f = self._forest
        names = []
        only = None if model_instance is None else self._check_instance(model_instance, what)
        for k in range(1, len(f.mobod_joint)):
            j = f.mobod_joint[k]
            if only is not None and int(j.model_instance()) != only:
                continue
            n = j.num_positions() if which == "q" else j.num_velocities()
            suffix = j.position_suffix if which == "q" else j.velocity_suffix
            prefix = (self._instance_names[int(j.model_instance())] + "_") if add_prefix \
                else ""
            for i in range(n):
                if n == 1 and not always_suffix:
                    names.append(f"{prefix}{j.name()}")
                else:
                    names.append(f"{prefix}{j.name()}_{suffix(i)}")
        return names

    @overloaded.typed(add_model_instance_prefix=bool)
    def GetPositionNames(self, add_model_instance_prefix=True, always_add_suffix=True) -> list:
        """Names of every position in q: "<instance>_<joint>_<suffix>"."""
        return self._coordinate_names("q", None, add_model_instance_prefix, always_add_suffix,
                                      "GetPositionNames")

    @GetPositionNames.overload(model_instance=int)
    def GetPositionNames(self, model_instance, add_model_instance_prefix=False,
                         always_add_suffix=True) -> list:
        return self._coordinate_names("q", model_instance, add_model_instance_prefix,
                                      always_add_suffix, "GetPositionNames")

    @overloaded.typed(add_model_instance_prefix=bool)
    def GetVelocityNames(self, add_model_instance_prefix=True, always_add_suffix=True) -> list:
        """Names of every velocity in v."""
        return self._coordinate_names("v", None, add_model_instance_prefix, always_add_suffix,
                                      "GetVelocityNames")

    @GetVelocityNames.overload(model_instance=int)
    def GetVelocityNames(self, model_instance, add_model_instance_prefix=False,
                         always_add_suffix=True) -> list:
        return self._coordinate_names("v", model_instance, add_model_instance_prefix,
                                      always_add_suffix, "GetVelocityNames")

    @overloaded.typed(add_model_instance_prefix=bool)
    def GetStateNames(self, add_model_instance_prefix=True) -> list:
        """Position names then velocity names."""
        return self.GetPositionNames(add_model_instance_prefix) + \
            self.GetVelocityNames(add_model_instance_prefix)

    @GetStateNames.overload(model_instance=int)
    def GetStateNames(self, model_instance, add_model_instance_prefix=False) -> list:
        return self.GetPositionNames(model_instance, add_model_instance_prefix) + \
            self.GetVelocityNames(model_instance, add_model_instance_prefix)

    @overloaded.typed(add_model_instance_prefix=bool)
    def GetActuatorNames(self, add_model_instance_prefix=True) -> list:
        """Names of the actuators ("<instance>_<actuator>")."""
        return [(self._instance_names[int(a.model_instance())] + "_"
                 if add_model_instance_prefix else "") + a.name() for a in self._actuators]

    @GetActuatorNames.overload(model_instance=int)
    def GetActuatorNames(self, model_instance, add_model_instance_prefix=False) -> list:
        i = self._check_instance(model_instance, "GetActuatorNames")
        return [(self._instance_names[i] + "_" if add_model_instance_prefix else "")
                + a.name() for a in self._actuators if int(a.model_instance()) == i]
