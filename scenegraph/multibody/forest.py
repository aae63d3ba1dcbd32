"""The plant's spanning forest, built at Finalize: which joint mobilizes which
body, in which order, and where each joint's q and v sit.

Drake's rules (multibody/topology), which fix the order of q and v that
pydrake scripts rely on:

1. Trees start from the world's joints, in the order they were added.
2. Then, while jointed bodies remain, the best base body is chosen — the
   one that is a child in fewest joints, then a parent in most, then the
   lowest index — and given a floating joint to the world.
3. Then every body with no joint at all gets a floating joint, in body order.
   A floating joint is a QuaternionFloatingJoint named after its body
   (prefixed with "_" until the name is unique in the model instance).
4. Each tree grows from its base through the joints of each body in the
   order the joints were added; mobilized bodies are numbered depth first
   (a whole tree before the next, the leftmost branch first), and q and v
   are handed out in that order.

Loops (a body that is the child of two joints, or a cycle) and a joint whose
child is the world are refused with an error naming the joints.
"""
from __future__ import annotations

import numpy as np

from scenegraph.math.plain_transforms import inverse

__all__ = ["Forest", "build_forest"]


class Forest:
    """The arrays kinematics_kernels reads, plus the order facts the plant
    reports. Attributes (n = number of mobods, mobod 0 is the world):

    mobod_joint: list (n,) of the Joint mobilizing each mobod (None for 0);
    body_of (n,), parent (n,), kinds (n,), q_start (n,), v_start (n,) int64;
    mobod_of_body (nb,) int64; axes (n, 3), R_PF (n, 3, 3), p_PF (n, 3),
    R_MB (n, 3, 3), p_MB (n, 3), R_weld (n, 3, 3), p_weld (n, 3) float64;
    nq, nv; welded_groups: list of sorted body-index lists (the world's group
    first), one per set of bodies joined by welds.
    """

    __slots__ = ("mobod_joint", "body_of", "parent", "kinds", "q_start", "v_start",
                 "mobod_of_body", "axes", "R_PF", "p_PF", "R_MB", "p_MB", "R_weld", "p_weld",
                 "nq", "nv", "welded_groups", "group_of_body", "_packed", "_jacobian_ints")

    def kernel_arrays(self) -> tuple:
        """The arguments forward_kinematics takes before q."""
        return (self.kinds, self.parent, self.body_of, self.q_start, self.axes, self.R_PF,
                self.p_PF, self.R_MB, self.p_MB, self.R_weld, self.p_weld)

    def packed_arrays(self) -> tuple:
        """The arguments forward_kinematics_packed takes before q, made at the
        first call (the forest does not change once built): ints (4, n) int64
        = kinds, parent, body_of, q_start; R_fixed (3, n, 3, 3) = R_PF, R_MB,
        R_weld; p_fixed (4, n, 3) = axes, p_PF, p_MB, p_weld."""
        try:
            return self._packed
        except AttributeError:
            pass
        self._packed = (
            np.ascontiguousarray([self.kinds, self.parent, self.body_of, self.q_start],
                                 dtype=np.int64),
            np.ascontiguousarray([self.R_PF, self.R_MB, self.R_weld], dtype=float),
            np.ascontiguousarray([self.axes, self.p_PF, self.p_MB, self.p_weld], dtype=float))
        return self._packed

    def jacobian_ints(self) -> np.ndarray:
        """(3, n) int64 = kinds, parent, v_start (frame_point_jacobian_one's
        packed argument), made at the first call."""
        try:
            return self._jacobian_ints
        except AttributeError:
            pass
        self._jacobian_ints = np.ascontiguousarray([self.kinds, self.parent, self.v_start],
                                                   dtype=np.int64)
        return self._jacobian_ints


def _loop_error(body, joints) -> RuntimeError:
    names = ", ".join(f"'{j.name()}'" for j in joints)
    return RuntimeError(
        f"MultibodyPlant.Finalize(): body '{body.scoped_name()}' is the child of joints "
        f"{names}; kinematic loops are not supported (each body can have one inboard "
        f"joint)")


