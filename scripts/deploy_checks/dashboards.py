"""Dashboards and alert rules: every foundry_* selector names its scrape job
(foundry_jobs_total and foundry_jobs_in_flight mean different things in the
coordinator and the workers), panels use the provisioned datasource, each
alert's signal annotation is part of its expression."""

import json
import os
import re

from .common import get, load_all, problem


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
