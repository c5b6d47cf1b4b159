// Krüger & Westermann 2005, §44.4: the 2D wave equation, explicit (Eq. 44-5/44-6) and
// Crank–Nicolson-style implicit (Eq. 44-7) solved by CG, each step a handful of passes.
#include <texstream/wave/WaveEquation.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace texstream::wave {

namespace {
constexpr stream::EnumName<Scheme> kSchemeNames[] = {
    {Scheme::Explicit, "explicit", "explicit (leapfrog)"},
    {Scheme::Implicit, "implicit", "implicit (Crank-Nicolson + CG)"}};
}  // namespace

std::span<const stream::EnumName<Scheme>> schemeNames() { return kSchemeNames; }

const char* schemeName(Scheme s) { return stream::nameOf(schemeNames(), s); }

Scheme parseScheme(std::string_view text) { return stream::parseName(schemeNames(), text, "parseScheme", "scheme"); }

namespace {

/// The 5-point stencil `diagonal` at each node and `offDiagonal` to each of its four
/// neighbours on a W x H grid with a zero Dirichlet rim (element j W + i).
/// (StencilMatrix drops the neighbours outside the grid itself.)
std::unique_ptr<linalg::StencilMatrix> fivePoint(int w, int h, double diagonal, double offDiagonal,
                                                 const std::string& name) {
  const std::size_t n = std::size_t(w) * std::size_t(h);
  linalg::FivePointCoefficients c;
  c.center.assign(n, float(diagonal));
  c.west.assign(n, float(offDiagonal));
  c.east = c.west;
  c.south = c.west;
  c.north = c.west;
  return std::make_unique<linalg::StencilMatrix>(linalg::StencilMatrix::fivePoint(std::size_t(w), std::size_t(h), c, name));
}

}  // namespace

WaveEquation::WaveEquation(int width, int height, const WaveParameters& params, std::string name)
    : m_name(std::move(name)), m_width(width), m_height(height), m_params(params) {
  if (width < 2 || height < 2)
    throw std::invalid_argument("WaveEquation(\"" + m_name + "\"): grid " + std::to_string(width) + "x" +
                                std::to_string(height) + " is too small (each side must be >= 2)");
  validate(params);
  m_spacing = 1.0 / (double(std::max(width, height)) + 1.0);
  const stream::Layout layout = stream::Layout::forSize(size());
  m_current = stream::Vector(layout, m_name + ".u");
  m_previous = stream::Vector(layout, m_name + ".u_prev");
  m_next = stream::Vector(layout, m_name + ".u_next");
  m_rhs = stream::Vector(layout, m_name + ".rhs");
  m_density = stream::Vector(layout, m_name + ".energy_density");
  m_energy = stream::Scalar(m_name + ".energy");
}

WaveEquation::~WaveEquation() = default;
WaveEquation::WaveEquation(WaveEquation&&) noexcept = default;
WaveEquation& WaveEquation::operator=(WaveEquation&&) noexcept = default;

solvers::IterativeOptions WaveParameters::defaultCg() {
  solvers::IterativeOptions o;
  o.tolerance = 1e-5f;
  o.maxIterations = 200;
  return o;
}

void WaveEquation::validate(const WaveParameters& p) const {
  auto bad = [&](const std::string& what) {
    throw std::invalid_argument("WaveEquation(\"" + m_name + "\"): " + what);
  };
  if (!(p.speed > 0.0f) || !std::isfinite(p.speed)) bad("wave speed " + std::to_string(p.speed) + " must be > 0");
  if (!(p.dt > 0.0f) || !std::isfinite(p.dt)) bad("time step " + std::to_string(p.dt) + " must be > 0");
  if (!(p.damping >= 0.0f && p.damping < 1.0f)) bad("damping " + std::to_string(p.damping) + " must be in [0, 1)");
  if (!(p.cg.tolerance > 0.0f) || !std::isfinite(p.cg.tolerance))
    bad("CG tolerance (cg.tolerance) " + std::to_string(p.cg.tolerance) + " must be > 0");
  if (p.cg.maxIterations.value_or(1) < 1)
    bad("CG iteration cap (cg.maxIterations) " + std::to_string(*p.cg.maxIterations) + " must be >= 1");
}

double WaveEquation::cfl() const { return double(m_params.speed) * double(m_params.dt) / m_spacing; }
double WaveEquation::explicitCflLimit() { return 1.0 / std::sqrt(2.0); }

const linalg::StencilMatrix& WaveEquation::explicitOperator() {
  // M = (2 - d) I - lambda K (K: 4 on the diagonal, -1 off it).
  const double lambda = cfl() * cfl(), d = m_params.damping;
  if (!m_explicitM || m_explicitKey != std::make_pair(lambda, d)) {
    m_explicitM.reset();  // free the old diagonals before allocating the new ones
    m_explicitM = fivePoint(m_width, m_height, (2.0 - d) - 4.0 * lambda, lambda, m_name + ".M");
    m_explicitKey = {lambda, d};
  }
  return *m_explicitM;
}

const linalg::StencilMatrix& WaveEquation::implicitOperator() {
  // A = I + beta K, symmetric positive definite for any beta >= 0.
  const double beta = 0.5 * cfl() * cfl();
  if (!m_implicitA || m_implicitBeta != beta) {
    m_implicitA.reset();
    m_implicitA = fivePoint(m_width, m_height, 1.0 + 4.0 * beta, -beta, m_name + ".A");
    m_implicitBeta = beta;
  }
  return *m_implicitA;
}

