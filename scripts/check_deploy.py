#!/usr/bin/python3
"""Checks of deploy/ and dashboards/ that need no cluster and no Docker.

Usage: scripts/check_deploy.py REPO_DIR BIN_DIR

- Kubernetes manifests (deploy/k8s): the fields each kind needs, selectors
  that match their pod labels, probes and scrape annotations on declared
  ports, Secrets and volumes that exist, one coordinator replica with a
  persistent volume, an autoscaler on the worker Deployment.
- The compose file: the four services, scalable workers, volumes, and
  commands whose flags the binaries accept (read from their --help), wired
  to each other's ports and to the Prometheus config.
- The Dockerfile: multi-stage on debian:12, non-root, a health check.
- Dashboards and alert rules: every foundry_* selector names its scrape job
  (foundry_jobs_total and foundry_jobs_in_flight mean different things in the
  coordinator and the workers), panels use the provisioned datasource.

Prints one line per problem and exits 1 when there is any. Needs PyYAML
(Debian's python3-yaml, which yamllint depends on).
"""

import json
import os
import re
import subprocess
import sys

import yaml

problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def load_all(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def get(d, *keys, default=None):
    for k in keys:
        if isinstance(d, dict) and k in d:
            d = d[k]
        elif isinstance(d, list) and isinstance(k, int) and k < len(d):
            d = d[k]
        else:
            return default
    return d


# ---------------------------------------------------------------- binaries

BINARIES = ("foundry-coordinator", "foundry-worker", "foundry", "foundry-console")


def binary_flags(bin_dir):
    """{binary: set of --flags} from each binary's --help."""
    flags = {}
    for name in BINARIES:
        path = os.path.join(bin_dir, name)
        if not os.access(path, os.X_OK):
            print(f"  note: {path} is not built; the flags passed to {name} are not checked")
            continue
        try:
            out = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=30)
        except OSError as e:
            problem(path, f"cannot run it for its flags ({e})")
            continue
        flags[name] = set(re.findall(r"(--[a-z][a-z0-9-]*)", out.stdout + out.stderr))
        if "--help" not in flags[name]:
            problem(path, "--help printed no flags")
    return flags


def check_command(where, argv, flags):
    """argv = [binary, --flag, value, ...]: the binary exists, every flag is
    one it accepts, and the required ones are there. Returns {flag: value}."""
    if not argv or not isinstance(argv, list):
        problem(where, "no command")
        return {}
    binary = os.path.basename(str(argv[0]))
    if binary not in BINARIES:
        problem(where, f"runs {argv[0]!r}, not one of {', '.join(BINARIES)}")
        return {}
    known = flags.get(binary)
    values = {}
    i = 1
    while i < len(argv):
        arg = str(argv[i])
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if known is not None and name not in known:
                problem(where, f"{binary} has no flag {name} (its flags: {', '.join(sorted(known))})")
            if not eq and i + 1 < len(argv) and not str(argv[i + 1]).startswith("--"):
                value = str(argv[i + 1])
                i += 1
            values[name] = value
        i += 1
    required = {"foundry-coordinator": ["--db", "--listen", "--metrics-listen"],
                "foundry-worker": ["--coordinator", "--metrics-listen"]}.get(binary, [])
    for r in required:
        if r not in values:
            problem(where, f"{binary} without {r}")
    values["__binary__"] = binary
    return values


def port_of(address):
    m = re.search(r":(\d+)$", address or "")
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------- Kubernetes

API_VERSIONS = {
    "Namespace": "v1", "Service": "v1", "Secret": "v1", "ConfigMap": "v1",
    "StatefulSet": "apps/v1", "Deployment": "apps/v1",
    "HorizontalPodAutoscaler": "autoscaling/v2",
    "NetworkPolicy": "networking.k8s.io/v1",
}


