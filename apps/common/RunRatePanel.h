#pragma once
// The line every demo's panel shows about its pace: frames per second (paced by the
// display or the browser) and the wall time of a step with its GPU work, recent and since
// the start (DemoRunner measures both).
#include "DemoRunner.h"

namespace texstream::app {

/// "58.9 fps   4.21 ms/step (mean 4.37, GPU work included)" (Dear ImGui; inside a window).
void runRatePanel(const ShellControls& controls);

}  // namespace texstream::app
