#include "SystemExportOptions.h"

#include "AppOptions.h"

#include <filesystem>

namespace texstream::app {

void SystemExportOptions::addTo(CLI::App& cli, const std::string& systemHelp) {
  cli.add_option("--export-system", m_directory, systemHelp)->type_name("DIR");
  cli.add_option("--export-format", m_format,
                 "Format of --export-system: Matrix Market (A.mtx, b.mtx) or PETSc binary (system.petsc)")
      ->type_name("mtx|petsc")
      ->capture_default_str();
}

void SystemExportOptions::check() {
  m_petsc = parseChoice("--export-format", m_format, {"mtx", "petsc"}) == "petsc";
  if (!m_directory.empty() && std::filesystem::exists(m_directory) && !std::filesystem::is_directory(m_directory))
    throw UsageError("--export-system: invalid value \"" + m_directory + "\": exists and is not a directory");
}

}  // namespace texstream::app
