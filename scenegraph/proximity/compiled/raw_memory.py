"""Reading array elements through raw addresses inside compiled code.

numba counts references of every array a function receives, and in the
innermost loops of the narrow phase (support functions called thousands of
times per query) that bookkeeping costs more than the arithmetic. The hull
arrays are therefore handed to those loops as plain integer addresses
(`array.ctypes.data`, taken inside the compiled driver that holds the arrays
for the whole call, so the memory stays alive) and read with these loads.

The same holds for scratch arrays that a routine reads and writes in its
main loop (EPA's polytope): passing them to helpers, or slicing views of
them, costs an atomic reference-count update per call, so those loops work
on addresses too, with the stores below.

Only the compiled kernels of this package use it, and only on arrays whose
bounds they know (a hull's own vertex rows, a scratch buffer's fixed size).
"""
from __future__ import annotations

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

__all__ = ["load_f64", "load_i64", "store_f64", "store_i64"]


def _loader(llvm_type, numba_type):
    def typer(typingctx, address, index):
        if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            addr, i = args
            ptr = builder.inttoptr(addr, ir.PointerType(llvm_type))
            return builder.load(builder.gep(ptr, [i]))

        return numba_type(types.int64, types.int64), codegen

    return typer


load_f64 = intrinsic(_loader(ir.DoubleType(), types.float64))
load_f64.__doc__ = "load_f64(address, i): the i-th float64 at address (compiled code only)."
load_i64 = intrinsic(_loader(ir.IntType(64), types.int64))
load_i64.__doc__ = "load_i64(address, i): the i-th int64 at address (compiled code only)."


def _storer(llvm_type, numba_type):
    def typer(typingctx, address, index, value):
        if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)
                and isinstance(value, (types.Integer, types.Float, types.Boolean))):
            return None

        def codegen(context, builder, signature, args):
            addr, i, v = args
            v = context.cast(builder, v, signature.args[2], numba_type)
            ptr = builder.inttoptr(addr, ir.PointerType(llvm_type))
            builder.store(v, builder.gep(ptr, [i]))
            return context.get_dummy_value()

        return types.none(types.int64, types.int64, value), codegen

    return typer


store_f64 = intrinsic(_storer(ir.DoubleType(), types.float64))
store_f64.__doc__ = "store_f64(address, i, x): writes x as the i-th float64 at address (compiled code only)."
store_i64 = intrinsic(_storer(ir.IntType(64), types.int64))
store_i64.__doc__ = "store_i64(address, i, k): writes k as the i-th int64 at address (compiled code only)."