def build_forest(bodies: list, joints: list, make_floating_joint) -> Forest:
    """Builds the forest of `bodies` (index order, world first) and `joints`
    (index order). ``make_floating_joint(body)`` adds a floating joint for an
    unjointed base body to the plant and returns it (it is appended to
    `joints`). Assigns every joint's _q_start/_v_start."""
    nb = len(bodies)
    joints_of = [[] for _ in range(nb)]
    as_child = [[] for _ in range(nb)]
    as_parent = [0] * nb
    for j in joints:
        p, c = int(j.parent_body().index()), int(j.child_body().index())
        if c == 0:
            raise RuntimeError(
                f"MultibodyPlant.Finalize(): joint '{j.name()}' has the world as its child "
                f"body; make the world the parent (frame_on_parent) instead")
        joints_of[p].append(j)
        joints_of[c].append(j)
        as_child[c].append(j)
        as_parent[p] += 1
    for b in range(1, nb):
        if len(as_child[b]) > 1:
            raise _loop_error(bodies[b], as_child[b])

    order = [(None, 0, -1)]        # (joint, body, parent mobod) in depth-first order
    in_forest = [False] * nb
    in_forest[0] = True

    def grow(joint, body, parent_mobod):
        stack = [(joint, body, parent_mobod)]
        while stack:
            j, b, pm = stack.pop()
            if in_forest[b]:
                raise _loop_error(bodies[b], [j] + [x for x in as_child[b] if x is not j])
            in_forest[b] = True
            order.append((j, b, pm))
            me = len(order) - 1
            children = [x for x in joints_of[b] if x is not j]
            for x in reversed(children):
                child = int(x.child_body().index())
                if child == b:       # b is the child of another joint: a loop
                    raise _loop_error(bodies[b], as_child[b])
                stack.append((x, child, me))

    for j in list(joints_of[0]):
        grow(j, int(j.child_body().index()), 0)
    remaining = [b for b in range(1, nb) if not in_forest[b] and joints_of[b]]
    while True:
        candidates = [b for b in remaining if not in_forest[b]]
        if not candidates:
            break
        base = min(candidates, key=lambda b: (len(as_child[b]), -as_parent[b], b))
        if as_child[base]:
            # Every remaining body is a child: the joints form a cycle.
            raise RuntimeError(
                f"MultibodyPlant.Finalize(): the joints "
                f"{', '.join(repr(x.name()) for x in as_child[base])} form a kinematic "
                f"loop through body '{bodies[base].scoped_name()}'; loops are not "
                f"supported")
        joint = make_floating_joint(bodies[base])
        grow(joint, base, 0)
    for b in range(1, nb):
        if not in_forest[b]:
            grow(make_floating_joint(bodies[b]), b, 0)

    return _arrays(order, bodies, joints)


def _arrays(order, bodies, joints) -> Forest:
    from scenegraph.multibody.joints import KIND_WELD
    n, nb = len(order), len(bodies)
    f = Forest()
    f.mobod_joint = [j for j, _, _ in order]
    f.body_of = np.array([b for _, b, _ in order], dtype=np.int64)
    f.parent = np.array([max(pm, 0) for _, _, pm in order], dtype=np.int64)
    f.mobod_of_body = np.zeros(nb, dtype=np.int64)
    f.mobod_of_body[f.body_of] = np.arange(n)
    f.kinds = np.zeros(n, dtype=np.int64)
    f.q_start = np.zeros(n, dtype=np.int64)
    f.v_start = np.zeros(n, dtype=np.int64)
    f.axes = np.zeros((n, 3))
    f.R_PF = np.tile(np.eye(3), (n, 1, 1))
    f.p_PF = np.zeros((n, 3))
    f.R_MB = np.tile(np.eye(3), (n, 1, 1))
    f.p_MB = np.zeros((n, 3))
    f.R_weld = np.tile(np.eye(3), (n, 1, 1))
    f.p_weld = np.zeros((n, 3))
    nq = nv = 0
    for k in range(1, n):
        j = order[k][0]
        f.kinds[k] = j._KIND
        f.q_start[k], f.v_start[k] = nq, nv
        j._q_start, j._v_start = nq, nv
        nq += j._NQ
        nv += j._NV
        f.axes[k] = j._axis_param()
        X_PF = j.frame_on_parent()._X_BF
        f.R_PF[k], f.p_PF[k] = X_PF.rotation().matrix(), X_PF.translation()
        X_MB = inverse(j.frame_on_child()._X_BF)
        f.R_MB[k], f.p_MB[k] = X_MB.rotation().matrix(), X_MB.translation()
        X_FM = j._fixed_X_FM()
        f.R_weld[k], f.p_weld[k] = X_FM.rotation().matrix(), X_FM.translation()
    for j in joints:           # every joint is in the forest (no loops remain)
        assert j._q_start is not None
    f.nq, f.nv = nq, nv
    # Welded groups: union-find over weld joints.
    root = list(range(nb))

    def find(b):
        while root[b] != b:
            root[b] = root[root[b]]
            b = root[b]
        return b

    for j in joints:
        if j._KIND == KIND_WELD:
            a, b = find(int(j.parent_body().index())), find(int(j.child_body().index()))
            if a != b:
                root[max(a, b)] = min(a, b)
    groups: dict[int, list] = {}
    for b in range(nb):
        groups.setdefault(find(b), []).append(b)
    f.welded_groups = [groups[r] for r in sorted(groups)]
    f.group_of_body = np.zeros(nb, dtype=np.int64)
    for g, members in enumerate(f.welded_groups):
        f.group_of_body[members] = g
    return f
