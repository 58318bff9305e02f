"""The compose file (deploy/compose.yaml): the four services, scalable
workers, volumes, and commands whose flags the binaries accept, wired to
each other's ports and to the Prometheus config."""

import os

from .binaries import check_command
from .common import get, load_all, port_of, problem


def check_compose(repo, bins):
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
    ccmd = check_command("compose coordinator", coord.get("command"), bins)
    cm = mounts(coord)
    db = ccmd.get("--db", "")
    if not any(src in named_volumes and (db == dst or db.startswith(dst.rstrip("/") + "/")) for src, dst in cm):
        problem("compose coordinator", f"--db {db} is not on a named volume")
    worker = services["worker"]
    wcmd = check_command("compose worker", worker.get("command"), bins)
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
