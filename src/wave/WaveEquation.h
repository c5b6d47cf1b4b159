#pragma once
// texstream::wave::WaveEquation: the 2D wave equation u_tt = c^2 (u_xx + u_yy) on a grid
// (Krüger & Westermann 2005, §44.4: the "implicit water surface" demo), entirely on the GPU.
//
// Grid: W x H nodes, node (i, j) at ((i + 1) h, (j + 1) h) with h = 1 / (max(W, H) + 1),
// so a square grid fills the unit square; u = 0 on the rim i = -1, W and j = -1, H
// (Dirichlet). Node (i, j) is element j W + i of the vectors (stream/Layout.h).
// With K = -h^2 L the 5-point stencil (4 on the diagonal, -1 to each neighbour),
// lambda = (c dt / h)^2 and damping d in [0, 1):
//  - Explicit (Eq. 44-5/44-6, leapfrog, one stencil pass per step):
//      u^{n+1} = u^n + (1 - d)(u^n - u^{n-1}) - lambda K u^n
//    stable only while cfl() = c dt / h <= 1/sqrt(2) (explicitCflLimit()); beyond it the
//    highest grid mode grows every step and the solution blows up.
//  - Implicit (Eq. 44-7, Crank–Nicolson-style average of the Laplacian at n+1 and n-1),
//    beta = lambda / 2, A = I + beta K (symmetric positive definite), solved by CG with
//    the extrapolation u^n + (1 - d)(u^n - u^{n-1}) as the initial guess:
//      A u^{n+1} = (2 - d) u^n - ((1 - d) I + beta K) u^{n-1}
//    which is u^{n+1} - 2u^n + u^{n-1} = -beta K (u^{n+1} + u^{n-1}) for d = 0:
//    unconditionally stable, any dt.
// M and A are linalg::StencilMatrix five-point stencils, built when a step first needs
// them and rebuilt only when speed, dt (or, for M, damping) changed. energy() is the discrete
// energy each scheme conserves exactly when d = 0 (shaders/wave/energy_density.glsl).
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace texstream::linalg {
class StencilMatrix;
}

namespace texstream::wave {

enum class Scheme { Explicit, Implicit };

/// The schemes' names ("explicit", "implicit") and panel labels, for command lines,
/// panels and reports.
std::span<const stream::EnumName<Scheme>> schemeNames();
/// "explicit" / "implicit".
const char* schemeName(Scheme s);
/// Case-insensitive; throws std::invalid_argument naming the text and the choices otherwise.
Scheme parseScheme(std::string_view text);

struct WaveParameters {
  float speed = 1.0f;    ///< c, in grid-domain lengths (the unit square) per time unit; > 0
  float dt = 1e-3f;      ///< time step; > 0
  float damping = 0.0f;  ///< d: fraction of the velocity lost per step, in [0, 1)
  Scheme scheme = Scheme::Implicit;
  /// The implicit scheme's CG: cg.tolerance on ||r|| / ||b|| (> 0), cg.maxIterations
  /// (>= 1); the other fields apply as given.
  solvers::IterativeOptions cg = defaultCg();

  /// cg's default above: to 1e-5, at most 200 iterations.
  static solvers::IterativeOptions defaultCg();
};

class WaveEquation {
 public:
  /// A W x H grid at rest (u = 0). Throws std::invalid_argument for sides < 2 or bad
  /// parameters, gl::Error when the grid does not fit the context's textures.
  WaveEquation(int width, int height, const WaveParameters& params = {}, std::string name = "wave");
  ~WaveEquation();
  WaveEquation(WaveEquation&&) noexcept;
  WaveEquation& operator=(WaveEquation&&) noexcept;

  int gridWidth() const { return m_width; }
  int gridHeight() const { return m_height; }
  std::size_t size() const { return std::size_t(m_width) * std::size_t(m_height); }
  /// h = 1 / (max(W, H) + 1).
  double spacing() const { return m_spacing; }
  const WaveParameters& parameters() const { return m_params; }

  /// Advances one time step with the current scheme.
  void step();
  /// Adds amplitude * exp(-|p - (x, y)|^2 / radius^2) to u^n and u^{n-1} (a drop at rest),
  /// in domain coordinates (node (i, j) at ((i + 1) h, (j + 1) h)). One GPU pass.
  void dropRipple(float x, float y, float radius, float amplitude);
  /// The discrete energy at the half step n - 1/2 (sum over nodes, computed on the GPU by a
  /// density pass and a sum reduction, then read back; blocking):
  ///   E = h^2/2 |(u^n - u^{n-1}) / dt|^2 + c^2/2 P,
  ///   P = u^n . K u^{n-1} (explicit), (u^n . K u^n + u^{n-1} . K u^{n-1}) / 2 (implicit).
  /// Constant in time with d = 0 (up to float rounding; explicit: while stable), falls
  /// with d > 0.
  double energy() const;
  /// The same energy into out.x on the GPU, without a read-back (NaN or Inf when the
  /// heights hold them).
  void energy(stream::Scalar& out) const;
  /// Back to rest: u^n = u^{n-1} = 0, step count 0.
  void reset();
  /// Sets u^n and u^{n-1} (W H values each, element j W + i).
  void setState(std::span<const float> current, std::span<const float> previous);

  /// u^n: a W x H vector whose texture a renderer may sample (its id changes every step).
  const stream::Vector& height() const { return m_current; }
  /// u^{n-1}.
  const stream::Vector& previousHeight() const { return m_previous; }

  /// c dt / h.
  double cfl() const;
  /// 1/sqrt(2): the explicit scheme's stability limit on cfl().
  static double explicitCflLimit();
  /// The last implicit step's CG status (default-constructed before the first one).
  const solvers::SolverStatus& lastSolve() const { return m_lastSolve; }
  long long steps() const { return m_steps; }

  /// Each throws std::invalid_argument naming the wave and the value when out of range.
  void setSpeed(float c);
  void setDt(float dt);
  void setDamping(float d);
  void setScheme(Scheme s);
  void setTolerance(float tolerance);
  void setMaxIterations(int iterations);
  void setParameters(const WaveParameters& params);

 private:
  void validate(const WaveParameters& p) const;
  const linalg::StencilMatrix& explicitOperator();
  const linalg::StencilMatrix& implicitOperator();
  void explicitStep();
  void implicitStep();

  std::string m_name;
  int m_width = 0, m_height = 0;
  double m_spacing = 0;
  WaveParameters m_params;
  stream::Vector m_current, m_previous, m_next, m_rhs;
  mutable stream::Vector m_density;  // energy() scratch
  mutable stream::Scalar m_energy;
  // Explicit: M = (2 - d) I - lambda K, built for (lambda, d). Implicit: A = I + beta K.
  std::unique_ptr<linalg::StencilMatrix> m_explicitM, m_implicitA;
  std::pair<double, double> m_explicitKey{-1.0, -1.0};
  double m_implicitBeta = -1.0;
  solvers::SolverStatus m_lastSolve;
  long long m_steps = 0;
};

}  // namespace texstream::wave
