"""The Kubernetes manifests (deploy/k8s): what the API schemas do not say
(deploy/k8s/validate checks those) but this deployment needs.

- every object: its apiVersion, the foundry namespace; the kinds expected;
- pods: selectors that match their pod labels and select no other
  workload's pods, requests and a memory limit, probes on declared ports,
  a locked-down security context, Secrets, keys and volumes that exist,
  every file a flag or variable names on a mounted Secret that has it,
  every $(VAR) of a command defined, scrape annotations matching
  --metrics-listen;
- the coordinator: one replica with its store on a persistent volume, TLS,
  tokens, gRPC health probes, a PodDisruptionBudget that forbids evicting it;
- the workers: the worker token only; an autoscaled Deployment, and an
  Indexed Job whose workers exit when idle, with a pod failure policy;
- the campaign Job: `foundry campaign submit --watch` with the admin token,
  never retried;
- the backup CronJob: `foundry backup --coordinator` with the admin token,
  one run at a time, into the directory the coordinator's --backup-dir names;
- commands whose flags the binaries accept (binaries.check_command).
"""

import os
import re

from .binaries import check_command
from .common import get, load_all, port_of, problem

API_VERSIONS = {
    "Namespace": "v1", "Service": "v1", "Secret": "v1", "ConfigMap": "v1",
    "StatefulSet": "apps/v1", "Deployment": "apps/v1", "Job": "batch/v1", "CronJob": "batch/v1",
    "HorizontalPodAutoscaler": "autoscaling/v2",
    "NetworkPolicy": "networking.k8s.io/v1",
    "PodDisruptionBudget": "policy/v1",
}
REQUIRED_KINDS = ("Namespace", "Service", "StatefulSet", "Deployment", "Job",
                  "HorizontalPodAutoscaler", "PodDisruptionBudget", "Secret")
WORKLOAD_KINDS = ("StatefulSet", "Deployment", "Job", "CronJob")

# After SIGTERM a worker hands its leases back and exits within about 5 s
# (kStopGrace in worker/main.cc): its grace period must be longer.
WORKER_STOP_SECONDS = 5

# Flags and CLI variables that name a file the process reads at start.
FILE_FLAGS = ("--tls-ca", "--tls-cert", "--tls-key", "--tls-client-ca", "--token-file",
              "--admin-token-file", "--reader-token-file", "--worker-token-file")
FILE_VARIABLES = ("FOUNDRY_TLS_CA", "FOUNDRY_TLS_CERT", "FOUNDRY_TLS_KEY", "FOUNDRY_TOKEN_FILE")


