#pragma once
// Writing a built system to files other solvers read: Matrix Market (MatrixMarket.h) for
// any tool, PETSc binary (PetscBinary.h) for PETSc's KSP on many ranks
// (apps/solve/petsc_solve.py). What is written is the SPD system CG solves:
// LinearSystem::matrix() with each LinearSystem::rhs(k).
#include <texstream/linalg/Csr.h>

#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {

class LinearSystem;

enum class SystemFileFormat {
  MatrixMarket,  ///< DIR/A.mtx and DIR/b.mtx (b1.mtx, b2.mtx, ... for further systems)
  Petsc,         ///< DIR/system.petsc: the matrix, then every right-hand side
};

/// Writes `system` into `directory` (created when missing) and returns the paths written.
/// std::runtime_error naming the directory or file when it cannot be created or written.
std::vector<std::string> exportSystem(const LinearSystem& system, const std::string& directory, SystemFileFormat format);

/// The same for a matrix and right-hand sides given directly (texstream-solve --export-petsc).
std::vector<std::string> exportSystem(const Csr& A, std::span<const std::vector<double>> rhs, const std::string& directory,
                                      SystemFileFormat format, const std::string& comment = {});

}  // namespace texstream::linalg
