"""A Quaternion type in CUDA kernels, its attributes lowered with an llvmlite IRBuilder: the
example of github.com/gmarkall/extending-numba-cuda (quaternion_example.py), which the talk
"Accelerated Python with Numba" points to, with ``numba`` changed to ``taipan``.

numba-cuda's registries are taipan's: ``numba.cuda.cudadecl.registry.register_attr`` is
``infer_getattr`` and ``numba.cuda.cudaimpl.lower_attr`` is ``lower_getattr``; the same
registrations serve ``@njit`` code on the CPU. The attribute implementations call taipan's own
``math.atan`` and ``math.asin`` through ``context.get_function``, which in a kernel compiles
them as device functions linked into the kernel.

    python examples/quaternion/quaternion.py [--count 100000]

runs the kernel (on the GPU, or in the simulator with TAIPAN_ENABLE_CUDASIM=1) and the same
attributes compiled for the CPU, and compares both with Python's properties.
"""

import argparse
import math
import sys

import numpy as np

from taipan import cuda, njit, types
from taipan.core import cgutils, typing
from taipan.core.typing.templates import AttributeTemplate
from taipan.extending import (
    infer_getattr,
    lower_builtin,
    lower_getattr,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
    typeof_impl,
)


class Quaternion:
    """A quaternion a + bi + cj + dk (for the extension's sake, not a quaternion library)."""

    def __init__(self, a, b, c, d):
        self.a = a
        self.b = b
        self.c = c
        self.d = d

    @property
    def phi(self):
        """The angle between the x-axis and the N-axis."""
        a, b, c, d = self.a, self.b, self.c, self.d
        return math.atan(2 * (a * b + c * d) / (a * a - b * b - c * c + d * d))

    @property
    def theta(self):
        """The angle between the z-axis and the Z-axis."""
        a, b, c, d = self.a, self.b, self.c, self.d
        return -math.asin(2 * (b * d - a * c))

    @property
    def psi(self):
        """The angle between the N-axis and the X-axis."""
        a, b, c, d = self.a, self.b, self.c, self.d
        return math.atan(2 * (a * d + b * c) / (a * a + b * b - c * c - d * d))


# Typing


class QuaternionType(types.Type):
    def __init__(self):
        super().__init__(name="Quaternion")


quaternion_type = QuaternionType()


@typeof_impl.register(Quaternion)
def typeof_quaternion(val, c):
    return quaternion_type


@type_callable(Quaternion)
def type_quaternion(context):
    def typer(a, b, c, d):
        if all(isinstance(x, types.Float) for x in (a, b, c, d)):
            return quaternion_type

    return typer


# Data model


@register_model(QuaternionType)
class QuaternionModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("a", types.float64), ("b", types.float64), ("c", types.float64)]
        members.append(("d", types.float64))
        models.StructModel.__init__(self, dmm, fe_type, members)


# Lowering


@lower_builtin(Quaternion, types.Float, types.Float, types.Float, types.Float)
def impl_quaternion(context, builder, sig, args):
    quaternion = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    quaternion.a, quaternion.b, quaternion.c, quaternion.d = args
    return quaternion._getvalue()


for _member in "abcd":
    make_attribute_wrapper(QuaternionType, _member, _member)


@infer_getattr
class QuaternionAttributes(AttributeTemplate):
    key = QuaternionType

    def resolve_phi(self, mod):
        return types.float64

    def resolve_theta(self, mod):
        return types.float64

    def resolve_psi(self, mod):
        return types.float64


def _members(builder, value):
    return [builder.extract_value(value, i) for i in range(4)]


def _atan_of_ratio(context, builder, numerator, denominator):
    """math.atan(2 * numerator / denominator), with taipan's math.atan."""
    atan = context.get_function(math.atan, typing.signature(types.float64, types.float64))
    two = context.get_constant(types.float64, 2)
    return atan(builder, [builder.fmul(two, builder.fdiv(numerator, denominator))])


