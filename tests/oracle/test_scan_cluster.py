"""`isalens scan --engine dask --scheduler tcp://...` against a real cluster: a `dask scheduler` and two `dask
worker` processes started here on localhost (separate processes, ports chosen free, killed at the end), giving
the table the local process pool gives. Skipped when dask[distributed] is not installed."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import isalens
from isalens.cli import main
from tests.oracle.test_scan import builds, table  # noqa: F401  (builds: the module's fixture)

pytest.importorskip("distributed")
pytestmark = pytest.mark.oracle


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dask_cli() -> str:
    beside = Path(sys.executable).with_name("dask")
    found = str(beside) if beside.exists() else shutil.which("dask")
    if found is None:
        pytest.skip("the dask command line is not installed")
    return found


def _stop(process: subprocess.Popen[bytes]) -> None:
    """The process's group (it started one): SIGTERM, then SIGKILL after 10 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """The address of a scheduler with two single-threaded workers, each its own process; the workers import
    the isalens under test (PYTHONPATH), as `scripts/setup.sh` on a worker node would install it."""
    dask = _dask_cli()
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(Path(isalens.__file__).parents[1])}
    started: list[subprocess.Popen[bytes]] = []
    logs = [open(tmp_path / f"dask-{n}.log", "wb") for n in ("scheduler", "worker0", "worker1")]  # noqa: SIM115
    try:
        started.append(subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                         "--no-dashboard"], env=env, stdout=logs[0], stderr=subprocess.STDOUT,
                                        start_new_session=True))
        for n in (1, 2):
            started.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                             "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                             "--name", f"w{n}"], env=env, stdout=logs[n],
                                            stderr=subprocess.STDOUT, start_new_session=True))
        from distributed import Client

        deadline = time.monotonic() + 120
        while True:  # the scheduler may not listen yet
            try:
                with Client(address, timeout="10s") as client:
                    client.wait_for_workers(2, timeout=120)
                    assert len(client.scheduler_info()["workers"]) == 2
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        yield address
    finally:
        for process in reversed(started):
            _stop(process)
        for log in logs:
            log.close()
    assert all(p.poll() is not None for p in started)


def test_scan_on_a_scheduler_and_two_worker_processes(builds: dict[str, Path], cluster: str,  # noqa: F811
                                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from isalens.scan import dask_engine, split

    monkeypatch.setattr(dask_engine, "_INLINE_BYTES", 0)  # every code object is scattered, as large ones are
    monkeypatch.setattr(split, "KERNELS_PER_UNIT", 1)  # several units share one scattered code object
    paths = [str(builds["v1"]), str(builds["v2"]), str(builds["shared"]), str(builds["bad"])]
    local, remote = tmp_path / "local.parquet", tmp_path / "dask.parquet"
    assert main(["scan", *paths, "--out", str(local), "--workers", "2", "--no-progress"]) == 0
    assert main(["scan", *paths, "--out", str(remote), "--engine", "dask", "--scheduler", cluster,
                 "--no-progress"]) == 0
    rows = table(remote)
    # 3 files x 2 code objects x 3 kernels, and the 3 bad bundles of the walked directory as error rows
    assert len(rows) == 21 and sum(1 for r in rows if r["error"]) == 3
    assert rows == table(local)
