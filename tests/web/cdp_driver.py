#!/usr/bin/env python3
"""Opens one texstream page in headless Chromium and reports its verdict.

  cdp_driver.py --root build-web/www --page "fluid.html?size=64&steps=30" [--panel]
                [--scenario NAME] [--expect-log REGEX]... [--check NAME]

Serves --root on 127.0.0.1 (python3 -m http.server, stopped by its process id), starts
Chromium headless with software WebGL2 (SwiftShader) and talks the Chrome DevTools Protocol
to it over --remote-debugging-pipe (file descriptors 3 and 4, JSON messages ended by NUL).
It streams the page's console to stdout, waits until document.title starts with PASS or
FAIL (the page shell, web/texstream-page.js, sets it from the program's exit code), then
takes a screenshot and checks it is not blank (and, with --panel, that a Dear ImGui panel
is drawn). Exit status 0 when the page says PASS, nothing was logged at error level, and
the screenshot checks hold (with --expect-fail TEXT: when the page says FAIL and its error
box shows TEXT); 1 otherwise, with the reason on stderr; 2 for a bad command line. WebGL
errors the browser reports on the console ("WebGL: INVALID_OPERATION ...") count as errors.

--scenario NAME drives a running demo first (scenarios.py: touches, files, downloads) and
ends its run; --check NAME looks at what the page left after its verdict (scenarios.py);
--expect-log REGEX must match a line the page logged. What both engines' drivers share is in
page_driver.py (bidi_driver.py drives Firefox).

Standard library only, so any machine with python3 and chromium runs it.
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import page_driver
from page_driver import Failure

# Chromium with WebGL2 on the CPU: SwiftShader through ANGLE (no GPU, no display needed).
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--mute-audio",
    "--window-size=1024,700",
]


class Chromium:
    """Chromium driven over --remote-debugging-pipe: commands on fd 3, answers on fd 4."""

    name = "Chromium"

    def __init__(self, executable, download_dir):
        self.download_dir = download_dir
        self.profile = tempfile.mkdtemp(prefix="texstream-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def give_pipes():
            # In the child: the pipes become its fds 3 and 4 (moved above 10 first, so that
            # neither overwrites the other); dup2 makes them survive exec, while every other
            # descriptor Python opened is close-on-exec.
            high_read = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            high_write = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [executable, *CHROMIUM_FLAGS, "--user-data-dir=" + self.profile, "about:blank"],
            close_fds=False, preexec_fn=give_pipes, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir}, session=False)
        pages = [t for t in self.send("Target.getTargets", session=False)["targetInfos"] if t["type"] == "page"]
        if not pages:
            raise Failure("Chromium has no page target")
        self.session = self.send("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.send(domain)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise Failure("Chromium did not answer in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise Failure("Chromium closed its DevTools pipe (it exited with %s)" % self.process.poll())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise Failure("%s: %s" % (method, answer["error"].get("message")))
                return answer.get("result", {})
            self.events.append(answer)

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression, timeout=60):
        result = self.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise Failure("%s: %s" % (expression[:80], details.get("exception", {}).get("description", details.get("text"))))
        return result["result"].get("value")

    def console(self):
        events, self.events = self.events, []
        lines = []
        for event in events:
            level, text = console_text(event)
            if level is not None:
                lines.append((level, text))
        return lines

    def screenshot(self, clip=None):
        params = {"format": "png"}
        if clip:
            x, y, w, h = clip
            params["clip"] = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
        return base64.b64decode(self.send("Page.captureScreenshot", params)["data"])

    def touch(self, kind, points):
        self.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (Failure, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, 9)
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


def console_text(event):
    """One console event (Runtime.consoleAPICalled, Runtime.exceptionThrown, Log.entryAdded)
    as (level, text)."""
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.consoleAPICalled":
        parts = [a.get("value", a.get("description", "")) for a in params.get("args", [])]
        return params.get("type", "log"), " ".join(str(p) for p in parts)
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        return "error", "uncaught: " + details.get("exception", {}).get("description", details.get("text", ""))
    if method == "Log.entryAdded":
        entry = params.get("entry", {})
        return entry.get("level", "info"), "[%s] %s %s" % (entry.get("source"), entry.get("text"), entry.get("url", ""))
    return None, None


def main():
    args = page_driver.arguments(__doc__.split("\n\n")[0], lambda p: p.add_argument(
        "--chromium", default=os.environ.get("CHROMIUM", "chromium")))
    executable = shutil.which(args.chromium)
    if not executable:
        print("cdp_driver: %s not found (apt-get install chromium; ./run web installs it)" % args.chromium,
              file=sys.stderr)
        return 1
    return page_driver.run(args, lambda downloads: Chromium(executable, downloads), "cdp_driver")


if __name__ == "__main__":
    sys.exit(main())
