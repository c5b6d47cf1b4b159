#pragma once
// CPU double-precision references of the 3D pressure preconditioners: the same V-cycle as
// solvers/PressureMultigrid3D (labels coarsened, piecewise-constant transfers, red-black
// Gauss-Seidel) and the same block-multicolour MIC(0) as solvers/MulticolourMic0, written
// cell by cell on whole-grid vectors (x fastest, 0 on cells without an equation).
#include "linalg/PressureDomains.h"

#include <texstream/solvers/stationary/MulticolourMic0.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace texstream::test {

/// One multigrid level: per cell the diagonal (A_ii > 0, 0 solid, -1 air) and the couplings
/// with the six neighbours (BoxSide order).
struct PressureLevel {
  int nx = 0, ny = 0, nz = 0;
  std::vector<double> diag;
  std::vector<std::array<double, 6>> coupling;
  std::array<linalg::CellLabel, 6> outside{};
  /// Per cell 1 in the boundary band (markBoundaryBand), where the V-cycle's boundary sweeps
  /// relax; empty: no band.
  std::vector<std::uint8_t> band;
  std::size_t cell(int i, int j, int k) const { return std::size_t(i + nx * (j + ny * k)); }
  bool inside(int i, int j, int k) const { return i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz; }
};

inline constexpr int kStep3[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

/// The finest level of a domain, from its CSR (the same coefficients the GPU builds).
inline PressureLevel fineLevel(const linalg::PressureDomain3D& d) {
  PressureLevel L;
  L.nx = d.nx, L.ny = d.ny, L.nz = d.nz, L.outside = d.outside;
  L.diag.assign(d.cells(), 0.0);
  L.coupling.assign(d.cells(), {});
  for (int k = 0; k < d.nz; ++k) {
    for (int j = 0; j < d.ny; ++j) {
      for (int i = 0; i < d.nx; ++i) {
        const std::size_t c = d.cell(i, j, k);
        if (d.labels[c] == linalg::CellLabel::Air) L.diag[c] = -1;
        if (d.labels[c] != linalg::CellLabel::Fluid) continue;
        L.diag[c] = d.diagonal(i, j, k);
      }
    }
  }
  for (int k = 0; k < d.nz; ++k) {
    for (int j = 0; j < d.ny; ++j) {
      for (int i = 0; i < d.nx; ++i) {
        const std::size_t c = d.cell(i, j, k);
        if (L.diag[c] <= 0) continue;
        for (int f = 0; f < 6; ++f) {
          const auto nb = d.face(i, j, k, f);
          if (nb.label == linalg::CellLabel::Fluid && L.diag[nb.cell] > 0) L.coupling[c][std::size_t(f)] = nb.open;
        }
      }
    }
  }
  return L;
}

/// The next level: labels coarsened (air if any child is air, else fluid if any child has
/// an equation, else solid) and their 7-point operator.
inline PressureLevel coarseLevel(const PressureLevel& f) {
  PressureLevel c;
  c.nx = (f.nx + 1) / 2, c.ny = (f.ny + 1) / 2, c.nz = (f.nz + 1) / 2, c.outside = f.outside;
  std::vector<int> label(std::size_t(c.nx * c.ny * c.nz), 1);
  for (int k = 0; k < c.nz; ++k) {
    for (int j = 0; j < c.ny; ++j) {
      for (int i = 0; i < c.nx; ++i) {
        bool air = false, fluid = false;
        for (int ch = 0; ch < 8; ++ch) {
          const int a = 2 * i + (ch & 1), b = 2 * j + (ch >> 1 & 1), e = 2 * k + (ch >> 2);
          if (!f.inside(a, b, e)) continue;
          air = air || f.diag[f.cell(a, b, e)] < 0;
          fluid = fluid || f.diag[f.cell(a, b, e)] > 0;
        }
        label[c.cell(i, j, k)] = air ? 2 : (fluid ? 0 : 1);
      }
    }
  }
  c.diag.assign(label.size(), 0.0);
  c.coupling.assign(label.size(), {});
  for (int k = 0; k < c.nz; ++k) {
    for (int j = 0; j < c.ny; ++j) {
      for (int i = 0; i < c.nx; ++i) {
        const std::size_t x = c.cell(i, j, k);
        if (label[x] == 2) c.diag[x] = -1;
        if (label[x] != 0) continue;
        double d = 0;
        for (int f2 = 0; f2 < 6; ++f2) {
          const int a = i + kStep3[f2][0], b = j + kStep3[f2][1], e = k + kStep3[f2][2];
          const int nl = c.inside(a, b, e) ? label[c.cell(a, b, e)] : int(c.outside[std::size_t(f2)]);
          if (nl == 0 || nl == 2) d += 1;
          if (nl == 0) c.coupling[x][std::size_t(f2)] = 1;
        }
        c.diag[x] = d;
      }
    }
  }
  for (std::size_t x = 0; x < label.size(); ++x) {
    if (c.diag[x] == 0) c.coupling[x] = {};  // walled in: no equation, no couplings
  }
  return c;
}

inline double neighbourSum3(const PressureLevel& L, const std::vector<double>& z, int i, int j, int k) {
  double s = 0;
  const std::size_t c = L.cell(i, j, k);
  for (int f = 0; f < 6; ++f) {
    if (L.coupling[c][std::size_t(f)] == 0) continue;
    s += L.coupling[c][std::size_t(f)] * z[L.cell(i + kStep3[f][0], j + kStep3[f][1], k + kStep3[f][2])];
  }
  return s;
}

/// The boundary band of width w (McAdams et al. 2010, §4): cells with an equation within w
/// face steps of a cell without one or of the box's side, on every level.
inline void markBoundaryBand(std::vector<PressureLevel>& levels, int width) {
  for (PressureLevel& L : levels) {
    L.band.assign(L.diag.size(), 0);
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          if (L.diag[L.cell(i, j, k)] <= 0) continue;
          bool near = false;
          for (int c = -width; c <= width && !near; ++c)
            for (int b = -width; b <= width && !near; ++b)
              for (int a = -width; a <= width && !near; ++a) {
                if (std::abs(a) + std::abs(b) + std::abs(c) > width) continue;
                near = !L.inside(i + a, j + b, k + c) || L.diag[L.cell(i + a, j + b, k + c)] <= 0;
              }
          L.band[L.cell(i, j, k)] = near ? 1 : 0;
        }
  }
}

