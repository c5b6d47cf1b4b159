// Bolz et al. 2003, §4.2: four parts of the grid layered into RGBA, one-texel borders.
#include <texstream/solvers/multigrid/LayeredGrid.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <stdexcept>

#include <glad/gl.h>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

int coarserSide(int n) { return n / 2 + 1; }

std::string sizeText(int nx, int ny) { return std::to_string(nx) + "x" + std::to_string(ny); }

}  // namespace

LayeredGrid::LayeredGrid(int nx, int ny, int splitX, int splitY)
    : m_nx(nx), m_ny(ny), m_sx(splitX), m_sy(splitY), m_w(nx - splitX + 2), m_h(ny - splitY + 2) {
  if (nx < 2 || ny < 2)
    throw std::invalid_argument("LayeredGrid: a grid needs at least 2x2 nodes (got " + sizeText(nx, ny) + ")");
  auto check = [&](int n, int s, const char* axis) {
    if (s < 1 || s > n - s)
      throw std::invalid_argument("LayeredGrid " + sizeText(nx, ny) + ": split " + axis + " = " + std::to_string(s) +
                                  " must be in [1, " + std::to_string(n / 2) + "] (part 0 no larger than part 1)");
  };
  check(nx, splitX, "x");
  check(ny, splitY, "y");
}

LayeredGrid LayeredGrid::forLevels(int nx, int ny, int levels) {
  if (levels < 1) throw std::invalid_argument("LayeredGrid::forLevels: levels must be >= 1");
  const int align = 1 << (levels - 1);
  auto split = [&](int n) {
    const int s = (n / 2) / align * align;
    if (s < align)
      throw std::invalid_argument("LayeredGrid::forLevels: " + sizeText(nx, ny) + " cannot coarsen " +
                                  std::to_string(levels - 1) + " times");
    return s;
  };
  return LayeredGrid(nx, ny, split(nx), split(ny));
}

std::vector<LayeredGrid> LayeredGrid::hierarchy(int nx, int ny, int maxLevels, int coarsestNodes) {
  if (nx < 2 || ny < 2)
    throw std::invalid_argument("LayeredGrid::hierarchy: a grid needs at least 2x2 nodes (got " + sizeText(nx, ny) +
                                ")");
  // Level count first: the splits of the finest grid must be multiples of 2^(levels - 1).
  int levels = 1, cx = nx, cy = ny;
  while ((maxLevels <= 0 || levels < maxLevels) && std::size_t(cx) * std::size_t(cy) > std::size_t(coarsestNodes) &&
         cx >= 3 && cy >= 3) {
    cx = coarserSide(cx);
    cy = coarserSide(cy);
    ++levels;
  }
  // An alignment that leaves part 0 empty cannot be: use fewer levels.
  while (levels > 1 && ((nx / 2) >> (levels - 1)) == 0) --levels;
  while (levels > 1 && ((ny / 2) >> (levels - 1)) == 0) --levels;
  std::vector<LayeredGrid> grids{forLevels(nx, ny, levels)};
  for (int l = 1; l < levels; ++l) grids.push_back(grids.back().coarser());
  return grids;
}

stream::Layout LayeredGrid::layout() const { return stream::Layout::withWidth(4 * std::size_t(m_w) * m_h, m_w); }

bool LayeredGrid::canCoarsen() const { return m_sx % 2 == 0 && m_sy % 2 == 0 && m_nx >= 3 && m_ny >= 3; }

LayeredGrid LayeredGrid::coarser() const {
  if (!canCoarsen())
    throw std::invalid_argument("LayeredGrid::coarser: " + describe() + " has an odd split or a side below 3");
  return LayeredGrid(coarserSide(m_nx), coarserSide(m_ny), m_sx / 2, m_sy / 2);
}

std::string LayeredGrid::describe() const {
  return sizeText(m_nx, m_ny) + " nodes (split " + std::to_string(m_sx) + "," + std::to_string(m_sy) + ") in " +
         sizeText(m_w, m_h) + " texels";
}

LayeredGrid::Slot LayeredGrid::owner(int i, int j) const {
  const int qx = i >= m_sx ? 1 : 0, qy = j >= m_sy ? 1 : 0;
  return {i - qx * m_sx + 1, j - qy * m_sy + 1, qx + 2 * qy};
}

void LayeredGrid::node(int tx, int ty, int channel, int& i, int& j) const {
  i = tx - 1 + (channel & 1) * m_sx;
  j = ty - 1 + (channel >> 1) * m_sy;
}

bool LayeredGrid::owns(int tx, int ty, int channel) const {
  const int a = tx - 1, b = ty - 1;
  const int countX = (channel & 1) ? m_nx - m_sx : m_sx, countY = (channel >> 1) ? m_ny - m_sy : m_sy;
  return a >= 0 && a < countX && b >= 0 && b < countY;
}

std::vector<float> LayeredGrid::layerHost(std::span<const float> nodeValues) const {
  if (nodeValues.size() != nodes())
    throw std::invalid_argument("LayeredGrid::layerHost: " + std::to_string(nodeValues.size()) +
                                " values for a grid of " + std::to_string(nodes()) + " nodes");
  std::vector<float> out(4 * std::size_t(m_w) * m_h, 0.0f);
  for (int ty = 0; ty < m_h; ++ty)
    for (int tx = 0; tx < m_w; ++tx)
      for (int c = 0; c < 4; ++c) {
        const int a = tx - 1, b = ty - 1;
        const bool qx = c & 1, qy = c >> 1;
        // Owned, or the one-texel border: the same rule as layeredHalo() in layered.glsl.
        const bool inX = qx ? (a >= -1 && a < m_nx - m_sx) : (a >= 0 && a <= m_sx && a < m_nx);
        const bool inY = qy ? (b >= -1 && b < m_ny - m_sy) : (b >= 0 && b <= m_sy && b < m_ny);
        if (!inX || !inY) continue;
        int i, j;
        node(tx, ty, c, i, j);
        out[4 * (std::size_t(ty) * m_w + tx) + c] = nodeValues[std::size_t(j) * m_nx + i];
      }
  return out;
}

