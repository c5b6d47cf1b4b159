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
--expect-log REGEX must match a line the page logged.

Standard library only, so any machine with python3 and chromium runs it.
"""

import argparse
import base64
import fcntl
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# Chromium with WebGL2 on the CPU: SwiftShader through ANGLE (no GPU, no display needed).
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--mute-audio",
    "--window-size=1024,700",
]


class Failure(Exception):
    """The page or the browser did something the test does not accept."""


class Server:
    """python3 -m http.server on 127.0.0.1 and a free port, stopped by its process id."""

    def __init__(self, root):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root, "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 41234 (http://...) ..."
        words = line.split()
        if "port" not in words:
            self.stop()
            raise Failure("http.server did not start: " + line.strip())
        self.port = int(words[words.index("port") + 1])

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, 15)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, 9)
                self.process.wait()


class Browser:
    """Chromium driven over --remote-debugging-pipe: commands on fd 3, answers on fd 4."""

    def __init__(self, executable, profile_dir):
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
            [executable, *CHROMIUM_FLAGS, "--user-data-dir=" + profile_dir, "about:blank"],
            close_fds=False, preexec_fn=give_pipes, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

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

    def take_events(self):
        events, self.events = self.events, []
        return events

    def attach_to_page(self):
        pages = [t for t in self.send("Target.getTargets", session=False)["targetInfos"] if t["type"] == "page"]
        if not pages:
            raise Failure("Chromium has no page target")
        self.session = self.send("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True},
                                 session=False)["sessionId"]

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


def is_webgl_error(text):
    """A GL error the browser reports as a warning ("WebGL: INVALID_FRAMEBUFFER_OPERATION: ...")."""
    return bool(re.search(r"WebGL: (INVALID_|OUT_OF_MEMORY|CONTEXT_LOST)|GL_INVALID_", text))


class Page:
    """The page as a scenario sees it: JavaScript, frames, touches, screenshots, downloads."""

    def __init__(self, browser, download_dir):
        self.browser = browser
        self.download_dir = download_dir
        self.logged = []  # console lines seen so far

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (promises awaited); Failure on an exception."""
        result = self.browser.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise Failure("%s: %s" % (expression[:80], details.get("exception", {}).get("description", details.get("text"))))
        return result["result"].get("value")

    def frames(self):
        return self.evaluate("window.texstreamPage && window.texstreamPage.frames ? window.texstreamPage.frames() : 0") or 0

    def wait_frames(self, count=1, timeout=60):
        """Waits until the program has drawn `count` more frames."""
        target, deadline = self.frames() + count, time.monotonic() + timeout
        while self.frames() < target:
            if time.monotonic() > deadline:
                raise Failure("the program drew no frame in %.0f s" % timeout)
            time.sleep(0.05)

    def touch(self, kind, points):
        """Input.dispatchTouchEvent: kind touchStart/touchMove/touchEnd, points [(x, y), ...]
        in CSS pixels, identified by their index."""
        self.browser.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

    def drag(self, start, end, steps=8, fingers=None):
        """One finger (or several, `fingers` = list of (start, end)) from start to end in
        `steps` moves, a frame each."""
        paths = fingers or [(start, end)]
        at = lambda t: [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in paths]
        self.touch("touchStart", at(0.0))
        self.wait_frames()
        for k in range(1, steps + 1):
            self.touch("touchMove", at(k / steps))
            self.wait_frames()
        self.touch("touchEnd", [])
        self.wait_frames(2)

    def pixels(self, clip):
        """RGB rows of the screenshot of clip = (x, y, width, height)."""
        x, y, w, h = clip
        png = base64.b64decode(self.browser.send("Page.captureScreenshot", {
            "format": "png", "clip": {"x": x, "y": y, "width": w, "height": h, "scale": 1}})["data"])
        width, height, rows, channels = decode_png(png)
        return [[tuple(row[i:i + 3]) for i in range(0, width * channels, channels)] for row in rows]

    def wait_for_download(self, timeout=30):
        """The path of the next finished file in the download folder."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = [f for f in os.listdir(self.download_dir) if not f.endswith(".crdownload")]
            if done:
                return os.path.join(self.download_dir, done[0])
            time.sleep(0.1)
        raise Failure("no download within %.0f s" % timeout)


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


def decode_png(data):
    """(width, height, rows of RGB tuples' bytes, channels) of an 8-bit, non-interlaced PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure("the screenshot is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise Failure("unexpected screenshot format (depth %d, colour type %d)" % (depth, colour))
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):  # undo the PNG filter of this row
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows, channels


