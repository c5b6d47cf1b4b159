#pragma once
// The keys and mouse bindings of a demo, in one table each: the panel's "?" lists them and
// --help prints them, so the two cannot disagree. The shell (DemoRunner) handles the shared
// keys; a demo lists and handles its own.
#include <span>
#include <string>

namespace texstream::app {

struct Binding {
  const char* input;   ///< "space", "left drag", "shift + right drag"
  const char* action;  ///< "pause / run"
};

/// The keys every demo has: pause, single step, reset, screenshot, recording, panel, help,
/// and files dropped onto the window.
std::span<const Binding> sharedBindings();

/// "Keys and mouse (windowed runs):\n  space   pause / run\n ..." for --help: the demo's
/// bindings, then the shared ones.
std::string bindingsHelp(std::span<const Binding> demo);

}  // namespace texstream::app
