#include "DemoMain.h"

#include "DemoCommandLine.h"
#include "MainGuard.h"
#include "Settings.h"

#include <iostream>

namespace texstream::app {

int demoMain(int argc, char** argv, const DemoProgram& program) {
  const std::string name = "texstream-" + program.info.name;
  try {
    const std::string description =
        program.description + (program.meshSetsSizes ? "\n(--size is not used: the mesh sets the sizes.)" : "");
    DemoCommandLine cmd(name, description, program.defaults);
    if (program.addOptions) program.addOptions(cmd.cli());
    SettingTable table;
    program.describeSettings(table);
    cmd.settings(table);
    cmd.footer(program.info.bindings);
    if (const std::optional<int> exitCode = cmd.parse(argc, argv, program.validate)) return *exitCode;
    const int rc = runDemo(program.info, cmd.options(), program.make);
    if (rc != 0 || !program.afterRun) return rc;
    try {
      program.afterRun();
    } catch (const std::exception& e) {
      std::cerr << name << ": error: " << e.what() << "\n";
      return 1;
    }
    return 0;
  } catch (...) {
    return failedMain(name.c_str());
  }
}

}  // namespace texstream::app