def check_pod_template(where, workload, flags, secrets, services):
    spec = workload["spec"]
    template = get(spec, "template") or {}
    labels = get(template, "metadata", "labels") or {}
    match = get(spec, "selector", "matchLabels") or {}
    if not match:
        problem(where, "spec.selector.matchLabels is empty")
    for k, v in match.items():
        if labels.get(k) != v:
            problem(where, f"selector {k}={v} does not match the pod template's labels")
    pod = get(template, "spec") or {}
    containers = pod.get("containers") or []
    if not containers:
        problem(where, "no containers")
    volumes = {v.get("name"): v for v in pod.get("volumes") or []}
    claims = {get(c, "metadata", "name") for c in get(spec, "volumeClaimTemplates", default=[]) or []}
    for v in volumes.values():
        secret = get(v, "secret", "secretName")
        if secret and secret not in secrets:
            problem(where, f"volume {v.get('name')} reads Secret {secret}, which no manifest defines")
    annotations = get(template, "metadata", "annotations") or {}
    result = {"labels": labels, "ports": {}, "command": {}}
    for c in containers:
        cw = f"{where} container {c.get('name')}"
        for field in ("name", "image"):
            if not c.get(field):
                problem(cw, f"no {field}")
        for r in ("cpu", "memory"):
            if not get(c, "resources", "requests", r):
                problem(cw, f"no resources.requests.{r}")
        ports = {}
        for p in c.get("ports") or []:
            ports[p.get("containerPort")] = p
            if p.get("name"):
                ports[p["name"]] = p
        result["ports"].update(ports)
        for probe in ("readinessProbe", "livenessProbe"):
            pr = c.get(probe)
            if not pr:
                problem(cw, f"no {probe}")
                continue
            kinds = [k for k in ("grpc", "httpGet", "tcpSocket", "exec") if k in pr]
            if len(kinds) != 1:
                problem(cw, f"{probe} needs exactly one of grpc, httpGet, tcpSocket, exec")
                continue
            port = get(pr, kinds[0], "port")
            if kinds[0] != "exec" and port not in ports:
                problem(cw, f"{probe} probes port {port!r}, which the container does not declare")
        for m in c.get("volumeMounts") or []:
            if m.get("name") not in volumes and m.get("name") not in claims:
                problem(cw, f"mounts volume {m.get('name')}, which is not defined")
        for e in c.get("env") or []:
            ref = get(e, "valueFrom", "secretKeyRef")
            if ref:
                s = secrets.get(ref.get("name"))
                if s is None:
                    problem(cw, f"env {e.get('name')} reads Secret {ref.get('name')}, which no manifest defines")
                elif ref.get("key") not in s:
                    problem(cw, f"env {e.get('name')} reads key {ref.get('key')} that Secret {ref.get('name')} lacks")
        argv = (c.get("command") or []) + (c.get("args") or [])
        cmd = check_command(cw, argv, flags)
        result["command"] = cmd
        metrics_port = port_of(cmd.get("--metrics-listen"))
        if annotations.get("prometheus.io/scrape") != "true":
            problem(where, 'no prometheus.io/scrape: "true" annotation on the pod template')
        scrape_port = annotations.get("prometheus.io/port")
        if not scrape_port or not scrape_port.isdigit():
            problem(where, "no numeric prometheus.io/port annotation")
        else:
            if int(scrape_port) not in ports:
                problem(where, f"prometheus.io/port {scrape_port} is not a container port")
            if metrics_port is not None and metrics_port != int(scrape_port):
                problem(where, f"--metrics-listen port {metrics_port} != prometheus.io/port {scrape_port}")
        listen_port = port_of(cmd.get("--listen"))
        if cmd.get("__binary__") == "foundry-coordinator":
            if listen_port not in ports:
                problem(cw, f"--listen port {listen_port} is not a container port")
            # The probes use the gRPC health service: on --health-listen's
            # plaintext port when there is one (kubelet cannot speak TLS).
            health_port = port_of(cmd["--health-listen"]) if "--health-listen" in cmd else listen_port
            if health_port not in ports:
                problem(cw, f"--health-listen port {health_port} is not a container port")
            for probe in ("readinessProbe", "livenessProbe"):
                if get(c, probe, "grpc", "port") != health_port:
                    problem(cw, f"{probe} must use the gRPC health service on port {health_port}")
            if "--tls-cert" not in cmd or "--admin-token-file" not in cmd:
                problem(cw, "the coordinator listens off loopback: it needs --tls-cert and --admin-token-file")
            if "--worker-token-file" not in cmd:
                problem(cw, "no --worker-token-file: workers would need the admin token")
            db = cmd.get("--db", "")
            mounts = [m.get("mountPath", "") for m in c.get("volumeMounts") or []
                      if m.get("name") in claims]
            if not any(db == mp or db.startswith(mp.rstrip("/") + "/") for mp in mounts):
                problem(cw, f"--db {db} is not on a persistent volume (volumeClaimTemplates)")
        if cmd.get("__binary__") == "foundry-worker":
            # Least privilege: the worker's pod sees the worker token only.
            for m in c.get("volumeMounts") or []:
                secret = volumes.get(m.get("name"), {}).get("secret") or {}
                keys = [i.get("key") for i in secret.get("items") or []] if secret else []
                if secret and secret.get("secretName") in secrets and \
                        set(secrets[secret["secretName"]]) & {"admin", "reader"} and \
                        (not keys or set(keys) & {"admin", "reader"}):
                    problem(cw, f"mounts the admin or reader token (volume {m.get('name')}): give it only the worker key")
            if not str(cmd.get("--token-file", "")).endswith("/worker"):
                problem(cw, f"--token-file {cmd.get('--token-file')} is not the worker token")
            target = cmd.get("--coordinator", "")
            host, _, port = target.rpartition(":")
            svc = services.get(host.split(".")[0])
            if svc is None:
                problem(cw, f"--coordinator {target}: no Service named {host.split('.')[0]}")
            elif port.isdigit() and int(port) not in [p.get("port") for p in get(svc, "spec", "ports", default=[])]:
                problem(cw, f"--coordinator {target}: Service {svc['metadata']['name']} has no port {port}")
        if not get(c, "securityContext", "allowPrivilegeEscalation") is False:
            problem(cw, "securityContext.allowPrivilegeEscalation should be false")
    if get(pod, "securityContext", "runAsNonRoot") is not True:
        problem(where, "pod securityContext.runAsNonRoot is not true")
    return result


