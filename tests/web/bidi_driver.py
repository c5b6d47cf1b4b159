#!/usr/bin/env python3
"""Opens one texstream page in Firefox and reports its verdict, as cdp_driver.py does in Chromium.

  bidi_driver.py --root build-web/www --page "fluid.html?size=64&steps=30" [--panel]
                 [--scenario NAME] [--expect-log REGEX]... [--check NAME] [--firefox firefox-esr]

Firefox gives no WebGL2 when headless on a machine without a GPU, so it runs on a private
virtual X server (Xvfb, started here with -displayfd and stopped by its process id), where
WebGL2 runs on Mesa's llvmpipe. Firefox starts with --remote-debugging-port 0 and a fresh
profile, and is driven over WebDriver BiDi: JSON commands over a websocket to
ws://127.0.0.1:PORT/session (session.new, browsingContext.navigate, script.evaluate,
browsingContext.captureScreenshot, input.performActions; log.entryAdded events for the
console). The websocket client is the few lines of RFC 6455 below, so no geckodriver and no
package beyond the standard library is needed. The verdict, the checks and the exit status
are page_driver.py's, the same as Chromium's.

Standard library only, so any machine with python3, Xvfb and firefox-esr runs it.
"""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import page_driver
from page_driver import Failure

VIEWPORT = (1024, 700)  # the CSS viewport the scenarios expect (Chromium's --window-size)

# Firefox reports its WebGL errors ("WebGL warning: drawArrays: ...") to its own console only,
# not to BiDi's log module; so every WebGL2 context a page makes is remembered, and asked for
# getError() once the page has given its verdict (page_driver.run: engine.gl_errors()).
REMEMBER_CONTEXTS = """() => {
  const getContext = HTMLCanvasElement.prototype.getContext;
  window.__texstreamContexts = [];
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const context = getContext.call(this, type, ...rest);
    if (context && type === "webgl2" && !window.__texstreamContexts.includes(context))
      window.__texstreamContexts.push(context);
    return context;
  };
}"""

# A test profile: no first-run pages, no updates, downloads to a folder without asking, and
# touch events exposed to pages (input.performActions' touch pointers become touch events).
PREFERENCES = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.download.folderList": 2,
    "browser.download.useDownloadDir": True,
    "browser.download.always_ask_before_handling_new_types": False,
    "browser.download.start_downloads_in_tmp_dir": False,
    "browser.helperApps.neverAsk.saveToDisk": "model/obj,text/plain,application/octet-stream,application/json",
    "dom.w3c_touch_events.enabled": 1,
    "webgl.force-enabled": True,
    "webgl.out-of-process": False,
}


class WebSocket:
    """A client end of RFC 6455: text frames out (masked), text frames in, pings ignored."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, port, key)).encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Failure("Firefox closed the websocket during its handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise Failure("Firefox refused the websocket: %s" % head.decode(errors="replace").splitlines()[0])

    def send(self, text):
        data, mask = text.encode(), os.urandom(4)
        n = len(data)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
                                  if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _take(self, n, deadline):
        while len(self.buffer) < n:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                raise Failure("Firefox did not answer in time")
            if not chunk:
                raise Failure("Firefox closed its websocket")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self, deadline):
        message = b""
        while True:
            b0, b1 = self._take(2, deadline)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._take(2, deadline))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._take(8, deadline))[0]
            payload = self._take(n, deadline)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise Failure("Firefox closed its websocket")
            if opcode in (9, 10):  # ping, pong
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Xvfb:
    """A private X server (one 1400x900x24 screen); Xvfb picks a free display itself."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            page_driver.stop_process(self.process)
            raise Failure("Xvfb did not start")
        self.display = ":" + number

    def stop(self):
        page_driver.stop_process(self.process)


def remote_value(v):
    """A WebDriver BiDi RemoteValue as the JSON value it serializes."""
    kind, value = v.get("type"), v.get("value")
    if kind in ("undefined", "null"):
        return None
    if kind == "number":
        return {"NaN": float("nan"), "-0": -0.0, "Infinity": float("inf"), "-Infinity": float("-inf")}.get(value, value) \
            if isinstance(value, str) else value
    if kind in ("string", "boolean", "bigint"):
        return value
    if kind in ("array", "set"):
        return [remote_value(x) for x in value or []]
    if kind in ("object", "map"):
        return {(k if isinstance(k, str) else remote_value(k)): remote_value(x) for k, x in value or []}
    return value


