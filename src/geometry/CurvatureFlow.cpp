// Bolz et al. 2003, §3.1.2: the matrix entries computed on the GPU from the I, N, P and C
// textures, then CG (§3.1) on the segment matrix (§3.1.1), for Desbrun et al.'s 1999
// semi-implicit mean curvature flow.
#include <texstream/geometry/CurvatureFlow.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/geometry/CurvatureSystem.h>
#include <texstream/geometry/MeshDefects.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/DoubleFloatCg.h>
#include <texstream/solvers/krylov/MixedPrecisionCg.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::geometry {

namespace {

std::array<double, 3> meanOf(std::span<const double> xyz) {
  std::array<double, 3> sum{0, 0, 0};
  const std::size_t n = xyz.size() / 3;
  for (std::size_t v = 0; v < n; ++v) {
    for (int c = 0; c < 3; ++c) sum[std::size_t(c)] += xyz[3 * v + std::size_t(c)];
  }
  for (double& s : sum) s = n ? s / double(n) : 0.0;
  return sum;
}

}  // namespace

namespace {
constexpr stream::EnumName<Rescale> kRescaleNames[] = {{Rescale::None, "none", "none"},
                                                       {Rescale::Area, "area", "keep area"},
                                                       {Rescale::Volume, "volume", "keep volume"}};
constexpr stream::EnumName<Flow> kFlowNames[] = {
    {Flow::MeanCurvature, "mcf", "mean curvature (MCF)"},
    {Flow::Conformalized, "cmcf", "conformalized (cMCF)"},
};
}  // namespace

std::span<const stream::EnumName<Rescale>> rescaleNames() { return kRescaleNames; }
std::span<const stream::EnumName<Flow>> flowNames() { return kFlowNames; }

const char* rescaleName(Rescale r) { return stream::nameOf(rescaleNames(), r); }

namespace {

/// The flow's notes on the mesh's defects; throws MeshError for what it refuses.
std::vector<std::string> flowNotes(const Mesh& mesh) {
  const MeshDefects defects = findMeshDefects(mesh, kDegenerateEpsilon);
  if (defects.count(MeshDefectKind::DuplicateTriangle) > 0) {
    const std::size_t t = std::size_t(defects.duplicateTriangles.front().second);
    throw MeshError(mesh.name, t < mesh.triangleLines.size() ? mesh.triangleLines[t] : 0,
                    defects.describe(MeshDefectKind::DuplicateTriangle,
                                     "the curvature flow needs each triangle once (a repeat doubles its edges' weights)"));
  }
  std::vector<std::string> notes;
  for (const auto& [kind, what] :
       {std::pair{MeshDefectKind::NonManifoldVertex,
                  "each moves as one point (the cotangent weights are per edge: the fans stay joined there)"},
        std::pair{MeshDefectKind::IsolatedVertex, "held in place"},
        std::pair{MeshDefectKind::ZeroAreaTriangle,
                  "degenerate: no cotangent weight and no mass (a vertex with only such triangles is held)"},
        std::pair{MeshDefectKind::CoincidentVertices,
                  "not joined: each moves with its own triangles, so a crack may open between them"}}) {
    if (defects.count(kind) > 0) notes.push_back(defects.describe(kind, what));
  }
  return notes;
}

}  // namespace

solvers::CgOptions CurvatureFlowOptions::defaultCg() {
  solvers::CgOptions cg;
  cg.tolerance = 1e-6f;
  cg.maxIterations = 1000;
  cg.checkEvery = 2;
  return cg;
}

