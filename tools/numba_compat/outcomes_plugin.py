"""A pytest plugin for ``run.py``: writes one JSON line per event to the file named by
``NUMBA_COMPAT_OUTCOMES``, flushed at once, so the runner still knows which tests finished (and
which one was running) when the interpreter crashes or is killed for taking too long.

Records: ``{"event": "collected", "tests": [...]}``, ``{"event": "collect_error", ...}``,
``{"event": "start", "test": id}``, ``{"event": "finish", "test": id, "outcome": ...,
"reason": "ExceptionType: first line of its message"}`` and ``{"event": "done"}``.
Tests listed in the file named by ``NUMBA_COMPAT_SKIP`` (one id a line) are deselected: a
restarted run goes on after the test that crashed.
"""

import json
import os
import re
import time

import pytest

_stream = None
_results = {}
_worker = False


def _write(record):
    if _stream is not None:
        _stream.write(json.dumps(record) + "\n")
        _stream.flush()


def _reason(report):
    """``Type: first line`` of the exception a failed report is about."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and crash.message:
        text = crash.message
    else:  # a report without a crash location: its "E   " lines, or its last line
        lines = str(report.longrepr or "").strip().splitlines()
        errors = [line[1:].strip() for line in lines if line.startswith("E ")]
        text = errors[0] if errors else (lines[-1] if lines else "")
    first = text.strip().splitlines()[0] if text.strip() else ""
    if re.search(r"\.py:\d+: UnexpectedException$", first):
        # A doctest that raised: its report ends with the location; the exception is the last
        # "Type: message" line of the traceback above it.
        raised = [
            line.strip()
            for line in str(report.longrepr or "").splitlines()
            if re.match(r"^\s*[\w.]*(Error|Exception)\b", line.strip())
        ]
        if raised:
            first = raised[-1]
    head, sep, rest = first.partition(":")
    if sep and " " not in head:
        first = f"{head.rsplit('.', 1)[-1]}:{rest}"  # taipan.errors.TypingError -> TypingError
    return first[:500]


def pytest_configure(config):
    global _stream, _worker
    path = os.environ.get("NUMBA_COMPAT_OUTCOMES")
    if path:
        _stream = open(path, "a", encoding="utf-8")  # noqa: SIM115 - lives for the session
    # Under pytest-xdist (cuda_suite.py) the controller records the tests' events, which the
    # workers report to it; a worker records only what it collected.
    _worker = hasattr(config, "workerinput")


def pytest_collection_modifyitems(session, config, items):
    skip_file = os.environ.get("NUMBA_COMPAT_SKIP")
    skip = set()
    if skip_file and os.path.exists(skip_file):
        with open(skip_file, encoding="utf-8") as stream:
            skip = {line.strip() for line in stream if line.strip()}
    if skip:
        kept = [item for item in items if item.nodeid not in skip]
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid in skip])
        items[:] = kept
    _write({"event": "collected", "tests": [item.nodeid for item in items]})


def pytest_collectreport(report):
    if _worker:
        return
    if report.failed:
        _write({"event": "collect_error", "node": report.nodeid, "reason": _reason(report)})


def pytest_runtest_logstart(nodeid, location):
    if _worker:
        return
    _results[nodeid] = {"outcome": "passed", "reason": ""}
    _write({"event": "start", "test": nodeid, "time": time.time()})


def pytest_runtest_logreport(report):
    if _worker:
        return
    result = _results.setdefault(report.nodeid, {"outcome": "passed", "reason": ""})
    if report.failed:
        if result["outcome"] != "failed":
            result["outcome"] = "failed"
            result["reason"] = _reason(report)
    elif report.skipped and result["outcome"] == "passed":
        if hasattr(report, "wasxfail"):
            result["outcome"] = "xfailed"
        else:
            result["outcome"] = "skipped"
            longrepr = report.longrepr
            result["reason"] = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr)[:300]
    elif report.when == "call" and hasattr(report, "wasxfail") and result["outcome"] == "passed":
        result["outcome"] = "failed"  # an unexpected success is a failure, as for unittest
        result["reason"] = "unexpected success"


def pytest_runtest_logfinish(nodeid, location):
    if _worker:
        return
    result = _results.pop(nodeid, {"outcome": "passed", "reason": ""})
    _write({"event": "finish", "test": nodeid, **result})


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if _worker:
        return
    _write({"event": "done", "exitstatus": int(exitstatus)})
