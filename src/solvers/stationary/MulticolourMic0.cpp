// MIC(0) in block-multicolour order on the GPU (Bridson 2015 §5.3; Iwashita & Shimasaki 2002).
#include <texstream/solvers/stationary/MulticolourMic0.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/stream/Pass.h>
#include <texstream/text/Format.h>

#include <stdexcept>

namespace texstream::solvers {
inline namespace stationary {

namespace {
static_assert(MulticolourMic0::kOrdering.cellsX % 4 == 0, "blocks are whole texels along x");

/// The ordering's block and period (pressure3d/mic0.glsl).
void setOrdering(stream::Pass& pass, const std::array<int, 3>& period) {
  constexpr MicBlockOrdering o = MulticolourMic0::kOrdering;
  pass.define("MIC_BLOCK_X", o.cellsX / 4)
      .define("MIC_BLOCK_Y", o.cellsY)
      .define("MIC_BLOCK_Z", o.cellsZ)
      .uniform("u_period", period[0], period[1], period[2], 0);
}
}  // namespace

MulticolourMic0::MulticolourMic0(const linalg::PressureMatrix3D& A, Options options) : m_A(&A), m_options(options) {
  const std::string title = "MulticolourMic0(\"" + A.name() + "\")";
  if (!(options.tau >= 0.0f && options.tau <= 1.0f)) {
    throw std::invalid_argument(title + ": tau = " + text::formatNumber(options.tau) + ", needs 0 <= tau <= 1");
  }
  if (!(options.sigma >= 0.0f && options.sigma < 1.0f)) {
    throw std::invalid_argument(title + ": sigma = " + text::formatNumber(options.sigma) + ", needs 0 <= sigma < 1");
  }
  const stream::GridLayout3D& g = A.grid();
  m_period = {kOrdering.period(g.nx(), kOrdering.cellsX), kOrdering.period(g.ny(), kOrdering.cellsY),
              kOrdering.period(g.nz(), kOrdering.cellsZ)};
  gl::StateGuard guard;
  m_inverseFactor = stream::GridField3D(A.grid(), A.name() + ".mic0");
  update();
}

void MulticolourMic0::update() {
  gl::StateGuard guard;
  for (int colour = 0; colour < colours(); ++colour) {
    stream::Pass pass("pressure3d/mic0_factor");
    pass.label("mic0 factor")
        .inPlace()
        .input("u_inverseFactor", m_inverseFactor)
        .uniform("u_colour", colour)
        .uniform("u_tau", m_options.tau)
        .uniform("u_sigma", m_options.sigma)
        .output(m_inverseFactor);
    setOrdering(pass, m_period);
    m_A->bindOperator(pass);
    pass.run();
  }
}

void MulticolourMic0::apply(const stream::Vector& r, stream::Vector& z) const {
  const stream::Layout& layout = m_A->grid().layout();
  if (r.layout() != layout || z.layout() != layout) {
    throw gl::Error("MulticolourMic0(\"" + m_A->name() + "\").apply: r (\"" + r.name() + "\", " +
                    r.layout().describe() + ") and z (\"" + z.name() + "\", " + z.layout().describe() +
                    ") must be fields on the " + m_A->grid().describe() + " grid, " + layout.describe());
  }
  gl::StateGuard guard;
  stream::GridField3D y = stream::GridField3D::temporary(m_A->grid(), "mic0.y");
  for (int colour = 0; colour < colours(); ++colour) {
    stream::Pass pass("pressure3d/mic0_forward");
    pass.label("mic0 forward")
        .inPlace()
        .input("u_r", r)
        .input("u_inverseFactor", m_inverseFactor)
        .input("u_y", y)
        .uniform("u_colour", colour)
        .output(y);
    setOrdering(pass, m_period);
    m_A->bindOperator(pass);
    pass.run();
  }
  // z may be r: r is no longer read.
  for (int colour = colours() - 1; colour >= 0; --colour) {
    stream::Pass pass("pressure3d/mic0_backward");
    pass.label("mic0 backward")
        .inPlace()
        .input("u_y", y)
        .input("u_inverseFactor", m_inverseFactor)
        .input("u_z", z)
        .uniform("u_colour", colour)
        .output(z);
    setOrdering(pass, m_period);
    m_A->bindOperator(pass);
    pass.run();
  }
}

}  // namespace stationary
}  // namespace texstream::solvers