CurvatureFlow::CurvatureFlow(const Mesh& mesh, CurvatureFlowOptions options, std::string name)
    : m_name(std::move(name)), m_options(options), m_mesh(mesh), m_notes(flowNotes(m_mesh)), m_topology(m_mesh) {
  const std::string title = "CurvatureFlow(\"" + m_name + "\")";
  setCg(options.cg.tolerance, options.cg.maxIterations.value_or(solvers::kCgDefaults.maxIterations));
  setRescale(options.rescale);
  setPrecision(options.precision, options.innerTolerance);
  gl::StateGuard guard;
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;

  // The matrix: the mesh's pattern, values computed on the GPU at every step.
  m_matrix = std::make_unique<linalg::SegmentMatrix>(
      linalg::SegmentMatrix::fromPattern(m_topology.pattern(), m_name + ".A", m_options.segment));
  m_operator = std::make_unique<VertexOperator>(*m_matrix, m_name + ".A(x)I");
  const linalg::SegmentMatrix& A = *m_matrix;
  const std::vector<std::int32_t>& toInternal = A.userToInternal();

  // I, N, P: per values slot the internal index of row i and of the two opposite vertices
  // (-1: padding, or no triangle on that side), laid out like C (Bolz §3.1.2).
  {
    const std::vector<std::int64_t>& slots = A.layout().slotEntries;
    const std::size_t channels = 4 * std::size_t(A.offDiagonalValues().width()) * std::size_t(A.offDiagonalValues().height());
    std::vector<float> rows(channels, -1.0f), next(channels, -1.0f), prev(channels, -1.0f);
    const auto& entryRows = m_topology.entryRows();
    for (std::size_t q = 0; q < slots.size() && q < channels; ++q) {
      const std::int64_t e = slots[q];
      if (e < 0) continue;
      rows[q] = float(toInternal[std::size_t(entryRows[std::size_t(e)])]);
      const std::int32_t n = m_topology.next(std::size_t(e)), p = m_topology.prev(std::size_t(e));
      next[q] = n < 0 ? -1.0f : float(toInternal[std::size_t(n)]);
      prev[q] = p < 0 ? -1.0f : float(toInternal[std::size_t(p)]);
    }
    const int w = A.offDiagonalValues().width(), h = A.offDiagonalValues().height();
    m_rows = gl::Texture(w, h, gl::TextureFormat::RGBA32F, m_name + ".I");
    m_rows.upload(rows.data());
    m_next = gl::Texture(w, h, gl::TextureFormat::RGBA32F, m_name + ".N");
    m_next.upload(next.data());
    m_prev = gl::Texture(w, h, gl::TextureFormat::RGBA32F, m_name + ".P");
    m_prev.upload(prev.data());
    // G: the held columns' coefficients moved to the right-hand side, laid out like A's
    // values (written by every assembly).
    m_moved = gl::Texture(w, h, gl::TextureFormat::RGBA32F, m_name + ".G");
  }

  // Boundary flags in the internal layout.
  const stream::Layout& internal = A.internalLayout();
  {
    std::vector<float> flags(internal.size(), 0.0f);
    for (std::size_t v = 0; v < m_mesh.vertexCount(); ++v) {
      if (m_topology.isBoundary(v)) flags[std::size_t(toInternal[v])] = 1.0f;
    }
    m_flags = stream::Vector(internal, m_name + ".boundary");
    m_flags.upload(flags);
  }
  m_mass = stream::Vector(internal, m_name + ".mass");

  // Triangles as texel indices, one per texel of a power-of-two-wide texture.
  {
    const std::size_t T = m_mesh.triangleCount();
    const int width = linalg::pow2Width(T);
    const int height = int((T + std::size_t(width) - 1) / std::size_t(width));
    if (width > maxSize || height > maxSize)
      throw gl::Error(title + ": " + std::to_string(T) + " triangles need a " + std::to_string(width) + "x" +
                      std::to_string(height) + " texture, beyond this GPU's maximum texture size " +
                      std::to_string(maxSize));
    std::vector<float> tri(4 * std::size_t(width) * std::size_t(height), 0.0f);
    for (std::size_t t = 0; t < T; ++t) {
      for (int c = 0; c < 3; ++c)
        tri[4 * t + std::size_t(c)] = float(toInternal[std::size_t(m_mesh.triangles[3 * t + std::size_t(c)])]);
    }
    m_triangles = gl::Texture(width, height, gl::TextureFormat::RGBA32F, m_name + ".triangles");
    m_triangles.upload(tri.data());
    m_triangleShift = linalg::log2Ceil(std::size_t(width));
  }

  const stream::Layout& vertices = m_operator->layout();
  m_positions = stream::Vector(vertices, m_name + ".positions");
  m_stiffnessPositions = stream::Vector(vertices, m_name + ".stiffnessPositions");
  m_rhs = stream::Vector(vertices, m_name + ".b");
  m_shading = stream::Vector(vertices, m_name + ".shading");
  m_jacobi = std::make_unique<VertexJacobi>(vertices, m_name + ".inverseDiagonal");
  m_origin = meanOf(m_mesh.positions);
  uploadPositions(m_mesh.positions);
}

CurvatureFlow::~CurvatureFlow() = default;