std::vector<float> LayeredGrid::unlayerHost(std::span<const float> layered) const {
  if (layered.size() != 4 * std::size_t(m_w) * m_h)
    throw std::invalid_argument("LayeredGrid::unlayerHost: " + std::to_string(layered.size()) + " values, expected " +
                                std::to_string(4 * std::size_t(m_w) * m_h) + " for " + describe());
  std::vector<float> out(nodes());
  for (int j = 0; j < m_ny; ++j)
    for (int i = 0; i < m_nx; ++i) {
      const Slot s = owner(i, j);
      out[std::size_t(j) * m_nx + i] = layered[4 * (std::size_t(s.y) * m_w + s.x) + s.channel];
    }
  return out;
}

void LayeredGrid::bind(stream::Pass& pass, const std::string& uniform) const {
  pass.uniform(uniform, m_nx, m_ny, m_sx, m_sy);
}

void LayeredGrid::require(const char* what, const stream::Vector& v) const {
  if (v.empty()) throw gl::Error(std::string(what) + ": vector is empty");
  if (v.layout() != layout())
    throw gl::Error(std::string(what) + ": vector \"" + v.name() + "\" has layout " + v.layout().describe() +
                    ", not the layered layout " + layout().describe() + " of " + describe());
}

void LayeredGrid::layer(const stream::Vector& nodeVector, stream::Vector& layered) const {
  gl::StateGuard guard;
  if (nodeVector.size() != nodes())
    throw gl::Error("LayeredGrid::layer: vector \"" + nodeVector.name() + "\" has n=" +
                    std::to_string(nodeVector.size()) + ", the grid " + std::to_string(nodes()) + " nodes");
  require("LayeredGrid::layer", layered);
  stream::Pass pass("multigrid/layer");
  bind(pass);
  pass.input("u_nodes", nodeVector).output(layered).label("mg layer").run();
}

void LayeredGrid::unlayer(const stream::Vector& layered, stream::Vector& nodeVector) const {
  gl::StateGuard guard;
  require("LayeredGrid::unlayer", layered);
  if (nodeVector.size() != nodes())
    throw gl::Error("LayeredGrid::unlayer: vector \"" + nodeVector.name() + "\" has n=" +
                    std::to_string(nodeVector.size()) + ", the grid " + std::to_string(nodes()) + " nodes");
  stream::Pass pass("multigrid/unlayer");
  bind(pass);
  pass.input("u_layered", layered)
      .uniform("u_width", nodeVector.layout().width())
      .output(nodeVector)
      .label("mg unlayer")
      .run();
}

std::vector<stream::Rect> LayeredGrid::borderRectsX() const {
  return {{0, 0, 1, m_h}, {m_sx + 1, 0, m_w - m_sx - 1, m_h}};
}

std::vector<stream::Rect> LayeredGrid::borderRectsY() const {
  // The x strips already cover the corners.
  return {{1, 0, m_sx, 1}, {1, m_sy + 1, m_sx, m_h - m_sy - 1}};
}

void LayeredGrid::syncBorder(std::initializer_list<stream::Vector*> fields) const {
  if (fields.size() == 0) return;
  if (fields.size() > 4) throw gl::Error("LayeredGrid::syncBorder: at most 4 fields per call");
  gl::StateGuard guard;
  for (const stream::Vector* f : fields) require("LayeredGrid::syncBorder", *f);
  auto copy = [&](const std::vector<stream::Rect>& rects, const char* label) {
    stream::Pass pass("multigrid/sync_border");
    pass.define("FIELDS", (long long)fields.size()).inPlace().label(label);
    bind(pass);
    int k = 0;
    for (stream::Vector* f : fields) pass.input("u_f" + std::to_string(k++), *f);
    for (stream::Vector* f : fields) pass.output(*f);
    pass.run(rects);
  };
  std::vector<stream::Rect> x = borderRectsX(), y = borderRectsY();
  if (stream::Runtime::current().backend() == stream::Backend::Fragment) {
    // Rendering into a texture while sampling it is defined only for disjoint texels and
    // after a texture barrier (GL 4.5, §9.3.1); NVIDIA's render-target compression makes
    // anything else read garbage. The x strips read columns 1 and sx only, the y strips
    // (columns 1 .. sx) rows 1 and sy only, and no pass reads what the pair writes.
    // Without GL 4.5 / ARB_texture_barrier the barrier is left out (best effort).
    if (glTextureBarrier) glTextureBarrier();
    copy(x, "mg border copy");
    if (glTextureBarrier) glTextureBarrier();
    copy(y, "mg border copy");
  } else {
    // Compute: one set of dispatches. An owned channel inside a strip is written back with
    // its own value, so a copy reading it sees the same value before or after the write.
    for (const stream::Rect& r : y) x.push_back(r);
    copy(x, "mg border copy");
  }
}

}  // namespace multigrid
}  // namespace texstream::solvers
