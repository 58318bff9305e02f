"""What the browser tests share: a headless Chromium, and the console's JSON
API with a cookie jar (a second visitor, or a forger)."""
import http.cookiejar
import json
import urllib.error
import urllib.request

import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def make_driver():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1000"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


class ConsolePageTest(unittest.TestCase):
    """A test class driving one console page: setUpClass sets cls.stack,
    cls.url and cls.driver; the browser and the stack are stopped after."""

    WAIT_SECONDS = 30

    @classmethod
    def tearDownClass(cls):
        try:
            cls.driver.quit()
        finally:
            cls.stack.stop()

    def open(self, route):
        self.driver.get(self.url + "#/" + route)

    def wait(self, cond, timeout=None):
        return WebDriverWait(self.driver, timeout or self.WAIT_SECONDS,
                             poll_frequency=0.2).until(cond)

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def select(self, selector, value):
        """Chooses `value` in the select `selector` once that option is there
        (lists such as the families arrive after the page is drawn)."""
        option = "%s option[value='%s']" % (selector, value)
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, option))
        Select(self.css(selector)).select_by_value(value)


class ApiClient:
    """The console's JSON API with a cookie jar, as a script (or a forger) sees it."""

    def __init__(self, base):
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.session = self.call("GET", "/api/session")[1]

    def call(self, method, path, body=None, csrf=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if csrf:
            req.add_header("X-CSRF-Token", csrf)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")