/// The V-cycle of PressureMultigrid3D from z = 0, in double: over-relaxation omega on level
/// 0, coarseOmega on the others; on levels with a band, boundarySweeps red-black sweeps of
/// the band's cells before the pre-smoothing and black-red after the post-smoothing.
inline void vcycleReference(const std::vector<PressureLevel>& levels, std::size_t l, const std::vector<double>& r,
                            std::vector<double>& z, int sweeps, double omega, double coarseOmega,
                            int boundarySweeps = 0) {
  const double w = l == 0 ? omega : coarseOmega;
  const PressureLevel& L = levels[l];
  const int bandSweeps = L.band.empty() ? 0 : boundarySweeps;
  z.assign(r.size(), 0.0);
  auto half = [&](int colour, bool bandOnly) {
    std::vector<double> next = z;
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::size_t c = L.cell(i, j, k);
          if (L.diag[c] <= 0 || ((i + j + k) & 1) != colour || (bandOnly && !L.band[c])) continue;
          next[c] = z[c] + w * ((r[c] + neighbourSum3(L, z, i, j, k)) / L.diag[c] - z[c]);
        }
    z = next;
  };
  for (int s = 0; s < bandSweeps; ++s) half(0, true), half(1, true);
  for (int s = 0; s < sweeps; ++s) half(0, false), half(1, false);
  if (l + 1 < levels.size()) {
    const PressureLevel& C = levels[l + 1];
    std::vector<double> rc(C.diag.size(), 0.0), zc;
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::size_t c = L.cell(i, j, k);
          if (L.diag[c] <= 0) continue;
          const double res = r[c] - (L.diag[c] * z[c] - neighbourSum3(L, z, i, j, k));
          const std::size_t p = C.cell(i / 2, j / 2, k / 2);
          if (C.diag[p] > 0) rc[p] += 0.5 * res;
        }
    vcycleReference(levels, l + 1, rc, zc, sweeps, omega, coarseOmega, boundarySweeps);
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::size_t c = L.cell(i, j, k);
          if (L.diag[c] > 0) z[c] += zc[C.cell(i / 2, j / 2, k / 2)];
        }
  }
  for (int s = 0; s < sweeps; ++s) half(1, false), half(0, false);
  for (int s = 0; s < bandSweeps; ++s) half(1, true), half(0, true);
}

/// The levels PressureMultigrid3D builds (coarsened until the largest side is at most 2).
inline std::vector<PressureLevel> multigridLevels(const linalg::PressureDomain3D& d) {
  std::vector<PressureLevel> levels{fineLevel(d)};
  while (std::max({levels.back().nx, levels.back().ny, levels.back().nz}) > 2) levels.push_back(coarseLevel(levels.back()));
  return levels;
}