def check_kubernetes(repo, flags):
    k8s = os.path.join(repo, "deploy", "k8s")
    docs = []
    for name in sorted(os.listdir(k8s)):
        if not name.endswith((".yaml", ".yml")) or name.startswith("kustomization"):
            continue
        for d in load_all(os.path.join(k8s, name)):
            docs.append((name, d))
    kustomization = load_all(os.path.join(k8s, "kustomization.yaml"))[0]
    for r in kustomization.get("resources") or []:
        if not os.path.exists(os.path.join(k8s, r)):
            problem("kustomization.yaml", f"resource {r} does not exist")
    secrets, services, workloads = {}, {}, {}
    kinds = {}
    for name, d in docs:
        where = f"deploy/k8s/{name} {d.get('kind')}/{get(d, 'metadata', 'name')}"
        for field in ("apiVersion", "kind"):
            if not d.get(field):
                problem(where, f"no {field}")
        if not get(d, "metadata", "name"):
            problem(where, "no metadata.name")
        kind = d.get("kind")
        kinds.setdefault(kind, []).append(d)
        if kind in API_VERSIONS and d.get("apiVersion") != API_VERSIONS[kind]:
            problem(where, f"apiVersion {d.get('apiVersion')}, expected {API_VERSIONS[kind]}")
        if kind not in API_VERSIONS:
            problem(where, f"unexpected kind {kind}")
        if kind != "Namespace" and get(d, "metadata", "namespace") != "foundry":
            problem(where, "metadata.namespace is not foundry")
        if kind == "Secret":
            secrets[d["metadata"]["name"]] = set((d.get("stringData") or {}).keys()) | set(
                (d.get("data") or {}).keys())
        if kind == "Service":
            services[d["metadata"]["name"]] = d
        if kind in ("StatefulSet", "Deployment"):
            workloads[d["metadata"]["name"]] = (where, d)
    for kind in ("Namespace", "Service", "StatefulSet", "Deployment", "HorizontalPodAutoscaler", "Secret"):
        if kind not in kinds:
            problem("deploy/k8s", f"no {kind}")

    pods = {}
    for name, (where, d) in workloads.items():
        pods[name] = check_pod_template(where, d, flags, secrets, services)
        if d["kind"] == "StatefulSet":
            if d["spec"].get("replicas") != 1:
                problem(where, "the coordinator must have exactly 1 replica (one store, one writer)")
            if d["spec"].get("serviceName") not in services:
                problem(where, f"serviceName {d['spec'].get('serviceName')} is not a Service")
            claims = d["spec"].get("volumeClaimTemplates") or []
            if not claims or not all(get(c, "spec", "resources", "requests", "storage") for c in claims):
                problem(where, "needs volumeClaimTemplates with a storage request")
    roles = {p["command"].get("__binary__"): n for n, p in pods.items()}
    for binary, kind in (("foundry-coordinator", "StatefulSet"), ("foundry-worker", "Deployment")):
        if binary not in roles:
            problem("deploy/k8s", f"no workload runs {binary}")
        elif workloads[roles[binary]][1]["kind"] != kind:
            problem("deploy/k8s", f"{binary} should run in a {kind}")

    for name, svc in services.items():
        where = f"Service/{name}"
        selector = get(svc, "spec", "selector") or {}
        matched = [p for p in pods.values() if all(p["labels"].get(k) == v for k, v in selector.items())]
        if not selector or not matched:
            problem(where, "its selector matches no pod template")
            continue
        for p in get(svc, "spec", "ports", default=[]):
            target = p.get("targetPort", p.get("port"))
            if not any(target in m["ports"] for m in matched):
                problem(where, f"targetPort {target!r} is not a port of the selected pods")

    for hpa in kinds.get("HorizontalPodAutoscaler", []):
        where = f"HorizontalPodAutoscaler/{hpa['metadata']['name']}"
        ref = get(hpa, "spec", "scaleTargetRef") or {}
        target = workloads.get(ref.get("name"))
        if ref.get("kind") != "Deployment" or target is None or target[1]["kind"] != "Deployment":
            problem(where, f"scaleTargetRef {ref} is not a Deployment of these manifests")
        elif pods[ref["name"]]["command"].get("__binary__") != "foundry-worker":
            problem(where, "does not scale the workers")
        lo, hi = get(hpa, "spec", "minReplicas", default=1), get(hpa, "spec", "maxReplicas")
        if not isinstance(hi, int) or lo > hi:
            problem(where, "needs minReplicas <= maxReplicas")
        metrics = get(hpa, "spec", "metrics", default=[])
        if not any(get(m, "resource", "name") == "cpu" for m in metrics):
            problem(where, "does not scale on CPU")


