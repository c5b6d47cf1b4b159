// Conjugate gradients after Chronopoulos & Gear 1989 (s-step CG with s = 1): the same
// iterates as the classic loop in exact arithmetic, with one synchronisation point an
// iteration. The compute backend's loop. With u = M^-1 r, w = A u and s = A p kept by
// recurrence:
//   p = u + beta p;  s = w + beta s;  x += alpha p;  r -= alpha s;  u = M^-1 r;
//     gamma' = r . u;  ||r||^2                         -- one dispatch with its sums
//   w = A u;  delta = w . u;  beta' = gamma' / gamma;
//     alpha' = gamma' / (delta - beta' gamma' / alpha)  -- the product with its dot, the
//                                                         1x1 step in its last workgroup
// Two dispatches an iteration where the operator folds the dot into its product
// (LinearOperator::applyAndDot: SegmentMatrix, BcrsMatrix, BandedMatrix, StencilMatrix,
// PressureMatrix3D), three otherwise; the classic loop needs two reductions after the
// product, each a latency-bound pass on large GPUs.
// With an inverse-diagonal preconditioner u = r .* D^-1 is an output of the update
// dispatch; another preconditioner costs its own pass and a reduction for the sums.
// Where the update is followed by the product at once (no preconditioner, or the inverse
// diagonal), its workgroups only write their partials of gamma' and ||r||^2, and the
// product's last workgroup folds them with its own (reduce/folded_sums.glsl): the update
// ends when its workgroups end, without the atomic counter and a last workgroup's fold
// (docs/performance.md). After the last update of a solve one small dispatch folds them.
// For an operator that gathers single elements of u (a mesh's SegmentMatrix) that update
// also writes u's elements to a storage buffer, from which the product gathers 4-byte
// loads instead of 16-byte texels (stream/ElementCopy.h).
#include <texstream/solvers/krylov/CgDriver.h>

#include <texstream/gl/Buffer.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/ElementCopy.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>

#include <glad/gl.h>

#include <utility>
#include <vector>