def matches(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def secret_file(container, volumes, secrets, path):
    """Why `path` is not a key of a Secret mounted in the container, or None."""
    for m in container.get("volumeMounts") or []:
        mount = str(m.get("mountPath", "")).rstrip("/")
        if not path.startswith(mount + "/"):
            continue
        rel = path[len(mount) + 1:]
        secret = get(volumes, m.get("name"), "secret")
        if secret is None:
            return f"{path} is on volume {m.get('name')}, which is not a Secret"
        items = secret.get("items")
        if items is not None:
            paths = {i.get("path") for i in items}
            if rel not in paths:
                return f"{path}: volume {m.get('name')} projects only {', '.join(sorted(paths))}"
            return None
        if secrets.get(secret.get("secretName")) is not None and rel not in secrets[secret["secretName"]]:
            return f"{path}: Secret {secret.get('secretName')} has no key {rel}"
        return None
    return f"{path} is on no mounted volume"


def check_security(where, pod, c):
    """The locked-down security context, on the container or its pod."""
    pod_sc = pod.get("securityContext") or {}
    sc = c.get("securityContext") or {}
    if sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")) is not True:
        problem(where, "runAsNonRoot is not true (container or pod securityContext)")
    if get(sc, "seccompProfile", "type", default=get(pod_sc, "seccompProfile", "type")) != "RuntimeDefault":
        problem(where, "seccompProfile.type is not RuntimeDefault (container or pod securityContext)")
    if sc.get("allowPrivilegeEscalation") is not False:
        problem(where, "securityContext.allowPrivilegeEscalation should be false")
    if sc.get("readOnlyRootFilesystem") is not True:
        problem(where, "securityContext.readOnlyRootFilesystem should be true")
    if "ALL" not in (get(sc, "capabilities", "drop") or []):
        problem(where, "securityContext.capabilities.drop should hold ALL")
    if sc.get("privileged"):
        problem(where, "privileged")


def check_pod_template(where, kind, workload, bins, secrets, services):
    spec = workload["spec"]
    template = get(spec, "template") or {}
    labels = get(template, "metadata", "labels") or {}
    match = get(spec, "selector", "matchLabels") or {}
    if kind == "Job":
        # The Job controller makes a selector of its own (controller-uid).
        if get(spec, "selector") is not None:
            problem(where, "a Job should not set spec.selector (the Job controller makes one)")
    else:
        if not match:
            problem(where, "spec.selector.matchLabels is empty")
        for k, v in match.items():
            if labels.get(k) != v:
                problem(where, f"selector {k}={v} does not match the pod template's labels")
    pod = get(template, "spec") or {}
    restart = pod.get("restartPolicy")
    if kind == "Job" and restart not in ("Never", "OnFailure"):
        problem(where, f"restartPolicy {restart}: a Job's pods need Never or OnFailure")
    if kind != "Job" and restart not in (None, "Always"):
        problem(where, f"restartPolicy {restart}: a {kind} only allows Always")
    if get(pod, "securityContext", "runAsNonRoot") is not True:
        problem(where, "pod securityContext.runAsNonRoot is not true")
    containers = pod.get("containers") or []
    if not containers:
        problem(where, "no containers")
    volumes = {v.get("name"): v for v in pod.get("volumes") or []}
    claims = {get(c, "metadata", "name") for c in get(spec, "volumeClaimTemplates", default=[]) or []}
    for v in volumes.values():
        secret = get(v, "secret", "secretName")
        if secret and secret not in secrets:
            problem(where, f"volume {v.get('name')} reads Secret {secret}, which no manifest defines")
        for item in get(v, "secret", "items", default=[]) or []:
            if secret in secrets and item.get("key") not in secrets[secret]:
                problem(where, f"volume {v.get('name')} projects key {item.get('key')}, which Secret {secret} lacks")
    annotations = get(template, "metadata", "annotations") or {}
    result = {"labels": labels, "ports": {}, "command": {}, "containers": containers}
    for c in containers:
        cw = f"{where} container {c.get('name')}"
        for field in ("name", "image"):
            if not c.get(field):
                problem(cw, f"no {field}")
        for r in ("cpu", "memory"):
            if not get(c, "resources", "requests", r):
                problem(cw, f"no resources.requests.{r}")
        if not get(c, "resources", "limits", "memory"):
            problem(cw, "no resources.limits.memory")
        check_security(cw, pod, c)
        ports = {}
        for p in c.get("ports") or []:
            ports[p.get("containerPort")] = p
            if p.get("name"):
                ports[p["name"]] = p
        result["ports"].update(ports)
        # Deployments and StatefulSets serve: both probes. A Job's pods get
        # no traffic (no readiness) and may have a liveness probe.
        needed = ("readinessProbe", "livenessProbe") if kind != "Job" else ()
        for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
            pr = c.get(probe)
            if not pr:
                if probe in needed:
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
        env = {e.get("name"): e for e in c.get("env") or []}
        for e in env.values():
            ref = get(e, "valueFrom", "secretKeyRef")
            if ref:
                s = secrets.get(ref.get("name"))
                if s is None:
                    problem(cw, f"env {e.get('name')} reads Secret {ref.get('name')}, which no manifest defines")
                elif ref.get("key") not in s:
                    problem(cw, f"env {e.get('name')} reads key {ref.get('key')} that Secret {ref.get('name')} lacks")
        argv = (c.get("command") or []) + (c.get("args") or [])
        # Kubernetes expands $(VAR) from the container's env only, and leaves
        # an undefined one as it is: a worker would be named "$(POD_NAME)".
        for arg in argv:
            for var in re.findall(r"(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)", str(arg)):
                if var not in env:
                    problem(cw, f"$({var}) in its command, but no env {var}")
        cmd = check_command(cw, argv, bins)
        result["command"] = cmd
        binary = cmd.get("__binary__")
        for flag in FILE_FLAGS:
            if flag in cmd:
                why = secret_file(c, volumes, secrets, str(cmd[flag]))
                if why:
                    problem(cw, f"{flag}: {why}")
        for var in FILE_VARIABLES:
            if "value" in env.get(var, {}):
                why = secret_file(c, volumes, secrets, str(env[var]["value"]))
                if why:
                    problem(cw, f"env {var}: {why}")
        if binary in ("foundry-coordinator", "foundry-worker"):
            check_scrape(where, annotations, ports, cmd)
        if binary == "foundry-coordinator":
            check_coordinator(cw, c, cmd, ports, claims)
        if binary == "foundry-worker":
            check_worker(cw, c, cmd, volumes, secrets, services)
        if binary == "foundry":
            check_cli(cw, env, cmd, services)
    return result


def check_scrape(where, annotations, ports, cmd):
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


def check_coordinator_target(cw, target, services):
    host, _, port = str(target).rpartition(":")
    svc = services.get(host.split(".")[0])
    if svc is None:
        problem(cw, f"--coordinator {target}: no Service named {host.split('.')[0]}")
    elif port.isdigit() and int(port) not in [p.get("port") for p in get(svc, "spec", "ports", default=[])]:
        problem(cw, f"--coordinator {target}: Service {svc['metadata']['name']} has no port {port}")


def check_coordinator(cw, c, cmd, ports, claims):
    listen_port = port_of(cmd.get("--listen"))
    if listen_port not in ports:
        problem(cw, f"--listen port {listen_port} is not a container port")
    # The probes use the gRPC health service: on --health-listen's plaintext
    # port when there is one (kubelet cannot speak TLS).
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
    claimed = {m.get("mountPath", "").rstrip("/"): m.get("name") for m in c.get("volumeMounts") or []
               if m.get("name") in claims}

    def volume_of(path):
        for mp, name in claimed.items():
            if path == mp or path.startswith(mp + "/"):
                return name
        return None
    if volume_of(db) is None:
        problem(cw, f"--db {db} is not on a persistent volume (volumeClaimTemplates)")
    backups = cmd.get("--backup-dir")
    if backups is not None:
        if volume_of(backups) is None:
            problem(cw, f"--backup-dir {backups} is not on a persistent volume (volumeClaimTemplates)")
        elif volume_of(backups) == volume_of(db):
            problem(cw, f"--backup-dir {backups} is on the store's volume: a backup must outlive it")


def check_worker(cw, c, cmd, volumes, secrets, services):
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
    if "--coordinator" in cmd:
        check_coordinator_target(cw, cmd["--coordinator"], services)
    if "--tls-ca" not in cmd:
        problem(cw, "no --tls-ca: the coordinator speaks TLS")


def check_cli(cw, env, cmd, services):
    if "--coordinator" in cmd:
        check_coordinator_target(cw, cmd["--coordinator"], services)
    if "FOUNDRY_TLS_CA" not in env:
        problem(cw, "no env FOUNDRY_TLS_CA: the coordinator speaks TLS")
    if cmd.get("__subcommands__") == ("campaign", "submit") and \
            not str(get(env, "FOUNDRY_TOKEN_FILE", "value", default="")).endswith("/admin"):
        problem(cw, "env FOUNDRY_TOKEN_FILE is not the admin token, which submitting a campaign needs")
    if cmd.get("__subcommands__") == ("backup",) and \
            not str(get(env, "FOUNDRY_TOKEN_FILE", "value", default="")).endswith("/admin"):
        problem(cw, "env FOUNDRY_TOKEN_FILE is not the admin token, which a backup needs")


def check_job(where, job):
    """What every Job of the kustomization needs."""
    spec = job["spec"]
    if spec.get("suspend") is not True:
        problem(where, "not suspended: `kubectl apply -k deploy/k8s` would start it (spec.suspend: true)")
    if not isinstance(spec.get("backoffLimit"), int):
        problem(where, "no explicit backoffLimit")
    if spec.get("podFailurePolicy") and get(spec, "template", "spec", "restartPolicy") != "Never":
        problem(where, "podFailurePolicy requires restartPolicy: Never")


def check_worker_job(where, job, result):
    spec = job["spec"]
    cmd = result["command"]
    if spec.get("completionMode") != "Indexed":
        problem(where, "completionMode is not Indexed")
    n, p = spec.get("completions"), spec.get("parallelism")
    if not isinstance(n, int) or n < 1 or n != p:
        problem(where, f"completions {n!r} and parallelism {p!r}: one pod per index, all at once")
    if "--exit-when-idle" not in cmd:
        problem(where, "foundry-worker without --exit-when-idle: its pods would never complete")
    worker_id = str(cmd.get("--worker-id", ""))
    container = next((c for c in result["containers"]
                      if os.path.basename(str(((c.get("command") or []) + (c.get("args") or []) or [""])[0]))
                      == "foundry-worker"), {})
    env = {e.get("name"): e for e in container.get("env") or []}
    var = re.fullmatch(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", worker_id)
    if not var or get(env, var.group(1), "valueFrom", "fieldRef", "fieldPath") != "metadata.name":
        problem(where, "--worker-id should be $(VAR) with VAR the pod's name (downward API metadata.name)")
    rules = get(spec, "podFailurePolicy", "rules", default=[]) or []
    refused = [r for r in rules if r.get("action") == "FailJob" and
               get(r, "onExitCodes", "operator") == "In" and 3 in (get(r, "onExitCodes", "values") or [])]
    if not refused:
        problem(where, "no podFailurePolicy rule FailJob on exit code 3 (refused by the coordinator: retrying cannot help)")
    if not isinstance(spec.get("ttlSecondsAfterFinished"), int):
        problem(where, "no ttlSecondsAfterFinished: the finished Job and its pods stay forever")


def check_campaign_job(where, job, result):
    spec = job["spec"]
    if spec.get("backoffLimit") != 0:
        problem(where, "backoffLimit must be 0: a second pod would submit a second campaign")
    if get(spec, "template", "spec", "restartPolicy") != "Never":
        problem(where, "restartPolicy must be Never: a restarted container would submit a second campaign")
    if "--watch" not in result["command"]:
        problem(where, "without --watch the Job ends when the campaign starts, not when it ends")


def check_cron_job(where, cron, result):
    spec = cron["spec"]
    cmd = result["command"]
    if spec.get("concurrencyPolicy") != "Forbid":
        problem(where, "concurrencyPolicy must be Forbid: the coordinator takes one backup at a time")
    if not get(spec, "jobTemplate", "spec", "ttlSecondsAfterFinished"):
        problem(where, "no ttlSecondsAfterFinished: the finished Jobs and their pods stay forever")
    if cmd.get("__binary__") == "foundry" and cmd.get("__subcommands__") == ("backup",):
        if "--coordinator" not in cmd or "--to" not in cmd:
            problem(where, "a scheduled backup needs --coordinator and --to")


def check_kubernetes(repo, bins):
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
        if kind in WORKLOAD_KINDS:
            workloads[(kind, d["metadata"]["name"])] = (where, d)
    for kind in REQUIRED_KINDS:
        if kind not in kinds:
            problem("deploy/k8s", f"no {kind}")

    pods = {}
    for (kind, name), (where, d) in workloads.items():
        if kind == "CronJob":
            # Its pods are those of the Job it makes.
            job = {"spec": get(d, "spec", "jobTemplate", "spec") or {}}
            pods[(kind, name)] = p = check_pod_template(where, "Job", job, bins, secrets, services)
            check_cron_job(where, d, p)
            continue
        pods[(kind, name)] = p = check_pod_template(where, kind, d, bins, secrets, services)
        binary = p["command"].get("__binary__")
        grace = get(d, "spec", "template", "spec", "terminationGracePeriodSeconds", default=30)
        if binary == "foundry-worker" and not (isinstance(grace, int) and grace > WORKER_STOP_SECONDS):
            problem(where, f"terminationGracePeriodSeconds {grace}: a worker needs about {WORKER_STOP_SECONDS} s to hand its leases back")
        if kind == "StatefulSet":
            if d["spec"].get("replicas") != 1:
                problem(where, "the coordinator must have exactly 1 replica (one store, one writer)")
            if d["spec"].get("serviceName") not in services:
                problem(where, f"serviceName {d['spec'].get('serviceName')} is not a Service")
            claims = d["spec"].get("volumeClaimTemplates") or []
            if not claims or not all(get(c, "spec", "resources", "requests", "storage") for c in claims):
                problem(where, "needs volumeClaimTemplates with a storage request")
        if kind == "Deployment" and binary == "foundry-worker" and "--exit-when-idle" in p["command"]:
            problem(where, "--exit-when-idle in a Deployment: the idle worker would exit and be restarted, forever")
        if kind == "Job":
            check_job(where, d)
            if binary == "foundry-worker":
                check_worker_job(where, d, p)
            elif binary == "foundry" and p["command"].get("__subcommands__") == ("campaign", "submit"):
                check_campaign_job(where, d, p)

    def runs(kind, binary, subcommands=()):
        return [key for key, p in pods.items() if key[0] == kind and p["command"].get("__binary__") == binary
                and p["command"].get("__subcommands__", ()) == subcommands]
    for kind, binary, sub in (("StatefulSet", "foundry-coordinator", ()), ("Deployment", "foundry-worker", ()),
                              ("Job", "foundry-worker", ()), ("Job", "foundry", ("campaign", "submit")),
                              ("CronJob", "foundry", ("backup",))):
        if not runs(kind, binary, sub):
            problem("deploy/k8s", f"no {kind} runs {' '.join((binary, *sub))}")
    # The backups land where the coordinator reads their age at start, on a
    # volume of their own (a backup must outlive the store's volume).
    backup_dirs = {p["command"].get("--backup-dir") for key, p in pods.items()
                   if key in runs("StatefulSet", "foundry-coordinator")}
    for key in runs("CronJob", "foundry", ("backup",)):
        to = pods[key]["command"].get("--to")
        if to not in backup_dirs:
            problem(f"CronJob/{key[1]}", f"--to {to} is not the coordinator's --backup-dir ({', '.join(map(str, backup_dirs))})")

    # A Deployment's or StatefulSet's selector is also what its autoscaler
    # and Services see: it must pick its own pods and no other workload's.
    for (kind, name), (where, d) in workloads.items():
        if kind == "Job":
            continue
        selector = get(d, "spec", "selector", "matchLabels") or {}
        for other, p in pods.items():
            if other != (kind, name) and matches(selector, p["labels"]):
                problem(where, f"its selector also matches the pods of {other[0]}/{other[1]}")

    for name, svc in services.items():
        where = f"Service/{name}"
        selector = get(svc, "spec", "selector") or {}
        matched = [p for p in pods.values() if matches(selector, p["labels"])]
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
        key = (ref.get("kind"), ref.get("name"))
        if ref.get("kind") != "Deployment" or key not in workloads:
            problem(where, f"scaleTargetRef {ref} is not a Deployment of these manifests")
        elif pods[key]["command"].get("__binary__") != "foundry-worker":
            problem(where, "does not scale the workers")
        lo, hi = get(hpa, "spec", "minReplicas", default=1), get(hpa, "spec", "maxReplicas")
        if not isinstance(hi, int) or lo > hi:
            problem(where, "needs minReplicas <= maxReplicas")
        metrics = get(hpa, "spec", "metrics", default=[])
        if not any(get(m, "resource", "name") == "cpu" for m in metrics):
            problem(where, "does not scale on CPU")

    coordinators = runs("StatefulSet", "foundry-coordinator")
    guarded = False
    for pdb in kinds.get("PodDisruptionBudget", []):
        where = f"PodDisruptionBudget/{pdb['metadata']['name']}"
        selector = get(pdb, "spec", "selector", "matchLabels") or {}
        selected = [key for key, p in pods.items() if matches(selector, p["labels"])]
        if not selected:
            problem(where, "its selector matches no pod template")
        elif selected == coordinators:
            guarded = True
            # One replica: anything but "no voluntary eviction" lets a drain
            # take the only coordinator away.
            if get(pdb, "spec", "maxUnavailable") != 0:
                problem(where, "the coordinator has one replica: maxUnavailable must be 0")
        else:
            problem(where, f"selects {', '.join('/'.join(k) for k in selected)}, expected the coordinator alone")
    if coordinators and not guarded:
        problem("deploy/k8s", "no PodDisruptionBudget keeps the coordinator from voluntary eviction")