# ---------------------------------------------------------------- compose

def check_compose(repo, flags):
    path = os.path.join(repo, "deploy", "compose.yaml")
    c = load_all(path)[0]
    services = c.get("services") or {}
    missing = [s for s in ("coordinator", "worker", "prometheus", "grafana") if s not in services]
    for s in missing:
        problem("compose.yaml", f"no service {s}")
    if missing:
        return
    named_volumes = set((c.get("volumes") or {}).keys())

    def mounts(svc):
        out = []
        for v in svc.get("volumes") or []:
            src, _, rest = str(v).partition(":")
            dst = rest.split(":")[0]
            out.append((src, dst))
            if not src.startswith((".", "/")) and src not in named_volumes:
                problem("compose.yaml", f"volume {src} is not declared under volumes:")
            if src.startswith("."):
                if not os.path.exists(os.path.normpath(os.path.join(repo, "deploy", src))):
                    problem("compose.yaml", f"bind mount {src} does not exist")
        return out

    coord = services["coordinator"]
    ccmd = check_command("compose coordinator", coord.get("command"), flags)
    cm = mounts(coord)
    db = ccmd.get("--db", "")
    if not any(src in named_volumes and (db == dst or db.startswith(dst.rstrip("/") + "/")) for src, dst in cm):
        problem("compose coordinator", f"--db {db} is not on a named volume")
    worker = services["worker"]
    wcmd = check_command("compose worker", worker.get("command"), flags)
    if "container_name" in worker or worker.get("ports"):
        problem("compose worker", "has container_name or host ports: `--scale worker=N` would fail")
    # Least privilege: workers hold the worker token and nothing else.
    if "--worker-token-file" not in ccmd or "--admin-token-file" not in ccmd:
        problem("compose coordinator", "needs --admin-token-file and --worker-token-file")
    wvol = {dst: src for src, dst in mounts(worker)}
    token = str(wcmd.get("--token-file", ""))
    if not any(token.startswith(dst.rstrip("/") + "/") for dst in wvol):
        problem("compose worker", f"--token-file {token} is not on a mounted volume")
    for src, dst in mounts(coord):
        if ccmd.get("--admin-token-file", "").startswith(dst.rstrip("/") + "/") and src in wvol.values():
            problem("compose worker", f"mounts {src}, which holds the admin token")
    if wcmd.get("--coordinator") != f"coordinator:{port_of(ccmd.get('--listen'))}":
        problem("compose worker", f"--coordinator {wcmd.get('--coordinator')} is not coordinator:<its --listen port>")

    prom = services["prometheus"]
    pm = dict((dst, src) for src, dst in mounts(prom))
    config_src = pm.get("/etc/prometheus/prometheus.yml")
    if not config_src:
        problem("compose prometheus", "does not mount a config at /etc/prometheus/prometheus.yml")
    else:
        config = load_all(os.path.normpath(os.path.join(repo, "deploy", config_src)))[0]
        jobs = {j["job_name"]: j for j in config.get("scrape_configs", [])}
        cport, wport = port_of(ccmd.get("--metrics-listen")), port_of(wcmd.get("--metrics-listen"))
        targets = [t for s in get(jobs, "foundry-coordinator", "static_configs", default=[])
                   for t in s.get("targets", [])]
        if f"coordinator:{cport}" not in targets:
            problem(config_src, f"job foundry-coordinator does not scrape coordinator:{cport}")
        dns = get(jobs, "foundry-worker", "dns_sd_configs", 0) or {}
        if "worker" not in (dns.get("names") or []) or dns.get("port") != wport:
            problem(config_src, f"job foundry-worker does not discover worker:{wport} by DNS")
        for rule_file in config.get("rule_files") or []:
            if f"/etc/prometheus/{rule_file}" not in pm and rule_file not in pm:
                problem("compose prometheus", f"rule file {rule_file} is not mounted")
    graf = services["grafana"]
    gm = dict((dst, src) for src, dst in mounts(graf))
    if gm.get("/etc/grafana/provisioning") != "../dashboards/provisioning":
        problem("compose grafana", "does not mount dashboards/provisioning at /etc/grafana/provisioning")
    provider = load_all(os.path.join(repo, "dashboards", "provisioning", "dashboards", "foundry.yml"))[0]
    path_in = get(provider, "providers", 0, "options", "path")
    if gm.get(path_in) != "../dashboards":
        problem("compose grafana", f"does not mount dashboards/ at the provider's path {path_in}")
    if not get(graf, "environment", "FOUNDRY_PROMETHEUS_URL", default="").startswith("http://prometheus:"):
        problem("compose grafana", "FOUNDRY_PROMETHEUS_URL does not point at the prometheus service")


