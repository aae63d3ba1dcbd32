"""Role values and printed forms are Drake's."""

from scenegraph import Role, RoleAssign


def test_role_values_match_drake():
    assert [int(r) for r in (Role.kUnassigned, Role.kProximity, Role.kIllustration,
                             Role.kPerception)] == [0, 1, 2, 4]
    assert (int(RoleAssign.kNew), int(RoleAssign.kReplace)) == (0, 1)


def test_roles_print_as_pydrake_prints_them():
    assert str(Role.kProximity) == f"{Role.kProximity}" == "Role.kProximity"
    assert repr(Role.kPerception) == "<Role.kPerception: 4>"
    assert str(RoleAssign.kReplace) == "RoleAssign.kReplace"
    assert repr(RoleAssign.kNew) == "<RoleAssign.kNew: 0>"
