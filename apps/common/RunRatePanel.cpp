#include "RunRatePanel.h"

#include <imgui.h>

namespace texstream::app {

void runRatePanel(const ShellControls& controls) {
  if (controls.steps == 0) {
    ImGui::Text("%.1f fps   no step yet", controls.fps);
    return;
  }
  ImGui::Text("%.1f fps   %.2f ms/step (mean %.2f, GPU work included)", controls.fps, controls.msPerStepRecent,
              controls.msPerStep);
}

}  // namespace texstream::app
