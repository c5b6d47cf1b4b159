#pragma once
// PETSc's binary format for matrices and vectors (PETSc manual, MatLoad / VecLoad and
// PetscViewerBinaryOpen): what a system needs to leave texstream for PETSc's solvers when
// it outgrows one GPU (README: "When a system outgrows one GPU").
//
// Everything big-endian, indices 32-bit (PETSc built without --with-64-bit-indices, as
// Debian's petsc-real is), scalars IEEE double:
//   matrix: int32 MAT_FILE_CLASSID = 1211216, rows M, columns N, non-zeros nz,
//           int32[M] entries per row, int32[nz] column indices (row by row), double[nz]
//   vector: int32 VEC_FILE_CLASSID = 1211214, n, double[n]
// Several objects may follow one another in one file and are loaded in order: a matrix
// then its right-hand sides is the layout PETSc's KSP tutorial ex10 reads (`-f FILE`).
#include <texstream/linalg/Csr.h>

#include <cstdint>
#include <span>
#include <string>

namespace texstream::linalg {

inline constexpr std::int32_t kPetscMatFileClassId = 1211216;
inline constexpr std::int32_t kPetscVecFileClassId = 1211214;

/// The bytes of A (validated: std::invalid_argument; sizes and non-zeros must fit int32).
std::string formatPetscMatrix(const Csr& A);
/// The bytes of a vector (at most 2^31 - 1 values).
std::string formatPetscVector(std::span<const double> v);
/// A file holding A, then each right-hand side in turn. std::runtime_error naming the path
/// when it cannot be written.
void writePetscBinary(const std::string& path, const Csr& A, std::span<const std::span<const double>> vectors = {});

}  // namespace texstream::linalg
