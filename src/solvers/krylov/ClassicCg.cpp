// Conjugate gradients as Krüger & Westermann 2005 write them (§44.3.2, Listing 44-1: rho and
// rho' swap roles each iteration) and Bolz et al. 2003 run them (§3.1): every scalar a 1x1
// texture, so an iteration is passes the CPU only enqueues. The fragment backend's loop.
// One iteration, with u = M^-1 r (u = r without a preconditioner):
//   q = A p;  alpha = rho / (p . q);  x += alpha p;  r -= alpha q;  u = M^-1 r;
//   rho' = r . u;  beta = rho' / rho;  p = u + beta p
// With an inverse-diagonal preconditioner (Preconditioner::inverseDiagonal) u = r .* D^-1
// is a third output of the x, r update pass instead of a pass of its own.
#include <texstream/solvers/krylov/CgDriver.h>

#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>

#include <utility>

namespace texstream::solvers {
inline namespace krylov {

namespace {

using stream::Pass;
using stream::Scalar;
using stream::Vector;

class ClassicCg final : public CgIteration {
 public:
  explicit ClassicCg(CgSystem& s)
      : m_s(s), m_p(Vector::temporary(s.b.layout(), "cg.p")), m_q(Vector::temporary(s.b.layout(), "cg.q")) {}

  void start(int) override {
    stream::dot(m_s.r, m_s.u(), m_rho);  // rho = r . u
    linalg::copy(m_s.u(), m_p);          // p = u
  }

  void iterate(int k, bool last) override {
    m_s.A.apply(m_p, m_q);         // q = A p
    stream::dot(m_p, m_q, m_pq);   // p . q
    // alpha = rho / (p . q); the status records p . q <= 0 (A not SPD) and non-finite values.
    Pass("solvers/cg_alpha").label("cg alpha").input("u_rho", m_rho).input("u_pq", m_pq).input("u_status", m_s.status)
        .uniform("u_iteration", k).output(m_alpha).output(m_s.status).run();
    // x += alpha p, r -= alpha q (and u = r .* D^-1)
    Pass update("solvers/cg_update");
    update.label(m_s.inverseDiagonal ? "cg update x r z" : "cg update x r");
    update.input("u_x", m_s.x).input("u_p", m_p).input("u_r", m_s.r).input("u_q", m_q)
        .coefficient("u_alpha", stream::Coefficient(m_alpha)).output(m_s.x).output(m_s.r);
    if (m_s.inverseDiagonal) update.define("JACOBI").input("u_inverseDiagonal", *m_s.inverseDiagonal).output(m_s.z);
    update.run();
    if (m_s.M && !m_s.inverseDiagonal) m_s.M->apply(m_s.r, m_s.z);  // u = M^-1 r
    stream::dot(m_s.r, m_s.u(), m_rhoNew);                          // rho' = r . u
    if (!last) {
      // beta = rho' / rho; p = u + beta p
      Pass("solvers/cg_beta").label("cg beta").input("u_rhoNew", m_rhoNew).input("u_rho", m_rho).output(m_beta).run();
      linalg::xpay(m_s.u(), stream::Coefficient(m_beta), m_p);
    }
    std::swap(m_rho, m_rhoNew);
  }

  void replaceResidual(int) override {
    // p = u + beta p was formed from the replaced u; alpha = rho / (p . A p) is computed
    // in full each iteration, so only rho needs the new r and u.
    stream::dot(m_s.r, m_s.u(), m_rho);
  }

  const Scalar& residualSquared() override {
    if (!m_s.M) return m_rho;  // rho = r . r already
    stream::dot(m_s.r, m_s.r, m_rr);
    return m_rr;
  }

 private:
  CgSystem& m_s;
  Vector m_p, m_q;
  // Pooled: every one is written on the GPU before it is read.
  Scalar m_rho = Scalar::temporary("cg.rho"), m_rhoNew = Scalar::temporary("cg.rhoNew");
  Scalar m_pq = Scalar::temporary("cg.pq"), m_alpha = Scalar::temporary("cg.alpha");
  Scalar m_beta = Scalar::temporary("cg.beta"), m_rr = Scalar::temporary("cg.rr");
};

}  // namespace

std::unique_ptr<CgIteration> classicCg(CgSystem& system) { return std::make_unique<ClassicCg>(system); }

}  // namespace krylov
}  // namespace texstream::solvers
