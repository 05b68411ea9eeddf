"""compose.yaml, deploy/k8s and deploy/haproxy checked statically (no Docker engine or cluster here):
Kubernetes objects against the schemas bundled in kubernetes-validate, haproxy's config by haproxy itself,
and the wiring between them (ports, probes, names, variables) by reading them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from kb.settings import Settings

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S_VERSION = "1.30.0"


def k8s_docs() -> list[tuple[str, dict[str, Any]]]:
    docs = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        docs += [(path.name, doc) for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]
    return docs


def find(kind: str, name: str) -> dict[str, Any]:
    (doc,) = [d for _, d in k8s_docs() if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value") for e in container.get("env", [])}


@pytest.mark.parametrize(("file", "doc"), k8s_docs(), ids=lambda x: x if isinstance(x, str) else x["kind"])
def test_every_kubernetes_object_is_valid_against_its_schema(file: str, doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_validator_rejects_a_broken_object() -> None:
    broken = find("Deployment", "kb")
    broken = {**broken, "spec": {**broken["spec"], "replica": 2}}  # a typo strict validation must catch
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def test_kb_deployment_probes_resources_and_wiring() -> None:
    kb = find("Deployment", "kb")
    (container,) = kb["spec"]["template"]["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["ports"][0]["containerPort"] == Settings(port=8000).port
    assert container["resources"]["requests"]["cpu"] and container["resources"]["requests"]["memory"]
    env = env_of(container)
    redis = find("Service", "kb-redis")
    assert env["KB_REDIS_URL"] == f"redis://kb-redis:{redis['spec']['ports'][0]['port']}/0"
    assert kb["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] > Settings().shutdown_grace_seconds
    hpa = find("HorizontalPodAutoscaler", "kb")
    assert hpa["spec"]["scaleTargetRef"]["name"] == "kb" and hpa["spec"]["minReplicas"] >= 2
    (edge,) = find("Deployment", "kb-edge")["spec"]["template"]["spec"]["containers"]
    assert env_of(edge)["KB_EDGE_REPLICAS"] == str(hpa["spec"]["maxReplicas"])
    assert "kb-replicas." in env_of(edge)["KB_EDGE_UPSTREAM"]
    assert find("Service", "kb-replicas")["spec"]["clusterIP"] == "None"  # one DNS record a pod


def test_kustomization_lists_what_exists() -> None:
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text(encoding="utf-8"))
    assert sorted(kustomization["resources"]) == sorted(f"k8s/{p.name}" for p in (DEPLOY / "k8s").glob("*.yaml"))
    for generator in kustomization["configMapGenerator"]:
        assert all((DEPLOY / f).is_file() for f in generator["files"])


def test_every_kb_variable_set_is_a_setting() -> None:
    fields = {f"KB_{name.upper()}" for name in Settings.model_fields}
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    edge_vars = set(re.findall(r"\$\{(KB_EDGE_[A-Z_]+)\}", "".join(
        p.read_text(encoding="utf-8") for p in (DEPLOY / "haproxy").glob("*.cfg"))))
    for env in [compose["services"]["kb"]["environment"], env_of(
            find("Deployment", "kb")["spec"]["template"]["spec"]["containers"][0])]:
        assert set(env) <= fields, set(env) - fields
    (edge,) = find("Deployment", "kb-edge")["spec"]["template"]["spec"]["containers"]
    edge_vars.discard("KB_EDGE_TLS_CERT")  # deploy/haproxy/start.sh sets it when a certificate is mounted
    for env in [compose["services"]["edge"]["environment"], env_of(edge)]:
        assert edge_vars <= set(env), edge_vars - set(env)


def test_compose_runs_two_replicas_behind_the_edge_with_redis() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert services["kb"]["deploy"]["replicas"] == 2
    assert services["kb"]["environment"]["KB_REDIS_URL"] == "redis://redis:6379/0"
    assert "ports" not in services["kb"]  # only the edge is published
    assert services["edge"]["environment"]["KB_EDGE_UPSTREAM"] == "kb:8000"
    assert any(v.startswith("./deploy/haproxy:") for v in services["edge"]["volumes"])


@pytest.mark.parametrize("compose_env", [True, False], ids=["compose", "kubernetes"])
def test_haproxy_accepts_the_config_as_deployed(compose_env: bool) -> None:
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.fail("haproxy is not installed: run scripts/setup.sh dev")
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    if compose_env:
        env = dict(compose["services"]["edge"]["environment"])
    else:
        (edge,) = find("Deployment", "kb-edge")["spec"]["template"]["spec"]["containers"]
        env = {k: str(v).replace("$(POD_NAMESPACE)", "default") for k, v in env_of(edge).items() if v}
    check = subprocess.run([haproxy, "-c", "-f", str(DEPLOY / "haproxy" / "haproxy.cfg"),
                            "-f", str(DEPLOY / "haproxy" / "backend-dns.cfg")],
                           env={**os.environ, **env}, capture_output=True, text=True, timeout=30)
    assert check.returncode == 0 and "valid" in check.stdout + check.stderr, check.stdout + check.stderr


def test_kb_trusts_the_edge_and_only_the_edge_for_x_forwarded_for() -> None:
    import ipaddress

    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    edge_address = compose["services"]["edge"]["networks"]["default"]["ipv4_address"]
    trusted = Settings(trusted_proxies=compose["services"]["kb"]["environment"]["KB_TRUSTED_PROXIES"].split(","))
    assert trusted.trusted_proxies == [edge_address]
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(edge_address) in ipaddress.ip_network(subnet)
    kb_env = env_of(find("Deployment", "kb")["spec"]["template"]["spec"]["containers"][0])
    assert all(ipaddress.ip_network(n).is_private for n in kb_env["KB_TRUSTED_PROXIES"].split(","))


def test_the_edge_serves_tls_where_a_certificate_is_mounted() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))["services"]["edge"]
    assert compose["command"][-1].endswith("/start.sh") and "8443:8443" in compose["ports"]
    assert any(v.endswith(":/usr/local/etc/haproxy-tls:ro") for v in compose["volumes"])
    spec = find("Deployment", "kb-edge")["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    assert container["command"][-1].endswith("/start.sh")
    assert {"name": "tls", "mountPath": "/usr/local/etc/haproxy-tls", "readOnly": True} in container["volumeMounts"]
    (tls,) = [v for v in spec["volumes"] if v["name"] == "tls"]
    assert tls["secret"]["optional"] is True and {"key": "tls.key", "path": "edge.pem.key"} in tls["secret"]["items"]
    service = find("Service", "kb-edge")
    assert {"name": "https", "port": 443, "targetPort": "https"} in service["spec"]["ports"]
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text(encoding="utf-8"))
    assert "haproxy/start.sh" in kustomization["configMapGenerator"][0]["files"]


def test_compose_replicas_share_one_named_volume_for_the_document_store() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    kb = compose["services"]["kb"]
    sources = kb["environment"]["KB_SOURCES_DIR"]
    assert Settings(sources_dir=sources).sources_dir.is_absolute()
    mounts = [v.split(":") for v in kb["volumes"]]
    (volume,) = [name for name, target, *_ in mounts if target == sources]  # mounted read-write, at the store
    assert not volume.startswith((".", "/", "~")), "a named volume, not a folder of one host"
    assert volume in compose["volumes"]
    assert kb["deploy"]["replicas"] >= 2  # every replica of the one service mounts it
    assert all(not v.endswith(":ro") for v in kb["volumes"] if v.startswith(f"{volume}:"))


def test_kubernetes_replicas_mount_a_read_write_many_claim_for_the_document_store() -> None:
    deployment = find("Deployment", "kb")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    sources = env_of(container)["KB_SOURCES_DIR"]
    (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == sources]
    assert not mount.get("readOnly")
    (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    claim = find("PersistentVolumeClaim", volume["persistentVolumeClaim"]["claimName"])
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]  # pods on any node, at once
    assert claim["spec"]["resources"]["requests"]["storage"]
    assert pod["securityContext"]["fsGroup"] == pod["securityContext"]["runAsGroup"]  # the volume is kb's to write
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text(encoding="utf-8"))
    (claim_file,) = [f for f, d in k8s_docs() if d["kind"] == "PersistentVolumeClaim"
                     and d["metadata"]["name"] == claim["metadata"]["name"]]
    assert f"k8s/{claim_file}" in kustomization["resources"]


def test_compose_kubernetes_and_the_image_agree_on_the_document_store() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    in_compose = compose["services"]["kb"]["environment"]["KB_SOURCES_DIR"]
    in_k8s = env_of(find("Deployment", "kb")["spec"]["template"]["spec"]["containers"][0])["KB_SOURCES_DIR"]
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    final = dockerfile[dockerfile.rindex("FROM "):]
    (in_image,) = re.findall(r"KB_SOURCES_DIR=(\S+)", final)
    assert in_compose == in_k8s == in_image
