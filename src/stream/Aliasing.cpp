#include <texstream/stream/Aliasing.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Vector.h>

namespace texstream::stream {

bool sameVector(const Vector& a, const Vector& b) {
  // Two empty vectors share texture id 0 without being one vector.
  return &a == &b || (!a.empty() && a.texture().id() == b.texture().id());
}

void requireDistinct(const std::string& where, const Argument& written, const Argument& read, const std::string& why) {
  if (!sameVector(written.vector, read.vector)) return;
  throw gl::Error(where + ": " + written.name + " must not be " + read.name + " (both are vector \"" +
                  read.vector.name() + "\"): " + why);
}

}  // namespace texstream::stream
