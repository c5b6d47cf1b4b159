#include <texstream/linalg/SystemExport.h>

#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/PetscBinary.h>
#include <texstream/linalg/SystemBuilder.h>

#include <texstream/text/Format.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace texstream::linalg {

std::vector<std::string> exportSystem(const Csr& A, std::span<const std::vector<double>> rhs, const std::string& directory,
                                      SystemFileFormat format, const std::string& comment) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (directory.empty()) throw std::runtime_error("export: the directory name is empty");
  if (fs::exists(directory, ec) && !fs::is_directory(directory, ec))
    throw std::runtime_error(directory + ": exists and is not a directory; name a directory to write the system into");
  fs::create_directories(directory, ec);
  if (ec) throw std::runtime_error(directory + ": cannot create the directory: " + ec.message());
  const fs::path dir(directory);
  std::vector<std::string> written;
  if (format == SystemFileFormat::MatrixMarket) {
    const std::string a = (dir / "A.mtx").string();
    writeMatrixMarket(a, A, comment);
    written.push_back(a);
    for (std::size_t k = 0; k < rhs.size(); ++k) {
      const std::string b = (dir / (k == 0 ? std::string("b.mtx") : text::numbered("b", int(k), ".mtx"))).string();
      writeMatrixMarketVector(b, rhs[k], comment);
      written.push_back(b);
    }
  } else {
    const std::string path = (dir / "system.petsc").string();
    std::vector<std::span<const double>> vectors(rhs.begin(), rhs.end());
    writePetscBinary(path, A, vectors);
    written.push_back(path);
  }
  return written;
}

std::vector<std::string> exportSystem(const LinearSystem& system, const std::string& directory, SystemFileFormat format) {
  std::vector<std::vector<double>> rhs;
  for (int k = 0; k < system.systems(); ++k) rhs.push_back(system.rhs(k));
  const std::string comment = "texstream system \"" + system.name() + "\" (" + systemModeName(system.mode()) +
                              (system.mode() == SystemMode::LeastSquares ? ", normal equations A^T A x = A^T b" : "") +
                              "), " + std::to_string(system.unknowns()) + " unknowns";
  return exportSystem(system.matrix(), rhs, directory, format, comment);
}

}  // namespace texstream::linalg