void CurvatureFlow::setFixBoundary(bool fixed) {
  if (fixed && m_options.rescale != Rescale::None && m_topology.boundaryVertexCount() > 0)
    throw std::invalid_argument("CurvatureFlow(\"" + m_name +
                                "\"): cannot fix the boundary while rescaling (rescaling moves every vertex); "
                                "set the rescaling to none first");
  if (fixed != m_options.fixBoundary) m_stiffnessLambdaDt = NAN;
  m_options.fixBoundary = fixed;
}

void CurvatureFlow::setFlow(Flow flow) {
  if (flow != m_options.flow) m_stiffnessLambdaDt = NAN;
  m_options.flow = flow;
}

void CurvatureFlow::setPrecision(solvers::Precision precision, float innerTolerance) {
  if (!(innerTolerance > 0.0f) || !(innerTolerance < 1.0f))
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\"): inner CG tolerance " +
                                std::to_string(innerTolerance) + " is not in (0, 1)");
  m_options.precision = precision;
  m_options.innerTolerance = innerTolerance;
}

void CurvatureFlow::setRescale(Rescale r) {
  if (r != Rescale::None && m_options.fixBoundary && m_topology.boundaryVertexCount() > 0)
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\"): rescaling to keep the " + rescaleName(r) +
                                " moves every vertex, but the " + std::to_string(m_topology.boundaryVertexCount()) +
                                " boundary vertices are fixed; free the boundary (fixBoundary = false) to rescale");
  m_options.rescale = r;
}

void CurvatureFlow::setCg(float tolerance, int maxIterations) {
  if (!(tolerance > 0.0f) || !(tolerance < 1.0f))
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\"): CG tolerance " + std::to_string(tolerance) +
                                " is not in (0, 1)");
  if (maxIterations < 1)
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\"): CG iteration cap " +
                                std::to_string(maxIterations) + " is below 1");
  m_options.cg.tolerance = tolerance;
  m_options.cg.maxIterations = maxIterations;
}

void CurvatureFlow::uploadPositions(std::span<const double> xyz) {
  const std::size_t n = m_mesh.vertexCount();
  if (xyz.size() != 3 * n)
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\").setPositions: " + std::to_string(xyz.size()) +
                                " values for " + std::to_string(n) + " vertices (3 each)");
  for (std::size_t k = 0; k < xyz.size(); ++k) {
    if (!std::isfinite(xyz[k]))
      throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\").setPositions: coordinate " +
                                  std::to_string(k % 3) + " of vertex " + std::to_string(k / 3) + " is not finite");
  }
  std::vector<float> texels(m_positions.size(), 0.0f);
  const std::vector<std::int32_t>& toInternal = m_matrix->userToInternal();
  for (std::size_t v = 0; v < n; ++v) {
    for (int c = 0; c < 3; ++c)
      texels[4 * std::size_t(toInternal[v]) + std::size_t(c)] = float(xyz[3 * v + std::size_t(c)] - m_origin[std::size_t(c)]);
  }
  gl::StateGuard guard;
  m_positions.upload(texels);
  m_stiffnessPositions.upload(texels);
  m_stiffnessLambdaDt = NAN;
  m_uploaded.assign(xyz.begin(), xyz.end());
  m_hostPositions = m_uploaded;
  m_hostPositionsCurrent = true;
  m_reference = measure();
}

void CurvatureFlow::setPositions(std::span<const double> xyz) { uploadPositions(xyz); }

void CurvatureFlow::restorePositions(const stream::Vector& saved) {
  gl::StateGuard guard;
  stream::requireSameLayout("CurvatureFlow::restorePositions", saved, m_positions);
  linalg::copy(saved, m_positions);
  m_hostPositionsCurrent = false;
}

std::vector<double> CurvatureFlow::downloadPositions() const {
  if (m_hostPositionsCurrent) return m_hostPositions;
  gl::StateGuard guard;
  const std::vector<float> texels = m_positions.download();
  const std::size_t n = m_mesh.vertexCount();
  const std::vector<std::int32_t>& toInternal = m_matrix->userToInternal();
  std::vector<double> xyz(3 * n);
  for (std::size_t v = 0; v < n; ++v) {
    for (int c = 0; c < 3; ++c) {
      const std::size_t k = 3 * v + std::size_t(c);
      const float gpu = texels[4 * std::size_t(toInternal[v]) + std::size_t(c)];
      const bool unchanged = gpu == float(m_uploaded[k] - m_origin[std::size_t(c)]);
      xyz[k] = unchanged ? m_uploaded[k] : double(gpu) + m_origin[std::size_t(c)];
    }
  }
  return xyz;
}

