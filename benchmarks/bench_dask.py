"""Dask: ``client.map`` of a jitted function defined in ``__main__`` (so it travels by value)
over 64 chunks on a 4-process LocalCluster, taipan against Numba in the same run. Reports the
wall time of the whole map (the workers compile, or load carried code, on their first task),
the time of a second map (everything compiled), and how many dispatcher copies each worker
ended up with (1 means it compiled or loaded once).

    python benchmarks/bench_dask.py [--workers 4] [--chunks 64] [--repeats 3]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

PROGRAM = """
import json, os, sys, time
import numpy as np
from dask.distributed import Client, LocalCluster
from {library} import njit

@njit
def chunk_work(seed):
    state = seed
    total = 0.0
    for i in range(200_000):
        state = (state * 1103515245 + 12345) % 2147483648
        total += np.sqrt(state / 2147483648.0)
    return total

def task(seed):
    return chunk_work(seed), os.getpid(), id(chunk_work)

if __name__ == "__main__":
    workers, chunks, warm = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "warm"
    if warm:
        chunk_work(1)  # compiled in the client: taipan's pickle then carries the code
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("{library}"))  # imported before timing
        start = time.perf_counter()
        results = client.gather(client.map(task, range(chunks)))
        first = time.perf_counter() - start
        start = time.perf_counter()
        client.gather(client.map(task, range(chunks, 2 * chunks)))
        second = time.perf_counter() - start
        copies = {{}}
        for _, pid, ident in results:
            copies.setdefault(pid, set()).add(ident)
        assert all(abs(r[0] - chunk_work.py_func(s)) < 1e-6 * abs(r[0])
                   for s, r in list(enumerate(results))[:2])
        print(json.dumps({{"first": first, "second": second,
                          "copies": sorted(len(v) for v in copies.values())}}))
"""


def run(library, workers, chunks, warm):
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "..", "src")
    if os.path.exists(os.path.join(src, "taipan", "__init__.py")):
        env["PYTHONPATH"] = os.path.abspath(src) + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(PROGRAM.format(library=library)),
            str(workers),
            str(chunks),
            "warm" if warm else "cold",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--chunks", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    print(f"Dask client.map over {options.chunks} chunks, {options.workers} worker processes")
    for warm in (False, True):
        label = "compiled in the client first" if warm else "not called in the client"
        rows = {}
        for library in ("taipan", "numba"):
            runs = [
                run(library, options.workers, options.chunks, warm) for _ in range(options.repeats)
            ]
            rows[library] = runs
            first = statistics.median(r["first"] for r in runs)
            second = statistics.median(r["second"] for r in runs)
            print(
                f"  {label:<30} {library:<7} first map {first * 1e3:8.1f} ms, "
                f"second {second * 1e3:8.1f} ms, dispatcher copies per worker "
                f"{runs[-1]['copies']}"
            )
        ratio = statistics.median(r["first"] for r in rows["taipan"]) / statistics.median(
            r["first"] for r in rows["numba"]
        )
        print(f"  {label:<30} taipan/numba first map: {ratio:.2f}")


if __name__ == "__main__":
    main()
