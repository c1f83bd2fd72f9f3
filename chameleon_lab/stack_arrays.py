"""Small arrays on a compiled function's stack, for code compiled without numba's NRT.

The searches are compiled without numba's reference counting (``_nrt=False``: see
:mod:`chameleon_lab.search.improved`), so nothing they call may allocate an array on the
heap: ``np.empty`` inside a heuristic fails to compile with "NRT required but not
enabled". A value network's forward pass (:mod:`chameleon_lab.games.valuenet`) needs a
few dozen floats of scratch, its hidden sums; ``stack_floats`` gives them as an
array in the stack frame of the function that calls it (LLVM ``alloca``, in the entry
block: once per call of that function, freed on its return, at no cost a profile can
see).

The array is *uninitialised*: write every element before reading it. It must not
outlive the call (never return it or store it in another array). Its size must be a
compile-time constant (a literal, or a closure or global integer of the compiled
function); any other size is a typing error naming this function.

Layer 0: imports nothing of the package.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic


@intrinsic
def stack_floats(typingctx: Any, size: Any) -> Any:  # pragma: no cover - compiled
    """``size`` float64s on the caller's stack as a 1-d C-contiguous array
    (uninitialised; see the module docstring). Usable only in compiled code (a numba
    intrinsic, so not listed among this module's functions: it is numba's object)."""
    if not isinstance(size, types.IntegerLiteral) or size.literal_value < 1:
        raise TypingError(f"stack_floats needs a positive compile-time integer size, got {size}")
    count = size.literal_value
    array = types.Array(types.float64, 1, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = cgutils.alloca_once(
            builder,
            context.get_value_type(types.float64),
            size=context.get_constant(types.intp, count),
        )
        out = context.make_array(array)(context, builder)
        itemsize = context.get_constant(types.intp, 8)
        context.populate_array(
            out,
            data=data,
            shape=[context.get_constant(types.intp, count)],
            strides=[itemsize],
            itemsize=itemsize,
            meminfo=None,
        )
        return out._getvalue()

    return array(size), codegen
