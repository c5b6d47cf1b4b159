"""What the browser tests share, whatever the engine: the server, the page as a scenario sees
it, the verdict loop and the screenshot checks. cdp_driver.py drives Chromium (Chrome
DevTools Protocol), bidi_driver.py drives Firefox (WebDriver BiDi); each gives an engine
object with these methods:

  navigate(url)                      opens the page (returns at once)
  evaluate(expression, timeout)      the JSON value of a JavaScript expression, promises
                                     awaited; raises Failure on a JavaScript exception
  console()                          (level, text) of what the page logged since the last
                                     call; level "error" for uncaught exceptions, whose
                                     text starts with "uncaught: "
  screenshot(clip=None)              PNG bytes of the viewport, or of clip = (x, y, w, h)
                                     in CSS pixels
  touch(kind, points)                kind touchStart / touchMove / touchEnd, points
                                     [(x, y), ...] in CSS pixels, identified by their index
  close()                            ends the browser (its process only)
and the attribute download_dir (where the page's downloads land) and name ("Chromium"); an
engine whose console does not carry the browser's WebGL errors also has gl_errors(), the GL
errors the page's WebGL contexts hold once it has given its verdict.

Standard library only.
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import time
import zlib


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
        stop_process(self.process)


def stop_process(process, grace=5):
    """Ends a process this driver started, by its id: SIGTERM, then SIGKILL after `grace` s."""
    if process.poll() is None:
        os.kill(process.pid, 15)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, 9)
            process.wait()


def is_webgl_error(text):
    """A GL error the browser reports as a warning: Chromium's "WebGL: INVALID_OPERATION: ...",
    Firefox's "WebGL warning: drawArrays: ..." (Firefox says "warning" for GL errors too)."""
    return bool(re.search(r"WebGL: (INVALID_|OUT_OF_MEMORY|CONTEXT_LOST)|GL_INVALID_|WebGL warning: ", text))


class Page:
    """The page as a scenario sees it: JavaScript, frames, touches, screenshots, downloads."""

    def __init__(self, engine):
        self.engine = engine
        self.download_dir = engine.download_dir
        self.logged = []  # console lines seen so far

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (promises awaited); Failure on an exception."""
        return self.engine.evaluate(expression, timeout)

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
        """kind touchStart/touchMove/touchEnd, points [(x, y), ...] in CSS pixels, identified
        by their index."""
        self.engine.touch(kind, points)

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
        width, height, rows, channels = decode_png(self.engine.screenshot(clip))
        return [[tuple(row[i:i + 3]) for i in range(0, width * channels, channels)] for row in rows]

    def wait_for_download(self, timeout=30):
        """The path of the next finished file in the download folder (Chromium's unfinished
        downloads end in .crdownload, Firefox's in .part)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = [f for f in os.listdir(self.download_dir) if not f.endswith((".crdownload", ".part"))]
            if done and not any(f.endswith(".part") for f in os.listdir(self.download_dir)):
                return os.path.join(self.download_dir, done[0])
            time.sleep(0.1)
        raise Failure("no download within %.0f s" % timeout)


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


def arguments(description, extra=None):
    """The command line both drivers take; `extra(parser)` adds an engine's own options."""
    parser = argparse.ArgumentParser(description=description)
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
    if extra:
        extra(parser)
    args = parser.parse_args()
    import scenarios
    for name in (args.scenario, args.check):
        if name and not callable(getattr(scenarios, name, None)):
            parser.error("no scenario or check \"%s\" in scenarios.py" % name)
    if not os.path.isdir(args.root):
        parser.error("--root %s is not a folder" % args.root)
    return args


def run(args, start_engine, tag):
    """Serves --root, starts the engine (start_engine(download_dir) -> engine), opens the page
    and judges it. Returns the exit status: 0 PASS, 1 FAIL (the reason on stderr)."""
    import shutil
    import tempfile
    import scenarios
    server = Server(args.root)
    downloads = tempfile.mkdtemp(prefix="texstream-downloads-")
    engine = None
    started = time.monotonic()
    try:
        engine = start_engine(downloads)
        page = Page(engine)
        url = "http://127.0.0.1:%d/%s" % (server.port, args.page)
        print("%s: opening %s in %s" % (tag, url, engine.name), flush=True)
        engine.navigate(url)

        errors, title, seen = [], "", set()

        def drain_console():
            for level, text in engine.console():
                page.logged.append(text)
                # The browser repeats some warnings every frame: once is enough.
                if level in ("warning", "warn", "verbose", "debug") and text in seen:
                    continue
                seen.add(text)
                print("console.%s: %s" % (level, text), flush=True)
                if level == "error" or is_webgl_error(text):
                    errors.append(text)

        deadline = time.monotonic() + args.timeout
        scenario_done = not args.scenario
        while True:
            # A page that computes in one go (the kernel tests) answers only when it is done.
            title = engine.evaluate("document.title", timeout=max(1.0, deadline - time.monotonic())) or ""
            drain_console()
            if not scenario_done and not title.startswith(("PASS", "FAIL")) and page.frames() >= 3:
                print("%s: scenario %s" % (tag, args.scenario), flush=True)
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

        # An engine that does not report the page's WebGL errors on its console (Firefox) asks
        # the contexts themselves.
        if hasattr(engine, "gl_errors"):
            errors += engine.gl_errors()

        if args.expect_fail is not None:
            shown = engine.evaluate("(document.getElementById('error') || {}).textContent || ''") or ""
            print("%s: title \"%s\"; the page shows: %s" % (tag, title, shown.strip()), flush=True)
            if not title.startswith("FAIL"):
                raise Failure("the page says \"%s\", expected FAIL" % title)
            for text in args.expect_fail:
                if text not in shown:
                    raise Failure("the page's error box does not say \"%s\"" % text)
            uncaught = [e for e in errors if e.startswith("uncaught") or is_webgl_error(e) or "holds GL error" in e]
            if uncaught:
                raise Failure("; ".join(uncaught))
            print("%s: PASS %s (refused as expected)" % (tag, args.page))
            return 0

        # A page that failed (a crash, an exception) is judged by its own message: the check
        # would only read the files it never wrote.
        if args.check and title.startswith("PASS"):
            print("%s: check %s" % (tag, args.check), flush=True)
            getattr(scenarios, args.check)(page)
        drain_console()
        for pattern in args.expect_log:
            if not any(re.search(pattern, line) for line in page.logged):
                raise Failure("no logged line matches \"%s\"" % pattern)

        png = engine.screenshot()
        if args.screenshot:
            with open(args.screenshot, "wb") as out:
                out.write(png)
        problems, colours, panel = screenshot_checks(png, args.panel)
        print("%s: title \"%s\" after %.1f s; screenshot %d colours, %d panel pixels" %
              (tag, title, elapsed, colours, panel), flush=True)
        if not title.startswith("PASS"):
            problems.insert(0, "the page says \"%s\"" % title)
        problems += ["console error: " + e for e in errors]
        if problems:
            raise Failure("; ".join(problems))
        print("%s: PASS %s" % (tag, args.page))
        return 0
    except Failure as failure:
        print("%s: FAIL %s: %s" % (tag, args.page, failure), file=sys.stderr)
        return 1
    finally:
        if engine:
            engine.close()
        server.stop()
        shutil.rmtree(downloads, ignore_errors=True)