Mesh CurvatureFlow::mesh() const {
  Mesh out = m_mesh;
  out.positions = downloadPositions();
  return out;
}

std::size_t CurvatureFlow::heldVertexCount() const {
  return m_topology.isolatedVertexCount() + (m_options.fixBoundary ? m_topology.boundaryVertexCount() : 0);
}

void CurvatureFlow::assemble(float lambdaDt) {
  if (!(lambdaDt >= 0.0f) || !std::isfinite(lambdaDt))
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\").step: lambdaDt = " + std::to_string(lambdaDt) +
                                "; a step needs a finite lambdaDt >= 0");
  gl::StateGuard guard;
  linalg::SegmentMatrix& A = *m_matrix;
  const int fix = m_options.fixBoundary ? 1 : 0;
  const int vertexShift = m_operator->vertexShift();

  // 1. a_ij per entry; held columns of free rows go to G (symmetric elimination). The
  // conformalized flow keeps the initial positions' entries while λΔt stays the same.
  const bool conformalized = m_options.flow == Flow::Conformalized;
  if (!conformalized || m_stiffnessLambdaDt != lambdaDt) {
    stream::Pass("geometry/curvature_offdiagonal")
        .input("u_positions", conformalized ? m_stiffnessPositions : m_positions)
        .input("u_rows", m_rows)
        .input("u_columns", A.columns())
        .input("u_next", m_next)
        .input("u_prev", m_prev)
        .input("u_flags", m_flags)
        .uniform("u_vertexShift", vertexShift)
        .uniform("u_internalShift", A.layout().internalShift)
        .uniform("u_fixBoundary", fix)
        .uniform("u_lambdaDt", lambdaDt)
        .output(A.mutableOffDiagonalValues())
        .output(m_moved)
        .run();
    m_stiffnessLambdaDt = conformalized ? lambdaDt : NAN;
  }

  // 2. a_ii and m_i per row, one program per row group.
  for (const linalg::SegmentGroup& g : A.layout().groups) {
    ringPass("curvature_diagonal", g)
        .input("u_values", A.offDiagonalValues())
        .input("u_moved", m_moved)
        .uniform("u_fixBoundary", fix)
        .uniform("u_n", int(A.internalLayout().size()))
        .output(A.mutableDiagonal())
        .output(m_mass)
        .run(g.rects);
  }

  // 3. b = m x, plus G x when boundary columns were eliminated.
  if (fix && m_topology.boundaryVertexCount() > 0) {
    m_operator->applyWith(m_mass, m_moved, m_positions, m_rhs);
  } else {
    stream::Pass("geometry/curvature_rhs")
        .input("u_positions", m_positions)
        .input("u_mass", m_mass)
        .uniform("u_vertexShift", vertexShift)
        .uniform("u_internalShift", A.layout().internalShift)
        .output(m_rhs)
        .run();
  }

  if (m_options.jacobi) m_jacobi->update(*m_operator);
}

solvers::SolverStatus CurvatureFlow::step(double lambdaDt) {
  if (!std::isfinite(lambdaDt) || !(lambdaDt >= 0.0) || !std::isfinite(float(lambdaDt)))
    throw std::invalid_argument("CurvatureFlow(\"" + m_name + "\").step: lambdaDt = " + std::to_string(lambdaDt) +
                                "; the step needs a finite lambdaDt >= 0");
  gl::StateGuard guard;
  // Mixed precision assembles on the host (solveStepMixed): a GPU assembly would be
  // overwritten unused.
  const bool mixed = m_options.precision == solvers::Precision::Mixed;
  if (!mixed) assemble(float(lambdaDt));
  stream::Vector backup = stream::Vector::temporary(m_positions.layout(), m_name + ".previous");
  linalg::copy(m_positions, backup);

  m_lastStepMixed = mixed;
  if (mixed) {
    solveStepMixed(lambdaDt);
  } else {
    const bool hostWasCurrent = m_hostPositionsCurrent;
    solveStep();
    m_hostPositionsCurrent = false;
    if (m_options.precision == solvers::Precision::Auto && solvers::needsMixedPrecision(m_lastSolve)) {
      // Float CG could not bring this step to the tolerance: the step again from where it
      // began, in mixed precision.
      const std::string single = m_lastSolve.message;
      linalg::copy(backup, m_positions);
      m_hostPositionsCurrent = hostWasCurrent;
      solveStepMixed(lambdaDt);
      m_lastStepMixed = true;
      m_lastSolve.message = "solved again in mixed precision (float CG: " + single + "): " + m_lastSolve.message;
    }
  }
  if (m_lastSolve.outcome == solvers::Outcome::NonFinite) {
    linalg::copy(backup, m_positions);
    m_lastSolve.message += " (step undone: positions kept)";
  } else if (m_options.rescale != Rescale::None) {
    rescale();
  }
  ++m_steps;
  return m_lastSolve;
}

void CurvatureFlow::solveStep() {
  const solvers::Preconditioner* M = m_options.jacobi ? m_jacobi.get() : nullptr;
  m_lastSolve = {};
  static_cast<solvers::SolverStatus&>(m_lastSolve) = solvers::cg(*m_operator, m_rhs, m_positions, m_options.cg, M);
}

void CurvatureFlow::solveStepMixed(double lambdaDt) {
  if (!m_hostPositionsCurrent) {
    m_hostPositions = downloadPositions();
    m_hostPositionsCurrent = true;
  }
  // The step's system in double from the double positions (for the conformalized flow the
  // stiffness of the positions last uploaded, as the GPU assembly takes it).
  const bool conformalized = m_options.flow == Flow::Conformalized;
  const CurvatureSystem system = buildCurvatureSystem(m_mesh, m_topology, lambdaDt, m_options.fixBoundary,
                                                      m_hostPositions, conformalized ? m_uploaded : std::vector<double>{});
  const std::size_t n = m_mesh.vertexCount();
  const std::vector<std::int32_t>& toInternal = m_matrix->userToInternal();
  std::vector<double> x = m_hostPositions;

  // The inner solves run on that matrix rounded to float (entries within 2^-24 of the
  // double ones), not on the float assembly from float positions: on a pinching step the
  // latter's cotangents carry errors that the condition number turns into a different
  // solution (2% of the bounding box on CGAL's man.off after 5 steps), where no refinement
  // around it can converge. The next assembly rebuilds the GPU's own entries.
  const linalg::Csr& P = m_topology.pattern();
  std::vector<double> offDiagonal(P.nonZeros()), diagonal(n);
  {
    for (std::size_t i = 0; i < n; ++i) {
      const auto first = system.A.rowPtr[i];  // the diagonal, then the pattern's entries in order
      diagonal[i] = system.A.values[std::size_t(first)];
      for (auto e = P.rowPtr[i]; e < P.rowPtr[i + 1]; ++e)
        offDiagonal[std::size_t(e)] = system.A.values[std::size_t(first + 1 + (e - P.rowPtr[i]))];
    }
    m_matrix->setValues(offDiagonal, diagonal);
    m_stiffnessLambdaDt = NAN;
    if (m_options.jacobi) m_jacobi->update(*m_operator);
  }

  solvers::DefectCorrection host;
  double b2 = 0;
  for (double v : system.rhs) b2 += v * v;
  host.rightHandSideNorm = std::sqrt(b2);
  std::vector<double> defect;
  std::vector<float> texels(m_positions.size(), 0.0f);
  host.defect = [&](stream::Vector& r) {
    const double norm = hostDefect(system, x, defect);
    std::copy(defect.begin(), defect.end(), texels.begin());
    r.upload(texels);
    return norm;
  };
  host.addCorrection = [&](const stream::Vector& c) {
    const std::vector<float> correction = c.download();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < 3; ++k) x[3 * i + k] += double(correction[4 * std::size_t(toInternal[i]) + k]);
  };
  host.setSolutionZero = [&] { std::fill(x.begin(), x.end(), 0.0); };

  solvers::RefinementOptions updates;
  updates.innerTolerance = m_options.innerTolerance;
  const solvers::Preconditioner* M = m_options.jacobi ? m_jacobi.get() : nullptr;
  // Float CG gets half the cap: where the float-rounded matrix is the limit its residual
  // can fall slowly for thousands of iterations without the true one moving, and the rest
  // is for double-float CG (continueInDoubleFloat).
  solvers::CgOptions floatPhase = m_options.cg;
  floatPhase.maxIterations = (*m_options.cg.maxIterations + 1) / 2;
  // Blocking unless asked (CurvatureFlowOptions::cg says why), as the single flow's cg.
  floatPhase.asynchronousCheck = floatPhase.asynchronousCheck.value_or(false);
  m_lastSolve = solvers::cg(m_positions.layout(), host, *m_operator, floatPhase, M, updates);
  if (m_lastSolve.outcome == solvers::Outcome::NonFinite) return;  // step() restores the GPU positions
  if (!m_lastSolve.converged()) continueInDoubleFloat(system, x, offDiagonal, diagonal);
  m_hostPositions = std::move(x);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t c = 0; c < 3; ++c)
      texels[4 * std::size_t(toInternal[v]) + c] = float(m_hostPositions[3 * v + c] - m_origin[c]);
  m_positions.upload(texels);
}

double CurvatureFlow::hostDefect(const CurvatureSystem& system, const std::vector<double>& x,
                                 std::vector<double>& texels) const {
  const std::size_t n = m_mesh.vertexCount();
  const std::vector<std::int32_t>& toInternal = m_matrix->userToInternal();
  texels.assign(m_positions.layout().size(), 0.0);
  double r2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double ri[3] = {system.rhs[3 * i], system.rhs[3 * i + 1], system.rhs[3 * i + 2]};
    for (auto e = system.A.rowPtr[i]; e < system.A.rowPtr[i + 1]; ++e) {
      const std::size_t j = std::size_t(system.A.colIdx[std::size_t(e)]);
      const double a = system.A.values[std::size_t(e)];
      for (std::size_t c = 0; c < 3; ++c) ri[c] -= a * x[3 * j + c];
    }
    for (std::size_t c = 0; c < 3; ++c) {
      r2 += ri[c] * ri[c];
      texels[4 * std::size_t(toInternal[i]) + c] = ri[c];
    }
  }
  return std::sqrt(r2);
}

void CurvatureFlow::continueInDoubleFloat(const CurvatureSystem& system, std::vector<double>& x,
                                         const std::vector<double>& offDiagonal, const std::vector<double>& diagonal) {
  // Float CG stagnated: the step's condition number times float's rounding of the entries
  // is about 1, so no float correction can help (docs/performance.md). Defect correction
  // goes on with double-float CG on the matrix held as pairs: the defect in double here,
  // each correction solved in pairs and added in double (solvers/krylov/DoubleFloatCg.h).
  // cg.maxIterations caps the step's iterations in both arithmetics together.
  const int budget = *m_options.cg.maxIterations - m_lastSolve.iterations;
  if (budget <= 0) return;
  const std::size_t n = m_mesh.vertexCount();
  const std::vector<std::int32_t>& toInternal = m_matrix->userToInternal();
  m_matrix->setKeepEntryTails(true);
  m_matrix->setValues(offDiagonal, diagonal);
  std::vector<double> texels;
  solvers::PairDefectCorrection host;
  double b2 = 0;
  for (double v : system.rhs) b2 += v * v;
  host.rightHandSideNorm = std::sqrt(b2);
  host.defect = [&](linalg::DoubleFloatVector& r) {
    const double norm = hostDefect(system, x, texels);
    r.upload(texels);
    return norm;
  };
  auto correct = [&](const linalg::DoubleFloatVector& c, double sign) {
    const std::vector<double> correction = c.download();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < 3; ++k) x[3 * i + k] += sign * correction[4 * std::size_t(toInternal[i]) + k];
  };
  host.addCorrection = [&](const linalg::DoubleFloatVector& c) { correct(c, 1.0); };
  host.subtractCorrection = [&](const linalg::DoubleFloatVector& c) { correct(c, -1.0); };

  solvers::IterativeOptions inner;
  inner.tolerance = m_options.cg.tolerance;
  inner.maxIterations = budget;
  const solvers::RefinementStatus pairs =
      solvers::refineWithDoubleFloatCg(m_positions.layout(), host, *m_operator, inner, {},
                                       m_options.jacobi ? m_jacobi->inverseDiagonal() : nullptr);
  m_matrix->setKeepEntryTails(false);
  const int floatIterations = m_lastSolve.iterations;
  m_lastSolve.outcome = pairs.outcome;
  m_lastSolve.relativeResidual = pairs.relativeResidual;
  m_lastSolve.trueRelativeResidual = pairs.trueRelativeResidual;
  m_lastSolve.iterations += pairs.iterations;
  m_lastSolve.milliseconds += pairs.milliseconds;
  for (std::size_t i = 1; i < pairs.residualHistory.size(); ++i) {
    m_lastSolve.residualHistory.push_back(pairs.residualHistory[i]);
    m_lastSolve.checkedAt.push_back(floatIterations + pairs.checkedAt[i]);
    m_lastSolve.innerIterations.push_back(pairs.innerIterations[i - 1]);
  }
  m_lastSolve.message += "; then double-float CG (" + std::to_string(pairs.iterations) + " iterations): " + pairs.message;
}

void CurvatureFlow::rescale() {
  const FlowMeasures now = measure();
  double s = 1.0;
  if (m_options.rescale == Rescale::Area && now.area > 0 && m_reference.area > 0) {
    s = std::sqrt(m_reference.area / now.area);
  } else if (m_options.rescale == Rescale::Volume && now.volume * m_reference.volume > 0) {
    s = std::cbrt(m_reference.volume / now.volume);
  }
  if (!std::isfinite(s) || s == 1.0) return;
  linalg::scale(float(s), m_positions);
  if (m_hostPositionsCurrent) {
    for (std::size_t k = 0; k < m_hostPositions.size(); ++k)
      m_hostPositions[k] = m_origin[k % 3] + s * (m_hostPositions[k] - m_origin[k % 3]);
  }
}

void CurvatureFlow::triangleMeasures(stream::Vector& areas, stream::Vector& volumes, stream::Vector& degenerate) const {
  const std::size_t T = m_mesh.triangleCount();
  const stream::Layout& layout = areas.layout();
  stream::Pass("geometry/triangle_measures")
      .input("u_positions", m_positions)
      .input("u_triangles", m_triangles)
      .uniform("u_vertexShift", m_operator->vertexShift())
      .uniform("u_triangleShift", m_triangleShift)
      .uniform("u_width", layout.width())
      .uniform("u_count", int(T))
      .output(areas)
      .output(volumes)
      .output(degenerate)
      .run();
}

void CurvatureFlow::sumMeasures(stream::Scalar& area, stream::Scalar* volume, stream::Scalar* degenerateCount) const {
  gl::StateGuard guard;
  const stream::Layout layout = stream::Layout::forSize(m_mesh.triangleCount());
  stream::Vector areas = stream::Vector::temporary(layout, m_name + ".areas");
  stream::Vector volumes = stream::Vector::temporary(layout, m_name + ".volumes");
  stream::Vector degenerate = stream::Vector::temporary(layout, m_name + ".degenerate");
  triangleMeasures(areas, volumes, degenerate);
  stream::sum(areas, area);
  if (volume) stream::sum(volumes, *volume);
  if (degenerateCount) stream::sum(degenerate, *degenerateCount);
}

FlowMeasures CurvatureFlow::measure() const {
  stream::Scalar area(m_name + ".area"), volume(m_name + ".volume"), count(m_name + ".degenerateCount");
  sumMeasures(area, &volume, &count);
  FlowMeasures m;
  m.area = area.read();
  m.volume = volume.read();
  m.degenerateTriangles = std::size_t(std::llround(count.read()));
  return m;
}

void CurvatureFlow::area(stream::Scalar& out) const { sumMeasures(out, nullptr, nullptr); }

void CurvatureFlow::updateShading() {
  gl::StateGuard guard;
  for (const linalg::SegmentGroup& g : m_matrix->layout().groups) {
    ringPass("vertex_shading", g).output(m_shading).run(VertexOperator::vertexRects(g));
  }
}

stream::Pass CurvatureFlow::ringPass(const std::string& kernel, const linalg::SegmentGroup& g) const {
  const linalg::SegmentMatrix& A = *m_matrix;
  stream::Pass pass("geometry/" + kernel);
  pass.define("K", (long long)g.k)
      .label(kernel + " K=" + std::to_string(g.k))
      .input("u_positions", m_positions)
      .input("u_starts", A.segmentStarts())
      .input("u_columns", A.columns())
      .input("u_next", m_next)
      .input("u_prev", m_prev)
      .input("u_flags", m_flags)
      .uniform("u_vertexShift", m_operator->vertexShift())
      .uniform("u_internalShift", A.layout().internalShift)
      .uniform("u_valuesShift", A.layout().valuesShift)
      .uniform("u_stride", g.stride);
  return pass;
}

}  // namespace texstream::geometry