namespace texstream::solvers {
inline namespace krylov {

namespace {

using stream::Scalar;
using stream::Vector;

class ChronopoulosGearCg final : public CgIteration {
 public:
  // p and s are first written whole by the FIRST update (p = u, s = w, padding zero); w,
  // a product's output, keeps temporary()'s zero padding.
  explicit ChronopoulosGearCg(CgSystem& s)
      : m_s(s), m_p(Vector::uninitializedTemporary(s.b.layout(), "cg.p")), m_w(Vector::temporary(s.b.layout(), "cg.w")),
        m_sp(Vector::uninitializedTemporary(s.b.layout(), "cg.s")) {}

  void start(int next) override {
    sums();
    startFromSetUpSums(next);
  }

  StartSums startSums() override { return {&m_gammaNew, &m_rr}; }

  void startFromSetUpSums(int next) override {
    productAndStep(next, true);
    m_first = true;  // the next update sets p = u and s = w
  }

  void iterate(int k, bool last) override {
    // p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s (u = r .* D^-1), in place,
    // with gamma' = r . u and ||r||^2.
    const bool fusedInverse = m_s.inverseDiagonal != nullptr;
    // The sums stay partials for the product that follows at once (or the fold after the
    // last update); a preconditioner pass in between takes them in full by sums().
    const bool partialsOnly = !m_s.M || fusedInverse;
    if (partialsOnly) ensureSumScratch();
    // Where the update writes u itself, it also writes the copy the next product gathers
    // from (an operator that gathers single elements: stream/ElementCopy.h), where the
    // context's storage blocks hold one.
    const bool copyU = partialsOnly && m_s.A.gathersElements() && stream::ElementCopy::fits(m_s.b.layout());
    if (copyU && m_uCopy.buffer() == 0) m_uCopy = stream::ElementCopy(m_s.b.layout(), "cg.u_elements");
    stream::reduceCustom(m_s.b.layout(), {"solvers/cg_cg_update_reduce", [&](stream::Pass& update) {
      update.label(fusedInverse ? "cg update p s x r u, r.u r.r" : "cg update p s x r, r.u r.r").inPlace();
      update.input("u_r", m_s.r).input("u_w", m_w).input("u_p", m_p).input("u_s", m_sp).input("u_x", m_s.x)
          .coefficient("u_alpha", stream::Coefficient(m_alpha)).coefficient("u_beta", stream::Coefficient(m_beta));
      if (m_s.M) update.input("u_u", m_s.z);
      else update.define("UNPRECONDITIONED");
      if (m_first) update.define("FIRST");
      update.output(m_p).output(m_sp).output(m_s.x).output(m_s.r);
      if (fusedInverse) update.define("JACOBI").input("u_inverseDiagonal", *m_s.inverseDiagonal).output(m_s.z);
      if (partialsOnly) update.define("PARTIALS_ONLY").storage(0, m_sumScratch.id());
      else update.output(m_gammaNew).output(m_rr);
      if (copyU) update.define("WRITE_ELEMENTS").storage(3, m_uCopy.buffer());
    }});
    m_first = false;
    if (m_s.M && !fusedInverse) {
      m_s.M->apply(m_s.r, m_s.z);  // u = M^-1 r
      sums();
    }
    if (!last) productAndStep(k + 1, false, nullptr, nullptr, partialsOnly, copyU ? &m_uCopy : nullptr);
    else if (partialsOnly) foldSums();
  }

  void replaceResidual(int next) override {
    // productAndStep moved gamma and alpha one iteration on, from the replaced residual:
    // step back, take the sums of the new r and u, recompute s = A p (it followed p by
    // recurrence) and the two dots of the full p'^T A p', and step again.
    std::swap(m_gamma, m_gammaNew);
    std::swap(m_alpha, m_alphaNew);
    sums();
    m_s.A.apply(m_p, m_sp);
    Scalar us = Scalar::temporary("cg.us"), ps = Scalar::temporary("cg.ps");
    stream::dot(m_s.u(), m_sp, us);
    stream::dot(m_p, m_sp, ps);
    productAndStep(next, false, &us, &ps);
  }

  const Scalar& residualSquared() override { return m_rr; }  // every reduction sums r . r

 private:
  /// gamma' = r . u and ||r||^2 without an update (at a start, or after a preconditioner
  /// pass of its own).
  void sums() {
    stream::reduceCustom(m_s.b.layout(), {"solvers/cg_cg_update_reduce", [&](stream::Pass& pass) {
      pass.label("cg r.u r.r").define("NO_UPDATE").input("u_r", m_s.r);
      if (m_s.M) pass.input("u_u", m_s.z);
      else pass.define("UNPRECONDITIONED");
      pass.output(m_gammaNew).output(m_rr);
    }});
  }

  /// The update's partial sums: reduce/workgroup.glsl's scratch layout (a counter, three
  /// words of padding, then one vec4 a workgroup), made on first use.
  void ensureSumScratch() {
    if (m_sumScratch.id() != 0) return;
    m_sumGroups = stream::reductionWorkgroups(m_s.b.layout());
    const std::vector<unsigned char> zeros(16 + 16 * std::size_t(m_sumGroups), 0);
    m_sumScratch = gl::Buffer("cg.sum_partials", zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
  }

  /// gamma' and ||r||^2 from the last update's partials, where no product follows to fold
  /// them (solvers/cg_cg_fold_sums.glsl).
  void foldSums() {
    stream::Pass("solvers/cg_cg_fold_sums").label("cg fold r.u r.r").uniform("u_sumPartials", m_sumGroups)
        .storage(2, m_sumScratch.id()).output(m_gammaNew).output(m_rr).workgroups(1).run();
  }

  /// w = A u with delta = w . u, and in the same dispatch(es) the next alpha and beta from
  /// gamma, gamma' and alpha (solvers/cg_cg_alpha_beta.glsl); then gamma and alpha are
  /// current. After a residual replacement `us` and `ps` hold u . s and p . s (REPLACED).
  /// `foldSums`: gamma' and ||r||^2 are the update's partials (m_sumScratch), which the
  /// product's last workgroup folds and writes to gamma' and m_rr.
  void productAndStep(int iteration, bool first, const Scalar* us = nullptr, const Scalar* ps = nullptr,
                      bool foldSums = false, const stream::ElementCopy* uCopy = nullptr) {
    const stream::Epilogue step{"solvers/cg_cg_alpha_beta.glsl", [&](stream::Pass& pass) {
      if (first) pass.define("FIRST");
      if (us && ps) pass.define("REPLACED").input("u_us", *us).input("u_ps", *ps);
      if (!foldSums) pass.input("u_gammaNew", m_gammaNew);
      pass.input("u_gamma", m_gamma).input("u_alpha", m_alpha)
          .input("u_status", m_s.status).uniform("u_iteration", iteration)
          .output(m_alphaNew).output(m_beta).output(m_s.status);
      if (foldSums) {
        pass.define("FOLD_SUMS").uniform("u_sumPartials", m_sumGroups).storage(2, m_sumScratch.id())
            .output(m_gammaNew).output(m_rr);
      }
    }};
    if (uCopy) m_s.A.applyAndDotWithCopy(m_s.u(), *uCopy, m_w, step);
    else m_s.A.applyAndDot(m_s.u(), m_w, step);
    std::swap(m_gamma, m_gammaNew);
    std::swap(m_alpha, m_alphaNew);
  }

  CgSystem& m_s;
  Vector m_p, m_w, m_sp;  // s = A p is m_sp (m_s is the system)
  bool m_first = true;
  // Pooled: every one is written on the GPU before it is read.
  Scalar m_gamma = Scalar::temporary("cg.rho"), m_gammaNew = Scalar::temporary("cg.rhoNew");
  Scalar m_alpha = Scalar::temporary("cg.alpha"), m_alphaNew = Scalar::temporary("cg.alphaNew");
  Scalar m_beta = Scalar::temporary("cg.beta"), m_rr = Scalar::temporary("cg.rr");
  gl::Buffer m_sumScratch;  // the update's partial sums (partialsOnly)
  stream::ElementCopy m_uCopy;  // u's elements, written by the update for the product's gathers
  int m_sumGroups = 0;
};

}  // namespace

std::unique_ptr<CgIteration> chronopoulosGearCg(CgSystem& system) {
  return std::make_unique<ChronopoulosGearCg>(system);
}

}  // namespace krylov
}  // namespace texstream::solvers
