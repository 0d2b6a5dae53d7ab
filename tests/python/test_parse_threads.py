"""Compiles in worker threads must not make other threads' ``ast.parse`` fail. CPython 3.11
counts the depth of the tree its AST constructor converts in one interpreter-wide counter; a
thread suspended in the middle of a conversion (its garbage collection running a finalizer)
fails with ``SystemError: AST constructor recursion depth mismatch`` when another thread
converts a tree meanwhile. taipan's own parses and tree compiles wait until no other thread is
inside ``ast.parse`` and then run with the collector off, holding the GIL throughout. Run in a
child process with a timeout (a failure here used to take the whole test session down)."""

import json
import textwrap

from child_processes import child_environment, run_python

SCRIPT = textwrap.dedent(
    """
    import ast, json, sys, threading, textwrap
    import numpy as np
    import taipan

    sys.setswitchinterval(1e-5)  # threads switch as often as they can
    SOURCE = open(ast.__file__).read()
    counts = {"parses": 0, "parse_errors": 0, "compiles": 0, "compile_errors": []}
    stop = threading.Event()

    class Cyclic:
        # Garbage whose finalizer runs Python code in the middle of a conversion: the
        # moment another thread can run.
        def __init__(self):
            self.me = self

        def __del__(self):
            sum(range(50))

    def parser():
        while not stop.is_set():
            for _ in range(200):
                Cyclic()
            try:
                ast.parse(SOURCE)
                counts["parses"] += 1
            except SystemError:
                counts["parse_errors"] += 1

    # The functions are made here, before the threads start: only taipan parses in them.
    namespaces = {}
    for k in range(4):
        for i in range(15):
            namespace = namespaces[k, i] = {}
            exec(textwrap.dedent(f'''
            def f_{k}_{i}(a, b):
                s = 0.0
                for j in range(a.shape[0]):
                    s += a[j] * b + {i}
                return s
            '''), namespace)
            tree = ast.parse(f"def g_{k}_{i}(x):\\n    return x * {i}\\n")
            exec(compile(tree, "<ast>", "exec"), namespace)

    def compiler(k, n):
        for i in range(n):
            namespace = namespaces[k, i]
            try:
                assert taipan.njit(namespace[f"f_{k}_{i}"])(np.ones(3), 2.0) == 3 * (2.0 + i)
                assert taipan.njit(namespace[f"g_{k}_{i}"])(3) == 3 * i
                counts["compiles"] += 2
            except Exception as error:
                counts["compile_errors"].append(repr(error)[:300])

    parse_thread = threading.Thread(target=parser)
    compile_threads = [threading.Thread(target=compiler, args=(k, 15)) for k in range(4)]
    parse_thread.start()
    for thread in compile_threads:
        thread.start()
    for thread in compile_threads:
        thread.join()
    stop.set()
    parse_thread.join()
    print(json.dumps(counts))
    """
)


def test_threaded_compiles_leave_other_threads_parsing_intact():
    completed = run_python(["-c", SCRIPT], env=child_environment(), timeout=540)
    counts = json.loads(completed.stdout.strip().splitlines()[-1])
    assert counts["compile_errors"] == []
    assert counts["compiles"] == 4 * 15 * 2
    assert counts["parses"] > 0
    assert counts["parse_errors"] == 0, counts
