#include <texstream/stream/GridField.h>

#include <texstream/gl/Error.h>

#include <vector>

namespace texstream::stream {

namespace {

int requirePositive(int n, const char* what, const std::string& name) {
  if (n < 1) throw gl::Error("GridField(\"" + name + "\"): " + what + " = " + std::to_string(n) + ", needs >= 1");
  return n;
}

}  // namespace

Layout GridField::layoutFor(int nx, int ny) { return Layout::withWidth(4 * std::size_t(nx) * std::size_t(ny), nx); }

// The name is copied, not moved: the arguments' order of evaluation is unspecified, and the
// checks name the field.
GridField::GridField(int nx, int ny, std::string name, gl::TextureFormat format)
    : Vector(layoutFor(requirePositive(nx, "nx", name), requirePositive(ny, "ny", name)), name, format) {}

GridField GridField::temporary(int nx, int ny, std::string name, gl::TextureFormat format) {
  requirePositive(nx, "nx", name);
  requirePositive(ny, "ny", name);
  return GridField(Vector::temporary(layoutFor(nx, ny), std::move(name), format));
}

void GridField::uploadChannels(std::initializer_list<std::span<const float>> channels) {
  const std::size_t n = nodes();
  if (channels.size() > 4) {
    throw gl::Error("GridField(\"" + name() + "\")::uploadChannels: " + std::to_string(channels.size()) +
                    " channels, a node has 4");
  }
  std::vector<float> packed(4 * n, 0.0f);
  std::size_t c = 0;
  for (std::span<const float> channel : channels) {
    if (channel.size() != n) {
      throw gl::Error("GridField(\"" + name() + "\")::uploadChannels: channel " + std::to_string(c) + " has " +
                      std::to_string(channel.size()) + " values for " + std::to_string(nx()) + "x" +
                      std::to_string(ny()) + " nodes");
    }
    for (std::size_t k = 0; k < n; ++k) packed[4 * k + c] = channel[k];
    ++c;
  }
  upload(packed);
}

}  // namespace texstream::stream
