#!/usr/bin/python3
"""The console in a real browser (Debian's headless Chromium via selenium),
against a live coordinator, two workers and the console processes.

Usage: console_test.py BIN_DIR OUT_DIR   (screenshots and logs go to OUT_DIR)
"""
import json
import os
import re
import subprocess
import sys
import time
import unittest

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from browser import ApiClient, ConsolePageTest, make_driver
from stack import Stack

BIN, OUT = sys.argv[1], sys.argv[2]
FAMILIES = ["alignment", "balance", "bulls-cows", "decodoku", "secret-number", "sudoku", "zebra"]
HOSTILE = ["<script>alert('x')</script>", "<img src=x onerror=alert('y')>"]


def hostile_zebra(stack, tmp):
    """A zebra puzzle whose item names are markup, verified and imported."""
    db = os.path.join(tmp, "zebra-db")
    stack.foundry("run", "--family", "zebra", "--count", "1", "--seed", "77", "--db", db)
    line = stack.foundry("export", "--db", db).stdout.splitlines()[0]
    record = json.loads(line)
    names = record["puzzle"]["categories"][0]["items"]
    text = json.dumps(record)
    for old, new in zip(names[:2], HOSTILE):
        text = text.replace(json.dumps(old), json.dumps(new))
    path = os.path.join(tmp, "hostile.jsonl")
    with open(path, "w") as f:
        f.write(text + "\n")
    # The id is a hash of the new names: `foundry verify` names the right one.
    said = stack.foundry("verify", path, check=False)
    said = said.stdout + said.stderr
    right_id = re.search(r"id should be (\S+) for this puzzle", said).group(1)
    record = json.loads(text)
    record["id"] = right_id
    with open(path, "w") as f:
        f.write(json.dumps(record) + "\n")
    return stack.foundry("import", path, "--coordinator", stack.addr).stdout


