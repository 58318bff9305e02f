"""A real coordinator, two workers and consoles on 127.0.0.1, for the
browser test. Every process is started with ephemeral ports and stopped at
the end, whatever happens."""
import json
import os
import re
import signal
import subprocess
import tempfile
import time


class Stack:
    def __init__(self, bin_dir, out_dir):
        self.bin = bin_dir
        self.out = out_dir
        self.tmp = tempfile.mkdtemp(prefix="console-test-")
        self.procs = []
        self.tokens = {}
        for role in ("admin", "reader", "worker"):
            path = os.path.join(self.tmp, role + ".token")
            with open(path, "w") as f:
                f.write(role + "-" + os.urandom(12).hex() + "\n")
            os.chmod(path, 0o600)  # token files must be the owner's alone
            self.tokens[role] = path
        self.addr = None

    def spawn(self, name, args):
        with open(os.path.join(self.out, name + ".log"), "w") as log:
            p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p

    def wait_for(self, name, pattern, proc, timeout=60):
        path = os.path.join(self.out, name + ".log")
        deadline = time.time() + timeout
        while time.time() < deadline:
            with open(path) as f:
                m = re.search(pattern, f.read())
            if m:
                return m
            if proc.poll() is not None:
                raise RuntimeError(name + " exited: " + open(path).read())
            time.sleep(0.1)
        raise RuntimeError(name + " did not start: " + open(path).read())

    def start_cluster(self):
        p = self.spawn("coordinator", [
            self.bin + "/foundry-coordinator", "--listen", "127.0.0.1:0",
            "--db", os.path.join(self.tmp, "db"), "--metrics-listen", "127.0.0.1:0",
            "--admin-token-file", self.tokens["admin"],
            "--reader-token-file", self.tokens["reader"],
            "--worker-token-file", self.tokens["worker"]])
        port = self.wait_for("coordinator", r"listening on port (\d+)", p).group(1)
        self.addr = "127.0.0.1:" + port
        for i in (1, 2):
            self.spawn("worker-%d" % i, [
                self.bin + "/foundry-worker", "--coordinator", self.addr, "--threads", "1",
                "--worker-id", "worker-%d" % i, "--token-file", self.tokens["worker"]])

    def start_console(self, name, token_role, extra=()):
        token = ["--token-file", self.tokens[token_role]] if token_role else []
        p = self.spawn(name, [
            self.bin + "/foundry-console", "--coordinator", self.addr,
            "--listen", "127.0.0.1:0", "--poll-ms", "500", *token, *extra])
        return self.wait_for(name, r"serving (http://\S+)", p).group(1)

    def foundry(self, *args, token="admin", check=True):
        env = dict(os.environ, FOUNDRY_TOKEN_FILE=self.tokens[token])
        r = subprocess.run([self.bin + "/foundry", *args], env=env, capture_output=True,
                           text=True, timeout=300)
        if check and r.returncode != 0:
            raise RuntimeError("foundry %s: %s%s" % (" ".join(args), r.stdout, r.stderr))
        return r

    def get_puzzle(self, puzzle_id):
        """The stored record, read over gRPC by the CLI."""
        return json.loads(self.foundry("get", puzzle_id, "--coordinator", self.addr).stdout)

    def stop(self):
        # Consoles and workers first, the coordinator last.
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
