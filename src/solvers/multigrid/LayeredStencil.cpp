// Bolz et al. 2003, §4.2: "Matrix Vector Multiply" on the layered layout.
#include <texstream/solvers/multigrid/LayeredStencil.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

/// Texels sampled per operator by findConstantStencils (a 4 x 4 lattice at most).
constexpr int kSamples = 16;

/// Up to four distinct texel coordinates spread over [1, s] (the texels where channel 0,
/// the smallest part, owns its node, so all four channels do).
std::vector<int> sampleCoordinates(int s) {
  std::vector<int> v;
  for (int k = 0; k < 4; ++k) {
    const int c = std::clamp(1 + ((2 * k + 1) * s) / 8, 1, s);
    if (std::find(v.begin(), v.end(), c) == v.end()) v.push_back(c);
  }
  return v;
}

}  // namespace

LayeredStencil::LayeredStencil(const LayeredGrid& grid, std::string name) : m_grid(grid), m_name(std::move(name)) {
  for (int e = 0; e < 9; ++e) m_entries[std::size_t(e)] = stream::Vector(grid.layout(), m_name + ".A" + std::to_string(e));
}

LayeredStencil LayeredStencil::upload(const GridStencil& A, const LayeredGrid& grid) {
  if (A.nx() != grid.nx() || A.ny() != grid.ny())
    throw std::invalid_argument("LayeredStencil::upload(\"" + A.name() + "\"): stencil of " + std::to_string(A.nx()) +
                                "x" + std::to_string(A.ny()) + " nodes on a grid of " + grid.describe());
  A.validate();
  LayeredStencil s(grid, A.name());
  for (int e = 0; e < 9; ++e) s.m_entries[std::size_t(e)].upload(grid.layerHost(A.entry(e)));
  for (int e : {0, 2, 6, 8})
    for (float a : A.entry(e)) s.m_fivePoint = s.m_fivePoint && a == 0.0f;
  return s;
}

GridStencil LayeredStencil::download() const {
  const LayeredStencil* self = this;
  return std::move(downloadAll(std::span<const LayeredStencil* const>(&self, 1))[0]);
}

std::vector<GridStencil> LayeredStencil::downloadAll(std::span<const LayeredStencil* const> ops) {
  std::vector<const stream::Vector*> entries;
  for (const LayeredStencil* op : ops)
    for (const stream::Vector& e : op->m_entries) entries.push_back(&e);
  const std::vector<std::vector<float>> layered = stream::downloadAll(entries);
  std::vector<GridStencil> out;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const LayeredStencil& op = *ops[i];
    GridStencil A(op.m_grid.nx(), op.m_grid.ny(), op.m_name);
    for (int e = 0; e < 9; ++e) A.entry(e) = op.m_grid.unlayerHost(layered[9 * i + std::size_t(e)]);
    out.push_back(std::move(A));
  }
  return out;
}

void LayeredStencil::syncBorder() {
  clearConstantStencil();  // the entries were written
  m_grid.syncBorder({&m_entries[0], &m_entries[1], &m_entries[2], &m_entries[3]});
  m_grid.syncBorder({&m_entries[4], &m_entries[5], &m_entries[6], &m_entries[7]});
  m_grid.syncBorder({&m_entries[8]});
}

void LayeredStencil::bind(stream::Pass& pass, bool constantPath) const {
  for (int e = 0; e < 9; ++e) pass.input("u_A" + std::to_string(e), m_entries[std::size_t(e)]);
  if (!constantPath || !hasConstantStencil()) return;
  pass.define("CONSTANT_STENCIL").input("u_constant", m_constantFlags);
  for (std::size_t e = 0; e < 9; ++e)
    pass.uniform("u_S" + std::to_string(e), m_constant[4 * e], m_constant[4 * e + 1], m_constant[4 * e + 2],
                 m_constant[4 * e + 3]);
}

void LayeredStencil::clearConstantStencil() {
  m_constantFlags = gl::Texture();
  m_constant.fill(0.0f);
}

std::size_t LayeredStencil::constantTexels() const {
  if (!hasConstantStencil()) return 0;
  gl::StateGuard guard;
  std::vector<float> flags(std::size_t(m_constantFlags.width()) * std::size_t(m_constantFlags.height()));
  m_constantFlags.download(flags.data());
  return std::size_t(std::count_if(flags.begin(), flags.end(), [](float f) { return f != 0.0f; }));
}

