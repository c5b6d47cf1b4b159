#include "KeyBindings.h"

#include <algorithm>
#include <cstring>

namespace texstream::app {

namespace {

constexpr Binding kShared[] = {
    {"space", "pause / run"},
    {"N", "one step (while paused)"},
    {"R", "reset to the initial state"},
    {"S", "screenshot (PNG of the window)"},
#ifndef __EMSCRIPTEN__
    {"V", "start / stop recording (ffmpeg)"},
#endif
    {"H", "hide / show the panel"},
    {"F1", "this list"},
    {"drop a .json file", "load a preset"},
};

}  // namespace

std::span<const Binding> sharedBindings() { return kShared; }

std::string bindingsHelp(std::span<const Binding> demo) {
  std::size_t width = 0;
  for (std::span<const Binding> list : {demo, sharedBindings()})
    for (const Binding& b : list) width = std::max(width, std::strlen(b.input));
  std::string out = "Keys and mouse (windowed runs; the panel's \"?\" lists them too):\n";
  for (std::span<const Binding> list : {demo, sharedBindings()})
    for (const Binding& b : list) out += "  " + std::string(b.input) + std::string(width + 2 - std::strlen(b.input), ' ') + b.action + "\n";
  return out;
}

}  // namespace texstream::app
