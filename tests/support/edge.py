"""kb's edge for tests and single hosts: haproxy with deploy/haproxy/haproxy.cfg in front of kb replicas.

The frontend file is the one compose.yaml and deploy/k8s use, unchanged; only the backend (where the replicas
are) is written here, as a second config file. Started and stopped by its pid.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

FRONTEND = Path(__file__).resolve().parents[2] / "deploy" / "haproxy" / "haproxy.cfg"


@dataclass
class EdgeSettings:
    """What the frontend takes from the environment (KB_EDGE_*), with the production defaults."""

    request_timeout_s: float = 10.0
    max_body_bytes: int = 1 << 20
    maxconn: int = 4096
    maxconn_per_ip: int = 512
    tls_cert: Path | None = None  # a PEM (chain and key): the edge also serves TLS, as start.sh turns it on

    def env(self, bind: str, tls_bind: str = "") -> dict[str, str]:
        env = {"KB_EDGE_BIND": bind, "KB_EDGE_REQUEST_TIMEOUT": f"{int(self.request_timeout_s * 1000)}ms",
               "KB_EDGE_MAX_BODY": str(self.max_body_bytes), "KB_EDGE_MAXCONN": str(self.maxconn),
               "KB_EDGE_MAXCONN_PER_IP": str(self.maxconn_per_ip)}
        if self.tls_cert is not None:
            env |= {"KB_EDGE_TLS_CERT": str(self.tls_cert), "KB_EDGE_TLS_BIND": tls_bind}
        return env


def backend_config(upstreams: list[str]) -> str:
    """The `kb` backend over fixed host:port upstreams, checked on /readyz as in backend-dns.cfg."""
    servers = "\n".join(f"    server kb{i} {u}" for i, u in enumerate(upstreams, 1))
    return ("backend kb\n    balance leastconn\n    option httpchk GET /readyz\n    http-check expect status 200\n"
            f"    default-server check inter 1s fall 2 rise 1 maxconn 64\n{servers}\n")


@dataclass
class Edge:
    """`with Edge(["127.0.0.1:8001"], folder) as edge: edge.url`."""

    upstreams: list[str]
    folder: Path
    settings: EdgeSettings = field(default_factory=EdgeSettings)
    port: int = 0
    tls_port: int = 0
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        return f"https://127.0.0.1:{self.tls_port}"

    def start(self) -> Edge:
        binary = shutil.which("haproxy")
        if binary is None:
            raise RuntimeError("haproxy is not installed (scripts/setup.sh dev installs Debian's package)")
        with socket.socket() as s, socket.socket() as t:
            s.bind(("127.0.0.1", 0))
            t.bind(("127.0.0.1", 0))
            self.port, self.tls_port = int(s.getsockname()[1]), int(t.getsockname()[1])
        self.folder.mkdir(parents=True, exist_ok=True)
        backend = self.folder / "backend.cfg"
        backend.write_text(backend_config(self.upstreams))
        env = {**os.environ, **self.settings.env(f"127.0.0.1:{self.port}", f"127.0.0.1:{self.tls_port}")}
        log = (self.folder / "haproxy.log").open("ab")
        self.proc = subprocess.Popen([binary, "-db", "-f", str(FRONTEND), "-f", str(backend)], env=env,
                                     stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"haproxy exited: {(self.folder / 'haproxy.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("haproxy did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> Edge:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
