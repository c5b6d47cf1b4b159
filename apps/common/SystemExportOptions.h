#pragma once
// The options of a program that writes a linear system for other solvers
// (apps/solve/petsc_solve.py):
//   --export-system DIR  --export-format mtx|petsc
// Matrix Market writes A.mtx and b.mtx into DIR, PETSc binary system.petsc
// (linalg/SystemExport.h).
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace texstream::app {

class SystemExportOptions {
 public:
  /// Adds both options; `systemHelp` is --export-system's help (which system, and when).
  void addTo(CLI::App& cli, const std::string& systemHelp);
  /// After parsing: reads the format (case-insensitive); throws UsageError naming the
  /// option for a format other than mtx or petsc, or a DIR that exists and is not a directory.
  void check();

  /// The directory given ("" = none).
  const std::string& directory() const { return m_directory; }
  /// Whether the format is PETSc binary (else Matrix Market).
  bool petsc() const { return m_petsc; }

 private:
  std::string m_directory, m_format = "mtx";
  bool m_petsc = false;
};

}  // namespace texstream::app
