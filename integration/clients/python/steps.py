"""Steps of a client scenario: each runs, prints "ok" or "FAIL" with its
name, and the first failure ends the scenario with exit status 1 (with
ICEGATE_CLIENTS_ALL set every step runs and the status comes at the end)."""

import os
import sys
import traceback

ALL = bool(os.environ.get("ICEGATE_CLIENTS_ALL"))
failures = 0
MAIN = os.path.abspath(sys.argv[0])


def step(name, on_failure=None):
    """Decorator: runs the function now as the step called name.
    on_failure runs after a failure (to roll back a connection)."""

    def run(fn):
        global failures
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failures += 1
            code = getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
            code = f" [SQLSTATE {code}]" if code else ""
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == MAIN]
            where = frames[-1] if frames else traceback.extract_tb(e.__traceback__)[-1]
            lines = str(e).strip().splitlines()
            if len(lines) > 12:
                lines = lines[:12] + ["..."]
            msg = "\n    ".join(lines)
            print(f"FAIL {name}: {type(e).__name__}: {msg}{code}\n    at line {where.lineno}", flush=True)
            if not ALL:
                sys.exit(1)
            if on_failure:
                try:
                    on_failure()
                except Exception:  # noqa: BLE001 - the next step reports it
                    pass
        else:
            print(f"ok   {name}", flush=True)
        return fn

    return run


def equal(got, want, what):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def expect_error(fn, sqlstate, exc_class=None):
    """fn must raise a database error with this SQLSTATE (and class)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        code = getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
        if code != sqlstate:
            raise AssertionError(f"got {type(e).__name__} {code}: {e}, want SQLSTATE {sqlstate}") from e
        if exc_class is not None and not isinstance(e, exc_class):
            raise AssertionError(f"got {type(e).__name__}, want {exc_class.__name__}") from e
        return e
    raise AssertionError(f"no error, want SQLSTATE {sqlstate}")


def finish():
    sys.exit(1 if failures else 0)