@lower_getattr(QuaternionType, "phi")
def quaternion_phi(context, builder, sig, arg):
    # math.atan(2 * (a * b + c * d) / (a * a - b * b - c * c + d * d))
    a, b, c, d = _members(builder, arg)
    numerator = builder.fadd(builder.fmul(a, b), builder.fmul(c, d))
    denominator = builder.fsub(builder.fmul(a, a), builder.fmul(b, b))
    denominator = builder.fadd(builder.fsub(denominator, builder.fmul(c, c)), builder.fmul(d, d))
    return _atan_of_ratio(context, builder, numerator, denominator)


@lower_getattr(QuaternionType, "theta")
def quaternion_theta(context, builder, sig, arg):
    # -math.asin(2 * (b * d - a * c))
    a, b, c, d = _members(builder, arg)
    asin = context.get_function(math.asin, typing.signature(types.float64, types.float64))
    x = builder.fsub(builder.fmul(b, d), builder.fmul(a, c))
    result = asin(builder, [builder.fmul(context.get_constant(types.float64, 2), x)])
    return builder.fsub(context.get_constant(types.float64, -0.0), result)


@lower_getattr(QuaternionType, "psi")
def quaternion_psi(context, builder, sig, arg):
    # math.atan(2 * (a * d + b * c) / (a * a + b * b - c * c - d * d))
    a, b, c, d = _members(builder, arg)
    numerator = builder.fadd(builder.fmul(a, d), builder.fmul(b, c))
    denominator = builder.fadd(builder.fmul(a, a), builder.fmul(b, b))
    denominator = builder.fsub(builder.fsub(denominator, builder.fmul(c, c)), builder.fmul(d, d))
    return _atan_of_ratio(context, builder, numerator, denominator)


# User code: the example's kernel, one quaternion per thread, and the same on the CPU.


@cuda.jit
def angles_kernel(components, out):
    i = cuda.grid(1)
    if i < components.shape[0]:
        q = Quaternion(components[i, 0], components[i, 1], components[i, 2], components[i, 3])
        out[i, 0] = q.phi
        out[i, 1] = q.theta
        out[i, 2] = q.psi


@njit
def angles_cpu(components, out):
    for i in range(components.shape[0]):
        q = Quaternion(components[i, 0], components[i, 1], components[i, 2], components[i, 3])
        out[i, 0] = q.phi
        out[i, 1] = q.theta
        out[i, 2] = q.psi


def python_angles(components):
    rows = [Quaternion(*map(float, row)) for row in components]
    return np.array([[q.phi, q.theta, q.psi] for q in rows])


def sample_components(count, seed=0):
    """The example's quaternion (1, 2, 9.75, 5), then random unit quaternions (for which
    asin's argument is within [-1, 1])."""
    components = np.random.default_rng(seed).normal(size=(count, 4))
    components /= np.linalg.norm(components, axis=1)[:, None]
    components[0] = [1.0, 2.0, 9.75, 5.0]
    return components


def device_name():
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    args = parser.parse_args()
    components = sample_components(args.count)
    gpu = np.zeros((args.count, 3))
    threads = 128
    angles_kernel[(args.count + threads - 1) // threads, threads](components, gpu)
    cpu = np.zeros((args.count, 3))
    angles_cpu(components, cpu)
    python = python_angles(components[: min(args.count, 10_000)])
    checked = len(python)
    print(f"device: {device_name()}; {args.count} quaternions")
    print("Computed with taipan (kernel), first quaternion:", gpu[0])
    print("Computed in Python, first quaternion:           ", python[0])
    failures = 0
    for name, result in (("kernel", gpu[:checked]), ("CPU", cpu[:checked])):
        ok = np.allclose(result, python, rtol=1e-13, atol=1e-15, equal_nan=True)
        print(f"{'PASS' if ok else 'FAIL'}  {name} vs Python on {checked} quaternions")
        failures += not ok
    print(f"{failures} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
