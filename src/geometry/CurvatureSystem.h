#pragma once
// The linear system of one semi-implicit mean-curvature-flow step (Desbrun et al. 1999, as
// Bolz et al. 2003, §3 write it), built on the CPU in double precision: the reference the
// GPU assembly (CurvatureFlow) is tested against, and the CPU peers' system in the benchmark.
//
// For a free vertex i with neighbours j:
//   a_ij = -λΔt (cot α_ij + cot β_ij)     (α, β: the angles opposite edge ij)
//   a_ii = 4 A_i - Σ_j a_ij                (A_i: the area of the triangles incident to i)
//   b_i  = 4 A_i x_i                       (one right-hand side per coordinate)
// so A x' = b is (4 diag(A_i) - λΔt L) x' = 4 diag(A_i) x with L the cotangent Laplacian:
// x' = x + λΔt (4 diag(A_i))^-1 L x', the backward-Euler step of ∂x/∂t = -λ H n.
// Held vertices keep their position: row i is a_ii = m_i, b_i = m_i x_i (no off-diagonal
// entries) and they still enter their neighbours' coefficients (Bolz §3.1.2,
// "Boundaries"). Held are: boundary vertices when the boundary is fixed (m_i = 4 A_i, so
// that their b_i weigh like the free rows' in CG's ||r|| / ||b||), and vertices no usable
// triangle touches, unused or all degenerate (m_i = 1).
// The system is symmetric (CG and Cholesky need it): a fixed boundary is eliminated
// symmetrically, so for a free row i and a boundary column j the entry is stored as 0 and
// a_ij x_j moves to the right-hand side,
//   b_i = 4 A_i x_i - Σ_{held j} a_ij x_j,   a_ii = 4 A_i - Σ_j a_ij  (all j, held included).
// Vertices held for want of usable triangles need no elimination: every triangle at such
// a vertex is degenerate, so their a_ij are 0 in both directions.
//
// Degenerate triangles: a triangle (a, b, c) is degenerate when
//   |(a - b) x (c - b)| <= kDegenerateEpsilon (|a - b|^2 + |c - b|^2 + |a - c|^2),
// i.e. (up to a factor of about 2) the sine of its smallest angle is below the epsilon: its
// cotangents are unbounded, so it contributes nothing to the weights (as if absent; its
// area, ~0, still counts). The GPU kernels (shaders/geometry/mesh.glsl) apply the same test.
#include <texstream/geometry/Mesh.h>
#include <texstream/geometry/TriangleTopology.h>
#include <texstream/linalg/Csr.h>

#include <cstdint>
#include <vector>

namespace texstream::geometry {

inline constexpr double kDegenerateEpsilon = 1e-6;

/// True when triangle (a, b, c) fails the test above (in double precision).
bool isDegenerateTriangle(const double* a, const double* b, const double* c);
/// cot of the angle at b in triangle (a, b, c): ((a - b) . (c - b)) / |(a - b) x (c - b)|,
/// 0 for a degenerate triangle.
double cotangentAt(const double* a, const double* b, const double* c);

struct CurvatureSystem {
  /// n x n, symmetric: each row its diagonal entry first, then the topology's entries in
  /// its order (the pattern is the topology's plus the diagonal). Held rows: diagonal m_i,
  /// explicit zeros elsewhere; held columns of free rows: explicit zeros.
  linalg::Csr A;
  /// b, 3 per vertex (x, y, z of row i at 3i..3i+2), held columns' terms included.
  std::vector<double> rhs;
  /// A_i (area of the incident triangles), per vertex.
  std::vector<double> vertexArea;
  /// m_i: 4 A_i, or 1 where no usable triangle touches vertex i (b_i = m_i x_i).
  std::vector<double> mass;
  /// 1 for held rows (a_ii = m_i, no off-diagonals), per vertex.
  std::vector<std::uint8_t> held;
  /// Triangles failing the degeneracy test.
  std::size_t degenerateTriangles = 0;
};

/// The system at `positions` (3 per vertex, the mesh's order; the mesh's own when empty).
/// lambdaDt >= 0 (std::invalid_argument otherwise). `stiffnessPositions` (same count) give
/// the cotangent weights and which triangles are degenerate, the areas and b still coming
/// from `positions`: the conformalized flow's system (Kazhdan et al. 2012, §4: the
/// stiffness of the initial surface, the mass of the current one); empty: `positions`.
CurvatureSystem buildCurvatureSystem(const Mesh& mesh, const TriangleTopology& topology, double lambdaDt,
                                     bool fixBoundary, const std::vector<double>& positions = {},
                                     const std::vector<double>& stiffnessPositions = {});

/// Triangles of `mesh` at `positions` (the mesh's own when empty) failing the test above.
std::size_t countDegenerateTriangles(const Mesh& mesh, const std::vector<double>& positions = {});

}  // namespace texstream::geometry