void LayeredStencil::findConstantStencils(std::span<LayeredStencil* const> ops) {
  if (ops.empty()) return;
  gl::StateGuard guard;
  // Row i of `samples`: entry e of operator i's sample k at texel 9 k + e.
  gl::Texture samples(9 * kSamples, int(ops.size()), gl::TextureFormat::RGBA32F, "multigrid.stencil_samples");
  std::vector<int> sampleCount(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    LayeredStencil& op = *ops[i];
    op.clearConstantStencil();
    std::vector<int> coords;
    for (int y : sampleCoordinates(op.m_grid.splitY()))
      for (int x : sampleCoordinates(op.m_grid.splitX())) coords.insert(coords.end(), {x, y});
    sampleCount[i] = int(coords.size() / 2);
    while (coords.size() < 2 * std::size_t(kSamples)) coords.insert(coords.end(), {coords[0], coords[1]});
    stream::Pass pass("multigrid/stencil_samples");
    op.bind(pass);
    pass.uniformArray("u_samples", coords).output(samples).label("mg stencil samples");
    pass.run({stream::Rect{0, int(i), 9 * kSamples, 1}});
  }
  std::vector<float> values(4 * std::size_t(samples.width()) * std::size_t(samples.height()));
  samples.download(values.data());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    LayeredStencil& op = *ops[i];
    auto value = [&](int k, int e, int c) {
      return values[4 * (i * std::size_t(9 * kSamples) + std::size_t(9 * k + e)) + std::size_t(c)];
    };
    auto same = [&](int k, int m, int c) {
      for (int e = 0; e < 9; ++e) {
        const float a = value(k, e, c), b = value(m, e, c);
        if (std::memcmp(&a, &b, sizeof a) != 0) return false;
      }
      return true;
    };
    std::array<float, 36> reference{};
    bool found = true;
    for (int c = 0; c < 4 && found; ++c) {
      int best = -1, bestCount = 0;
      for (int k = 0; k < sampleCount[i]; ++k) {
        if (value(k, 4, c) == 0.0f) continue;  // a fixed node
        int count = 0;
        for (int m = 0; m < sampleCount[i]; ++m) count += value(m, 4, c) != 0.0f && same(k, m, c);
        if (count > bestCount) best = k, bestCount = count;
      }
      found = bestCount >= 2;
      if (found)
        for (int e = 0; e < 9; ++e) reference[4 * std::size_t(e) + std::size_t(c)] = value(best, e, c);
    }
    if (!found) continue;
    op.m_constant = reference;
    op.m_constantFlags = gl::Texture(op.m_grid.width(), op.m_grid.height(), gl::TextureFormat::R32F,
                                     op.m_name + ".constant_flags");
    stream::Pass pass("multigrid/constant_flags");
    op.m_grid.bind(pass);
    for (int e = 0; e < 9; ++e) pass.input("u_A" + std::to_string(e), op.m_entries[std::size_t(e)]);
    for (std::size_t e = 0; e < 9; ++e)
      pass.uniform("u_S" + std::to_string(e), reference[4 * e], reference[4 * e + 1], reference[4 * e + 2],
                   reference[4 * e + 3]);
    pass.output(op.m_constantFlags).label("mg constant flags").run();
  }
}

void LayeredStencil::applyLayered(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  m_grid.require("LayeredStencil::applyLayered", x);
  m_grid.require("LayeredStencil::applyLayered", y);
  stream::requireDistinct("LayeredStencil(\"" + m_name + "\")::applyLayered", {"y", y}, {"x", x},
                          "a product cannot be formed in place");
  stream::Pass pass("multigrid/stencil_apply");
  m_grid.bind(pass);
  bind(pass);
  pass.input("u_x", x).output(y).label("mg stencil apply").run();
}

void LayeredStencil::apply(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  if (x.size() != rows() || y.size() != rows())
    throw gl::Error("LayeredStencil(\"" + m_name + "\")::apply: x \"" + x.name() + "\" has n=" +
                    std::to_string(x.size()) + ", y \"" + y.name() + "\" n=" + std::to_string(y.size()) +
                    ", the grid " + std::to_string(rows()) + " nodes");
  stream::requireDistinct("LayeredStencil(\"" + m_name + "\")::apply", {"y", y}, {"x", x},
                          "a product cannot be formed in place");
  stream::Vector xl = stream::Vector::temporary(m_grid.layout(), m_name + ".x");
  stream::Vector yl = stream::Vector::temporary(m_grid.layout(), m_name + ".y");
  m_grid.layer(x, xl);
  applyLayered(xl, yl);
  m_grid.unlayer(yl, y);
}

void LayeredStencil::diagonal(stream::Vector& d) const {
  gl::StateGuard guard;
  if (d.size() != rows())
    throw gl::Error("LayeredStencil(\"" + m_name + "\")::diagonal: vector \"" + d.name() + "\" has n=" +
                    std::to_string(d.size()) + ", the grid " + std::to_string(rows()) + " nodes");
  stream::Vector ones = stream::Vector::temporary(m_grid.layout(), m_name + ".ones");
  stream::Pass("multigrid/diagonal")
      .input("u_centre", centre())
      .output(ones)
      .label("mg diagonal")
      .run();
  m_grid.unlayer(ones, d);
}

double LayeredStencil::bytesPerApply() const {
  const double texels = double(m_grid.width()) * double(m_grid.height());
  return texels * 16.0 * (9.0 + 1.0 + 1.0);
}

}  // namespace multigrid
}  // namespace texstream::solvers
