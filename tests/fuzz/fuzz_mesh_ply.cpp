// libFuzzer target: the PLY mesh reader (geometry::parseMesh) on arbitrary bytes. It may
// only return a mesh or throw MeshError.
#include "FuzzTarget.h"

#include <texstream/geometry/MeshIo.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace texstream::geometry;
  texstream::fuzz::expectOnly<MeshError>([&] { parseMesh(texstream::fuzz::bytes(data, size), MeshFormat::Ply, "fuzz.ply"); });
  return 0;
}