void WaveEquation::step() {
  gl::StateGuard guard;
  // Only the current scheme's operator is kept (a 2048^2 one holds 80 MiB).
  if (m_params.scheme == Scheme::Explicit) {
    m_implicitA.reset();
    explicitStep();
  } else {
    m_explicitM.reset();
    implicitStep();
  }
  // u^{n-1} <- u^n <- u^{n+1}; the old u^{n-1} becomes the next scratch target.
  std::swap(m_previous, m_current);
  std::swap(m_current, m_next);
  ++m_steps;
}

void WaveEquation::explicitStep() {
  // u^{n+1} = M u^n - (1 - d) u^{n-1}: Eq. 44-6's matrix-vector operation.
  explicitOperator().apply(m_current, m_next);
  linalg::axpy(-(1.0f - m_params.damping), m_previous, m_next);
}

void WaveEquation::implicitStep() {
  const float d = m_params.damping;
  const linalg::StencilMatrix& A = implicitOperator();
  // rhs = (2 - d) u^n - ((1 - d) I + beta K) u^{n-1} = (2 - d) u^n - A u^{n-1} + d u^{n-1}
  // (Eq. 44-7's right-hand side, with A itself: one operator per scheme to keep).
  A.apply(m_previous, m_rhs);
  linalg::axpby(2.0f - d, m_current, -1.0f, m_rhs);
  if (d != 0.0f) linalg::axpy(d, m_previous, m_rhs);
  // Initial guess: the explicit extrapolation u^n + (1 - d)(u^n - u^{n-1}).
  linalg::linearCombination(2.0f - d, m_current, -(1.0f - d), m_previous, m_next);
  m_lastSolve = solvers::cg(A, m_rhs, m_next, m_params.cg);
}

void WaveEquation::dropRipple(float x, float y, float radius, float amplitude) {
  if (!(radius > 0.0f) || !std::isfinite(radius) || !std::isfinite(amplitude) || !std::isfinite(x) ||
      !std::isfinite(y))
    throw std::invalid_argument("WaveEquation(\"" + m_name + "\")::dropRipple: radius must be > 0 and all values finite");
  gl::StateGuard guard;
  stream::Pass("wave/ripple")
      .label("WaveEquation(\"" + m_name + "\").dropRipple")
      .input("u_current", m_current)
      .input("u_previous", m_previous)
      .uniform("u_n", int(size()))
      .uniform("u_gridWidth", m_width)
      .uniform("u_center", x, y)
      .uniform("u_spacing", float(m_spacing))
      .uniform("u_invRadius2", 1.0f / (radius * radius))
      .uniform("u_amplitude", amplitude)
      .output(m_current)
      .output(m_previous)
      .run();
}

double WaveEquation::energy() const {
  gl::StateGuard guard;
  energy(m_energy);
  return double(m_energy.read());
}

void WaveEquation::energy(stream::Scalar& out) const {
  gl::StateGuard guard;
  const double h = m_spacing, dt = m_params.dt, c = m_params.speed;
  stream::Pass pass("wave/energy_density");
  if (m_params.scheme == Scheme::Implicit) pass.define("IMPLICIT");
  pass.label("WaveEquation(\"" + m_name + "\").energy");
  pass.input("u_u", m_current)
      .input("u_p", m_previous)
      .uniform("u_n", int(size()))
      .uniform("u_gridWidth", m_width)
      .uniform("u_kinetic", float(h * h / (2.0 * dt * dt)))
      .uniform("u_potential", float(0.5 * c * c))
      .output(m_density)
      .run();
  stream::sum(m_density, out);
}

void WaveEquation::reset() {
  gl::StateGuard guard;
  m_current.setZero();
  m_previous.setZero();
  m_steps = 0;
  m_lastSolve = {};
}

void WaveEquation::setState(std::span<const float> current, std::span<const float> previous) {
  if (current.size() != size() || previous.size() != size())
    throw std::invalid_argument("WaveEquation(\"" + m_name + "\")::setState: expected " + std::to_string(size()) +
                                " values for a " + std::to_string(m_width) + "x" + std::to_string(m_height) +
                                " grid, got " + std::to_string(current.size()) + " and " +
                                std::to_string(previous.size()));
  m_current.upload(current);
  m_previous.upload(previous);
}

void WaveEquation::setParameters(const WaveParameters& params) {
  validate(params);
  m_params = params;  // operators are rebuilt on the next step when their coefficients changed
}

namespace {
/// `p` with one parameter replaced (each setter validates the whole set).
template <class T>
WaveParameters replaced(WaveParameters p, T WaveParameters::*field, T value) {
  p.*field = value;
  return p;
}
}  // namespace

void WaveEquation::setSpeed(float c) { setParameters(replaced(m_params, &WaveParameters::speed, c)); }
void WaveEquation::setDt(float dt) { setParameters(replaced(m_params, &WaveParameters::dt, dt)); }
void WaveEquation::setDamping(float d) { setParameters(replaced(m_params, &WaveParameters::damping, d)); }
void WaveEquation::setScheme(Scheme s) { setParameters(replaced(m_params, &WaveParameters::scheme, s)); }
void WaveEquation::setTolerance(float tolerance) {
  WaveParameters p = m_params;
  p.cg.tolerance = tolerance;
  setParameters(p);
}
void WaveEquation::setMaxIterations(int iterations) {
  WaveParameters p = m_params;
  p.cg.maxIterations = iterations;
  setParameters(p);
}

}  // namespace texstream::wave
