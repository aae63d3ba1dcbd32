"""DiagramContext: the Context of a Diagram, holding one subcontext per
subsystem, and the root-context set-up shared by leaf and diagram roots.

A diagram context's state is a view of its subsystems' states: its continuous
state is a slice of the root's flat continuous-state array (subsystems in
order), its discrete groups, abstract states and parameters are the
subsystems' own objects, concatenated in subsystem order.
"""
from __future__ import annotations

import numpy as np

from .context import Context, _RootInfo
from .state import AbstractValues, ContinuousState, DiscreteValues, Parameters, State
from .vectors import BasicVector

__all__ = ["DiagramContext", "finalize_root_context"]


class DiagramContext(Context):
    """The Context of a Diagram (pydrake's ``DiagramContext``)."""

    __slots__ = ("_subcontexts", "_input_subscribers", "_discrete_map",
                 "_abstract_map", "_numeric_parameter_map",
                 "_abstract_parameter_map", "_xc_leaves", "_xcdot_state",
                 "_leaf_list")
    _is_leaf = False

    def num_subcontexts(self) -> int:
        """The number of subcontexts (one per subsystem)."""
        return len(self._subcontexts)

    def _leaves(self) -> list:
        return self._leaf_list

    def _all_contexts(self):
        yield self
        for sub in self._subcontexts:
            yield from sub._all_contexts()

    def _discrete_key(self, index: int):
        leaf, local = self._discrete_map[index]
        return leaf._leaf_key("_discrete_tickets", local)

    def _abstract_key(self, index: int):
        leaf, local = self._abstract_map[index]
        return leaf._leaf_key("_abstract_tickets", local)

    def _numeric_parameter_key(self, index: int):
        leaf, local = self._numeric_parameter_map[index]
        return leaf._leaf_key("_numeric_parameter_tickets", local)

    def _abstract_parameter_key(self, index: int):
        leaf, local = self._abstract_parameter_map[index]
        return leaf._leaf_key("_abstract_parameter_tickets", local)



def _walk(context):
    yield context
    if not context._is_leaf:
        for sub in context._subcontexts:
            yield from _walk(sub)


def finalize_root_context(root: Context) -> Context:
    """Makes `root` a root: shares one time/accuracy record across the tree,
    lays every leaf's continuous state (and time-derivative cache) out in one
    flat array each, and builds the diagram-level state views."""
    info = _RootInfo(root)
    if root._is_leaf:
        # One leaf: its own continuous-state (and derivative) arrays are the flat
        # ones already; nothing to lay out.
        root._root_info = info      # (info.leaves unset: no reference cycle)
        info.xc_flat = root._state._continuous._vector._data
        return root
    contexts = list(_walk(root))
    leaves = [c for c in contexts if c._is_leaf]
    for c in contexts:
        c._root_info = info
        c._memo = {}
    info.leaves = leaves

    sizes = [leaf._state._continuous.size() for leaf in leaves]
    total = int(sum(sizes))
    vector_class = BasicVector
    if type(root._system)._scalar is not float:
        # An AutoDiffXd diagram: the flat arrays hold AutoDiffXd (decided once here).
        from .vectors_autodiff import AutoDiffBasicVector, autodiff_zeros
        xc_flat, xcdot_flat = autodiff_zeros(total), autodiff_zeros(total)
        vector_class = AutoDiffBasicVector
    else:
        xc_flat = np.zeros(total)
        xcdot_flat = np.zeros(total)
    starts = {}
    offset = 0
    for leaf, n in zip(leaves, sizes):
        starts[id(leaf)] = offset
        if n:
            leaf._state._continuous._rebind(xc_flat[offset:offset + n])
            derivative = leaf._cache[leaf._system._xcdot_cache_index].value
            derivative._rebind(xcdot_flat[offset:offset + n])
        offset += n
    info.xc_flat = xc_flat

    for c in contexts:
        if c._is_leaf:
            continue
        sub_leaves = [x for x in _walk(c) if x._is_leaf]
        c._leaf_list = sub_leaves
        c._xc_leaves = [x for x in sub_leaves if x._state._continuous.size()]
        begin = starts[id(sub_leaves[0])] if sub_leaves else 0
        q_idx, v_idx, z_idx = [], [], []
        local = 0
        for leaf in sub_leaves:
            xc = leaf._state._continuous
            nq, nv, nz = xc.num_q(), xc.num_v(), xc.num_z()
            q_idx.extend(range(local, local + nq))
            v_idx.extend(range(local + nq, local + nq + nv))
            z_idx.extend(range(local + nq + nv, local + nq + nv + nz))
            local += nq + nv + nz
        end = begin + local
        continuous = ContinuousState._gathered(xc_flat[begin:end], q_idx, v_idx, z_idx,
                                               vector_class)
        c._xcdot_state = ContinuousState._gathered(xcdot_flat[begin:end], q_idx,
                                                   v_idx, z_idx, vector_class)
        c._discrete_map = [(leaf, i) for leaf in sub_leaves
                           for i in range(leaf._state._discrete.num_groups())]
        c._abstract_map = [(leaf, i) for leaf in sub_leaves
                           for i in range(leaf._state._abstract.size())]
        c._numeric_parameter_map = [
            (leaf, i) for leaf in sub_leaves
            for i in range(leaf._parameters.num_numeric_parameter_groups())]
        c._abstract_parameter_map = [
            (leaf, i) for leaf in sub_leaves
            for i in range(leaf._parameters.num_abstract_parameters())]
        discrete = DiscreteValues([leaf._state._discrete._groups[i]
                                   for leaf, i in c._discrete_map])
        abstract = AbstractValues([leaf._state._abstract._values[i]
                                   for leaf, i in c._abstract_map])
        c._state = State(continuous, discrete, abstract)
        c._parameters = Parameters(
            [leaf._parameters._numeric[i] for leaf, i in c._numeric_parameter_map],
            [leaf._parameters._abstract[i] for leaf, i in c._abstract_parameter_map])
    return root
