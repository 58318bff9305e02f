#!/usr/bin/python3
"""Players in the console, in a real browser (Debian's headless Chromium via
selenium), against a live coordinator, two workers and a console: a player
name, Next puzzle, plays judged and rated by the store, the history, the
puzzle of the day, and the new routes' bad input.

Usage: players_test.py BIN_DIR OUT_DIR   (screenshots and logs go to OUT_DIR)
"""
import os
import sys
import unittest

from selenium.webdriver.common.by import By

from browser import ApiClient, ConsolePageTest, make_driver
from stack import Stack

BIN, OUT = sys.argv[1], sys.argv[2]
SECRET_NUMBERS = 6  # the whole family: Next puzzle runs dry after these
PAGE_FETCH = """
const [method, path, body, done] = arguments;
fetch(path, {method, credentials: 'same-origin',
             headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf},
             body: method === 'GET' ? undefined : JSON.stringify(body)})
  .then(async (r) => done([r.status, await r.json()]))
  .catch((e) => done([0, String(e)]));
"""


class PlayersTest(ConsolePageTest):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OUT, exist_ok=True)
        cls.stack = Stack(BIN, OUT)
        try:
            cls.stack.start_cluster()
            for family, count in (("secret-number", SECRET_NUMBERS), ("sudoku", 3)):
                cls.stack.foundry("campaign", "submit", "--coordinator", cls.stack.addr,
                                  "--family", family, "--count", str(count), "--seed", "5",
                                  "--watch")
            cls.url = cls.stack.start_console("console-players", "admin")
            # Another visitor of the same console: reads solutions the way an
            # operator would, from a session that is not playing.
            cls.oracle = ApiClient(cls.url)
            cls.driver = make_driver()
            cls.served = []  # secret-number ids served to alice, in order
        except Exception:
            cls.stack.stop()
            raise

    # ---- helpers ----

    def text_of(self, selector):
        return self.wait(lambda d: self.text_now(selector))

    def text_now(self, selector):
        """The element's text now, read in one go: the page redraws parts of
        itself as its requests return, so a found element may be replaced
        before its text is read."""
        return (self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';",
            selector) or "").strip()

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(OUT, name + ".png"))

    def page_call(self, method, path, body=None):
        """The console's API from inside the page: the browser's own session."""
        return self.driver.execute_async_script(PAGE_FETCH, method, path, body)

    def solution(self, puzzle_id):
        code, body = self.oracle.call("GET", "/api/puzzles/%s/solution" % puzzle_id)
        self.assertEqual(code, 200, body)
        return body["answer"]

    def browser_errors(self):
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"
                and e.get("source") != "network"]

    def next_from_play_page(self, family, offset="0"):
        """Next puzzle on #/play; the id of the round it opens."""
        self.open("play")
        button = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#next-puzzle:enabled"))
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#next-family option[value='%s']" % family))
        self.select("#next-family", family)
        self.select("#next-offset", offset)
        button.click()
        view = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-round='next']"))
        return view.get_attribute("data-id")

    def answer(self, text):
        box = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#play-answer"))
        box.clear()
        box.send_keys(text)
        self.css("#play-submit").click()

    # ---- tests, in order ----
    def test_01_a_player_name_is_set_and_kept_in_the_session(self):
        self.open("play")
        button = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#next-puzzle"))
        self.assertFalse(button.is_enabled())  # no player yet
        self.assertIn("Choose a name", self.text_of("#player-current"))
        name = self.css("#player-name")
        name.send_keys("  alice ")
        self.css("#player-set").click()
        self.wait(lambda d: self.text_now("#player-shown") == "alice")
        self.wait(lambda d: self.text_now("#player-badge") == "Player: alice")
        self.assertTrue(self.css("#next-puzzle").is_enabled())
        # The name belongs to the session: a reload keeps it.
        self.driver.refresh()
        self.wait(lambda d: self.text_now("#player-shown") == "alice")
        cell = self.wait(lambda d: d.find_element(
            By.CSS_SELECTOR, "tr.rating-row[data-family='secret-number'] [data-field=rating]"))
        self.assertEqual(cell.get_attribute("data-value"), "1500")  # a new player's rating
        self.shot("play-new-player")

    def test_02_next_puzzle_and_a_wrong_answer_is_not_solved_with_a_rating_change(self):
        puzzle_id = self.next_from_play_page("secret-number", "-300")
        self.served.append(puzzle_id)
        self.assertTrue(puzzle_id.startswith("sn-"), puzzle_id)
        img = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "img#puzzle-svg"))
        self.wait(lambda d: d.execute_script("return arguments[0].naturalWidth > 0;", img))
        self.assertTrue(self.text_of("#play-prompt"))
        self.assertIn("easier (−300)", self.text_of("#round-info"))
        # The player's own session gets no solution while the round is open.
        code, body = self.page_call("GET", "/api/puzzles/%s/solution" % puzzle_id)
        self.assertEqual(code, 409, body)
        self.assertIn("answer it first", body["error"])
        right = self.solution(puzzle_id)
        wrong = right[:-1] + str((int(right[-1]) + 1) % 10)
        self.answer(wrong)
        result = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#play-result.wrong"))
        self.assertEqual(result.text, "Not solved")
        change = self.css("#rating-change")
        self.assertLess(int(change.get_attribute("data-change")), 0)
        self.assertRegex(change.text, r"^Rating 1500 → \d+ \(−\d+\) in secret-number")
        self.assertEqual(self.text_of("#solution-text"), right)
        self.assertFalse(self.css("#play-submit").is_enabled())  # one answer per round
        self.shot("round-wrong")
        # A retry (the same answer) or a second answer counts nothing more:
        # the round's play_id makes the store record it once.
        play = "/api/player/rounds/%s/play" % puzzle_id
        for again in (wrong, right):
            code, body = self.page_call("POST", play, {"answer": again, "seconds": 3})
            self.assertEqual(code, 200, body)
            self.assertTrue(body["replayed"])
            self.assertFalse(body["round"]["result"]["solved"])
        code, player = self.page_call("GET", "/api/player")
        self.assertEqual(code, 200, player)
        figures = {r["family"]: r for r in player["ratings"]}["secret-number"]
        self.assertEqual((figures["plays"], figures["solves"]), (1, 0))
        self.assertEqual(len(player["history"]), 1)

    def test_03_a_right_answer_is_solved(self):
        self.css("#round-next").click()  # the same family and difficulty
        view = self.wait(lambda d: d.find_element(
            By.CSS_SELECTOR, "#puzzle-view[data-round='next']:not([data-id='%s'])" % self.served[-1]))
        puzzle_id = view.get_attribute("data-id")
        self.served.append(puzzle_id)
        self.answer("not a number")  # unreadable: nothing recorded, type again
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#play-result.error"))
        self.assertTrue(self.css("#play-submit").is_enabled())
        self.answer(self.solution(puzzle_id))
        result = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#play-result.right"))
        self.assertEqual(result.text, "Solved!")
        self.assertGreater(int(self.css("#rating-change").get_attribute("data-change")), 0)
        self.assertTrue(self.css("#solution-text").get_attribute("hidden") is not None)
        self.shot("round-right")
        # The history of this session: newest first, each with its result
        # and the rating after it.
        self.open("play")
        rows = self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.history-row")) == 2
                         and d.find_elements(By.CSS_SELECTOR, "tr.history-row"))
        self.assertEqual([r.get_attribute("data-id") for r in rows], self.served[::-1])
        self.assertEqual([r.get_attribute("data-result") for r in rows], ["solved", "failed"])
        after = [int(r.find_element(By.CSS_SELECTOR, "[data-field=rating]").text) for r in rows]
        self.assertGreater(after[0], after[1])
        ratings = "tr.rating-row[data-family='secret-number'] "
        self.wait(lambda d: self.text_now(ratings + "[data-field=plays]") == "2")
        self.assertEqual(self.css(ratings + "[data-field=solves]").text, "1")
        now = float(self.css(ratings + "[data-field=rating]").get_attribute("data-value"))
        self.assertEqual(round(now), after[0])  # the rating after the last play
        self.shot("play-history")

    def test_04_the_same_puzzle_is_never_served_twice(self):
        while len(self.served) < SECRET_NUMBERS:
            self.served.append(self.next_from_play_page("secret-number", "600"))
        self.assertEqual(len(set(self.served)), SECRET_NUMBERS, self.served)
        # The family is exhausted for alice: said so, never a repeat.
        self.open("play")
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#next-puzzle:enabled"))
        self.select("#next-family", "secret-number")
        self.css("#next-puzzle").click()
        error = self.text_of("#next-error")
        self.assertIn("has been served every puzzle of family 'secret-number'", error)
        self.assertIn("alice", error)
        self.assertTrue(self.driver.current_url.endswith("#/play"))
        # The skipped rounds are waiting, linked from the page.
        links = self.driver.find_elements(By.CSS_SELECTOR, "#open-rounds a.open-round")
        self.assertEqual(len(links), SECRET_NUMBERS - 2)
        self.shot("play-exhausted")

    def test_05_the_puzzle_of_the_day_is_the_same_for_two_sessions(self):
        first, second = ApiClient(self.url), ApiClient(self.url)
        code1, a = first.call("GET", "/api/daily?family=sudoku")
        code2, b = second.call("GET", "/api/daily?family=sudoku")
        self.assertEqual((code1, code2), (200, 200), (a, b))
        self.assertEqual(a["puzzle"]["id"], b["puzzle"]["id"])
        self.assertRegex(a["date"], r"^\d{4}-\d\d-\d\d$")
        daily_id = a["puzzle"]["id"]
        # A session without a player may look but not play.
        code, body = first.call("POST", "/api/player/daily", {"family": "sudoku"},
                                csrf=first.session["csrf"])
        self.assertEqual(code, 400, body)
        self.assertIn("set a player name first", body["error"])
        # The browser's session sees the same one and plays it.
        self.open("play")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#next-family option[value='sudoku']"))
        self.select("#next-family", "sudoku")
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#daily-puzzle[data-id='%s']" % daily_id))
        self.assertEqual(self.text_now("#daily-date"), a["date"])
        self.shot("play-daily")
        # Clicked from a script: the panel may be redrawn by a late answer
        # between finding the button and clicking it.
        self.wait(lambda d: d.execute_script(
            "const b = document.querySelector('#daily-play:enabled'); if (b) b.click(); return !!b;"))
        view = self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view[data-round='daily']"))
        self.assertEqual(view.get_attribute("data-id"), daily_id)
        self.answer(self.solution(daily_id))
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#play-result.right"))
        self.open("play")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#next-family option[value='sudoku']"))
        self.select("#next-family", "sudoku")
        self.wait(lambda d: self.text_now("#daily-play") == "See your result")
        self.assertEqual(self.browser_errors(), [])

    def test_06_bad_input_on_the_new_routes_is_a_clear_400(self):
        api = ApiClient(self.url)
        csrf = api.session["csrf"]

        def post(path, body, **kw):
            return api.call("POST", path, body, csrf=kw.get("csrf", csrf), headers=kw.get("headers"))

        for body, words in (({"name": ""}, "must not be empty"),
                            ({"name": "   "}, "must not be empty"),
                            ({"name": "x" * 200}, "at most 128 bytes, got 200"),
                            ({"name": "a\nb"}, "control characters"),
                            ({}, "give a player name")):
            code, answer = post("/api/player", body)
            self.assertEqual(code, 400, (body, answer))
            self.assertIn(words, answer["error"])
        # The CSRF and Origin rules of every POST apply.
        code, _ = api.call("POST", "/api/player", {"name": "mallory"})
        self.assertEqual(code, 403)
        code, _ = post("/api/player", {"name": "mallory"}, headers={"Origin": "http://evil.example"})
        self.assertEqual(code, 403)
        code, answer = post("/api/player/next", {"family": "secret-number"})
        self.assertEqual(code, 400, answer)
        self.assertIn("set a player name first", answer["error"])
        self.assertEqual(post("/api/player", {"name": "carol"})[0], 200)
        for body, words in (({"family": "secret-number", "offset": "abc"}, "offset must be a number -1000..1000"),
                            ({"family": "secret-number", "offset": 5000}, "got 5000"),
                            ({"family": "chess"}, "unknown family 'chess'"),
                            ({"family": ""}, "choose a family")):
            code, answer = post("/api/player/next", body)
            self.assertEqual(code, 400, (body, answer))
            self.assertIn(words, answer["error"])
        code, answer = api.call("GET", "/api/daily?family=chess")
        self.assertEqual(code, 400, answer)
        self.assertIn("chess", answer["error"])
        code, answer = api.call("GET", "/api/daily?family=sudoku&date=2020-13-01")
        self.assertEqual(code, 400, answer)
        self.assertIn("2020-13-01", answer["error"])
        # Only a puzzle served to the session's player plays rated.
        code, answer = post("/api/player/rounds/%s/play" % self.served[0], {"answer": "1"})
        self.assertEqual(code, 404, answer)
        self.assertIn("was not served to this session's player", answer["error"])
        code, answer = post("/api/player/rounds/nonsense/play", {"answer": "1"})
        self.assertEqual(code, 400, answer)
        # A long value from the URL comes back as a short quote, not whole.
        long_value = "z" * 6000
        for method, path in (("GET", "/api/player/rounds/" + long_value),
                             ("POST", "/api/player/rounds/%s/play" % long_value),
                             ("GET", "/api/puzzles/" + long_value),
                             ("GET", "/api/daily?family=" + long_value),
                             ("GET", "/api/store/query?page_size=" + long_value)):
            code, answer = (post(path, {"answer": "1"}) if method == "POST"
                            else api.call(method, path))
            self.assertEqual(code, 400, (path[:60], answer))
            self.assertIn("(6000 bytes)", answer["error"])
            self.assertLess(len(answer["error"]), 400, answer["error"][:300])
        # An unreadable answer records nothing.
        code, served = post("/api/player/next", {"family": "secret-number", "offset": -600})
        self.assertEqual(code, 200, served)
        self.assertEqual(served["player"]["plays"], 0)
        play = "/api/player/rounds/%s/play" % served["round"]["puzzle_id"]
        code, answer = post(play, {"answer": "abc"})
        self.assertEqual(code, 400, answer)
        self.assertIn("answer", answer["error"])
        code, answer = post(play, {"answer": 5})
        self.assertEqual(code, 400, answer)
        for seconds in ("abc", -5, True):
            code, answer = post(play, {"answer": "1234", "seconds": seconds})
            self.assertEqual(code, 400, (seconds, answer))
            self.assertIn("seconds must be a number, 0 or more", answer["error"])
        code, player = api.call("GET", "/api/player")
        self.assertEqual({r["family"]: r["plays"] for r in player["ratings"]}["secret-number"], 0)
        self.assertEqual(player["history"], [])
        self.assertEqual(len(player["open_rounds"]), 1)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
