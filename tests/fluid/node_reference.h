#pragma once
// Test support for src/fluid/NodeProjection.*: CPU double-precision references of the node
// projection's kernels (shaders/fluid/node_links.glsl and the kernels that include it), on
// node fields as the GPU holds them, and the RMS flux divergence the layered path's
// statistics report (FluidSolver.h, StepStats).
#include <texstream/fluid/Scene.h>
#include <texstream/stream/GridField.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace texstream::test {

/// A node field of w x h RGBA texels (node (i, j) at texel (i, j)), in double.
struct NodeField {
  int w = 0, h = 0;
  std::vector<double> v;  // 4 per texel
  bool inside(int i, int j) const { return i >= 0 && j >= 0 && i < w && j < h; }
  std::size_t index(int i, int j) const { return 4 * (std::size_t(j) * std::size_t(w) + std::size_t(i)); }
  double at(int i, int j, int c) const { return v[index(i, j) + std::size_t(c)]; }
};

inline NodeField download(const stream::Vector& vec) {
  const std::vector<float> f = vec.download();
  return {vec.layout().width(), vec.layout().height(), std::vector<double>(f.begin(), f.end())};
}

/// Node types and links of the boundary field (.x type, .yz prescribed velocity); outside
/// the grid a wall at rest (node_links.glsl).
struct NodeLinks {
  const NodeField& b;
  int type(int i, int j) const {
    return b.inside(i, j) ? int(std::lround(b.at(i, j, 0))) : int(fluid::NodeType::Solid);
  }
  double link(int i, int j) const { return type(i, j) == int(fluid::NodeType::Solid) ? 0.0 : 1.0; }
  /// The operator's centre: the number of links of a fluid node, 0 at other nodes.
  double centre(int i, int j) const {
    if (type(i, j) != int(fluid::NodeType::Fluid)) return 0;
    return link(i + 1, j) + link(i - 1, j) + link(i, j + 1) + link(i, j - 1);
  }
  double phiAt(const NodeField& phi, int i, int j) const {
    return type(i, j) == int(fluid::NodeType::Fluid) ? phi.at(i, j, 0) : 0.0;
  }
  /// Component c of the face velocity between node (i, j) and its neighbour (m, n).
  double face(const NodeField& vel, int i, int j, int m, int n, int c) const {
    if (link(m, n) != 0) return 0.5 * (vel.at(i, j, c) + vel.at(m, n, c));
    return b.inside(m, n) ? b.at(m, n, 1 + c) : 0.0;
  }
  /// The flux sum D = u_E - u_W + v_N - v_S of node (i, j) (0 where centre() is 0).
  double fluxSum(const NodeField& vel, int i, int j) const {
    if (centre(i, j) == 0) return 0;
    return face(vel, i, j, i + 1, j, 0) - face(vel, i, j, i - 1, j, 0) + face(vel, i, j, i, j + 1, 1) -
           face(vel, i, j, i, j - 1, 1);
  }
};

/// shaders/fluid/node_divergence.glsl: .x = scale D.
inline NodeField nodeDivergence(const NodeField& vel, const NodeField& boundary, double scale) {
  const NodeLinks L{boundary};
  NodeField out{vel.w, vel.h, std::vector<double>(vel.v.size(), 0.0)};
  for (int j = 0; j < vel.h; ++j)
    for (int i = 0; i < vel.w; ++i) out.v[out.index(i, j)] = scale * L.fluxSum(vel, i, j);
  return out;
}

/// shaders/fluid/jacobi_pressure.glsl: one weighted Jacobi sweep on A phi = b.
inline NodeField jacobiSweep(const NodeField& phi, const NodeField& rhs, const NodeField& boundary, double omega) {
  const NodeLinks L{boundary};
  NodeField out{phi.w, phi.h, std::vector<double>(phi.v.size(), 0.0)};
  for (int j = 0; j < phi.h; ++j)
    for (int i = 0; i < phi.w; ++i) {
      const double c = L.centre(i, j);
      if (c == 0) continue;
      const double sum = L.link(i + 1, j) * L.phiAt(phi, i + 1, j) + L.link(i - 1, j) * L.phiAt(phi, i - 1, j) +
                         L.link(i, j + 1) * L.phiAt(phi, i, j + 1) + L.link(i, j - 1) * L.phiAt(phi, i, j - 1);
      out.v[out.index(i, j)] = (1.0 - omega) * phi.at(i, j, 0) + omega * (sum + rhs.at(i, j, 0)) / c;
    }
  return out;
}

/// shaders/fluid/node_gradient_subtract.glsl.
inline NodeField subtractGradient(const NodeField& vel, const NodeField& phi, const NodeField& boundary) {
  const NodeLinks L{boundary};
  NodeField out = vel;
  for (int j = 0; j < vel.h; ++j)
    for (int i = 0; i < vel.w; ++i) {
      if (L.centre(i, j) == 0) continue;
      const double own = phi.at(i, j, 0);
      const double gE = L.link(i + 1, j) * (L.phiAt(phi, i + 1, j) - own);
      const double gW = L.link(i - 1, j) * (own - L.phiAt(phi, i - 1, j));
      const double gN = L.link(i, j + 1) * (L.phiAt(phi, i, j + 1) - own);
      const double gS = L.link(i, j - 1) * (own - L.phiAt(phi, i, j - 1));
      out.v[out.index(i, j)] -= 0.5 * (gE + gW);
      out.v[out.index(i, j) + 1] -= 0.5 * (gN + gS);
    }
  return out;
}

/// RMS over the linked fluid nodes of the flux sum of vel's faces corrected by the gradient
/// of phi, D + A phi, per h (1 / time): the divergence a projection with that phi enforces,
/// the solver's residual (FluidSolver's StepStats::divergenceAfter); with phi = 0 the
/// divergence of vel itself (StepStats::divergenceBefore).
inline double rmsFaceDivergence(const NodeField& vel, const NodeField& phi, const NodeField& boundary, double h) {
  const NodeLinks L{boundary};
  double sum = 0;
  int count = 0;
  for (int j = 0; j < vel.h; ++j)
    for (int i = 0; i < vel.w; ++i) {
      const double c = L.centre(i, j);
      if (c == 0) continue;
      const double Aphi = c * phi.at(i, j, 0) - L.link(i + 1, j) * L.phiAt(phi, i + 1, j) -
                          L.link(i - 1, j) * L.phiAt(phi, i - 1, j) - L.link(i, j + 1) * L.phiAt(phi, i, j + 1) -
                          L.link(i, j - 1) * L.phiAt(phi, i, j - 1);
      const double d = (L.fluxSum(vel, i, j) + Aphi) / h;
      sum += d * d;
      ++count;
    }
  return count > 0 ? std::sqrt(sum / count) : 0.0;
}

/// rmsFaceDivergence with phi = 0: the flux divergence of the node velocity itself.
inline double rmsDivergence(const NodeField& vel, const NodeField& boundary, double h) {
  return rmsFaceDivergence(vel, NodeField{vel.w, vel.h, std::vector<double>(vel.v.size(), 0.0)}, boundary, h);
}

}  // namespace texstream::test
