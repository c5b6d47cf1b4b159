#include "ObjOutOption.h"

#include "OutputPath.h"

#include <texstream/geometry/MeshIo.h>

#include <CLI/CLI.hpp>

#include <iostream>
#include <span>
#include <stdexcept>

namespace texstream::app {

void ObjOutOption::addTo(CLI::App& cli, const std::string& help) {
  cli.add_option("--out", m_path, help)->type_name("PATH.obj");
}

bool ObjOutOption::check() const {
  requireWritablePath("--out", m_path);
  return !m_path.empty();
}

void ObjOutOption::write(const std::string& program, const std::string& what, const geometry::Mesh& mesh,
                         const std::vector<double>* uv) const {
  if (uv ? uv->empty() : mesh.positions.empty()) throw std::runtime_error("no " + what + " to write to " + m_path);
  geometry::writeObj(m_path, mesh, uv ? std::span<const double>(*uv) : std::span<const double>());
  std::cerr << program << ": wrote " << m_path << "\n";
}

}  // namespace texstream::app
