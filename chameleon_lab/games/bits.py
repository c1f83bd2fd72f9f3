"""Bit operations on integer bitboards as single LLVM instructions (numba intrinsics).

Bitboard kernels and solvers count and find set bits in their hottest loops; these
compile to one instruction each (``ctpop``, ``cttz``, ``ctlz``) instead of a loop.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits (LLVM ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """The index of the lowest set bit (LLVM ``cttz``; undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@intrinsic
def leading_zeros(typingctx, x):
    """The number of leading zero bits (LLVM ``ctlz``; undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen
