#pragma once
// texstream::geometry::CurvatureFlow: mean curvature flow of a triangle mesh on the GPU,
// with every matrix entry recomputed on the GPU at every step (Bolz et al. 2003, §3 and
// §3.1.2, after Desbrun et al. 1999):
//
//   CurvatureFlow flow(mesh);          // upload once: positions, I/N/P/C, R, row groups
//   flow.step(lambdaDt);               // assemble A(x) and b(x) on the GPU, CG from x
//   glBindTexture(GL_TEXTURE_2D, flow.positions().texture().id());   // draw from it
//
// A step solves A x' = b with (geometry/CurvatureSystem.h)
//   a_ij = -λΔt (cot α_ij + cot β_ij),  a_ii = 4 A_i - Σ_j a_ij,  b_i = 4 A_i x_i,
// λΔt in the mesh's own units (no normalisation). The matrix is a linalg::SegmentMatrix
// built once from the mesh's pattern (fromPattern); each step runs
//   1. curvature_offdiagonal: a_ij per entry from the I, N, P and C textures (laid out
//      like the values) and the positions texture X; with a fixed boundary, the free
//      rows' held-column entries go to G (laid out like the values) instead of A;
//   2. curvature_diagonal: a_ii and m_i = 4 A_i per row, one program per row group;
//   3. b = m x (curvature_rhs), or b = m x + G x (spmv_vertices) when G is in use;
//   4. CG on A (x) I for x, y and z at once (VertexOperator.h says why), warm-started from
//      the current positions [Jacobi-preconditioned: 1 / diag computed on the GPU];
//   5. [rescaling to the initial area or volume].
// Held vertices (the boundary when fixed, unused vertices, vertices whose triangles are all
// degenerate) keep their positions and still enter their neighbours' coefficients
// (Bolz §3.1.2): their rows are a_ii x_i' = a_ii x_i, and the free rows' a_ij x_j of held
// j are moved to b (symmetric elimination), so A stays symmetric positive definite, as CG
// needs. Both segment layouts (consecutive or interleaved, SegmentOptions::interleave)
// work: the kernels walk segments with SegmentGroup::stride.
//
// What it does with a mesh's defects (MeshDefects.h), each noted with its vertices or
// triangles (notes()): a non-manifold vertex moves as one point (the cotangent weights are
// per edge: its fans stay joined there); an isolated vertex is held in place; a zero-area
// triangle (degenerate by kDegenerateEpsilon) gives no cotangent weight and no mass, and
// a vertex with only such triangles is held; coincident vertices are not joined, so each
// moves with its own triangles and a crack may open between them. Duplicate triangles are
// refused (MeshError naming them: remove the repeats).
//
// Positions live in a vertex vector in the matrix's internal row order, one vertex per
// texel (x, y, z, 0), relative to origin() (the mean of the input vertices: float keeps
// its precision on meshes far from the origin). positionIndexOf() maps a mesh vertex to
// its texel; triangleTexture() holds every triangle's texels for drawing. Results come
// back in the mesh's own vertex order and coordinates (downloadPositions(), mesh()).
#include <texstream/geometry/Mesh.h>
#include <texstream/geometry/TriangleTopology.h>
#include <texstream/geometry/VertexOperator.h>
#include <texstream/gl/Texture.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace texstream::stream {
class Scalar;
}

namespace texstream::geometry {

struct CurvatureSystem;

enum class Rescale {
  None,
  Area,    ///< scale about origin() back to the initial surface area after each step
  Volume,  ///< ... to the initial enclosed volume (closed meshes)
};
/// The rescalings' names ("none", "area", "volume") and panel labels, for command lines,
/// panels and reports.
std::span<const stream::EnumName<Rescale>> rescaleNames();
const char* rescaleName(Rescale r);

/// Which flow a step integrates.
enum class Flow {
  /// Mean-curvature flow (Desbrun et al. 1999; Bolz §3.1.2): the cotangent stiffness and
  /// the mass from the current positions at every step.
  MeanCurvature,
  /// Conformalized mean-curvature flow (Kazhdan, Solomon & Ben-Chen 2012, §4): the
  /// stiffness of the initial positions (the last uploaded), the mass of the current ones.
  /// Thin features do not pinch into singularities, and the step's matrix stays as well
  /// conditioned as the initial one.
  Conformalized,
};
/// The flows' names ("mcf", "cmcf"), for command lines, panels and reports.
std::span<const stream::EnumName<Flow>> flowNames();

struct CurvatureFlowOptions {
  Flow flow = Flow::MeanCurvature;
  /// Hold boundary vertices in place (Bolz §3.1.2 does); else they move like the others.
  bool fixBoundary = true;
  Rescale rescale = Rescale::None;
  /// Each step's CG (solvers::CgOptions): it stops at ||r|| / ||b|| <= cg.tolerance over x,
  /// y and z together, after cg.maxIterations at most (always set: setCg). checkEvery is 2:
  /// warm-started steps converge in a few iterations, so cg's default of 8 overshoots
  /// (docs/performance.md). asynchronousCheck is off: a fast driver lets the CPU enqueue
  /// iterations faster than the GPU runs them, so the solve overshoots far past convergence
  /// before a read-back lands.
  solvers::CgOptions cg = defaultCg();
  /// Jacobi-preconditioned CG. On by default: on real scans (irregular triangle sizes)
  /// the diagonal varies by orders of magnitude and plain CG stalls, most of all in the
  /// conformalized flow; on regular meshes at λΔt = h² it costs a pass per iteration for
  /// little gain (docs/performance.md has both).
  bool jacobi = true;
  /// Single: float CG on each step's system, warm-started from the current positions.
  /// Mixed: the positions kept in double on the host, each step's system assembled there in
  /// double (CurvatureSystem.h) and solved by mixed-precision CG (solvers/krylov/MixedPrecisionCg.h
  /// on a DefectCorrection: b - A x in double on the CPU, float CG on the GPU on that matrix
  /// rounded to float, its residual replaced by the double one as it falls, as Göddeke et
  /// al. 2007 split the work).
  /// On thin features of real scans the step's condition number amplifies float's rounding
  /// of the matrix entries themselves, so the defect needs entries in double, not only a
  /// double x. cg.tolerance is then the true residual's in double; when float CG stagnates
  /// (the float-rounded matrix itself is the limit), the step goes on with double-float CG
  /// on the matrix held as pairs (solvers/krylov/DoubleFloatCg.h). cg.maxIterations caps the step's
  /// CG iterations, float and double-float together; float CG gets at most half of them. Costs per step: one CPU assembly and, per residual replacement,
  /// a CPU product and a vertex vector each way.
  /// Auto: float CG first; a step it cannot bring to the tolerance
  /// (solvers::needsMixedPrecision: stagnated at float precision, the cap, a breakdown) is
  /// solved again from its start in mixed precision (lastStepMixed()).
  solvers::Precision precision = solvers::Precision::Single;
  /// Mixed: the fall of CG's float residual after which it is replaced by the true one, in
  /// (0, 1).
  float innerTolerance = 1e-3f;
  /// Row packing and segment layout of the SegmentMatrix (Bolz §3.2); interleaving, when
  /// unset, follows the backend current at construction.
  linalg::SegmentOptions segment;

  /// cg's default above: tolerance 1e-6, 1000 iterations, a check every 2.
  static solvers::CgOptions defaultCg();
};

/// Area, enclosed volume (about origin(); meaningful for closed meshes) and degenerate
/// triangles of the current positions, from GPU reductions.
struct FlowMeasures {
  double area = 0, volume = 0;
  std::size_t degenerateTriangles = 0;
};

class CurvatureFlow {
 public:
  /// Validates the mesh (MeshError), builds its topology and uploads everything; a
  /// current GL context is needed (gl::Error when the mesh is too large for the GPU or
  /// for exact float indices: fewer than 2^24 vertices). std::invalid_argument for bad
  /// options (rescaling with held boundary vertices: it would move them).
  explicit CurvatureFlow(const Mesh& mesh, CurvatureFlowOptions options = {}, std::string name = "flow");
  ~CurvatureFlow();
  CurvatureFlow(const CurvatureFlow&) = delete;
  CurvatureFlow& operator=(const CurvatureFlow&) = delete;

  /// One semi-implicit step of size λΔt (finite, >= 0; std::invalid_argument otherwise).
  /// Returns the CG status (also lastSolve()); a solve that did not converge leaves the
  /// positions where CG stopped (non-finite ones are not kept: the step is undone).
  /// The GPU assembles with λΔt rounded to float; mixed precision's defect uses it exactly.
  solvers::SolverStatus step(double lambdaDt);
  /// Steps 1-3 (and the Jacobi vector) only: A(x) and b(x) for the current positions.
  void assemble(float lambdaDt);

  // Options that can change between steps.
  const CurvatureFlowOptions& options() const { return m_options; }
  void setFixBoundary(bool fixed);
  void setRescale(Rescale r);
  void setCg(float tolerance, int maxIterations);
  void setJacobi(bool on) { m_options.jacobi = on; }
  void setFlow(Flow flow);
  /// Precision and the inner tolerance (in (0, 1); std::invalid_argument otherwise).
  void setPrecision(solvers::Precision precision, float innerTolerance);

  // ---- Positions -----------------------------------------------------------------
  /// The vertex vector (internal order, relative to origin()); its texture id may change
  /// after a step (ask each frame).
  const stream::Vector& positions() const { return m_positions; }
  const std::array<double, 3>& origin() const { return m_origin; }
  /// log2 of the positions texture's width: vertex texel p sits at (p & (W-1), p >> shift).
  int vertexShift() const { return m_operator->vertexShift(); }
  /// The texel index of mesh vertex v.
  std::int32_t positionIndexOf(std::size_t v) const { return m_matrix->userToInternal()[v]; }
  /// Mesh vertices in the mesh's order, 3 per vertex, origin added back. A coordinate the
  /// GPU still holds unchanged since the last upload comes back as the exact double that
  /// was uploaded (so held vertices, and every vertex after 0 steps, are bit-exact).
  std::vector<double> downloadPositions() const;
  /// The input mesh with the current positions.
  Mesh mesh() const;
  /// New positions in the mesh's order (3 per vertex, finite; std::invalid_argument
  /// otherwise). The reference area and volume for rescaling are measured again.
  void setPositions(std::span<const double> xyz);
  /// Positions copied on the GPU from a vertex vector saved earlier (e.g. with
  /// linalg::copy(flow.positions(), saved)): a reset without a CPU round trip. Same
  /// layout required (gl::Error otherwise); the rescaling reference stays as it is.
  void restorePositions(const stream::Vector& saved);

  // ---- For renderers -------------------------------------------------------------
  /// RGBA32F, one triangle per texel: the texel indices (a, b, c) of its vertices, in the
  /// mesh's triangle order; texel t at (t & (W-1), t >> triangleShift()).
  const gl::Texture& triangleTexture() const { return m_triangles; }
  int triangleShift() const { return m_triangleShift; }
  /// Per vertex (normal, mean curvature H), H > 0 where convex (1/R on a sphere of radius
  /// R), 0 on the boundary. Computed on the GPU by updateShading().
  void updateShading();
  const stream::Vector& shading() const { return m_shading; }

  // ---- State and structure -------------------------------------------------------
  FlowMeasures measure() const;
  /// The surface area into out.x on the GPU, without a read-back (NaN or Inf when the
  /// positions hold them).
  void area(stream::Scalar& out) const;
  /// The area and volume rescaling restores (measured at construction / setPositions).
  const FlowMeasures& reference() const { return m_reference; }
  const solvers::SolverStatus& lastSolve() const { return m_lastSolve; }
  /// CG iterations between the residual replacements of the last step (empty in single
  /// precision).
  const std::vector<int>& lastInnerIterations() const { return m_lastSolve.innerIterations; }
  /// Whether the last step was solved in mixed precision (Mixed, or Auto after float CG
  /// could not reach the tolerance).
  bool lastStepMixed() const { return m_lastStepMixed; }
  long long steps() const { return m_steps; }
  const Mesh& sourceMesh() const { return m_mesh; }
  const TriangleTopology& topology() const { return m_topology; }
  const linalg::SegmentMatrix& matrix() const { return *m_matrix; }
  const VertexOperator& vertexOperator() const { return *m_operator; }
  /// b of the last assembly (vertex vector: m_i x_i - Σ_{held j} a_ij x_j) and m_i = 4 A_i
  /// (1 where no usable triangle touches vertex i; internal layout). Mixed-precision steps
  /// assemble on the host and leave these as the last assemble() wrote them; matrix()
  /// then holds the host matrix rounded to float.
  const stream::Vector& rightHandSide() const { return m_rhs; }
  /// G: per values slot of matrix(), -a_ij where row i is free and column j held (its
  /// a_ij x_j moved to b: b = m x + G x), else 0. Laid out like matrix().offDiagonalValues().
  const gl::Texture& heldColumnCoefficients() const { return m_moved; }
  const stream::Vector& mass() const { return m_mass; }
  /// Vertices held in place now (boundary if fixed, unused). Degenerate ones come on top.
  std::size_t heldVertexCount() const;
  const std::string& name() const { return m_name; }
  /// The mesh's defects the flow runs with, one line each with what it does with them and
  /// what to do about them; empty for a clean mesh.
  const std::vector<std::string>& notes() const { return m_notes; }

 private:
  void uploadPositions(std::span<const double> xyz);
  /// Per triangle (layouts of areas): area, signed volume about origin(), degenerate (0/1).
  void triangleMeasures(stream::Vector& areas, stream::Vector& volumes, stream::Vector& degenerate) const;
  /// Sums the triangle measures into GPU scalars (volume and count optional).
  void sumMeasures(stream::Scalar& area, stream::Scalar* volume, stream::Scalar* degenerateCount) const;
  /// A pass of shaders/geometry/<kernel>.glsl over row group g that walks each vertex's
  /// ring: K, the positions, R, C, the ring neighbours, the flags and the address shifts
  /// bound; the caller adds the rest and runs it.
  stream::Pass ringPass(const std::string& kernel, const linalg::SegmentGroup& g) const;
  void rescale();
  /// The CG options of every solve from m_options.
  /// One step's solve in single precision (m_lastSolve).
  void solveStep();
  /// One step's solve in mixed precision (see CurvatureFlowOptions::precision).
  void solveStepMixed(double lambdaDt);
  /// b - A x of the step's double system for the double positions x (mesh order), into a
  /// vertex vector's texels (internal order); returns its norm.
  double hostDefect(const CurvatureSystem& system, const std::vector<double>& x, std::vector<double>& texels) const;
  /// Where mixed-precision CG stagnated: defect correction goes on with double-float CG
  /// on the matrix held as pairs (SegmentOptions::entryTails), x in double on the host.
  void continueInDoubleFloat(const CurvatureSystem& system, std::vector<double>& x,
                             const std::vector<double>& offDiagonal, const std::vector<double>& diagonal);

  std::string m_name;
  CurvatureFlowOptions m_options;
  Mesh m_mesh;
  std::vector<std::string> m_notes;  ///< before m_topology: the defect checks come first
  TriangleTopology m_topology;
  std::array<double, 3> m_origin{0, 0, 0};
  std::unique_ptr<linalg::SegmentMatrix> m_matrix;
  std::unique_ptr<VertexOperator> m_operator;
  std::unique_ptr<VertexJacobi> m_jacobi;
  gl::Texture m_rows, m_next, m_prev, m_moved, m_triangles;
  int m_triangleShift = 0;
  stream::Vector m_flags, m_mass, m_positions, m_rhs, m_shading;
  std::vector<double> m_uploaded;  ///< the last positions uploaded, mesh order
  FlowMeasures m_reference;
  solvers::RefinementStatus m_lastSolve;
  /// Conformalized flow: the positions the stiffness comes from, and the λΔt its
  /// off-diagonal entries (and G) were last assembled for (NaN: to be assembled).
  stream::Vector m_stiffnessPositions;
  float m_stiffnessLambdaDt = NAN;
  /// The positions in double (mesh order): current after an upload or a mixed-precision
  /// step, stale after a single-precision step or restorePositions().
  std::vector<double> m_hostPositions;
  bool m_hostPositionsCurrent = false;
  bool m_lastStepMixed = false;
  long long m_steps = 0;
};

}  // namespace texstream::geometry
