"""ContextBase: the scalar-independent base of every Context (pydrake's
``ContextBase``)."""
from __future__ import annotations

__all__ = ["ContextBase"]


class ContextBase:
    """Base class of Context: what does not depend on the scalar type."""

    __slots__ = ()

    def num_input_ports(self) -> int:
        """How many input ports the context's System has."""
        return len(self._fixed_inputs)

    def num_output_ports(self) -> int:
        """How many output ports the context's System has."""
        return self._num_output_ports

    def num_total_states(self) -> int:
        """The number of continuous and discrete state entries together (as if
        they were muxed).

        Raises:
          RuntimeError: the context has abstract state.
        """
        if self.num_abstract_states():
            raise RuntimeError("num_total_states(): the context has abstract state "
                               f"({self.num_abstract_states()} values); only vector "
                               "states can be counted together")
        return self.num_continuous_states() + sum(
            self.get_discrete_state(i).size()
            for i in range(self.num_discrete_state_groups()))

    # --- cache switches (pydrake's ContextBase) -----------------------------------
    def DisableCaching(self) -> None:
        """Recompute every cache entry (output ports, derivatives, declared entries)
        at each Eval in this context and its subcontexts: a debugging aid."""
        from .cache import set_context_cache_switches
        set_context_cache_switches(self, disabled=True)

    def EnableCaching(self) -> None:
        """Undoes DisableCaching (and every entry's disable_caching) here and in the
        subcontexts; every value is marked out of date."""
        from .cache import set_context_cache_switches
        set_context_cache_switches(self, disabled=False)

    def SetAllCacheEntriesOutOfDate(self) -> None:
        """Marks every cached value of this context and its subcontexts out of date
        (each is recomputed at its next Eval)."""
        for sub in self._all_contexts():
            if sub._is_leaf:
                for cev in sub._cache:
                    cev.valid = False

    def FreezeCache(self) -> None:
        """Freezes the cache of this context and its subcontexts: values up to date
        stay readable, changes still mark values out of date, and evaluating an
        out-of-date value raises a RuntimeError instead of computing it."""
        from .cache import set_context_cache_switches
        set_context_cache_switches(self, frozen=True)

    def UnfreezeCache(self) -> None:
        """Undoes FreezeCache here and in the subcontexts."""
        from .cache import set_context_cache_switches
        set_context_cache_switches(self, frozen=False)

    def is_cache_frozen(self) -> bool:
        """True while this context's cache is frozen (FreezeCache)."""
        from .cache import is_context_cache_frozen
        return is_context_cache_frozen(self)
