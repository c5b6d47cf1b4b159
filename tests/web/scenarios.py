"""What the browser tests do to a running demo page (cdp_driver.py or bidi_driver.py --scenario NAME) and check
after its verdict (--check NAME). Each function takes the driver's Page and raises Failure
with the reason when the page does not do what it should. The demos' pages fill a
1024x700 viewport; their Dear ImGui panel sits at the top left, so touches land right of it.

Standard library only.
"""

import json
import math

from page_driver import Failure


def mean_colour(rows):
    n = sum(len(r) for r in rows)
    return tuple(sum(p[c] for r in rows for p in r) / n for c in range(3))


# ---- texstream-fluid -------------------------------------------------------------------

def bright_pixels(rows, threshold=60):
    return sum(1 for r in rows for p in r if max(p) >= threshold)


def fluid_touch_stir(page):
    """A finger dragged across the smoke's empty upper part leaves dye along its path: the
    touch reaches the demo as the mouse's left drag does (Demo::mouse, splats of force and
    dye). The bright pixels over the path are counted before and after."""
    width, height = page.evaluate("[innerWidth, innerHeight]")
    side = min(width, height)  # the square grid, centred
    left, top = (width - side) / 2, (height - side) / 2
    # Right of the plume, which rises in the middle from the bottom.
    start = (left + 0.68 * side, top + 0.15 * side)
    end = (left + 0.9 * side, top + 0.3 * side)
    clip = (left + 0.66 * side, top + 0.05 * side, 0.32 * side, 0.4 * side)
    before = bright_pixels(page.pixels(clip))
    page.drag(start, end, steps=10)
    after = bright_pixels(page.pixels(clip))
    print("scenarios: bright pixels over the finger's path: %d -> %d" % (before, after), flush=True)
    if after < before + 300:
        raise Failure("a finger dragged across the fluid left no dye (bright pixels %d -> %d)" % (before, after))
    report = page.evaluate("window.texstreamPage.report()")
    if not report or report.get("app") != "fluid":
        raise Failure("no JSON report from the running fluid: %s" % report)


def gpu_timers(page):
    """--profile: where the browser has EXT_disjoint_timer_query_webgl2 the report holds
    per-pass GPU times (the profiler panel's table); where it has not, the program says the
    timers are not available and why."""
    has_timers = page.evaluate(
        "!!document.createElement('canvas').getContext('webgl2').getExtension('EXT_disjoint_timer_query_webgl2')")
    report = json.loads(page.evaluate("Module.FS.readFile('/report.json', {encoding: 'utf8'})"))
    passes = report.get("gpu_passes")
    if has_timers:
        if not passes or not all(p["passes"] > 0 and p["total_ms"] >= 0 for p in passes.values()):
            raise Failure("EXT_disjoint_timer_query_webgl2 exists, but the report has no GPU pass times: %s" % passes)
        if not any(p["total_ms"] > 0 for p in passes.values()):
            raise Failure("every GPU pass time is zero: %s" % passes)
        slowest = max(passes.items(), key=lambda kv: kv[1]["total_ms"])
        print("scenarios: GPU timers: %d passes timed, slowest \"%s\" %.3f ms in total" % (
            len(passes), slowest[0], slowest[1]["total_ms"]), flush=True)
    elif not any("GPU timers not available" in line and "EXT_disjoint_timer_query_webgl2" in line
                 for line in page.logged):
        raise Failure("no EXT_disjoint_timer_query_webgl2, and the page never said the GPU timers are not available")


def half_float_report(page):
    """A device without EXT_color_buffer_float: the fluid ran its fields in RGBA16F with the
    Jacobi projection (its sweeps and the pressure display from the URL) and said so."""
    report = json.loads(page.evaluate("Module.FS.readFile('/report.json', {encoding: 'utf8'})"))
    if report.get("field_format") != "RGBA16F" or report.get("half_float") is not True:
        raise Failure("expected RGBA16F fields in the half-float mode, the report says %s, half_float %s" % (
            report.get("field_format"), report.get("half_float")))
    if report.get("half_float_sweeps") != 30 or report.get("display") != "pressure":  # the page's URL sets them
        raise Failure("expected half_float_sweeps 30 and the pressure shown (URL parameters), the report says %r, %r"
                      % (report.get("half_float_sweeps"), report.get("display")))
    limits = report.get("half_float_limits", "")
    if "EXT_color_buffer_float" not in limits or "Jacobi sweeps" not in limits:
        raise Failure("the report's half_float_limits does not name EXT_color_buffer_float and the Jacobi sweeps: %r"
                      % limits)


# ---- texstream-fluid3d -----------------------------------------------------------------

def fluid3d_report(page):
    """The 3D fluid ran its steps on WebGL2's fragment backend: the report holds a finite
    divergence, residual, iteration count and speed per step, for the grid and scene of the
    URL, and (where the browser times passes) the renderer's passes among the GPU times."""
    report = json.loads(page.evaluate("Module.FS.readFile('/report.json', {encoding: 'utf8'})"))
    steps = report.get("steps")
    if report.get("app") != "fluid3d" or report.get("scene") != "smoke-sphere" or report.get("size") != [20, 20, 20]:
        raise Failure("expected the smoke-sphere scene on 20x20x20 (URL parameters), the report says %s, %s, %s" % (
            report.get("app"), report.get("scene"), report.get("size")))
    if report.get("backend") != "fragment" or not isinstance(steps, int) or steps < 1:
        raise Failure("expected steps on the fragment backend, the report says %r, %r" % (report.get("backend"), steps))
    for key in ("divergence_before", "divergence_after", "residual", "solver_iterations", "max_speed"):
        values = report.get(key)
        if not isinstance(values, list) or len(values) != steps or not all(
                isinstance(v, (int, float)) and math.isfinite(v) for v in values):
            raise Failure("\"%s\" is not %d finite numbers: %r" % (key, steps, values))
    passes = report.get("gpu_passes") or {}
    if passes and not any(label.startswith("fluid3d render:") for label in passes):
        raise Failure("the GPU times have no renderer pass: %s" % sorted(passes))
    print("scenarios: %d steps of %s, last divergence %.3g after the projection, %d CG iterations" % (
        steps, report["scene"], report["divergence_after"][-1], report["solver_iterations"][-1]), flush=True)


