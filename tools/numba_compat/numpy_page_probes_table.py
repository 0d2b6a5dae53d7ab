"""The probe expressions of numpy_page.py, per entry of Numba's NumPy page (see
numpy_page_probes.py for how one is run: fixture names are the parameters; a pair is
(probe, NumPy reference); a dict adds a seed or a tolerance)."""

from __future__ import annotations

import numpy as np

# Spellings NumPy removed: nothing to compare a probe with under the installed NumPy.
REMOVED = {
    "numpy.asfarray": "removed in NumPy 2.0",
    "numpy.round_": "removed in NumPy 2.0 (the page: NumPy < 2.0 only)",
    "numpy.MachAr": "removed in NumPy 2.0",
    "numpy.in1d": "removed in NumPy 2.4",
    "numpy.trapz": "removed in NumPy 2.4",
}


def _random(expressions: list[str], seed: int = 7) -> list[dict]:
    return [{"probe": e, "seed": seed, "rtol": 1e-9} for e in expressions]


def _gen(expressions: list[str]) -> list[dict]:
    return [{"probe": e, "rtol": 1e-9} for e in expressions]


LINALG = 1e-9

PROBES: dict[str, list] = {
    # Scalar types
    "scalar: Integers": [
        (
            "(np.int8(-5), np.uint8(200), np.int16(-300), np.uint16(60000), np.int32(7), "
            "np.uint32(4000000000), np.int64(-9), np.uint64(18446744073709551615))"
        ),
        "i1.astype(np.int8) * np.int8(3)",
        "i1.astype(np.uint16).sum()",
    ],
    "scalar: Booleans": ["b1 & ~b1[::-1]", "np.bool_(1) and not np.bool_(0)"],
    "scalar: Real numbers": [
        "f1.astype(np.float32) * np.float32(1.5)",
        "np.float32(0.1) + np.float32(1)",
        "np.float64(x) / 3",
    ],
    "scalar: Complex numbers": ["c1.astype(np.complex64) * np.complex64(1 + 2j)", "c1[1] * c1[2]"],
    "scalar: Datetimes and timestamps": [
        "dt[1] - dt[0]",
        "dt[:2] + td[1]",
        "td * 2 + td[0]",
        "np.isnat(dt)",
    ],
    "scalar: Character sequences": ["sbytes.size", "sbytes[1:].shape"],
    "scalar: Structured scalars": [
        ("rec.a * 2 + rec.b", "rec['a'] * 2 + rec['b']"),
        "rec['c'].imag",
        ("rec.d[1] + rec['d'][2]", "rec['d'][1] + rec['d'][2]"),
    ],
    "scalar.view (bitcast to a same-width dtype)": [
        "np.int64(-1).view(np.uint64)",
        "np.float64(1.5).view(np.int64)",
        "np.float32(-2.0).view(np.uint32)",
        "np.uint16(65535).view(np.int16)",
    ],
    "record member lookup with a constant string": ["rec['a'] + rec['b']"],
    "record member lookup with a string of a global tuple": ["rec[FIELDS[0]] - rec[FIELDS[1]]"],
    "record member lookup with literal_unroll": [
        "s = 0.0\nfor name in literal_unroll(FIELDS):\n    s += rec[name]\nreturn s"
    ],
    # Array access
    "array iteration": [
        "s = 0.0\nfor row in f2:\n    s += row.sum()\nreturn s",
        "t = 0\nfor v in i1:\n    t = t * 3 + v\nreturn t",
    ],
    "basic indexing and slicing": [
        "f2[1, 2:]",
        "f2[::-1, 1]",
        "f3[1, ..., ::2]",
        "f2[-1]",
        "f1[1:5:2]",
        "a = f2.copy()\na[1:, ::2] = 9.0\nreturn a",
    ],
    "None / np.newaxis in an index": ["f1[None, :, np.newaxis]", "f2[:, None, 1]"],
    "fancy indexing: adjacent array indices": ["e5[:, ix, iy, :]"],
    "fancy indexing: separated array indices": ["e5[:, ix, :, iy]"],
    "fancy indexing: multidimensional index arrays": [
        "i1[ix]",
        "f2[ix % 3]",
        "f2[np.array([0, 2]), np.array([1, 3])]",
        "a = f1.copy()\na[np.array([0, 3])] = -1.0\nreturn a",
        "f1[b1.nonzero()[0]]",
        "f1[f1 > 0]",
    ],
    "record field by attribute (get and set)": [
        (
            "arec[0].ival = int(2.5)\narec[0].fval = 2.5\nreturn arec",
            "arec[0]['ival'] = int(2.5)\narec[0]['fval'] = 2.5\nreturn arec",
        ),
        ("recs[2].a + recs[0].b", "recs[2]['a'] + recs[0]['b']"),
    ],
    "flags.contiguous": [
        ("f2.flags.contiguous", "f2.flags.c_contiguous"),
        ("f2.T.flags.contiguous", "f2.T.flags.c_contiguous"),
    ],
    "flags.c_contiguous": ["f2.flags.c_contiguous", "f2[:, ::2].flags.c_contiguous"],
    "flags.f_contiguous": ["f2.T.flags.f_contiguous", "f2.flags.f_contiguous"],
    "flat iteration": ["s = 0.0\nfor v in f2.T.flat:\n    s = s * 0.5 + v\nreturn s"],
    "flat indexing": ["f2.flat[5]", "f2.T.flat[5]", "a = f2.copy()\na.flat[7] = 1.0\nreturn a"],
    "np.array of a nested tuple": [
        "np.array(((1.0, 2.0, x), (3.0, 4.0, 5.0)))",
        "np.array(((1, 2), (3, 4)))",
    ],
    "the @ operator": ["sq @ sq", "sq @ v3", "v3 @ w3", "c2 @ c2"],
    "numpy.random.Generator argument": _gen(["g.random()", "g.normal(0.0, 1.0, 4)"]),
    # Attributes
    "ndarray.dtype": ["f2.dtype", "np.zeros(2, i1.dtype)", "recs.dtype"],
    "ndarray.flags": ["f2.flags.c_contiguous and not f2.T.flags.c_contiguous"],
    "ndarray.flat": ["f2.flat[3]", "np.array([v for v in i2.flat])"],
    "ndarray.itemsize": ["f2.itemsize", "i1.astype(np.int16).itemsize", "recs.itemsize"],
    "ndarray.nbytes": ["f2.nbytes", "f2[:, ::2].nbytes"],
    "ndarray.ndim": ["f3.ndim"],
    "ndarray.shape": ["f3.shape", "f3[0].shape"],
    "ndarray.size": ["f3.size"],
    "ndarray.strides": ["f3.strides", "f2.T.strides", "f2[:, ::2].strides"],
    "ndarray.T": ["f2.T", "f3.T", "f1.T"],
    "ndarray.real": ["c1.real", "f2.real", "a = c1.copy()\na.real[1] = 5.0\nreturn a"],
    "ndarray.imag": ["c1.imag", "f2.imag", "i1.imag"],
    # Calculation
    "ndarray.all": ["f2.all()", "b1.all()", "np.all(b1[::2])"],
    "ndarray.any": ["f2.any()", "np.any(b1 & False)"],
    "ndarray.clip": ["f2.clip(-1.0, 2.0)", "np.clip(i1, 2, 5)"],
    "ndarray.conj": ["c1.conj()", "np.conj(c2)"],
    "ndarray.conjugate": ["c1.conjugate()", "np.conjugate(f1)"],
    "ndarray.cumprod": ["f2.cumprod()", "np.cumprod(i1)"],
    "ndarray.cumsum": ["f2.cumsum()", "np.cumsum(i1)"],
    "ndarray.max": ["f2.max()", "np.max(i1)", "c1.max()"],
    "ndarray.mean": ["f2.mean()", "np.mean(i1)", "c1.mean()"],
    "ndarray.min": ["f2.min()", "np.min(i1)"],
    "ndarray.nonzero": ["z1.nonzero()", "np.nonzero(i2 % 3)"],
    "ndarray.prod": ["f2.prod()", "np.prod(i1)"],
    "ndarray.std": ["f2.std()", "np.std(i1)", "c1.std()"],
    "ndarray.take": ["f2.take(np.array([0, 5, 11]))", "np.take(i1, ix)"],
    "ndarray.var": ["f2.var()", "np.var(i1)", "c1.var()"],
    # Other methods
    "ndarray.argmax": ["f2.argmax()", "f2.argmax(axis=1)", "np.argmax(i2, axis=0)"],
    "ndarray.argmin": ["f2.argmin()", "f2.argmin(axis=0)", "np.argmin(i1)"],
    "numpy.argpartition": [
        "u1[np.argpartition(u1, 3)[3]]",
        "np.sort(u1[np.argpartition(u1, 3)[:3]])",
    ],
    "ndarray.argsort": [
        "u1.argsort()",
        "i1.argsort(kind='mergesort')",
        "u1.argsort(kind='quicksort')",
        "np.argsort(i1, kind='mergesort')",
    ],
    "ndarray.astype": ["f2.astype(np.int32)", "i1.astype(np.complex128)", "f1.astype('f4')"],
    "ndarray.copy": ["f2.T.copy()", "a = f1.copy()\na[0] = 9.0\nreturn a, f1"],
    "ndarray.dot": ["f1.dot(f1)", "sq.dot(v3)", "sq.dot(spd)"],
    "ndarray.flatten": ["f2.T.flatten()", "i2.flatten()"],
    "ndarray.item": ["f1[2:3].item()", "i2[1:2, 2:3].item()", "np.array(3.5).item()"],
    "ndarray.itemset": [
        ("a = f1[1:2].copy()\na.itemset(4.5)\nreturn a", "a = f1[1:2].copy()\na[0] = 4.5\nreturn a")
    ],
    "ndarray.ptp": [("f2.ptp()", "np.ptp(f2)"), ("i1.ptp()", "np.ptp(i1)")],
    "ndarray.ravel": ["f2.T.ravel()", "i2.ravel()"],
    "ndarray.repeat": ["i1.repeat(2)", "f2.repeat(3)", "np.repeat(f1, 2)"],
    "ndarray.reshape": ["f2.reshape((4, 3))", "i1.reshape((2, -1))", "f2.reshape(6, 2)"],
    "ndarray.sort": ["a = f2.copy()\na.sort()\nreturn a", "a = i1.copy()\na.sort()\nreturn a"],
    "ndarray.sum": [
        "f2.sum()",
        "f2.sum(axis=1)",
        "i2.sum(axis=0, dtype=np.float32)",
        "i1.sum(dtype=np.int8)",
        "td.sum()",
        "np.sum(f3, axis=2)",
    ],
    "ndarray.tobytes": ["f1.tobytes()", "f2.T.tobytes()"],
    "ndarray.transpose": ["f3.transpose()", "f3.transpose((1, 0, 2))", "f2.transpose(1, 0)"],
    "ndarray.view": ["f1.view(np.int64)", "i2.view(np.uint64)"],
    "ndarray.__contains__": ["3.0 in f1", "7.0 in f2", "4 in i2"],
    # Linear algebra
    "numpy.dot": [
        "np.dot(f1, f1)",
        "np.dot(sq, v3)",
        "np.dot(sq, spd)",
        "np.dot(c1, c1)",
        "np.dot(c2, c2.T)",
        "np.dot(c2, c1[:2])",
        "np.dot(c1[1:3], c2)",
    ],
    "numpy.kron": ["np.kron(sq, spd)", "np.kron(v3, w3)", "np.kron(sq.T, v3)"],
    "numpy.outer": ["np.outer(v3, w3)", "np.outer(c1, f1)"],
    "numpy.trace": ["np.trace(sq)", "np.trace(c2)", "np.trace(i2)"],
    "numpy.vdot": ["np.vdot(v3, w3)", "np.vdot(c1, c1)"],
    "numpy.linalg.cholesky": [{"probe": "np.linalg.cholesky(spd)", "rtol": LINALG}],
    "numpy.linalg.cond": [
        {"probe": "np.linalg.cond(sq)", "rtol": LINALG},
        {"probe": "np.linalg.cond(sq, 1)", "rtol": LINALG},
        {"probe": "np.linalg.cond(sq, np.inf)", "rtol": LINALG},
    ],
    "numpy.linalg.det": [
        {"probe": "np.linalg.det(sq)", "rtol": LINALG},
        {"probe": "np.linalg.det(c2)", "rtol": LINALG},
    ],
    "numpy.linalg.eig": [{"probe": "np.linalg.eig(spd)", "rtol": LINALG}],
    "numpy.linalg.eigh": [{"probe": "np.linalg.eigh(spd)", "rtol": LINALG}],
    "numpy.linalg.eigvals": [
        {"probe": "np.linalg.eigvals(spd)", "rtol": LINALG},
        {"probe": "np.linalg.eigvals(c2)", "rtol": LINALG},
    ],
    "numpy.linalg.eigvalsh": [{"probe": "np.linalg.eigvalsh(spd)", "rtol": LINALG}],
    "numpy.linalg.inv": [
        {"probe": "np.linalg.inv(sq)", "rtol": LINALG},
        {"probe": "np.linalg.inv(c2)", "rtol": LINALG},
    ],
    "numpy.linalg.lstsq": [{"probe": "np.linalg.lstsq(tall, f1[:4])", "rtol": LINALG}],
    "numpy.linalg.matrix_power": [
        {"probe": "np.linalg.matrix_power(sq, 3)", "rtol": LINALG},
        {"probe": "np.linalg.matrix_power(sq, -2)", "rtol": LINALG},
        "np.linalg.matrix_power(i2[:, :3][:3], 0)",
    ],
    "numpy.linalg.matrix_rank": ["np.linalg.matrix_rank(sq)", "np.linalg.matrix_rank(tall)"],
    "numpy.linalg.norm": [
        {"probe": "np.linalg.norm(f1)", "rtol": LINALG},
        {"probe": "np.linalg.norm(f2)", "rtol": LINALG},
        {"probe": "np.linalg.norm(f1, 1)", "rtol": LINALG},
        {"probe": "np.linalg.norm(sq, np.inf)", "rtol": LINALG},
        {"probe": "np.linalg.norm(sq, 2)", "rtol": LINALG},
        {"probe": "np.linalg.norm(c1)", "rtol": LINALG},
    ],
    "numpy.linalg.pinv": [{"probe": "np.linalg.pinv(tall)", "rtol": LINALG}],
    "numpy.linalg.qr": [{"probe": "np.linalg.qr(tall)", "rtol": LINALG}],
    "numpy.linalg.slogdet": [
        {"probe": "np.linalg.slogdet(sq)", "rtol": LINALG},
        {"probe": "np.linalg.slogdet(c2)", "rtol": LINALG},
    ],
    "numpy.linalg.solve": [
        {"probe": "np.linalg.solve(sq, v3)", "rtol": LINALG},
        {"probe": "np.linalg.solve(sq, spd)", "rtol": LINALG},
    ],
    "numpy.linalg.svd": [
        {"probe": "np.linalg.svd(tall)", "rtol": LINALG},
        {"probe": "np.linalg.svd(tall, False)", "rtol": LINALG},
    ],
    # Reductions
    "numpy.diff": ["np.diff(f1)", "np.diff(i2, 2)", "np.diff(f2)"],
    "numpy.amin": ["np.amin(f2)", "np.amin(i1)"],
    "numpy.amax": ["np.amax(f2)", "np.amax(i1)"],
    "numpy.median": ["np.median(f1)", "np.median(i2)", "np.median(f1[:5])"],
    "numpy.nancumprod": ["np.nancumprod(n1)", "np.nancumprod(i1)"],
    "numpy.nancumsum": ["np.nancumsum(n1)", "np.nancumsum(n2)"],
    "numpy.nanmax": ["np.nanmax(n1)", "np.nanmax(n2)"],
    "numpy.nanmean": ["np.nanmean(n1)", "np.nanmean(n2)"],
    "numpy.nanmedian": ["np.nanmedian(n1)", "np.nanmedian(n2)"],
    "numpy.nanmin": ["np.nanmin(n1)", "np.nanmin(i1)"],
    "numpy.nanpercentile": ["np.nanpercentile(n1, 30.0)", "np.nanpercentile(n2, f1[2:4] * 10)"],
    "numpy.nanquantile": ["np.nanquantile(n1, 0.3)", "np.nanquantile(n2, np.array([0.1, 0.9]))"],
    "numpy.nanprod": ["np.nanprod(n1)", "np.nanprod(i1)"],
    "numpy.nanstd": ["np.nanstd(n1)", "np.nanstd(n2, ddof=1)"],
    "numpy.nansum": ["np.nansum(n1)", "np.nansum(n2)"],
    "numpy.nanvar": ["np.nanvar(n1)", "np.nanvar(n1, ddof=1)"],
    "numpy.percentile": ["np.percentile(f1, 30.0)", "np.percentile(i2, np.array([10.0, 75.0]))"],
    "numpy.quantile": ["np.quantile(f1, 0.3)", "np.quantile(i2, np.array([0.1, 0.75]))"],
    "numpy.average": ["np.average(f2)", "np.average(f1, weights=np.abs(f1))", "np.average(i1)"],
    # Polynomials
    "numpy.polynomial.polynomial.Polynomial": [
        "Polynomial(coef)",
        "Polynomial(coef, np.array([0.0, 2.0]), np.array([-1.0, 1.0]))",
        "p = Polynomial(coef)\nreturn p.coef, p.domain, p.window",
    ],
    "numpy.polynomial.polynomial.polyadd": ["P.polyadd(coef, f1[:2])", "P.polyadd(coef, 2.0)"],
    "numpy.polynomial.polynomial.polydiv": ["P.polydiv(f1, coef)", "P.polydiv(coef, 2.0)"],
    "numpy.polynomial.polynomial.polyint": ["P.polyint(coef)", "P.polyint(coef, 2)"],
    "numpy.polynomial.polynomial.polymul": ["P.polymul(coef, f1[:2])", "P.polymul(coef, coef)"],
    "numpy.polynomial.polynomial.polysub": ["P.polysub(coef, f1[:4])", "P.polysub(coef, 2.0)"],
    "numpy.polynomial.polynomial.polyval": [
        "P.polyval(x, coef)",
        "P.polyval(f2, coef)",
        "P.polyval(f1, coef2, tensor=True)",
        "P.polyval(f1[:2], coef2, tensor=False)",
        # tensor known only at run time: where it cannot change the result's dimensions (a
        # 1-D c, a number x); with both an array x and a 2-D c the page asks for a constant.
        "P.polyval(f1, coef, k > 1)",
        "P.polyval(x, coef2, tensor=k < 1)",
        "P.polyval(f2, coef, k < 1)",
    ],
    "numpy.polynomial.polyutils.as_series": [
        "pu.as_series(coef)",
        "pu.as_series(coef2)",
        "pu.as_series((coef, f1))",
    ],
    "numpy.polynomial.polyutils.trimseq": [
        "pu.trimseq(z1[:3])",
        "pu.trimseq(np.array([1.0, 0, 0]))",
    ],
    # Other functions
    "numpy.allclose": ["np.allclose(f1, f1 + 1e-9)", "np.allclose(f1, f1 * 1.1)"],
    "numpy.append": ["np.append(f1, i1)", "np.append(f2, f2, axis=0)", "np.append(f1, 2.5)"],
    "numpy.arange": ["np.arange(5)", "np.arange(1.0, 3.0, 0.25)", "np.arange(10, 2, -3)"],
    "numpy.argsort": ["np.argsort(u1)", "np.argsort(i1, kind='mergesort')"],
    "numpy.argwhere": ["np.argwhere(i2 % 3 == 0)", "np.argwhere(z1)"],
    "numpy.around": ["np.around(f1 * 3.3, 1)", "np.around(f2)", "np.around(i1, -1)"],
    "numpy.array": ["np.array(f2)", "np.array([1.0, x, 3.0])", "np.array(i1, np.float32)"],
    "numpy.array_equal": ["np.array_equal(f1, f1.copy())", "np.array_equal(i2, i2.T)"],
    "numpy.array_split": ["np.array_split(i1, 3)", "np.array_split(f2, 2, axis=1)"],
    "numpy.asarray": ["np.asarray(f1)", "np.asarray((1, 2, 3))", "np.asarray(i1, np.float64)"],
    "numpy.asarray_chkfinite": ["np.asarray_chkfinite(f1)", "np.asarray_chkfinite(n1)"],
    "numpy.ascontiguousarray": ["np.ascontiguousarray(f2.T)", "np.ascontiguousarray(x)"],
    "numpy.asfortranarray": ["np.asfortranarray(f2)", "np.asfortranarray(f2).flags.f_contiguous"],
    "numpy.atleast_1d": [
        "np.atleast_1d(f2)",
        "np.atleast_1d(np.asarray(x))",
        "np.atleast_1d(f1, f2)",
    ],
    "numpy.atleast_2d": [
        "np.atleast_2d(f1)",
        "np.atleast_2d(np.asarray(x))",
        "np.atleast_2d(f1, f2)",
    ],
    "numpy.atleast_3d": ["np.atleast_3d(f1)", "np.atleast_3d(f2)"],
    "numpy.bartlett": ["np.bartlett(n)", "np.bartlett(1)"],
    "numpy.bincount": ["np.bincount(i1)", "np.bincount(i1, f1.repeat(2)[:10])"],
    "numpy.blackman": ["np.blackman(n)"],
    "numpy.broadcast_to": ["np.broadcast_to(f1, (2, 6))", "np.broadcast_to(x, (3,))"],
    "numpy.broadcast_arrays": ["np.broadcast_arrays(f1, f2[:, :1].repeat(2)[:3].reshape(3, 1))"],
    "numpy.broadcast_shapes": [
        "np.broadcast_shapes((3, 1), (4,))",
        "np.broadcast_shapes((2, 1, 5))",
    ],
    "numpy.column_stack": ["np.column_stack((f1, f1))", "np.column_stack((f2, i2))"],
    "numpy.concatenate": ["np.concatenate((f1, f1))", "np.concatenate((f2, i2), axis=1)"],
    "numpy.convolve": ["np.convolve(f1, coef)", "np.convolve(f1, coef, 'same')"],
    "numpy.copy": ["np.copy(f2.T)"],
    "numpy.corrcoef": [{"probe": "np.corrcoef(f2)", "rtol": LINALG}, "np.corrcoef(f1, f1[::-1])"],
    "numpy.correlate": ["np.correlate(f1, coef)", "np.correlate(f1, coef, 'full')"],
    "numpy.count_nonzero": ["np.count_nonzero(z1)", "np.count_nonzero(i2 % 2, axis=1)"],
    "numpy.cov": [{"probe": "np.cov(f2)", "rtol": LINALG}, "np.cov(f1, f1[::-1], True, False, 1)"],
    "numpy.cross": ["np.cross(v3, w3)", "np.cross(f2[:, :3], v3)"],
    "numpy.delete": ["np.delete(f1, 2)", "np.delete(f1, np.array([0, 3]))"],
    "numpy.diag": ["np.diag(f2)", "np.diag(f1, 1)", "np.diag(sq, -1)"],
    "numpy.diagflat": ["np.diagflat(v3)", "np.diagflat(i2[:1], -1)"],
    "numpy.digitize": ["np.digitize(f1, np.array([-1.0, 0.0, 2.0]))", "np.digitize(f1, v3[::-1])"],
    "numpy.dsplit": ["np.dsplit(f3, 2)"],
    "numpy.dstack": ["np.dstack((f1, f1))", "np.dstack((f2, f2))"],
    "numpy.dtype": ["np.zeros(2, np.dtype('int16'))", "np.dtype(np.float32)"],
    "numpy.ediff1d": ["np.ediff1d(f2)", "np.ediff1d(i1)"],
    "numpy.empty": ["np.empty(0).shape", "np.empty((2, 3), np.int8).shape"],
    "numpy.empty_like": ["np.empty_like(f2).shape", "np.empty_like(f2, np.int32).dtype"],
    "numpy.expand_dims": ["np.expand_dims(f1, 0)", "np.expand_dims(f2, 2)"],
    "numpy.extract": ["np.extract(f1 > 0, f1)", "np.extract(i2 % 2, i2)"],
    "numpy.eye": ["np.eye(3)", "np.eye(3, 4, 1)", "np.eye(2, dtype=np.int32)"],
    "numpy.fill_diagonal": ["a = f2.copy()\nnp.fill_diagonal(a, 7.0)\nreturn a"],
    "numpy.flatten": [("f2.flatten()", "f2.flatten()")],
    "numpy.flatnonzero": ["np.flatnonzero(z1)", "np.flatnonzero(i2 % 3)"],
    "numpy.flip": ["np.flip(f1)", "np.flip(f2)"],
    "numpy.fliplr": ["np.fliplr(f2)"],
    "numpy.flipud": ["np.flipud(f2)"],
    "numpy.frombuffer": [
        "np.frombuffer(f1.tobytes())",
        "np.frombuffer(i1.tobytes(), np.int64)",
    ],
    "numpy.full": ["np.full(3, x)", "np.full((2, 2), 5, np.int8)"],
    "numpy.full_like": ["np.full_like(f2, 0.5)", "np.full_like(i1, 3.7)"],
    "numpy.geomspace": ["np.geomspace(1.0, 1000.0, 4)", "np.geomspace(2, 32, 5)"],
    "numpy.hamming": ["np.hamming(n)"],
    "numpy.hanning": ["np.hanning(n)"],
    "numpy.histogram": [
        "np.histogram(f1)",
        "np.histogram(f1, 3)",
        "np.histogram(f1, 4, (-1.0, 2.0))",
    ],
    "numpy.hsplit": ["np.hsplit(f2, 2)", "np.hsplit(f1, 3)"],
    "numpy.hstack": ["np.hstack((f1, f1))", "np.hstack((f2, i2))"],
    "numpy.identity": ["np.identity(3)", "np.identity(2, np.int32)"],
    "numpy.indices": ["np.indices((2, 3))"],
    "numpy.insert": ["np.insert(f1, 2, 9.0)", "np.insert(f2, np.array([1, 3]), 0.0)"],
    "numpy.isclose": ["np.isclose(f1, f1 + 1e-9)", "np.isclose(n1, n1)"],
    "numpy.kaiser": ["np.kaiser(n, 14.0)"],
    "numpy.iscomplex": ["np.iscomplex(c1 * 0 + 1)", "np.iscomplex(c1)"],
    "numpy.iscomplexobj": ["np.iscomplexobj(c1)", "np.iscomplexobj(f1)"],
    "numpy.isin": ["np.isin(i1, u1)", "np.isin(f2, f1, invert=True)"],
    "numpy.isneginf": ["np.isneginf(np.log(f1))"],
    "numpy.isposinf": ["np.isposinf(1 / (f1 * 0))"],
    "numpy.isreal": ["np.isreal(c1)", "np.isreal(f1)"],
    "numpy.isrealobj": ["np.isrealobj(c1)", "np.isrealobj(f1)"],
    "numpy.isscalar": ["np.isscalar(x)", "np.isscalar(f1)"],
    "numpy.interp": ["np.interp(f1, v3[::-1] * 0 + np.array([-1.0, 0.0, 2.0]), w3)"],
    "numpy.intersect1d": ["np.intersect1d(i1, u1)", "np.intersect1d(f1, f1[::2], True)"],
    "numpy.linspace": ["np.linspace(0.0, 1.0, 7)", "np.linspace(2, 3, 4)"],
    "numpy.logspace": ["np.logspace(0.0, 2.0, 5)", "np.logspace(1, 3, 3)"],
    "numpy.moveaxis": ["np.moveaxis(f3, 0, -1)", "np.moveaxis(f3, 1, 0)"],
    "numpy.nan_to_num": ["np.nan_to_num(n1)", "np.nan_to_num(np.log(f1))"],
    "numpy.ndenumerate": ["[(i, v) for i, v in np.ndenumerate(f2)]"],
    "numpy.ndindex": ["[i for i in np.ndindex(2, 3)]", "[i for i in np.ndindex((2, 2))]"],
    "numpy.nditer": ["s = 0.0\nfor v in np.nditer(f2):\n    s = s * 0.5 + v.item()\nreturn s"],
    "numpy.ones": ["np.ones(3)", "np.ones((2, 3), np.int16)"],
    "numpy.ones_like": ["np.ones_like(f2)", "np.ones_like(i1, np.float32)"],
    "numpy.partition": ["np.partition(u1, 3)[3]", "np.sort(np.partition(u1, 2)[:2])"],
    "numpy.ptp": ["np.ptp(f2)", "np.ptp(i1)"],
    "numpy.ravel": ["np.ravel(f2.T)", "np.ravel(i1)"],
    "numpy.repeat": ["np.repeat(f1, 2)", "np.repeat(i2, 3)"],
    "numpy.reshape": ["np.reshape(f2, (4, 3))", "np.reshape(i1, (5, -1))"],
    "numpy.resize": ["np.resize(f1, (3, 3))", "np.resize(i2, 5)"],
    "numpy.roll": ["np.roll(f1, 2)", "np.roll(f2, -1)"],
    "numpy.roots": [{"probe": "np.roots(coef)", "rtol": LINALG}],
    "numpy.rot90": ["np.rot90(f2)", "np.rot90(f2, 3)"],
    "numpy.row_stack": ["np.row_stack((f1, f1))", "np.row_stack((f2, i2))"],
    "numpy.searchsorted": [
        "np.searchsorted(np.sort(f1), x)",
        "np.searchsorted(np.sort(f1), f1, 'right')",
    ],
    "numpy.select": [
        "np.select([f1 > 1, f1 < 0], [f1, -f1])",
        "np.select((f1 > 1, f1 < 0), (f1, -f1), 9.0)",
    ],
    "numpy.setxor1d": ["np.setxor1d(i1, u1)"],
    "numpy.setdiff1d": ["np.setdiff1d(i1, u1)"],
    "numpy.shape": ["np.shape(f3)", "np.shape(x)"],
    "numpy.sinc": ["np.sinc(f1)", "np.sinc(x)"],
    "numpy.sort": ["np.sort(f1)", "np.sort(f2[::-1])", "np.sort(c1)"],
    "numpy.split": ["np.split(i1, 2)", "np.split(f2, np.array([1, 3]), axis=1)"],
    "numpy.stack": ["np.stack((f1, f1))", "np.stack((f2, f2), 2)"],
    "numpy.swapaxes": ["np.swapaxes(f3, 0, 2)"],
    "numpy.take": ["np.take(f2, np.array([1, 7]))", "np.take(i1, 4)"],
    "numpy.take_along_axis": [
        "np.take_along_axis(f2, np.argsort(f2, axis=1), 1)",
        "np.take_along_axis(f1, np.argsort(f1), 0)",
    ],
    "numpy.transpose": ["np.transpose(f3)", "np.transpose(f3, (2, 0, 1))"],
    "numpy.trapezoid": ["np.trapezoid(f1)", "np.trapezoid(f1, dx=0.5)", "np.trapezoid(f1, f1 * 2)"],
    "numpy.tri": ["np.tri(3)", "np.tri(3, 4, 1)"],
    "numpy.tril": ["np.tril(f2)", "np.tril(f2, -1)"],
    "numpy.tril_indices": ["np.tril_indices(3)", "np.tril_indices(3, 1, 4)"],
    "numpy.tril_indices_from": ["np.tril_indices_from(f2)", "np.tril_indices_from(f2, 1)"],
    "numpy.trim_zeros": ["np.trim_zeros(z1)", "np.trim_zeros(z1, 'f')"],
    "numpy.triu": ["np.triu(f2)", "np.triu(f2, 1)"],
    "numpy.triu_indices": ["np.triu_indices(3)", "np.triu_indices(3, 1, 4)"],
    "numpy.triu_indices_from": ["np.triu_indices_from(f2)", "np.triu_indices_from(f2, -1)"],
    "numpy.union1d": ["np.union1d(i1, u1)"],
    "numpy.unique": ["np.unique(i1)", "np.unique(f2)"],
    "numpy.unwrap": ["np.unwrap(f1 * 3)", "np.unwrap(f2 * 3)"],
    "numpy.vander": ["np.vander(v3)", "np.vander(v3, 4, True)"],
    "numpy.vsplit": ["np.vsplit(f2, 3)"],
    "numpy.vstack": ["np.vstack((f1, f1))", "np.vstack((f2, i2))"],
    "numpy.where": ["np.where(f1 > 0, f1, 0.0)", "np.where(z1)", "np.where(x > 0, 1, 2)"],
    "numpy.zeros": ["np.zeros(3)", "np.zeros((2, 3), np.int16)"],
    "numpy.zeros_like": ["np.zeros_like(f2)", "np.zeros_like(i1, np.float32)"],
    "numpy.iinfo": [
        "np.iinfo(np.int16).max",
        "np.iinfo(np.uint8).min",
        "np.iinfo(np.int32).bits",
        "np.iinfo(i1.dtype).max",
    ],
    "numpy.finfo": [
        "np.finfo(np.float32).eps",
        "np.finfo(np.float64).max",
        "np.finfo(np.float64).tiny",
        "np.finfo(np.float32).resolution",
        "np.finfo(np.float64).precision",
        "np.finfo(f1.dtype).bits",
    ],
    # random: legacy
    "numpy.random.seed": _random(["np.random.seed(k)\nreturn np.random.random()"]),
    "numpy.random.rand": _random(["np.random.rand()", "np.random.rand(3)", "np.random.rand(2, 2)"]),
    "numpy.random.randint": _random(["np.random.randint(10)", "np.random.randint(3, 9, 5)"]),
    "numpy.random.randn": _random(["np.random.randn()", "np.random.randn(2, 3)"]),
    "numpy.random.random": _random(["np.random.random()", "np.random.random(4)"]),
    "numpy.random.random_sample": _random(["np.random.random_sample((2, 2))"]),
    "numpy.random.ranf": _random([("np.random.ranf(3)", "np.random.random_sample(3)")]),
    "numpy.random.sample": _random([("np.random.sample(3)", "np.random.random_sample(3)")]),
    "numpy.random.choice": _random(
        ["np.random.choice(10, 3)", "np.random.choice(f1, 4, False)", "np.random.choice(i1)"]
    ),
    "numpy.random.permutation": _random(["np.random.permutation(10)", "np.random.permutation(f1)"]),
    "numpy.random.shuffle": _random(["a = i1.copy()\nnp.random.shuffle(a)\nreturn a"]),
    "numpy.random.beta": _random(["np.random.beta(2.0, 3.0)", "np.random.beta(0.5, 0.5, 4)"]),
    "numpy.random.binomial": _random(
        ["np.random.binomial(10, 0.3)", "np.random.binomial(50, 0.7, 4)"]
    ),
    "numpy.random.chisquare": _random(["np.random.chisquare(3.0)", "np.random.chisquare(2.5, 3)"]),
    "numpy.random.dirichlet": _random(
        ["np.random.dirichlet(v3 * v3 + 0.5)", "np.random.dirichlet((1.0, 2.0), 3)"]
    ),
    "numpy.random.exponential": _random(
        ["np.random.exponential()", "np.random.exponential(2.0, 3)"]
    ),
    "numpy.random.f": _random(["np.random.f(3.0, 4.0)", "np.random.f(5.0, 2.0, 3)"]),
    "numpy.random.gamma": _random(["np.random.gamma(2.0)", "np.random.gamma(0.5, 2.0, 3)"]),
    "numpy.random.geometric": _random(["np.random.geometric(0.3)", "np.random.geometric(0.05, 3)"]),
    "numpy.random.gumbel": _random(["np.random.gumbel()", "np.random.gumbel(1.0, 2.0, 3)"]),
    "numpy.random.hypergeometric": _random(
        ["np.random.hypergeometric(10, 5, 6)", "np.random.hypergeometric(100, 200, 30, 3)"]
    ),
    "numpy.random.laplace": _random(["np.random.laplace()", "np.random.laplace(1.0, 2.0, 3)"]),
    "numpy.random.logistic": _random(["np.random.logistic()", "np.random.logistic(1.0, 2.0, 3)"]),
    "numpy.random.lognormal": _random(
        ["np.random.lognormal()", "np.random.lognormal(1.0, 0.5, 3)"]
    ),
    "numpy.random.logseries": _random(["np.random.logseries(0.5)", "np.random.logseries(0.9, 3)"]),
    "numpy.random.multinomial": _random(
        [
            "np.random.multinomial(10, np.array([0.2, 0.3, 0.5]))",
            "np.random.multinomial(5, [0.5, 0.5], 2)",
        ]
    ),
    "numpy.random.negative_binomial": _random(
        ["np.random.negative_binomial(5, 0.3)", "np.random.negative_binomial(3, 0.6, 3)"]
    ),
    "numpy.random.noncentral_chisquare": _random(
        ["np.random.noncentral_chisquare(3.0, 2.0)", "np.random.noncentral_chisquare(2.0, 0.5, 3)"]
    ),
    "numpy.random.normal": _random(["np.random.normal()", "np.random.normal(1.0, 2.0, 3)"]),
    "numpy.random.pareto": _random(["np.random.pareto(3.0)", "np.random.pareto(1.5, 3)"]),
    "numpy.random.poisson": _random(["np.random.poisson()", "np.random.poisson(20.0, 3)"]),
    "numpy.random.power": _random(["np.random.power(3.0)", "np.random.power(0.5, 3)"]),
    "numpy.random.rayleigh": _random(["np.random.rayleigh()", "np.random.rayleigh(2.0, 3)"]),
    "numpy.random.standard_cauchy": _random(
        ["np.random.standard_cauchy()", "np.random.standard_cauchy(3)"]
    ),
    "numpy.random.standard_exponential": _random(
        ["np.random.standard_exponential()", "np.random.standard_exponential(3)"]
    ),
    "numpy.random.standard_gamma": _random(
        ["np.random.standard_gamma(2.5)", "np.random.standard_gamma(0.5, 3)"]
    ),
    "numpy.random.standard_normal": _random(
        ["np.random.standard_normal()", "np.random.standard_normal(3)"]
    ),
    "numpy.random.standard_t": _random(
        ["np.random.standard_t(5.0)", "np.random.standard_t(2.0, 3)"]
    ),
    "numpy.random.triangular": _random(
        ["np.random.triangular(0.0, 1.0, 3.0)", "np.random.triangular(-1.0, 0.0, 1.0, 3)"]
    ),
    "numpy.random.uniform": _random(["np.random.uniform()", "np.random.uniform(2.0, 5.0, 3)"]),
    "numpy.random.vonmises": _random(
        ["np.random.vonmises(0.5, 2.0)", "np.random.vonmises(1.0, 0.1, 3)"]
    ),
    "numpy.random.wald": _random(["np.random.wald(1.0, 2.0)", "np.random.wald(2.0, 0.5, 3)"]),
    "numpy.random.weibull": _random(["np.random.weibull(2.0)", "np.random.weibull(0.5, 3)"]),
    "numpy.random.zipf": _random(["np.random.zipf(2.0)", "np.random.zipf(1.5, 3)"]),
    # random: Generator methods
    "Generator.beta": _gen(["g.beta(2.0, 3.0)", "g.beta(0.5, 0.5, 4)"]),
    "Generator.chisquare": _gen(["g.chisquare(3.0)", "g.chisquare(2.5, 3)"]),
    "Generator.exponential": _gen(["g.exponential()", "g.exponential(2.0, 3)"]),
    "Generator.f": _gen(["g.f(3.0, 4.0)", "g.f(5.0, 2.0, 3)"]),
    "Generator.gamma": _gen(["g.gamma(2.0)", "g.gamma(0.5, 2.0, 3)"]),
    "Generator.geometric": _gen(["g.geometric(0.3)", "g.geometric(0.05, 3)"]),
    "Generator.integers": _gen(
        ["g.integers(0, 10)", "g.integers(3, 9, 5)", "g.integers(-5, 5, 4, np.int8)"]
    ),
    "Generator.laplace": _gen(["g.laplace()", "g.laplace(1.0, 2.0, 3)"]),
    "Generator.logistic": _gen(["g.logistic()", "g.logistic(1.0, 2.0, 3)"]),
    "Generator.lognormal": _gen(["g.lognormal()", "g.lognormal(1.0, 0.5, 3)"]),
    "Generator.logseries": _gen(["g.logseries(0.5)", "g.logseries(0.9, 3)"]),
    "Generator.negative_binomial": _gen(
        ["g.negative_binomial(5, 0.3)", "g.negative_binomial(3.5, 0.6, 3)"]
    ),
    "Generator.noncentral_chisquare": _gen(
        ["g.noncentral_chisquare(3.0, 2.0)", "g.noncentral_chisquare(2.0, 0.5, 3)"]
    ),
    "Generator.noncentral_f": _gen(
        ["g.noncentral_f(3.0, 4.0, 1.5)", "g.noncentral_f(5.0, 2.0, 0.5, 3)"]
    ),
    "Generator.normal": _gen(["g.normal()", "g.normal(1.0, 2.0, 3)"]),
    "Generator.pareto": _gen(["g.pareto(3.0)", "g.pareto(1.5, 3)"]),
    "Generator.permutation": _gen(["g.permutation(10)", "g.permutation(f1)"]),
    "Generator.poisson": _gen(["g.poisson()", "g.poisson(20.0, 3)"]),
    "Generator.power": _gen(["g.power(3.0)", "g.power(0.5, 3)"]),
    "Generator.random": _gen(["g.random()", "g.random(3)", "g.random((2, 2), np.float32)"]),
    "Generator.rayleigh": _gen(["g.rayleigh()", "g.rayleigh(2.0, 3)"]),
    "Generator.shuffle": _gen(["a = i1.copy()\ng.shuffle(a)\nreturn a"]),
    "Generator.standard_cauchy": _gen(["g.standard_cauchy()", "g.standard_cauchy(3)"]),
    "Generator.standard_exponential": _gen(
        ["g.standard_exponential()", "g.standard_exponential(3)"]
    ),
    "Generator.standard_gamma": _gen(["g.standard_gamma(2.5)", "g.standard_gamma(0.5, 3)"]),
    "Generator.standard_normal": _gen(["g.standard_normal()", "g.standard_normal(3)"]),
    "Generator.standard_t": _gen(["g.standard_t(5.0)", "g.standard_t(2.0, 3)"]),
    "Generator.triangular": _gen(
        ["g.triangular(0.0, 1.0, 3.0)", "g.triangular(-1.0, 0.0, 1.0, 3)"]
    ),
    "Generator.uniform": _gen(["g.uniform()", "g.uniform(2.0, 5.0, 3)"]),
    "Generator.wald": _gen(["g.wald(1.0, 2.0)", "g.wald(2.0, 0.5, 3)"]),
    "Generator.weibull": _gen(["g.weibull(2.0)", "g.weibull(0.5, 3)"]),
    "Generator.zipf": _gen(["g.zipf(2.0)", "g.zipf(1.5, 3)"]),
    # stride_tricks
    "numpy.lib.stride_tricks.as_strided": [
        "as_strided(f1, shape=(3, 2), strides=(8, 8))",
        "as_strided(f2, (2, 2), (32, 8))",
    ],
    "numpy.lib.stride_tricks.sliding_window_view": [
        "sliding_window_view(f1, 3)",
        "sliding_window_view(f2, (2, 2))",
        "sliding_window_view(f2, 2, axis=0)",
    ],
}

