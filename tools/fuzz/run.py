"""Command line of the fuzzer: generate programs, run them in worker subprocesses (so a
segfault, abort or hang is caught and attributed to its program), tally the outcomes, minimise
the failures and print a report.

    python3 -m tools.fuzz --seed 1 --count 500 [--jobs 1] [--timeout 60] [--json out.json]

``--features`` picks the feature families and switches (default: all but the known-bug
switches of ``program.KNOWN_BUG_SWITCHES``; ``--with-known-bugs`` adds them, ``--with`` and
``--without`` add or remove single ones). The exit status
is 1 when a program mismatched, crashed, hung or leaked.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

from tools.fuzz.program import ALL_FEATURES, DEFAULT_FEATURES, KNOWN_BUG_SWITCHES, generate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURES = ("mismatch", "crash", "hang", "leak", "generator-bug")
RESTART_EVERY = 300  # programs per worker process: bounds its memory


def _taipan_directory() -> str:
    """Where the workers import taipan from: the directory this interpreter finds it in (an
    installed wheel, or src/ on PYTHONPATH), else this checkout's src/."""
    spec = importlib.util.find_spec("taipan")
    if spec is not None and spec.origin:
        return os.path.dirname(os.path.dirname(spec.origin))
    return os.path.join(ROOT, "src")


class Worker:
    """One worker subprocess; ``run`` sends a program and waits for its outcome."""

    def __init__(self):
        self.process = None
        self.served = 0

    def start(self):
        env = dict(os.environ)
        # TAIPAN_FUZZ_TAIPAN_PATH: a directory holding a snapshot of the taipan package, so a
        # long run is not disturbed by rebuilds of the shared tree
        taipan_path = env.get("TAIPAN_FUZZ_TAIPAN_PATH") or _taipan_directory()
        env["PYTHONPATH"] = os.pathsep.join(
            [taipan_path, ROOT, *filter(None, [env.get("PYTHONPATH")])]
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.fuzz.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            env=env,
            text=True,
            start_new_session=True,
        )
        self.served = 0

    def stop(self):
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
            self.process = None

    def run(self, program: dict, timeout: float) -> dict:
        if self.process is None or self.served >= RESTART_EVERY:
            self.stop()
            self.start()
        self.served += 1
        try:
            self.process.stdin.write(json.dumps(program) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            self.stop()
            return {"outcome": "hang", "detail": f"no answer within {timeout:g} s"}
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self.process = None
            what = f"signal {-code}" if code < 0 else f"exit status {code}"
            return {"outcome": "crash", "detail": f"the worker died: {what}"}
        return json.loads(line)


def outcome_of(worker: Worker, program: dict, timeout: float) -> dict:
    result = worker.run(program, timeout)
    result["index"] = program["index"]
    return result


def run_batch(programs, jobs: int, timeout: float, on_result) -> None:
    """Runs ``programs`` (an iterator of program dicts) on ``jobs`` workers."""
    lock = threading.Lock()
    iterator = iter(programs)

    def loop():
        worker = Worker()
        try:
            while True:
                with lock:
                    program = next(iterator, None)
                if program is None:
                    return
                result = outcome_of(worker, program, timeout)
                with lock:
                    on_result(program, result)
        finally:
            worker.stop()

    threads = [threading.Thread(target=loop) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def parse_features(args) -> frozenset[str]:
    features = set(DEFAULT_FEATURES)
    if args.features:
        features = {f.strip() for f in args.features.split(",") if f.strip()}
    if args.with_known_bugs:
        features |= set(KNOWN_BUG_SWITCHES)
    features |= {name.strip() for name in (args.with_ or "").split(",") if name.strip()}
    for name in (args.without or "").split(","):
        features.discard(name.strip())
    unknown = features - ALL_FEATURES
    if unknown:
        raise SystemExit(f"unknown features: {sorted(unknown)}; known: {sorted(ALL_FEATURES)}")
    return frozenset(features)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.fuzz", description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per program")
    parser.add_argument("--features", help="comma-separated features (default: all but bugs)")
    parser.add_argument("--with", dest="with_", help="comma-separated features to add")
    parser.add_argument("--without", help="comma-separated features to leave out")
    parser.add_argument("--with-known-bugs", action="store_true")
    parser.add_argument("--no-minimise", action="store_true")
    parser.add_argument("--max-minimise", type=int, default=10, help="failures to minimise")
    parser.add_argument("--json", help="write the figures and failures here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    features = parse_features(args)

    counts = collections.Counter()
    refusals = collections.Counter()
    deviations = collections.Counter()
    by_feature = collections.defaultdict(collections.Counter)
    failures = []
    started = time.monotonic()

    def programs():
        for index in range(args.start, args.start + args.count):
            yield generate(args.seed, index, features).to_json()

    def on_result(program, result):
        outcome = result["outcome"]
        counts[outcome] += 1
        for feature in program["features"]:
            by_feature[feature][outcome] += 1
        if outcome == "refused":
            refusals[result["refusal"]] += 1
        if outcome == "deviation":
            deviations.update(result["deviations"])
        if outcome in FAILURES:
            failures.append((program, result))
            if not args.quiet:
                print(
                    f"[{outcome}] seed={args.seed} index={program['index']}: "
                    f"{result.get('detail', '')[:300]}",
                    flush=True,
                )
        done = sum(counts.values())
        if not args.quiet and done % 500 == 0:
            rate = done / (time.monotonic() - started)
            print(f"... {done} programs, {rate:.1f}/s, {dict(counts)}", flush=True)

    run_batch(programs(), args.jobs, args.timeout, on_result)
    elapsed = time.monotonic() - started
    total = sum(counts.values())

    minimised = []
    if failures and not args.no_minimise:
        from tools.fuzz.minimise import minimise

        for program, result in failures[: args.max_minimise]:
            # a mismatch found after neutralising deviations is minimised in that form
            small = minimise(
                program,
                result["outcome"],
                args.timeout,
                result.get("source"),
                result.get("signature"),
            )
            minimised.append(
                {
                    "index": program["index"],
                    "outcome": result["outcome"],
                    "detail": result.get("detail", ""),
                    "source": small,
                }
            )

    print(
        f"\nfuzz: seed {args.seed}, programs {args.start}..{args.start + args.count - 1}, "
        f"features {','.join(sorted(features))}"
    )
    print(f"{total} programs in {elapsed:.0f} s ({total / max(elapsed, 1e-9):.2f} programs/s)")
    for outcome, number in counts.most_common():
        print(f"  {outcome:14} {number:8}  {100 * number / max(total, 1):5.1f}%")
    if deviations:
        print("known deviations:", dict(deviations))
    if refusals:
        print("most frequent rejections:")
        for text, number in refusals.most_common(15):
            print(f"  {number:6}  {text}")
    for item in minimised:
        print(
            f"\n--- {item['outcome']} (seed {args.seed}, index {item['index']}), minimised:\n"
            f"{item['detail']}\n{item['source']}"
        )
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(
                {
                    "seed": args.seed,
                    "start": args.start,
                    "count": args.count,
                    "features": sorted(features),
                    "seconds": elapsed,
                    "outcomes": dict(counts),
                    "deviations": dict(deviations),
                    "refusals": refusals.most_common(),
                    "by_feature": {k: dict(v) for k, v in by_feature.items()},
                    "failures": [
                        {"index": p["index"], "result": r, "source": p["source"], "args": p["args"]}
                        for p, r in failures
                    ],
                    "minimised": minimised,
                },
                handle,
                indent=1,
            )
    return 1 if any(counts[o] for o in FAILURES) else 0
