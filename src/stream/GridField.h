#pragma once
// texstream::stream::GridField: a field on an nx x ny grid of nodes in image form, one
// RGBA texel a node: texel (i, j) holds node (i, j)'s four channels (a scalar in .x, a
// velocity in .xy, a colour in .rgb). Kernels read node (i, j) with texelFetch(ivec2(i, j));
// a renderer samples it as a texture. It is a Vector of 4 nx ny scalars in
// Layout::withWidth(4 nx ny, nx), whose grid size it knows.
//
//   GridField velocity(nx, ny, "velocity");
//   velocity.uploadChannels({u, v});          // nx ny values each, node i + nx j
//   Pass("fluid/advect").input("u_velocity", velocity) ...
#include <texstream/stream/Vector.h>

#include <initializer_list>
#include <span>
#include <string>

namespace texstream::stream {

class GridField : public Vector {
 public:
  GridField() = default;
  /// nx x ny nodes (>= 1 each), zero. Throws Error when the texture does not fit.
  GridField(int nx, int ny, std::string name, gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  /// From the runtime's texture pool (Vector::temporary): contents not zeroed.
  static GridField temporary(int nx, int ny, std::string name, gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  /// The layout of an nx x ny field.
  static Layout layoutFor(int nx, int ny);

  int nx() const { return layout().width(); }
  int ny() const { return layout().height(); }
  std::size_t nodes() const { return std::size_t(nx()) * std::size_t(ny()); }
  /// Whether this field has nx x ny nodes (false when empty).
  bool hasSize(int nx, int ny) const { return !empty() && this->nx() == nx && this->ny() == ny; }

  /// Uploads up to four channels, each nx ny values in node order (node (i, j) at
  /// i + nx j); channels not given are zero. Throws Error naming the field when a channel
  /// holds another number of values, or more than four are given.
  void uploadChannels(std::initializer_list<std::span<const float>> channels);

 private:
  explicit GridField(Vector v) : Vector(std::move(v)) {}
};

}  // namespace texstream::stream