# Scalar constructors: a number and an array (the page: "both with a numeric input ... or a
# sequence").
for _name in [
    "bool_",
    "complex64",
    "complex128",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "intc",
    "intp",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
]:
    # Unsigned classes get non-negative floats: NumPy's cast of a negative float to an
    # unsigned integer is the C conversion's undefined behaviour.
    floats = "np.abs(f1)" if _name.startswith("u") else "f1"
    PROBES["numpy." + _name] = [f"np.{_name}(x * 10)", f"np.{_name}(i1)", f"np.{_name}({floats})"]


# Inputs of ufunc probes, per NumPy type character.
_UFUNC_INPUTS = {
    "?": ("b1", "b1[::-1]"),
    "l": ("i1[:5]", "u1[:5] % 4 + 1"),
    "d": ("f1", "f1[::-1] + 0.5"),
    "D": ("c1", "c1[::-1]"),
}
_ALIASES = {"divide": "true_divide", "abs": "absolute", "mod": "remainder", "conj": "conjugate"}


def ufunc_probes(name: str) -> list:
    """One probe per input kind NumPy has a loop for (bool, int64, float64, complex128), plus a
    scalar call, for the ufunc ``np.<name>``."""
    ufunc = getattr(np, name, None)
    if ufunc is None:
        return []
    if name == "isnat":
        return ["np.isnat(dt)", "np.isnat(td)", "np.isnat(dt[2])"]
    loops = {signature.split("->")[0] for signature in ufunc.types}
    probes = []
    for char, (first, second) in _UFUNC_INPUTS.items():
        if char * ufunc.nin not in loops:
            continue
        arguments = [first, second][: ufunc.nin]
        probes.append(f"np.{name}({', '.join(arguments)})")
    if "d" * ufunc.nin in loops:
        probes.append(f"np.{name}({', '.join(['x'] * ufunc.nin)})")
    if ufunc.nin == 2 and "dd" in loops:
        probes.append(f"np.{name}(f2, f1[:4])")  # broadcasting
    if name == "ldexp":
        probes = ["np.ldexp(f1, i1[:6])", "np.ldexp(x, 3)"]
    return probes


