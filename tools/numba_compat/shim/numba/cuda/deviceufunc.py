"""``numba.cuda.deviceufunc``: ``GUFuncEngine``, numba-cuda's scheduler of gufunc calls (the loop
dimensions and each operand's core shape for a layout and the inputs' shapes), answered by the
schedule taipan's CUDA gufuncs use (``taipan.cuda.api.ufuncs.gufunc_schedule``: NumPy's
broadcast of the loop dimensions). The rest of the module is placeholders."""

import math

from numba._missing import fill_missing
from taipan.cuda.api.ufuncs import gufunc_schedule, parse_layout


class GUFuncSchedule:
    """numba-cuda's schedule of one call: inputs' and outputs' core shapes (``ishapes``,
    ``oshapes``), the loop dimensions and their element count (``loopdims``, ``loopn``), and
    ``pinned``: the inputs whose loop dimensions are not the loop's (broadcast along it)."""

    def __init__(self, parent, ishapes, oshapes, loopdims, pinned):
        self.parent = parent
        self.ishapes = ishapes
        self.oshapes = oshapes
        self.loopdims = loopdims
        self.loopn = math.prod(loopdims)
        self.pinned = pinned
        self.output_shapes = [loopdims + shape for shape in oshapes]

    def __str__(self):
        names = ("ishapes", "oshapes", "loopdims", "loopn", "pinned")
        return str({name: getattr(self, name) for name in names})


class GUFuncEngine:
    """How a gufunc of a layout (``'(m,n),(n,p)->(m,p)'``) runs for the inputs' shapes."""

    @classmethod
    def from_signature(cls, signature):
        return cls(signature)

    def __init__(self, layout):
        self.layout = layout
        self.nin, self.core_names = parse_layout(layout)
        self.nout = len(self.core_names) - self.nin
        self.sin, self.sout = self.core_names[: self.nin], self.core_names[self.nin :]

    def schedule(self, ishapes):
        if len(ishapes) != self.nin:
            raise TypeError("invalid number of input argument")
        shapes = [tuple(shape) for shape in ishapes]
        loop, outputs = gufunc_schedule(
            self.layout, self.core_names, self.nin, shapes + [None] * self.nout
        )
        inner = [shape[len(shape) - len(names) :] for shape, names in zip(shapes, self.sin)]
        pinned = [
            shape[: len(shape) - len(names)] != loop for shape, names in zip(shapes, self.sin)
        ]
        oshapes = [shape[len(loop) :] for shape in outputs]
        return GUFuncSchedule(self, inner, oshapes, loop, pinned)


__getattr__ = fill_missing(globals(), __name__)
