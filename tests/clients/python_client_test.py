"""The coordinator's gRPC API from another language: Python stubs generated
from proto/ with Debian's protoc and grpc_python_plugin, against a real
coordinator and real workers on 127.0.0.1 (ephemeral ports), every process
stopped at the end.

What a client that is not ours must be able to count on: the protos compile
for it, roles hold for its bearer tokens, a campaign it submits ends exact,
its reads page through the store, its plays are judged, a request it cannot
encode properly is named, and a worker it writes that lies is caught without
changing a single stored id.

Usage: python_client_test.py BIN_DIR PROTO_DIR OUT_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

BIN, PROTO, OUT = sys.argv[1:4]
del sys.argv[1:4]

import grpc  # noqa: E402  (Debian: python3-grpcio)

# The browser test's process helpers: token files, logs in OUT, stop at the end.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))
from stack import Stack  # noqa: E402


def generate_stubs(into):
    """foundry/v1/*_pb2.py and *_pb2_grpc.py, as a user on Debian 12 makes them
    (python3-grpc-tools bundles a protoc too old for proto3 `optional`)."""
    plugin = shutil.which("grpc_python_plugin")
    protos = sorted(os.path.join("foundry/v1", f)
                    for f in os.listdir(os.path.join(PROTO, "foundry/v1")) if f.endswith(".proto"))
    subprocess.run(["protoc", "-I", PROTO, "--python_out", into, "--grpc_out", into,
                    "--plugin=protoc-gen-grpc=" + plugin, *protos], check=True)
    sys.path.insert(0, into)


TMP = tempfile.mkdtemp(prefix="python-client-")
generate_stubs(TMP)
from foundry.v1 import campaign_pb2 as campaign  # noqa: E402
from foundry.v1 import campaign_pb2_grpc as campaign_grpc  # noqa: E402
from foundry.v1 import store_pb2 as store  # noqa: E402
from foundry.v1 import store_pb2_grpc as store_grpc  # noqa: E402
from foundry.v1 import worker_pb2 as worker  # noqa: E402
from foundry.v1 import worker_pb2_grpc as worker_grpc  # noqa: E402


def foundry(*args):
    r = subprocess.run([os.path.join(BIN, "foundry"), *args], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        raise RuntimeError("foundry %s: %s%s" % (" ".join(args), r.stdout, r.stderr))
    return r.stdout


def ids_of(jsonl):
    return sorted(json.loads(line)["id"] for line in jsonl.splitlines() if line)


class PythonClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OUT, exist_ok=True)
        cls.stack = Stack(BIN, OUT)
        cls.tokens = cls.stack.tokens
        # A store with puzzles in it before the coordinator opens it.
        cls.db = os.path.join(TMP, "db")
        foundry("run", "--family", "sudoku", "--count", "60", "--seed", "3", "--db", cls.db,
                "--quiet")
        coordinator = cls.stack.spawn("coordinator", [
            os.path.join(BIN, "foundry-coordinator"), "--listen", "127.0.0.1:0", "--db", cls.db,
            "--admin-token-file", cls.tokens["admin"],
            "--reader-token-file", cls.tokens["reader"],
            "--worker-token-file", cls.tokens["worker"],
            # Every job of a new worker is re-generated in full by another.
            "--probation-jobs", "1000"])
        port = cls.stack.wait_for("coordinator", r"listening on port (\d+)", coordinator).group(1)
        cls.addr = "127.0.0.1:" + port
        cls.channel = grpc.insecure_channel(cls.addr)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.stack.stop()
        shutil.rmtree(cls.stack.tmp, ignore_errors=True)
        shutil.rmtree(TMP, ignore_errors=True)

    def auth(self, role):
        with open(self.tokens[role]) as f:
            return [("authorization", "Bearer " + f.read().strip())]

    def campaigns(self):
        return campaign_grpc.CampaignServiceStub(self.channel)

    def puzzles(self):
        return store_grpc.PuzzleStoreStub(self.channel)

    def run_workers(self, name, campaign_id, count=1):
        """Workers that stop by themselves when the campaign ends."""
        return [self.stack.spawn("%s-%d" % (name, i), [
            os.path.join(BIN, "foundry-worker"), "--coordinator", self.addr, "--threads", "1",
            "--campaign", campaign_id, "--token-file", self.tokens["worker"],
            "--worker-id", "%s-%d" % (name, i)]) for i in range(count)]

    def wait_done(self, campaign_id, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            c = self.campaigns().GetCampaign(
                campaign.GetCampaignRequest(campaign_id=campaign_id), metadata=self.auth("reader"))
            if c.state != campaign.CAMPAIGN_STATE_RUNNING:
                return c
            time.sleep(0.2)
        self.fail("campaign %s still running after %d s" % (campaign_id, timeout))

    def test_1_roles_hold_for_a_foreign_client(self):
        spec = campaign.CampaignSpec(family="secret-number", count=5)
        with self.assertRaises(grpc.RpcError) as none:
            self.campaigns().SubmitCampaign(campaign.SubmitCampaignRequest(spec=spec))
        self.assertEqual(none.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        with self.assertRaises(grpc.RpcError) as reader:
            self.campaigns().SubmitCampaign(campaign.SubmitCampaignRequest(spec=spec),
                                            metadata=self.auth("reader"))
        self.assertEqual(reader.exception.code(), grpc.StatusCode.PERMISSION_DENIED)
        families = self.campaigns().ListFamilies(campaign.ListFamiliesRequest(),
                                                 metadata=self.auth("reader"))
        self.assertEqual(len(families.families), 8)
        self.assertIn(("sudoku", "sd"), [(f.name, f.id_prefix) for f in families.families])

    def test_2_reads_page_through_the_store_and_plays_are_judged(self):
        stats = self.puzzles().GetStats(store.StatsRequest(), metadata=self.auth("reader"))
        seen, token = [], ""
        while True:
            page = self.puzzles().QueryPuzzles(
                store.QueryRequest(filter=store.PuzzleFilter(family="sudoku"), page_size=7,
                                   page_token=token), metadata=self.auth("reader"))
            seen += [p.id for p in page.puzzles]
            token = page.next_page_token
            if not token:
                break
        self.assertEqual(len(seen), 60)
        self.assertEqual(len(set(seen)), 60)
        self.assertGreaterEqual(stats.puzzles, 60)
        exported = list(self.puzzles().ExportPuzzles(store.ExportRequest(limit=5),
                                                     metadata=self.auth("reader")))
        self.assertEqual(len(exported), 5)

        full = self.puzzles().GetPuzzle(store.GetPuzzleRequest(id=seen[0], include_solution=True),
                                        metadata=self.auth("reader"))
        grid = json.loads(full.solution_json)["grid"]
        answer = "/".join(grid[r * 9:(r + 1) * 9] for r in range(9))
        played = self.puzzles().RecordPlay(
            store.RecordPlayRequest(id=seen[0], seconds=42.5, answer=answer, player_id="py"),
            metadata=self.auth("reader"))
        self.assertTrue(played.judged)
        self.assertTrue(played.solved)
        wrong = self.puzzles().RecordPlay(
            store.RecordPlayRequest(id=seen[1], seconds=10, answer=answer, player_id="py"),
            metadata=self.auth("reader"))
        self.assertTrue(wrong.judged)
        self.assertFalse(wrong.solved)

    def test_3_requests_it_cannot_encode_are_named(self):
        raw = self.channel.unary_unary("/foundry.v1.CampaignService/GetCampaign",
                                       request_serializer=lambda b: b,
                                       response_deserializer=lambda b: b)
        for body in (b"\xff\xff\xff", b"\x0a\x01\xff"):  # not protobuf; a string that is not UTF-8
            with self.assertRaises(grpc.RpcError) as bad:
                raw(body, metadata=self.auth("reader"))
            self.assertEqual(bad.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn("not a valid message for /foundry.v1.CampaignService/GetCampaign",
                          bad.exception.details())
        with self.assertRaises(grpc.RpcError) as bad:
            self.puzzles().QueryPuzzles(store.QueryRequest(page_size=5000),
                                        metadata=self.auth("reader"))
        self.assertEqual(bad.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("page_size must be 1..1000", bad.exception.details())

    def test_4_a_lying_worker_changes_no_stored_id(self):
        spec = campaign.CampaignSpec(family="sudoku", count=400, seed=11, job_size=40)
        submitted = self.campaigns().SubmitCampaign(campaign.SubmitCampaignRequest(spec=spec),
                                                    metadata=self.auth("admin"))
        fingerprint = self.campaigns().ListWorkers(
            campaign.ListWorkersRequest(), metadata=self.auth("reader")).generation_fingerprint
        liar = worker_grpc.WorkerServiceStub(self.channel)
        # The liar takes the first job before any honest worker exists.
        lease = worker.LeaseRequest(worker_id="py-liar", threads=1,
                                    generation_fingerprint=fingerprint,
                                    campaign_id=submitted.id)
        job = liar.Lease(lease, metadata=self.auth("worker")).job
        honest = self.run_workers("honest", submitted.id, count=2)
        quarantined = None
        deadline = time.time() + 60
        while quarantined is None and time.time() < deadline:
            n = job.end_index - job.first_index
            if job.kind == worker.JOB_KIND_GENERATE:
                # Omission: every candidate claimed rejected.
                chunk = worker.ResultChunk(
                    lease_id=job.lease_id, last=True,
                    stats=worker.JobStats(candidates=n, rejected_by_reason={"not_unique": n}))
            else:
                # A verifier that calls every puzzle invalid.
                chunk = worker.ResultChunk(
                    lease_id=job.lease_id, last=True,
                    verdicts=[worker.PuzzleVerdict(index=p.index, valid=False, problem="forged")
                              for p in job.puzzles],
                    regenerated=[worker.Regenerated(index=i, reason="not_unique")
                                 for i in (range(job.first_index, job.end_index)
                                           if job.regenerate_all else job.regenerate)])
            try:
                liar.SubmitResults(iter([chunk]), metadata=self.auth("worker"))
                job = None
                while job is None and time.time() < deadline:
                    offer = liar.Lease(lease, metadata=self.auth("worker"))
                    if offer.campaign_ended:
                        self.fail("the campaign ended with the liar still trusted")
                    if offer.HasField("job"):
                        job = offer.job
                    else:
                        time.sleep(offer.retry_after_ms / 1000)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.PERMISSION_DENIED:
                    raise
                quarantined = e.details()
        self.assertIsNotNone(quarantined, "the liar was never quarantined")
        self.assertIn("quarantined", quarantined)

        done = self.wait_done(submitted.id)
        self.assertEqual(done.state, campaign.CAMPAIGN_STATE_DONE, done.message)
        self.assertEqual(done.counters.stored, 400)
        for proc in honest:
            self.assertEqual(proc.wait(timeout=60), 0)
        workers = self.campaigns().ListWorkers(campaign.ListWorkersRequest(),
                                               metadata=self.auth("reader")).workers
        self.assertIn(("py-liar", campaign.WORKER_STATE_QUARANTINED),
                      [(w.worker_id, w.state) for w in workers])
        reference = os.path.join(TMP, "reference")
        foundry("run", "--family", "sudoku", "--count", "400", "--seed", "11", "--db", reference,
                "--quiet")
        stored = []
        for p in self.puzzles().ExportPuzzles(
                store.ExportRequest(filter=store.PuzzleFilter(campaign_id=submitted.id)),
                metadata=self.auth("reader")):
            stored.append(p.id)
        self.assertEqual(sorted(stored), ids_of(foundry("export", "--db", reference)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