# ---------------------------------------------------------------- Dockerfile

def check_dockerfile(repo):
    text = open(os.path.join(repo, "deploy", "Dockerfile"), encoding="utf-8").read()
    # Each stage starts from debian:12 or from an earlier stage of the file.
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.M | re.I)
    names = set()
    for base, name in stages:
        if not (base.startswith("debian:12") or base in names):
            problem("Dockerfile", f"stage FROM {base}: neither debian:12 nor an earlier stage")
        names.add(name)
    if len(stages) < 2:
        problem("Dockerfile", f"needs several stages (has {len(stages)})")
    user = re.findall(r"^USER\s+(\S+)", text, re.M)
    if not user or user[-1].split(":")[0] in ("root", "0"):
        problem("Dockerfile", "the final stage must run as a non-root USER")
    if not re.search(r"^HEALTHCHECK\s", text, re.M):
        problem("Dockerfile", "no HEALTHCHECK")
    for b in BINARIES:
        if not re.search(rf"COPY --from=build[^\n]*(\\\n[^\n]*)*{re.escape(b)}\b", text):
            problem("Dockerfile", f"the runtime stage does not copy {b}")
    if "scripts/ensure-deps.sh" not in text:
        problem("Dockerfile", "the build stage should install the README's packages (scripts/ensure-deps.sh)")