class ConsoleTest(ConsolePageTest):
    WAIT_SECONDS = 60

    @classmethod
    def setUpClass(cls):
        os.makedirs(OUT, exist_ok=True)
        cls.stack = Stack(BIN, OUT)
        try:
            cls.stack.start_cluster()
            # Some puzzles of every family, through the real workers.
            for family in FAMILIES:
                cls.stack.foundry("campaign", "submit", "--coordinator", cls.stack.addr,
                                  "--family", family, "--count", "4", "--seed", "5", "--watch")
            cls.import_out = hostile_zebra(cls.stack, cls.stack.tmp)
            cls.url = cls.stack.start_console("console-admin", "admin")
            cls.driver = make_driver()
        except Exception:
            cls.stack.stop()
            raise

    # ---- helpers ----

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(OUT, name + ".png"))

    def assert_no_alert(self):
        with self.assertRaises(NoAlertPresentException):
            self.driver.switch_to.alert.text

    def browser_errors(self):
        # Script errors and CSP violations; failed requests the tests make on
        # purpose (a bad form, a bad login) are the page's to show, not errors.
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"
                and e.get("source") != "network"]

    def first_id(self, family):
        r = self.stack.foundry("export", "--coordinator", self.stack.addr, "--family", family,
                               "--limit", "1")
        return json.loads(r.stdout.splitlines()[0])["id"]

    def assert_drawing_shown(self):
        img = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "img#puzzle-svg"))
        self.wait(lambda d: d.execute_script(
            "const i = arguments[0]; return i.complete && i.naturalWidth > 0;", img))
        box = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", img)
        self.assertGreater(box[0], 50)
        self.assertGreater(box[1], 50)

    # ---- tests, in page order ----
    def test_01_campaign_from_the_form_reaches_100_percent_and_the_charts_grow(self):
        self.open("overview")
        chart = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "svg#rate-chart"))
        self.wait(lambda d: int(chart.get_attribute("data-points") or 0) >= 1)
        before = int(chart.get_attribute("data-points"))
        self.open("campaigns")
        form = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form#new-campaign"))
        self.select("#nc-family", "secret-number")
        count = self.css("#nc-count")
        count.clear()
        count.send_keys("30000")
        seed = self.css("#nc-seed")
        seed.clear()
        seed.send_keys("9")
        self.shot("new-campaign")
        form.find_element(By.CSS_SELECTOR, "#nc-submit").click()
        detail = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#campaign-detail[data-id]"))
        campaign_id = detail.get_attribute("data-id")
        self.assertRegex(campaign_id, r"^c-[0-9a-f]{16}$")
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#campaign-progress")
                  .get_attribute("data-progress") == "100", timeout=240)
        stored = self.css("[data-field=stored]").text.replace(",", "")
        self.assertEqual(stored, "30000")
        self.wait(lambda d: int(d.find_element(By.CSS_SELECTOR, "svg#campaign-chart")
                                .get_attribute("data-points") or 0) >= 2)
        self.shot("campaign")
        # Over gRPC too: the campaign is done with exactly the count.
        listing = self.stack.foundry("campaign", "status", campaign_id, "--coordinator",
                                     self.stack.addr).stdout
        self.assertIn("30,000", listing)
        self.open("overview")
        self.wait(lambda d: int(d.find_element(By.CSS_SELECTOR, "svg#rate-chart")
                                .get_attribute("data-points") or 0) > before)
        self.assertEqual(self.css("#workers-alive").text, "2")
        self.shot("overview")
        self.assertEqual(self.browser_errors(), [])

    def test_02_form_errors_are_the_servers_words(self):
        self.open("campaigns")
        self.select("#nc-family", "sudoku")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-param]"))
        count = self.css("#nc-count")
        count.clear()
        count.send_keys("0")
        self.css("#nc-submit").click()
        err = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#nc-error").text)
        self.assertIn("count", err)

    def test_03_workers_page_lists_both_workers(self):
        self.open("workers")
        rows = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.worker-row"))
        ids = sorted(r.get_attribute("data-id") for r in rows)
        self.assertEqual(ids, ["worker-1", "worker-2"])
        self.shot("workers")

    def row_ids(self):
        """The browse table's puzzle ids, read in one go (the page re-renders it)."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('tr.puzzle-row')].map(r => r.dataset.id);")

    def test_04_store_table_and_browse(self):
        self.open("store")
        cell = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "td[data-family='sudoku'][data-level]"))
        self.assertTrue(cell.text)
        self.select("#f-family", "secret-number")
        self.css("#f-apply").click()
        self.wait(lambda d: self.row_ids() and all(i.startswith("sn-") for i in self.row_ids()))
        first_page = self.row_ids()
        self.assertEqual(len(first_page), 50)
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#browse-next")).click()
        self.wait(lambda d: self.row_ids() and not set(self.row_ids()) & set(first_page))
        self.assertTrue(all(i.startswith("sn-") for i in self.row_ids()))
        self.shot("store")
        link = self.css("tr.puzzle-row a.puzzle-link")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
        link.click()
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-id^='sn-']"))

    def test_05_every_family_is_drawn(self):
        for family in FAMILIES:
            with self.subTest(family=family):
                puzzle_id = self.first_id(family)
                self.open("puzzles/" + puzzle_id)
                self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-id='%s']" % puzzle_id))
                self.assert_drawing_shown()
                self.assertTrue(self.css("pre#puzzle-text").text.strip())
                self.shot("puzzle-" + family)
        self.assertEqual(self.browser_errors(), [])

    def test_06_play_wrong_then_right(self):
        puzzle_id = self.first_id("secret-number")
        self.open("puzzles/" + puzzle_id)
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-id='%s']" % puzzle_id))
        self.css("#reveal-solution").click()
        answer = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "pre#solution-text").text.strip())
        wrong = answer[:-1] + str((int(answer[-1]) + 1) % 10)
        before = self.stack.get_puzzle(puzzle_id).get("plays", {})
        box = self.css("#play-answer")
        box.send_keys(wrong)
        self.css("#play-submit").click()
        self.wait(lambda d: "wrong" in d.find_element(By.CSS_SELECTOR, "#play-result").get_attribute("class"))
        box.clear()
        box.send_keys(answer)
        self.css("#play-submit").click()
        self.wait(lambda d: "right" in d.find_element(By.CSS_SELECTOR, "#play-result").get_attribute("class"))
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-plays [data-field=solved]").text
                  == str(before.get("solved", 0) + 1))
        self.shot("puzzle-played")
        after = self.stack.get_puzzle(puzzle_id)["plays"]  # over gRPC
        self.assertEqual(after["solved"], before.get("solved", 0) + 1)
        self.assertEqual(after["failed"], before.get("failed", 0) + 1)
        # An unreadable answer is an error, and no play is recorded.
        box.clear()
        box.send_keys("not a number")
        self.css("#play-submit").click()
        self.wait(lambda d: "error" in d.find_element(By.CSS_SELECTOR, "#play-result").get_attribute("class"))
        self.assertEqual(self.stack.get_puzzle(puzzle_id)["plays"], after)
        # So is a time that is not one (a script's mistake, never the page's).
        api = ApiClient(self.url)
        for seconds in ("abc", -1, [3]):
            code, body = api.call("POST", "/api/puzzles/%s/play" % puzzle_id,
                                  {"answer": answer, "seconds": seconds}, csrf=api.session["csrf"])
            self.assertEqual(code, 400, (seconds, body))
            self.assertIn("seconds must be a number, 0 or more", body["error"])
        self.assertEqual(self.stack.get_puzzle(puzzle_id)["plays"], after)

    def test_07_hostile_names_render_as_text(self):
        self.assertIn("stored", self.import_out)
        rows = self.stack.foundry("export", "--coordinator", self.stack.addr, "--family", "zebra").stdout
        hostile = [json.loads(l) for l in rows.splitlines() if "onerror" in l]
        self.assertEqual(len(hostile), 1, self.import_out)
        self.open("puzzles/" + hostile[0]["id"])
        view = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-id]"))
        self.assert_drawing_shown()
        text = self.css("pre#puzzle-text").text
        self.assertIn(HOSTILE[0], text)
        self.assertIn(HOSTILE[1], text)
        self.assertEqual(view.find_elements(By.CSS_SELECTOR, "script"), [])
        self.assertEqual([i.get_attribute("id") for i in view.find_elements(By.CSS_SELECTOR, "img")],
                         ["puzzle-svg"])
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "img[src='x'], img[onerror]"), [])
        self.assert_no_alert()
        self.shot("puzzle-hostile")
        # The store page lists it safely too.
        self.open("store")
        self.select("#f-family", "zebra")
        self.css("#f-apply").click()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.puzzle-row"))
        self.assert_no_alert()

    def test_08_a_forged_post_is_refused(self):
        api = ApiClient(self.url)
        self.assertEqual(api.session["role"], "admin")
        spec = {"family": "secret-number", "count": "5"}
        code, body = api.call("POST", "/api/campaigns", spec)  # no CSRF token
        self.assertEqual(code, 403, body)
        code, body = api.call("POST", "/api/campaigns", spec, csrf="0" * 64)
        self.assertEqual(code, 403, body)
        code, body = api.call("POST", "/api/campaigns", spec, csrf=api.session["csrf"],
                              headers={"Origin": "http://evil.example"})
        self.assertEqual(code, 403, body)
        code, body = api.call("GET", "/api/session", headers={"Host": "evil.example"})
        self.assertEqual(code, 403, body)
        # DNS rebinding with a name that looks like a loopback address, and
        # a loopback address on another port: both refused.
        port = self.url.rsplit(":", 1)[1].rstrip("/")
        for host in (f"127.attacker.example:{port}", f"127.0.0.1.nip.io:{port}",
                     f"127.0.0.1:{int(port) + 1}"):
            code, body = api.call("GET", "/api/session", headers={"Host": host})
            self.assertEqual(code, 403, (host, body))
        code, body = api.call("GET", "/api/session", headers={"Host": f"localhost:{port}"})
        self.assertEqual(code, 200, body)
        code, body = api.call("POST", "/api/campaigns", {"family": "chess", "count": "5"},
                              csrf=api.session["csrf"])
        self.assertEqual(code, 400, body)
        self.assertIn("chess", body["error"])

    def test_09_a_reader_console_has_no_form_and_refuses_posts(self):
        url = self.stack.start_console("console-reader", "reader")
        api = ApiClient(url)
        self.assertEqual(api.session["role"], "reader")
        code, body = api.call("POST", "/api/campaigns", {"family": "secret-number", "count": "5"},
                              csrf=api.session["csrf"])
        self.assertEqual(code, 403, body)
        driver = self.driver
        driver.get(url + "#/campaigns")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.campaign-row"))
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "form#new-campaign"), [])
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "#campaign-cancel"), [])
        self.assertEqual(self.css("#role").text.strip().lower(), "reader")
        self.shot("campaigns-reader")

    def test_10_login_when_required(self):
        url = self.stack.start_console("console-login", "reader", ["--require-login"])
        driver = self.driver
        driver.get(url + "#/overview")
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form#login-form"))
        self.css("#login-token").send_keys("not-a-token")
        self.css("#login-submit").click()
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#login-error").text)
        self.shot("login")
        with open(self.stack.tokens["admin"]) as f:
            admin = f.read().strip()
        box = self.css("#login-token")
        box.clear()
        box.send_keys(admin)
        self.css("#login-submit").click()
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#role").text.strip().lower() == "admin")
        api = ApiClient(url)
        self.assertEqual(api.session["role"], "none")
        code, _ = api.call("GET", "/api/campaigns")
        self.assertEqual(code, 401)

    def test_12_a_console_without_its_own_token_asks_for_a_login(self):
        url = self.stack.start_console("console-no-token", None)
        api = ApiClient(url)
        self.assertEqual(api.session["role"], "none")
        self.assertTrue(api.session["login_required"])
        code, _ = api.call("GET", "/api/overview")
        self.assertEqual(code, 401)
        with open(self.stack.tokens["reader"]) as f:
            code, body = api.call("POST", "/api/login", {"token": f.read()}, csrf=api.session["csrf"])
        self.assertEqual((code, body.get("role")), (200, "reader"))
        with open(self.stack.tokens["worker"]) as f:
            fresh = ApiClient(url)
            code, body = fresh.call("POST", "/api/login", {"token": f.read()}, csrf=fresh.session["csrf"])
        self.assertEqual(code, 401, body)
        self.assertIn("worker token", body["error"])
        # A huge token is refused by the console itself, never sent on.
        huge = ApiClient(url)
        code, body = huge.call("POST", "/api/login", {"token": "x" * 100_000},
                               csrf=huge.session["csrf"])
        self.assertEqual(code, 400, body)
        self.assertIn("at most 1024 characters", body["error"])
        self.driver.get(url + "#/overview")
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form#login-form"))

    def test_11_off_loopback_without_tls_it_refuses_to_start(self):
        r = subprocess.run([BIN + "/foundry-console", "--coordinator", self.stack.addr,
                            "--listen", "0.0.0.0:0"], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("refusing to listen on 0.0.0.0:0 without HTTPS", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