def screenshot_checks(png, want_panel):
    """Reasons the screenshot is not acceptable (empty list: it is)."""
    width, height, rows, channels = decode_png(png)
    colours, panel_pixels = set(), 0
    for row in rows[::2]:
        for x in range(0, width * channels, 2 * channels):
            r, g, b = row[x], row[x + 1], row[x + 2]
            colours.add((r >> 3, g >> 3, b >> 3))
            # Dear ImGui's dark style: frames (FrameBg 0.16, 0.29, 0.48 at 54 % over the window
            # background) and the title bar, sliders and headers in the same blue family.
            if b > r + 25 and b > g + 10 and 35 <= b <= 255 and r < 110:
                panel_pixels += 1
    problems = []
    if len(colours) < 8:
        problems.append("the screenshot is blank (%d distinct colours)" % len(colours))
    if want_panel and panel_pixels < 200:
        problems.append("no Dear ImGui panel in the screenshot (%d panel-blue pixels sampled)" % panel_pixels)
    return problems, len(colours), panel_pixels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="folder served on 127.0.0.1")
    parser.add_argument("--page", required=True, help="page under --root, with its URL parameters")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for PASS or FAIL")
    parser.add_argument("--screenshot", help="where to write the screenshot (PNG)")
    parser.add_argument("--panel", action="store_true", help="require a Dear ImGui panel in the screenshot")
    parser.add_argument("--expect-fail", metavar="TEXT", action="append",
                        help="the page must say FAIL and show TEXT in its error box (bad input is refused); "
                             "repeatable: every TEXT")
    parser.add_argument("--scenario", help="drive the running page first (a function of scenarios.py)")
    parser.add_argument("--check", help="check what the page left after its verdict (a function of scenarios.py)")
    parser.add_argument("--expect-log", action="append", default=[], metavar="REGEX",
                        help="a line the page logs must match (repeatable)")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "chromium"))
    args = parser.parse_args()
    # scenarios.py (next to this file) raises this module's Failure: one module, not two.
    sys.modules.setdefault("cdp_driver", sys.modules[__name__])
    import scenarios
    for name in (args.scenario, args.check):
        if name and not callable(getattr(scenarios, name, None)):
            parser.error("no scenario or check \"%s\" in scenarios.py" % name)
    if not os.path.isdir(args.root):
        parser.error("--root %s is not a folder" % args.root)
    executable = shutil.which(args.chromium)
    if not executable:
        print("cdp_driver: %s not found (apt-get install chromium; ./run web installs it)" % args.chromium,
              file=sys.stderr)
        return 1

    server = Server(args.root)
    profile = tempfile.mkdtemp(prefix="texstream-chromium-")
    downloads = tempfile.mkdtemp(prefix="texstream-downloads-")
    browser = None
    started = time.monotonic()
    try:
        browser = Browser(executable, profile)
        browser.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads}, session=False)
        browser.attach_to_page()
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            browser.send(domain)
        page = Page(browser, downloads)
        url = "http://127.0.0.1:%d/%s" % (server.port, args.page)
        print("cdp_driver: opening %s" % url, flush=True)
        browser.send("Page.navigate", {"url": url})

        errors, title, seen = [], "", set()

        def drain_console():
            for event in browser.take_events():
                level, text = console_text(event)
                if level is None:
                    continue
                page.logged.append(text)
                # The browser repeats some warnings every frame: once is enough.
                if level in ("warning", "verbose") and text in seen:
                    continue
                seen.add(text)
                print("console.%s: %s" % (level, text), flush=True)
                if level == "error" or is_webgl_error(text):
                    errors.append(text)

        deadline = time.monotonic() + args.timeout
        scenario_done = not args.scenario
        while True:
            # A page that computes in one go (the kernel tests) answers only when it is done.
            title = browser.send("Runtime.evaluate", {"expression": "document.title", "returnByValue": True},
                                 timeout=max(1.0, deadline - time.monotonic()))["result"].get("value", "")
            drain_console()
            if not scenario_done and not title.startswith(("PASS", "FAIL")) and page.frames() >= 3:
                print("cdp_driver: scenario %s" % args.scenario, flush=True)
                getattr(scenarios, args.scenario)(page)
                drain_console()
                page.evaluate("window.texstreamPage.close()")  # the run ends as a closed window's
                scenario_done = True
            if title.startswith("PASS") or title.startswith("FAIL"):
                if not scenario_done:
                    raise Failure("the run ended (\"%s\") before the scenario could drive it" % title)
                break
            if any(e.startswith("uncaught") for e in errors):
                title = "FAIL (uncaught exception)"
                break
            if time.monotonic() > deadline:
                raise Failure("no verdict after %.0f s (title \"%s\")" % (args.timeout, title))
            time.sleep(0.25)
        elapsed = time.monotonic() - started

        if args.expect_fail is not None:
            shown = browser.send("Runtime.evaluate", {
                "expression": "(document.getElementById('error') || {}).textContent || ''",
                "returnByValue": True})["result"].get("value", "")
            print("cdp_driver: title \"%s\"; the page shows: %s" % (title, shown.strip()), flush=True)
            if not title.startswith("FAIL"):
                raise Failure("the page says \"%s\", expected FAIL" % title)
            for text in args.expect_fail:
                if text not in shown:
                    raise Failure("the page's error box does not say \"%s\"" % text)
            uncaught = [e for e in errors if e.startswith("uncaught") or is_webgl_error(e)]
            if uncaught:
                raise Failure("; ".join(uncaught))
            print("cdp_driver: PASS %s (refused as expected)" % args.page)
            return 0

        if args.check:
            print("cdp_driver: check %s" % args.check, flush=True)
            getattr(scenarios, args.check)(page)
        drain_console()
        for pattern in args.expect_log:
            if not any(re.search(pattern, line) for line in page.logged):
                raise Failure("no logged line matches \"%s\"" % pattern)

        png = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"})["data"])
        if args.screenshot:
            with open(args.screenshot, "wb") as out:
                out.write(png)
        problems, colours, panel = screenshot_checks(png, args.panel)
        print("cdp_driver: title \"%s\" after %.1f s; screenshot %d colours, %d panel pixels" %
              (title, elapsed, colours, panel), flush=True)
        if not title.startswith("PASS"):
            problems.insert(0, "the page says \"%s\"" % title)
        problems += ["console error: " + e for e in errors]
        if problems:
            raise Failure("; ".join(problems))
        print("cdp_driver: PASS %s" % args.page)
        return 0
    except Failure as failure:
        print("cdp_driver: FAIL %s: %s" % (args.page, failure), file=sys.stderr)
        return 1
    finally:
        if browser:
            browser.close()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(downloads, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