# ---------------------------------------------------------------- queries

SELECTOR = re.compile(r"\b(foundry_[a-z0-9_]+)\b(\{[^}]*\})?")


def check_expr(where, expr):
    for m in SELECTOR.finditer(expr):
        if 'job="' not in (m.group(2) or "") and "job=~" not in (m.group(2) or ""):
            problem(where, f"{m.group(1)} without a job selector: {expr}")


def check_queries(repo):
    provisioned = load_all(os.path.join(repo, "dashboards", "provisioning", "datasources", "prometheus.yml"))[0]
    uid = get(provisioned, "datasources", 0, "uid")
    dash_dir = os.path.join(repo, "dashboards")
    uids = set()
    for name in sorted(os.listdir(dash_dir)):
        if not name.endswith(".json"):
            continue
        d = json.load(open(os.path.join(dash_dir, name), encoding="utf-8"))
        if d.get("uid") in uids or not d.get("uid"):
            problem(name, "missing or repeated dashboard uid")
        uids.add(d.get("uid"))
        ids = set()
        n = 0
        for p in d.get("panels", []):
            if p.get("id") in ids:
                problem(name, f"panel id {p.get('id')} repeated")
            ids.add(p.get("id"))
            if p.get("type") == "row":
                continue
            if get(p, "datasource", "uid") != uid:
                problem(f"{name} / {p.get('title')}", f"datasource uid is not the provisioned {uid!r}")
            if not p.get("targets"):
                problem(f"{name} / {p.get('title')}", "no targets")
            for t in p.get("targets", []):
                n += 1
                check_expr(f"{name} / {p.get('title')}", t.get("expr", ""))
        if n == 0:
            problem(name, "no queries")
    rules = load_all(os.path.join(repo, "deploy", "prometheus", "alerts.yml"))[0]
    for g in rules.get("groups", []):
        for r in g.get("rules", []):
            where = f"alerts.yml {r.get('alert')}"
            check_expr(where, r.get("expr", ""))
            signal = get(r, "annotations", "signal")
            if not signal:
                problem(where, "no signal annotation")
            elif re.sub(r"\s", "", signal) not in re.sub(r"\s", "", r.get("expr", "")):
                problem(where, "the signal annotation is not part of expr")


def main():
    repo, bin_dir = sys.argv[1], sys.argv[2]
    flags = binary_flags(bin_dir)
    checks = [("Kubernetes manifests", lambda: check_kubernetes(repo, flags)),
              ("compose file", lambda: check_compose(repo, flags)),
              ("Dockerfile", lambda: check_dockerfile(repo)),
              ("dashboard and alert queries", lambda: check_queries(repo))]
    for name, check in checks:
        before = len(problems)
        check()
        print(f"  {name}: {'ok' if len(problems) == before else 'FAILED'}")
    for p in problems:
        print(f"  problem: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
