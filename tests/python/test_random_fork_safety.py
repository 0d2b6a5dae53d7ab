"""The random generators of compiled code (Python's ``random`` and ``np.random``) are fork-safe,
as Numba's: a child process reseeds from entropy instead of repeating its parent's stream, and
an explicit seed in the child still gives the seeded stream."""

import ast
import os
import random

import numpy as np
import pytest

import taipan


@taipan.njit
def draws(seed):
    if seed != 0:
        random.seed(seed)
        np.random.seed(seed)
    python = 0
    numpy = 0
    for _ in range(4):
        python = python * 7 + random.getrandbits(32)
        numpy = numpy * 7 + np.random.randint(1 << 30)
    return python, numpy


def in_children(count, seed):
    """draws(seed) in `count` forked children, each after its parent seeded with 42."""
    reader, writer = os.pipe()
    children = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:  # the child: report and leave at once
            try:
                os.write(writer, (repr(draws(seed)) + "\n").encode())
            finally:
                os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    os.close(writer)
    with os.fdopen(reader) as lines:
        return [ast.literal_eval(line) for line in lines]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_children_draw_independent_streams():
    draws(42)  # the parent's states are seeded before the forks
    results = in_children(3, 0)
    assert len(results) == 3
    assert len({r[0] for r in results}) == 3  # Python's random
    assert len({r[1] for r in results}) == 3  # np.random


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_an_explicit_seed_in_a_child_is_kept():
    draws(1)
    expected = draws(7)
    assert in_children(2, 7) == [expected, expected]
