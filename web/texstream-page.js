// The page shell of every texstream program compiled to WebAssembly (demos and tests).
// The page sets window.texstreamPage = {program: "texstream-fluid", fixedArguments: [...]}
// before loading this file. It
//  - turns the URL's parameters into the program's command line (?scene=channel&size=128
//    is `--scene channel --size 128`; ?particles is `--particles`), so a link reproduces a
//    set-up and the program's own option parser checks every value;
//  - shows the program's stdout and stderr in the page's log and on the console;
//  - puts the verdict in document.title when the program exits: "PASS" for exit code 0,
//    "FAIL (exit N)" otherwise, with the messages in the page's error box. Interactive
//    runs never exit; scripted ones (?steps=N, the tests) do.
(function () {
  "use strict";
  const page = window.texstreamPage;
  const log = document.getElementById("log");
  const errorBox = document.getElementById("error");
  const stderrLines = [];

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
    for (const [key, value] of new URLSearchParams(window.location.search)) {
      args.push("--" + key);
      if (value !== "") args.push(value);
    }
    return args;
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

  window.Module = {
    canvas: canvas,
    arguments: (page.fixedArguments || []).concat(argumentsFromUrl()),
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
      if (code !== 0) showError(stderrLines.slice(-20).join("\n") || page.program + " exited with code " + code);
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
