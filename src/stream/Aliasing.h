#pragma once
// Aliasing checks for operations that take several vectors.
//
// A single pass that reads and writes one texture renders into a pooled replacement
// (Pass.h), so one-pass operations (axpy, multiply, copy, ...) honour any aliasing, and so
// do operations that copy their inputs before writing an output (Multigrid::solve,
// enhancedBlockJacobi, the preconditioners). An algorithm that reads an input after it
// has written an output (CG reads b after updating x; a product reads x while it writes
// y) cannot, and refuses the aliasing with this check before it starts.
#include <string>

namespace texstream::stream {

class Vector;

/// One argument of a public function: its parameter name and the vector passed for it.
struct Argument {
  const char* name;
  const Vector& vector;
};

/// True when a and b are one vector (the same object, or the same texture).
bool sameVector(const Vector& a, const Vector& b);

/// Throws gl::Error("where: x must not be b (both are vector \"v\"): why") when `written`
/// and `read` are one vector. `why` says what the operation would get wrong.
void requireDistinct(const std::string& where, const Argument& written, const Argument& read, const std::string& why);

}  // namespace texstream::stream