/// Block-multicolour order of MulticolourMic0 (o: MulticolourMic0::kOrdering): (colour of
/// the block, block, index in it).
inline std::int64_t micOrderKey(const PressureLevel& L, const solvers::MicBlockOrdering& o, int i, int j, int k) {
  const int bx = i / o.cellsX, by = j / o.cellsY, bz = k / o.cellsZ;
  const int colour = bx % o.period(L.nx, o.cellsX) + by % o.period(L.ny, o.cellsY) + bz % o.period(L.nz, o.cellsZ);
  const std::int64_t block = bx + std::int64_t(L.nx) * (by + std::int64_t(L.ny) * bz);
  const int inside = i % o.cellsX + o.cellsX * (j % o.cellsY + o.cellsY * (k % o.cellsZ));
  return (std::int64_t(colour) * std::int64_t(L.nx * L.ny * L.nz) + block) * (o.cellsX * o.cellsY * o.cellsZ) + inside;
}

/// Natural order (x fastest): the order Bridson's MIC(0) runs in.
inline std::int64_t naturalOrderKey(const PressureLevel& L, int i, int j, int k) { return std::int64_t(L.cell(i, j, k)); }

/// MIC(0) in the order `key` (cells with an equation), in double: the factor
/// e_i = A_ii - sum_e (c_ie^2 + tau c_ie s_e) / e_e (e_i = A_ii below sigma A_ii), and
/// z = M^-1 r by the forward and backward substitutions.
class Mic0Reference {
 public:
  Mic0Reference(const PressureLevel& L, const std::vector<std::int64_t>& key, double tau, double sigma)
      : m_L(&L), m_key(key), m_e(L.diag.size(), 0.0) {
    for (std::size_t c = 0; c < L.diag.size(); ++c) {
      if (L.diag[c] > 0) m_order.push_back(c);
    }
    std::sort(m_order.begin(), m_order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    for (std::size_t c : m_order) {
      double v = L.diag[c];
      for (int f = 0; f < 6; ++f) {
        const double cie = L.coupling[c][std::size_t(f)];
        if (cie == 0) continue;
        const std::size_t nb = neighbour(c, f);
        if (key[nb] > key[c]) continue;
        double s = 0;
        for (int g = 0; g < 6; ++g) {
          if (L.coupling[nb][std::size_t(g)] == 0) continue;
          const std::size_t m = neighbour(nb, g);
          if (m != c && key[m] > key[nb]) s += L.coupling[nb][std::size_t(g)];
        }
        v -= (cie * cie + tau * cie * s) / m_e[nb];
      }
      m_e[c] = v < sigma * L.diag[c] ? L.diag[c] : v;
    }
  }

  std::vector<double> apply(const std::vector<double>& r) const {
    const PressureLevel& L = *m_L;
    std::vector<double> y(r.size(), 0.0), z(r.size(), 0.0);
    for (std::size_t c : m_order) {
      double v = r[c];
      for (int f = 0; f < 6; ++f) {
        const double cie = L.coupling[c][std::size_t(f)];
        if (cie != 0 && m_key[neighbour(c, f)] < m_key[c]) v += cie * y[neighbour(c, f)];
      }
      y[c] = v / m_e[c];
    }
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
      const std::size_t c = *it;
      double v = 0;
      for (int f = 0; f < 6; ++f) {
        const double cie = L.coupling[c][std::size_t(f)];
        if (cie != 0 && m_key[neighbour(c, f)] > m_key[c]) v += cie * z[neighbour(c, f)];
      }
      z[c] = y[c] + v / m_e[c];
    }
    return z;
  }

 private:
  std::size_t neighbour(std::size_t c, int f) const {
    const PressureLevel& L = *m_L;
    const int i = int(c % std::size_t(L.nx)), j = int(c / std::size_t(L.nx) % std::size_t(L.ny)),
              k = int(c / std::size_t(L.nx * L.ny));
    return L.cell(i + kStep3[f][0], j + kStep3[f][1], k + kStep3[f][2]);
  }

  const PressureLevel* m_L;
  std::vector<std::int64_t> m_key;
  std::vector<std::size_t> m_order;  ///< cells with an equation, in order
  std::vector<double> m_e;
};

/// z = M^-1 r for MIC(0) in the order `key` (Mic0Reference).
inline std::vector<double> mic0Reference(const PressureLevel& L, const std::vector<std::int64_t>& key, double tau,
                                         double sigma, const std::vector<double>& r) {
  return Mic0Reference(L, key, tau, sigma).apply(r);
}

}  // namespace texstream::test