# More probes per entry: other dtypes, empty arrays, NaN, axes.
for _entry, _variants in {
    "numpy.copy": ["np.copy(i1)", "np.copy(e2)"],
    "numpy.fliplr": ["np.fliplr(i2)", "np.fliplr(e2)"],
    "numpy.flipud": ["np.flipud(i2)", "np.flipud(f3)"],
    "numpy.blackman": ["np.blackman(1)", "np.blackman(0)"],
    "numpy.hamming": ["np.hamming(1)", "np.hamming(0)"],
    "numpy.hanning": ["np.hanning(1)", "np.hanning(0)"],
    "numpy.kaiser": ["np.kaiser(1, 3.0)", "np.kaiser(4, 0.0)"],
    "numpy.bartlett": ["np.bartlett(0)"],
    "numpy.dsplit": ["np.dsplit(f3, np.array([1, 3]))"],
    "numpy.swapaxes": ["np.swapaxes(f2, 0, 1)", "np.swapaxes(f3, -1, 0)"],
    "numpy.indices": ["np.indices((3,))", "np.indices((2, 1, 2))"],
    "numpy.setxor1d": ["np.setxor1d(f1, f1[::2])", "np.setxor1d(e0, f1)"],
    "numpy.setdiff1d": ["np.setdiff1d(f1, f1[::2])", "np.setdiff1d(i1, e0.astype(np.int64))"],
    "numpy.union1d": ["np.union1d(f1, f1 * 2)", "np.union1d(e0, f1)"],
    "numpy.unique": ["np.unique(e0)", "np.unique(c1)"],
    "numpy.ndenumerate": ["[(i, v) for i, v in np.ndenumerate(i1)]"],
    "numpy.nditer": ["s = 0\nfor v in np.nditer(i2.T):\n    s = s * 3 + v.item()\nreturn s"],
    "numpy.linalg.cholesky": [{"probe": "np.linalg.cholesky(herm)", "rtol": 1e-09}],
    "numpy.linalg.eig": [{"probe": "np.linalg.eig(herm)", "rtol": 1e-09}],
    "numpy.linalg.eigh": [{"probe": "np.linalg.eigh(herm)", "rtol": 1e-09}],
    "numpy.linalg.eigvalsh": [{"probe": "np.linalg.eigvalsh(herm)", "rtol": 1e-09}],
    "numpy.linalg.qr": [
        {"probe": "np.linalg.qr(sq)", "rtol": 1e-09},
        {"probe": "np.linalg.qr(c2)", "rtol": 1e-09},
    ],
    "numpy.linalg.pinv": [{"probe": "np.linalg.pinv(c2)", "rtol": 1e-09}],
    "numpy.linalg.svd": [{"probe": "np.linalg.svd(c2)", "rtol": 1e-09}],
    "numpy.linalg.lstsq": [{"probe": "np.linalg.lstsq(sq, spd)", "rtol": 1e-09}],
    "numpy.linalg.solve": [{"probe": "np.linalg.solve(c2, c1[:2])", "rtol": 1e-09}],
    "numpy.linalg.det": [{"probe": "np.linalg.det(f32[:4].reshape(2, 2))", "rtol": 1e-05}],
    "ndarray.ndim": ["e2.ndim"],
    "ndarray.size": ["e2.size", "i1.size"],
    "ndarray.shape": ["e2.shape"],
    "ndarray.T": ["e2.T", "c2.T"],
    "ndarray.max": ["f2.max(axis=0)", "i2.max(axis=1)"],
    "ndarray.min": ["f2.min(axis=1)", "n1.min()"],
    "ndarray.mean": ["f2.mean(axis=0)", "f32.mean()"],
    "ndarray.sum": ["e0.sum()", "b1.sum()", "f32.sum()"],
    "ndarray.prod": ["e0.prod()", "f2.prod(axis=1)"],
    "ndarray.cumsum": ["b1.cumsum()", "e0.cumsum()"],
    "ndarray.std": ["f2.std(axis=1)"],
    "ndarray.var": ["f2.var(axis=0)"],
    "ndarray.all": ["e0.all()"],
    "ndarray.any": ["e0.any()", "n1.any()"],
    "ndarray.argsort": ["e0.argsort()", "f32.argsort(kind='mergesort')"],
    "ndarray.astype": ["b1.astype(np.float32)", "c1.astype(np.complex64)"],
    "ndarray.flatten": ["e2.flatten()"],
    "ndarray.ravel": ["f3[:, ::2].ravel()"],
    "ndarray.view": ["f32.view(np.int32)", "c1.view(np.float64)"],
    "ndarray.clip": ["f2.clip(-1.0, None)", "n1.clip(0.0, 2.0)"],
    "ndarray.take": ["f2.take(np.array([[0, 11], [3, 4]]))"],
    "numpy.sort": ["np.sort(n1)", "np.sort(e0)", "np.sort(b1)"],
    "numpy.median": ["np.median(n1)"],
    "numpy.percentile": ["np.percentile(n1, 50.0)"],
    "numpy.diff": ["np.diff(b1)", "np.diff(e0)"],
    "numpy.where": ["np.where(e0 > 0, e0, 1.0)"],
    "numpy.concatenate": ["np.concatenate((e2, f2[:, :3]))", "np.concatenate((f1, i1, b1))"],
    "numpy.stack": ["np.stack((i1, i1), axis=-1)"],
    "numpy.vstack": ["np.vstack((f1, i1[:6]))"],
    "numpy.hstack": ["np.hstack((b1, b1))"],
    "numpy.linspace": [
        "np.linspace(0.0, 1.0, 0)",
        "np.linspace(1.0, 1.0, 1)",
        "np.linspace(0, 1j, 3)",
    ],
    "numpy.arange": ["np.arange(0.1, 0.35, 0.05)", "np.arange(5, 1)"],
    "numpy.roll": ["np.roll(e0, 3)", "np.roll(i1, -13)"],
    "numpy.repeat": ["np.repeat(e0, 3)"],
    "numpy.searchsorted": [
        "np.searchsorted(np.sort(n1), n1)",
        "np.searchsorted(np.sort(i1), 4, 'left')",
    ],
    "numpy.histogram": ["np.histogram(i1, 3)"],
    "numpy.interp": [
        "np.interp(x, np.array([0.0, 1.0]), np.array([2.0, 4.0]))",
        "np.interp(n1, np.array([0.0, 1.0, 3.0]), np.array([2.0, 4.0, -1.0]))",
    ],
    "numpy.digitize": ["np.digitize(n1, np.array([0.0, 1.0, 3.0]), True)"],
    "numpy.bincount": ["np.bincount(i1, minlength=12)"],
    "numpy.nanmax": ["np.nanmax(np.array([np.nan, np.nan]))"],
    "numpy.nanmean": ["np.nanmean(f32)"],
    "numpy.around": ["np.around(c1 * 1.37, 1)", "np.around(f32 * 3.3, 2)"],
    "numpy.isclose": ["np.isclose(x, 0.7000000001)", "np.isclose(n1, n1, equal_nan=True)"],
    "numpy.allclose": ["np.allclose(n1, n1, equal_nan=True)", "np.allclose(n1, n1)"],
    "numpy.array_equal": ["np.array_equal(f1, f1[:3])", "np.array_equal(n1, n1)"],
    "numpy.count_nonzero": ["np.count_nonzero(e0)", "np.count_nonzero(b1)"],
    "numpy.cross": ["np.cross(c1[:3], v3)"],
    "numpy.trace": ["np.trace(f32.reshape(2, 2))"],
    "numpy.outer": ["np.outer(e0, f1)"],
    "numpy.kron": ["np.kron(c2, i2[:2, :2])"],
    "numpy.vdot": ["np.vdot(f2, f2)"],
    "numpy.cov": ["np.cov(i2)"],
    "numpy.corrcoef": ["np.corrcoef(i2)"],
    "numpy.nan_to_num": ["np.nan_to_num(n1, nan=-1.0)", "np.nan_to_num(c1 / 0)"],
    "numpy.random.choice": [{"probe": "np.random.choice(5, 3, False)", "seed": 7, "rtol": 1e-09}],
    "numpy.random.randint": [
        {"probe": "np.random.randint(-5, 5, (2, 3))", "seed": 7, "rtol": 1e-09}
    ],
    "Generator.integers": [{"probe": "g.integers(0, 10, (2, 2))", "rtol": 1e-09}],
    "Generator.random": [{"probe": "g.random(0)", "rtol": 1e-09}],
}.items():
    PROBES.setdefault(_entry, []).extend(_variants)