# ---- texstream-smooth ------------------------------------------------------------------

def grid_obj(n):
    """An n x n vertex patch as OBJ text (a slightly rippled unit square)."""
    lines = ["# texstream test patch"]
    for j in range(n):
        for i in range(n):
            lines.append("v %g %g %g" % (i / (n - 1), j / (n - 1), 0.05 * ((i * 7 + j * 13) % 5) / 5))
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i + 1
            lines.append("f %d %d %d" % (a, a + 1, a + n + 1))
            lines.append("f %d %d %d" % (a, a + n + 1, a + n))
    return "\n".join(lines) + "\n"


def open_file(page, name, text):
    """Hands a file to the page as a drop does (texstreamPage.openFile); returns (ok, message)."""
    ok = page.evaluate("window.texstreamPage.openFile(new File([%s], %s))" % (json.dumps(text), json.dumps(name)))
    message = page.evaluate("document.getElementById('message').textContent")
    return ok, message


def smooth_files_and_touch(page):
    """Files in: a good OBJ replaces the mesh; a file that is not a mesh, a malformed OBJ and
    a mesh too large for the texture limit (the page runs with max-texture-size=64) each
    give a message naming the file and the problem while the demo goes on with the good
    mesh. The result out: the page's download button gives the smoothed OBJ. Touch: one
    finger orbits the camera as a left drag does, two fingers pinching apart zoom in."""
    ok, message = open_file(page, "patch.obj", grid_obj(6))
    print("scenarios: patch.obj: %s" % message, flush=True)
    if not ok or "loaded patch.obj: 36 vertices, 50 triangles" not in message:
        raise Failure("a good OBJ was not loaded: %s" % message)
    page.wait_frames(2)

    bad = [("notes.txt", "just some notes\n", "unknown mesh format"),
           ("broken.obj", "v 0 0 0\nv 1 0 0\nf 1 2 7\n", "broken.obj"),
           ("large.obj", grid_obj(70), "large.obj: SegmentMatrix")]
    for name, text, expected in bad:
        frames = page.frames()
        ok, message = open_file(page, name, text)
        print("scenarios: %s: %s" % (name, message), flush=True)
        if ok or expected not in message or "the mesh stays" not in message:
            raise Failure("%s: expected a refusal saying \"%s\", the page says: %s" % (name, expected, message))
        if "error" not in page.evaluate("document.getElementById('message').className"):
            raise Failure("%s: the refusal is not shown as an error" % name)
        page.wait_frames(2)
        if page.frames() < frames + 2:
            raise Failure("the demo stopped after %s" % name)
    report = page.evaluate("window.texstreamPage.report()")
    if not report["mesh"].endswith("patch.obj") or report["vertices"] != 36:
        raise Failure("after the refused files the mesh is %s (%s vertices), not patch.obj" % (
            report["mesh"], report["vertices"]))

    page.evaluate("document.getElementById('save-result').click()")
    path = page.wait_for_download()
    with open(path, encoding="utf-8") as f:
        obj = f.read().splitlines()
    vertices = sum(1 for line in obj if line.startswith("v "))
    faces = sum(1 for line in obj if line.startswith("f "))
    print("scenarios: downloaded %s: %d vertices, %d faces" % (path.rsplit("/", 1)[-1], vertices, faces), flush=True)
    if vertices != 36 or faces != 50:
        raise Failure("the downloaded OBJ has %d vertices and %d faces, expected 36 and 50" % (vertices, faces))

    camera0 = page.evaluate("window.texstreamPage.report()")["camera"]
    page.drag((650, 400), (850, 400), steps=8)
    camera1 = page.evaluate("window.texstreamPage.report()")["camera"]
    turned = camera0["yaw"] - camera1["yaw"]
    if abs(turned - 200 * 0.008) > 0.05 or abs(camera1["pitch"] - camera0["pitch"]) > 1e-6:
        raise Failure("a 200-pixel finger drag turned the camera by %.3f rad (expected 1.6), pitch %.3f -> %.3f" % (
            turned, camera0["pitch"], camera1["pitch"]))
    page.drag(None, None, steps=8, fingers=[((700, 450), (650, 450)), ((800, 450), (850, 450))])
    camera2 = page.evaluate("window.texstreamPage.report()")["camera"]
    ratio = camera1["distance"] / camera2["distance"]
    print("scenarios: camera: yaw %.3f -> %.3f, pinch 100 -> 200 px: distance %.4g -> %.4g" % (
        camera0["yaw"], camera1["yaw"], camera1["distance"], camera2["distance"]), flush=True)
    if abs(ratio - 2.0) > 0.05 or abs(camera2["yaw"] - camera1["yaw"]) > 1e-6:
        raise Failure("pinching two fingers from 100 to 200 pixels apart zoomed by %.3f (expected 2)" % ratio)
    if not math.isfinite(camera2["distance"]):
        raise Failure("the camera distance is not finite")
