"""Compiled (numba) kernels of the proximity engine; see each module."""
