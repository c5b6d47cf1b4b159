#pragma once
// texstream::solvers::LayeredGrid: the layered texture layout of Bolz et al. 2003, §4.2.
//
// An nx x ny grid of nodes (i, j), i fastest, is cut into four parts along the split
// lines i = sx and j = sy; part (qx, qy) holds nodes [qx ? sx : 0, qx ? nx : sx) x
// [qy ? sy : 0, qy ? ny : sy) and is layered into channel c = qx + 2 qy (R, G, B, A) of
// one RGBA texture of about half the size in each dimension:
//
//   texel t = (tx, ty) holds, in channel c, node (tx - 1 + qx sx, ty - 1 + qy sy).
//
// Each part keeps a one-texel border: the nodes next to it that another part owns
// (duplicates, kept in sync by copy passes, syncBorder) or zeros past the domain's edge.
// Splits are even at every level but the coarsest, so coarse node I sits at fine node
// 2I in the same channel: interpolation, projection and stencil composition read fine
// texel 2T - 1 + e for coarse texel T, the same expression in all four channels (Bolz's
// "group odd and even indexed nodes"). sx <= nx - sx (part 1 is the larger).
//
// A layered field is a stream::Vector of 4 W H elements in Layout::withWidth(4 W H, W)
// (every channel of every texel counts), so the core's vector operations apply to it.
#include <texstream/stream/Layout.h>
#include <texstream/stream/Pass.h>

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {
inline namespace multigrid {

class LayeredGrid {
 public:
  LayeredGrid() = default;
  /// Throws std::invalid_argument unless nx, ny >= 2 and 1 <= sx <= nx - sx (same for y).
  LayeredGrid(int nx, int ny, int splitX, int splitY);
  /// The grid with the most even splits allowed when `levels` levels coarsen from it:
  /// sx a multiple of 2^(levels - 1) (floor of nx / 2 to that multiple).
  static LayeredGrid forLevels(int nx, int ny, int levels);
  /// Grids of a multigrid hierarchy, finest first: each coarser one has nx / 2 + 1 nodes
  /// (coarse node I at fine node 2I; for even nx the last one lies one node past the fine
  /// grid) and half the splits. Coarsens while the coarsest has more than `coarsestNodes`
  /// nodes, both sides have at least 3 nodes, and (maxLevels > 0) fewer than maxLevels levels.
  static std::vector<LayeredGrid> hierarchy(int nx, int ny, int maxLevels, int coarsestNodes);

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  int splitX() const { return m_sx; }
  int splitY() const { return m_sy; }
  /// Texture size, border included: (nx - sx + 2) x (ny - sy + 2).
  int width() const { return m_w; }
  int height() const { return m_h; }
  std::size_t nodes() const { return std::size_t(m_nx) * std::size_t(m_ny); }
  /// Layout::withWidth(4 W H, W): the layout of every layered field of this grid.
  stream::Layout layout() const;
  /// The next coarser grid (nx / 2 + 1 nodes, half the splits); throws if a split is odd.
  LayeredGrid coarser() const;
  bool canCoarsen() const;
  /// "1025x1025 nodes (split 512,512) in 515x515 texels"
  std::string describe() const;
  bool operator==(const LayeredGrid& o) const = default;

  // Where nodes live (CPU).
  struct Slot {
    int x = 0, y = 0, channel = 0;
  };
  /// The texel and channel that own node (i, j).
  Slot owner(int i, int j) const;
  /// Node of (texel, channel); may lie outside the grid.
  void node(int tx, int ty, int channel, int& i, int& j) const;
  /// True when (texel, channel) owns its node; false for border duplicates and padding.
  bool owns(int tx, int ty, int channel) const;

  /// Layered floats (4 W H) from node values (nx ny, i fastest): owned texels and border
  /// duplicates filled, zero elsewhere.
  std::vector<float> layerHost(std::span<const float> nodeValues) const;
  /// Node values (nx ny) from layered floats (read at the owners).
  std::vector<float> unlayerHost(std::span<const float> layered) const;

  // GPU passes (Bolz §4.2: "layering and un-layering ... with short fragment programs").
  /// layered = the nx ny values of `nodes` (element i + nx j, any layout), border included.
  void layer(const stream::Vector& nodes, stream::Vector& layered) const;
  /// nodes (nx ny elements, any layout) = the owned values of `layered`.
  void unlayer(const stream::Vector& layered, stream::Vector& nodes) const;
  /// Copies the owners' values into the border texels of each field (up to 4 fields, all of
  /// this grid's layout), in place: one pass over the border strips on the compute backend,
  /// two disjoint ones separated by texture barriers on the fragment backend.
  void syncBorder(std::initializer_list<stream::Vector*> fields) const;
  /// The rectangles the border-copy pass covers (x strips full height, y strips between).
  std::vector<stream::Rect> borderRectsX() const;
  std::vector<stream::Rect> borderRectsY() const;
  /// Sets `uniform` (an ivec4: nx, ny, sx, sy) on the pass; see shaders/multigrid/layered.glsl.
  void bind(stream::Pass& pass, const std::string& uniform = "u_grid") const;
  /// Throws gl::Error naming `what` and the vector unless v has this grid's layout.
  void require(const char* what, const stream::Vector& v) const;

 private:
  int m_nx = 0, m_ny = 0, m_sx = 0, m_sy = 0, m_w = 0, m_h = 0;
};

}  // namespace multigrid
}  // namespace texstream::solvers
