"""The offline injector's runs and helper calls, without starting Python for each.

  server.py WORK PARSER PYTEST-ARG...

Started once in the background from the repository's folder, it imports pytest
(about half of a small suite's run) and the helper (WORK/helper.py), then
waits for requests on the FIFO WORK/server.fifo, one a line:

  run NAME LIMIT REPLY     pytest with the arguments the server was started
                           with, as `python3 -m pytest` would run it (the
                           working folder first on the path), its output in
                           WORK/NAME.log, killed with everything it started
                           after LIMIT seconds (0: never); then PARSER over the
                           log into WORK/NAME.json, as
                           `python3 PARSER < NAME.log > NAME.json` would.
  helper REPLY ARGS OUT    the helper's main on the arguments in the file ARGS
                           (each ended by a NUL), its output in OUT.

Each is done in a forked child, and its exit code (137 when it was killed) is
written to the FIFO REPLY. The repository's modules are imported in the
children only, so each run sees the code as it is then. The PID is in
WORK/server.pid; run_tests.sh and helper.sh do the work themselves when the
server is gone.
"""
import atexit
import contextlib
import importlib.util
import os
import runpy
import signal
import sys
import time

POLL_SECONDS = 0.01


def in_child(out_path, work):
    """In a forked child: do `work`, output to the file, stdin empty; exits with its code, never returns."""
    code = 3
    try:
        os.setpgid(0, 0)
        out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.close(null)
        done = work()
        code = done if isinstance(done, int) else 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int) and stop.code is not None:
            sys.stderr.write("%s\n" % (stop.code,))  # as Python prints the message of an exit it was not given a number for
    except BaseException:  # a crash shows in the output, as it would have in a process of its own
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 1)


def run_pytest(args):
    import pytest

    sys.argv = [os.path.join(os.path.dirname(pytest.__file__), "__main__.py")] + args
    return pytest.console_main()


def wait(pid, limit):
    """The child's exit code; the child and its process group are killed once `limit` seconds have passed."""
    deadline = time.monotonic() + limit if limit > 0 else None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        if deadline is not None and time.monotonic() >= deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return 137
        time.sleep(POLL_SECONDS)


def parse(parser, log_path, json_path):
    """PARSER over the log, in this process (its globals are fresh each time)."""
    saved = sys.stdin
    try:
        with open(log_path, encoding="utf-8", errors="replace") as log, open(json_path, "w", encoding="utf-8") as out:
            sys.stdin = log
            with contextlib.redirect_stdout(out):
                runpy.run_path(parser, run_name="__main__")
    except SystemExit:
        pass
    except Exception as error:  # the json stays as far as the parser got: the comparison then finds it unreadable
        sys.stderr.write("parser failed on %s: %r\n" % (log_path, error))
    finally:
        sys.stdin = saved


def fork(out_path, work, requests):
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        requests.close()
        in_child(out_path, work)
    return pid


def serve(work_dir, parser, args, helper):
    fifo = os.path.join(work_dir, "server.fifo")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(fifo)
    os.mkfifo(fifo)
    # Open for reading and writing, so the FIFO never reads as ended between two requests.
    requests = os.fdopen(os.open(fifo, os.O_RDWR), "r")
    with open(os.path.join(work_dir, "server.pid"), "w") as pid_file:
        pid_file.write("%d\n" % os.getpid())
    for line in requests:
        parts = line.split()
        if len(parts) == 4 and parts[0] == "run":
            name, limit, reply = parts[1], float(parts[2]), parts[3]
            log_path = os.path.join(work_dir, name + ".log")
            code = wait(fork(log_path, lambda: run_pytest(args), requests), limit)
            parse(parser, log_path, os.path.join(work_dir, name + ".json"))
        elif len(parts) == 4 and parts[0] == "helper":
            reply, args_path, out_path = parts[1], parts[2], parts[3]
            with open(args_path, "rb") as handle:
                call = [a.decode("utf-8", "surrogateescape") for a in handle.read().split(b"\0")[:-1]]
            code = wait(fork(out_path, lambda: helper.main(call), requests), 0)
        else:
            continue
        with open(reply, "w") as answer:
            answer.write("%d\n" % code)


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    work_dir, parser, args = argv[0], argv[1], argv[2:]
    # As `python3 -m pytest` has it: the working folder, not this script's, first on the path.
    sys.path[0] = os.getcwd()
    import pytest  # noqa: F401  (the import every run shares)

    spec = importlib.util.spec_from_file_location("offline_helper", os.path.join(work_dir, "helper.py"))
    helper = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helper)
    serve(work_dir, parser, args, helper)


if __name__ == "__main__":
    main(sys.argv[1:])