class Firefox:
    """Firefox on its own Xvfb, driven over WebDriver BiDi."""

    name = "Firefox"

    def __init__(self, executable, download_dir):
        self.download_dir = download_dir
        self.profile = tempfile.mkdtemp(prefix="texstream-firefox-")
        prefs = dict(PREFERENCES, **{"browser.download.dir": download_dir})
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for name, value in prefs.items():
                f.write("user_pref(%s, %s);\n" % (json.dumps(name), json.dumps(value)))
        self.xvfb = Xvfb()
        env = dict(os.environ, DISPLAY=self.xvfb.display, MOZ_CRASHREPORTER_DISABLE="1")
        env.pop("WAYLAND_DISPLAY", None)
        self.process = subprocess.Popen(
            [executable, "--profile", self.profile, "--new-instance", "--no-remote", "--remote-debugging-port", "0",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        # "WebDriver BiDi listening on ws://127.0.0.1:PORT" on stderr, then drained on a thread.
        port, deadline, lines = None, time.monotonic() + 60, []
        while port is None:
            line = self.process.stderr.readline()
            if not line:
                self.close()
                raise Failure("Firefox exited before it listened (%s): %s" % (self.process.poll(), " | ".join(lines[-5:])))
            lines.append(line.strip())
            found = re.search(r"WebDriver BiDi listening on ws://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
            elif time.monotonic() > deadline:
                self.close()
                raise Failure("Firefox did not start WebDriver BiDi in 60 s")
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        self.socket = WebSocket(port, "/session")
        self.next_id = 0
        self.events = []
        self.send("session.new", {"capabilities": {}})
        self.send("session.subscribe", {"events": ["log.entryAdded"]})
        self.send("script.addPreloadScript", {"functionDeclaration": REMEMBER_CONTEXTS})
        self.context = self.send("browsingContext.getTree", {})["contexts"][0]["context"]
        self.send("browsingContext.setViewport", {"context": self.context,
                                                   "viewport": {"width": VIEWPORT[0], "height": VIEWPORT[1]}})
        self.fingers = 0  # touch pointers down

    def send(self, method, params, timeout=60):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.socket.receive(deadline))
            if message.get("id") == self.next_id:
                if message.get("type") == "error":
                    raise Failure("%s: %s: %s" % (method, message.get("error"), message.get("message")))
                return message.get("result", {})
            if message.get("type") == "event":
                self.events.append(message)

    def navigate(self, url):
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "none"})

    def evaluate(self, expression, timeout=60):
        result = self.send("script.evaluate", {"expression": expression, "target": {"context": self.context},
                                               "awaitPromise": True, "resultOwnership": "none"}, timeout=timeout)
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise Failure("%s: %s" % (expression[:80], details.get("text")))
        return remote_value(result.get("result", {}))

    def console(self):
        events, self.events = self.events, []
        lines = []
        for event in events:
            if event.get("method") != "log.entryAdded":
                continue
            entry = event.get("params", {})
            if entry.get("type") == "javascript":  # an uncaught exception
                lines.append(("error", "uncaught: " + str(entry.get("text"))))
            else:
                lines.append((entry.get("level", "info"), str(entry.get("text"))))
        return lines

    def gl_errors(self):
        """The GL errors the page's WebGL2 contexts hold (getError, until NO_ERROR), as text."""
        codes = self.evaluate("""(window.__texstreamContexts || []).map((gl) => {
            const codes = [];
            for (let e = gl.getError(); e !== gl.NO_ERROR && e !== gl.CONTEXT_LOST_WEBGL && codes.length < 8; e = gl.getError())
              codes.push(e);
            return codes; })""") or []
        names = {0x500: "INVALID_ENUM", 0x501: "INVALID_VALUE", 0x502: "INVALID_OPERATION", 0x505: "OUT_OF_MEMORY",
                 0x506: "INVALID_FRAMEBUFFER_OPERATION"}
        return ["WebGL context %d holds GL error %s (getError after the verdict)" % (i, names.get(c, hex(c)))
                for i, context in enumerate(codes) for c in context]

    def screenshot(self, clip=None):
        params = {"context": self.context}
        if clip:
            x, y, w, h = clip
            params["clip"] = {"type": "box", "x": x, "y": y, "width": w, "height": h}
        return base64.b64decode(self.send("browsingContext.captureScreenshot", params)["data"])

    def touch(self, kind, points):
        # One pointer source per finger, touch pointers; their state lasts from one call to the next.
        sources = []
        if kind == "touchStart":
            self.fingers = len(points)
            for i, (x, y) in enumerate(points):
                sources.append((i, [{"type": "pointerMove", "x": round(x), "y": round(y)}, {"type": "pointerDown", "button": 0}]))
        elif kind == "touchMove":
            for i, (x, y) in enumerate(points):
                sources.append((i, [{"type": "pointerMove", "x": round(x), "y": round(y), "duration": 0}]))
        else:
            sources = [(i, [{"type": "pointerUp", "button": 0}]) for i in range(self.fingers)]
            self.fingers = 0
        self.send("input.performActions", {"context": self.context, "actions": [
            {"type": "pointer", "id": "finger%d" % i, "parameters": {"pointerType": "touch"}, "actions": actions}
            for i, actions in sources]})

    def close(self):
        if getattr(self, "socket", None):
            try:
                self.send("browser.close", {}, timeout=10)
            except (Failure, OSError):
                pass
            self.socket.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            page_driver.stop_process(self.process)
        self.xvfb.stop()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    args = page_driver.arguments(__doc__.split("\n\n")[0], lambda p: p.add_argument(
        "--firefox", default=os.environ.get("FIREFOX", "firefox-esr")))
    executable = shutil.which(args.firefox)
    if not executable or not shutil.which("Xvfb"):
        print("bidi_driver: %s or Xvfb not found (apt-get install firefox-esr xvfb; ./run web installs them)"
              % args.firefox, file=sys.stderr)
        return 1
    return page_driver.run(args, lambda downloads: Firefox(executable, downloads), "bidi_driver")


if __name__ == "__main__":
    sys.exit(main())
