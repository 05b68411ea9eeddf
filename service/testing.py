"""A live server for tests: the app under uvicorn in a background thread, on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn
from fastapi import FastAPI


class LiveServer:
    """`with LiveServer(app) as server: httpx.get(server.url + "/healthz")`; real HTTP, real lifespan."""

    def __init__(self, app: FastAPI, startup_timeout: float = 30.0) -> None:
        self.app = app
        self.startup_timeout = startup_timeout
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))  # the kernel picks a free port, and we hold it: no race
        self.port = int(self._sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_config=None, access_log=False, timeout_graceful_shutdown=5)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + self.startup_timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the live server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()
