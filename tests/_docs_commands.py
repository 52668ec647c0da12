"""``accord`` for the documentation tests, without paying the imports on every command.

The docs run about a hundred ``accord`` commands; each new Python process spends seconds importing SciPy and
pandas before it starts. Here one server process imports those third-party packages once and forks a child
per command: the child takes the caller's standard input, output and error (passed over a Unix socket),
folder and environment, imports accord (so ``ACCORD_*`` variables and the code under test are read
afresh, as in a new process), runs ``accord.cli.main`` and sends back the exit status. The ``accord`` on
the commands' PATH is a small client (``client``) that the shell starts like any program.

Only the standard library is imported at the top, so that the client starts in milliseconds.
"""

from __future__ import annotations

import array
import json
import os
import signal
import socket
import sys

PRELOAD = (
    "numpy", "pandas", "scipy.stats", "scipy.optimize", "scipy.special", "scipy.sparse", "scipy.spatial",
    "narwhals", "typer", "click", "rich.console", "rich.table", "defusedxml.ElementTree",
    "jinja2", "altair", "pydantic", "typer._adapters", "pyarrow",
)
_HEADER = 8
_MAX_FDS = 3


def client(address: str) -> None:
    """Run ``accord ARGS`` through the server at *address* and exit with its status."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(address)
        message = json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        fds = array.array("i", [0, 1, 2])
        conn.sendmsg([len(message).to_bytes(_HEADER, "big") + message],
                     [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        answer = b""
        while chunk := conn.recv(64):
            answer += chunk
    sys.exit(int(answer) if answer.strip() else 1)


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    fds = array.array("i")
    data, ancillary, _flags, _addr = conn.recvmsg(1 << 16, socket.CMSG_LEN(_MAX_FDS * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - (len(payload) % fds.itemsize)])
    size = int.from_bytes(data[:_HEADER], "big")
    body = data[_HEADER:]
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            break
        body += chunk
    return json.loads(body), list(fds)


def _child(conn: socket.socket, request: dict, fds: list[int], timeout: int) -> None:
    """In the forked child: become the command and never return."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.alarm(timeout)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        import io

        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", write_through=True)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["accord", *request["argv"]]
        try:
            from accord.cli import main

            main()
            code = 0
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                code = done.code or 0
            else:
                print(done.code, file=sys.stderr)
                code = 1
    except BaseException:  # the command's own failure, shown as a process would show it
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            conn.sendall(str(code).encode())
        finally:
            os._exit(code)


def serve(address: str, timeout: int) -> None:
    """Import the heavy packages, say ``ready`` on stdout, then fork a child per command.

    The server ends when the process that started it is gone (a test run killed before it could stop it).
    """
    parent = os.getppid()
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(address)
        server.listen(16)
        server.settimeout(2.0)
        print("ready", flush=True)
        while True:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                if os.getppid() != parent:
                    return
                continue
            conn.settimeout(None)
            try:
                request, fds = _receive(conn)
            except (OSError, ValueError):
                conn.close()
                continue
            if os.fork() == 0:
                server.close()
                _child(conn, request, fds, timeout)
            conn.close()
            for fd in fds:
                os.close(fd)


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
