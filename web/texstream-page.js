// The page shell of every texstream program compiled to WebAssembly (demos and tests).
// The page sets window.texstreamPage = {program: "texstream-fluid", fixedArguments: [...],
// files: null | {accept: ".obj,.off,.ply", open: "label", save: "label"}} before loading
// this file. It
//  - turns the URL's parameters into the program's command line (?scene=channel&size=128
//    is `--scene channel --size 128`; ?particles is `--particles`), so a link reproduces a
//    set-up and the program's own option parser checks every value; three parameters are
//    the page's own, to see what a lesser device does (README, "In the browser"):
//    hide-webgl-extensions=A,B (the program never sees those WebGL extensions: a device
//    without them), disable-features=A,B and max-texture-size=N (TEXSTREAM_DISABLE_FEATURES
//    and TEXSTREAM_MAX_TEXTURE_SIZE, as on the desktop);
//  - shows the program's stdout and stderr in the page's log and on the console;
//  - puts the verdict in document.title when the program exits: "PASS" for exit code 0,
//    "FAIL (exit N)" otherwise, with the messages in the page's error box. Interactive
//    runs never exit; scripted ones (?steps=N, the tests) do;
//  - for programs that take files: a file picker, drops onto the page and a button for the
//    result, through texstreamPage.openFile(file) and texstreamPage.saveResult(), which
//    the browser tests call too; the program's answer appears in the message line.
(function () {
  "use strict";
  const page = window.texstreamPage;
  const log = document.getElementById("log");
  const errorBox = document.getElementById("error");
  const stderrLines = [];
  const pageParameters = ["hide-webgl-extensions", "disable-features", "max-texture-size"];
  const url = new URLSearchParams(window.location.search);

  function appendLog(text, kind) {
    if (!log) return;
    const line = document.createElement("div");
    line.className = kind;
    line.textContent = text;
    log.appendChild(line);
    while (log.childNodes.length > 200) log.removeChild(log.firstChild);
  }

  function showError(text) {
    if (errorBox) {
      errorBox.textContent = text;
      errorBox.hidden = false;
    }
  }

  function argumentsFromUrl() {
    const args = [];
    for (const [key, value] of url) {
      if (pageParameters.includes(key)) continue;
      args.push("--" + key);
      if (value !== "") args.push(value);
    }
    return args;
  }

  // hide-webgl-extensions: WebGL2 contexts made on this page neither list nor enable them,
  // so the program meets what a device without them gives (rendering into RGBA32F is then
  // refused by the browser itself, as on iOS Safari without EXT_color_buffer_float).
  const hidden = (url.get("hide-webgl-extensions") || "").split(",").map((s) => s.trim()).filter((s) => s);
  if (hidden.length > 0 && window.WebGL2RenderingContext) {
    const proto = WebGL2RenderingContext.prototype;
    const supported = proto.getSupportedExtensions, get = proto.getExtension;
    proto.getSupportedExtensions = function () {
      return (supported.call(this) || []).filter((name) => !hidden.includes(name));
    };
    proto.getExtension = function (name) {
      return hidden.includes(name) ? null : get.call(this, name);
    };
    console.info("texstream page: WebGL extensions hidden from the program: " + hidden.join(", "));
  }

  const canvas = document.getElementById("canvas");
  if (canvas) {
    // Right drags belong to the demo (painting obstacles), not to the context menu.
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    // A lost WebGL context cannot be recovered by the program: say so rather than freeze.
    canvas.addEventListener("webglcontextlost", (e) => {
      e.preventDefault();
      showError("The WebGL context was lost (the GPU was reset or is out of memory): reload the page.");
    });
  }

  // ---- Files in and out (programs that take them) ------------------------------------
  let messageLine = null;
  function showMessage(text, ok) {
    if (!messageLine) return;
    messageLine.textContent = text;
    messageLine.className = "message " + (ok ? "ok" : "error");
    messageLine.hidden = false;
  }

  let uploads = 0;
  // The file goes into emscripten's file system, then to the program's Demo::openFile.
  async function openFile(file) {
    if (!window.Module || !Module.calledRun) {
      showMessage(file.name + ": the program is not running yet", false);
      return false;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const folder = "/uploads/" + ++uploads;
    Module.FS.mkdirTree(folder);
    const path = folder + "/" + (file.name.replace(/[\/\\]/g, "_") || "unnamed");
    Module.FS.writeFile(path, bytes);
    return Module.ccall("texstream_open_file", "number", ["string"], [path]) === 1;
  }

  function saveResult() {
    if (!window.Module || !Module.calledRun) return false;
    return Module.ccall("texstream_save_result", "number", [], []) === 1;
  }

  if (page.files) {
    const bar = document.createElement("div");
    bar.className = "files";
    const picker = document.createElement("input");
    picker.type = "file";
    picker.accept = page.files.accept;
    picker.id = "file-picker";
    picker.hidden = true;
    picker.addEventListener("change", () => {
      if (picker.files.length > 0) openFile(picker.files[0]);
      picker.value = "";
    });
    const open = document.createElement("button");
    open.textContent = page.files.open;
    open.addEventListener("click", () => picker.click());
    const save = document.createElement("button");
    save.id = "save-result";
    save.textContent = page.files.save;
    save.addEventListener("click", saveResult);
    messageLine = document.createElement("div");
    messageLine.id = "message";
    messageLine.hidden = true;
    bar.append(picker, open, save, messageLine);
    document.body.appendChild(bar);
    // Drops anywhere on the page; caught before the canvas's own listeners see them.
    window.addEventListener("dragover", (e) => {
      e.preventDefault();
      e.stopPropagation();
    }, true);
    window.addEventListener("drop", (e) => {
      e.preventDefault();
      e.stopPropagation();
      if (e.dataTransfer && e.dataTransfer.files.length > 0) openFile(e.dataTransfer.files[0]);
    }, true);
  }

  page.openFile = openFile;
  page.saveResult = saveResult;
  page.showMessage = showMessage;
  // Ends an interactive run as closing its window would (the report, the exit code).
  page.close = () => Module.ccall("texstream_close", null, [], []);
  page.frames = () => (window.Module && Module.calledRun ? Module.ccall("texstream_frames", "number", [], []) : 0);
  // The run's JSON report so far (parsed), written through the program's own --json code.
  page.report = () => {
    if (Module.ccall("texstream_write_report", "number", ["string"], ["/page-report.json"]) !== 1) return null;
    return JSON.parse(Module.FS.readFile("/page-report.json", { encoding: "utf8" }));
  };

  const environment = {};
  if (url.has("disable-features")) environment.TEXSTREAM_DISABLE_FEATURES = url.get("disable-features");
  if (url.has("max-texture-size")) environment.TEXSTREAM_MAX_TEXTURE_SIZE = url.get("max-texture-size");

  window.Module = {
    canvas: canvas,
    arguments: (page.fixedArguments || []).concat(argumentsFromUrl()),
    preRun: [() => Object.assign(Module.ENV, environment)],
    print: (text) => {
      console.log(text);
      appendLog(text, "stdout");
    },
    // The programs write progress to stderr too; only the exit code says whether it failed.
    printErr: (text) => {
      console.info(text);
      stderrLines.push(text);
      appendLog(text, "stderr");
    },
    onExit: (code) => {
      document.title = code === 0 ? "PASS" : "FAIL (exit " + code + ")";
      // Exit code 3: the device's WebGL2 lacks what the program needs (kContextExitCode).
      const headline = code === 3 ? "This browser's WebGL2 cannot run " + page.program + ":\n" : "";
      if (code !== 0) showError(headline + (stderrLines.slice(-20).join("\n") || page.program + " exited with code " + code));
    },
    onAbort: (what) => {
      document.title = "FAIL (abort)";
      showError(page.program + " aborted: " + what + "\n" + stderrLines.slice(-20).join("\n"));
    },
  };
  window.addEventListener("error", (e) => {
    document.title = "FAIL (error)";
    showError(String(e.message || e));
  });
  document.title = page.program;
})();
