// Bolz et al. 2003, §4.2: "Interpolation", "Projection", "Composition of Stencils".
#include <texstream/solvers/multigrid/GridTransfer.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <initializer_list>
#include <string>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

void requireCoarser(const char* what, const LayeredGrid& fine, const LayeredGrid& coarse) {
  if (!fine.canCoarsen() || !(fine.coarser() == coarse))
    throw gl::Error(std::string(what) + ": " + coarse.describe() + " is not the next coarser grid of " +
                    fine.describe());
}

/// A transfer's field, named for messages: "interpolateBilinear (x)".
struct Field {
  const char* name;
  const stream::Vector* v;
};

/// Throws gl::Error unless `coarse` is fine's next coarser grid and each field is a layered
/// field of its grid.
void requireTransfer(const char* what, const LayeredGrid& fine, std::initializer_list<Field> fineFields,
                     const LayeredGrid& coarse, std::initializer_list<Field> coarseFields) {
  requireCoarser(what, fine, coarse);
  for (const Field& f : fineFields) fine.require((std::string(what) + " (" + f.name + ")").c_str(), *f.v);
  for (const Field& f : coarseFields) coarse.require((std::string(what) + " (" + f.name + ")").c_str(), *f.v);
}

const int kDx[9] = {-1, 0, 1, -1, 0, 1, -1, 0, 1};
const int kDy[9] = {-1, -1, -1, 0, 0, 0, 1, 1, 1};

}  // namespace

void interpolateBilinear(const LayeredGrid& fine, const LayeredGrid& coarse, const stream::Vector& v,
                         const stream::Vector& fineCentre, stream::Vector& x, bool add, bool borderInKernel) {
  gl::StateGuard guard;
  requireTransfer("interpolateBilinear", fine, {{"fine centre", &fineCentre}, {"x", &x}}, coarse, {{"v", &v}});
  stream::Pass pass("multigrid/interpolate_correct");
  fine.bind(pass);
  if (!add) pass.define("NO_CORRECT");
  if (borderInKernel) pass.define("BORDER_IN_KERNEL");
  pass.input("u_x", x).input("u_v", v).input("u_centre", fineCentre).output(x).label("mg interpolate").run();
  if (!borderInKernel) fine.syncBorder({&x});
}

void projectFullWeighting(const LayeredGrid& fine, const LayeredGrid& coarse, const stream::Vector& r,
                          const stream::Vector& coarseCentre, stream::Vector& b, const ZeroGuessSweep& sweep) {
  gl::StateGuard guard;
  requireTransfer("projectFullWeighting", fine, {{"r", &r}}, coarse, {{"coarse centre", &coarseCentre}, {"b", &b}});
  stream::Pass pass("multigrid/restrict_full_weighting");
  pass.input("u_r", r).label("mg restrict");
  if (sweep.x) {
    coarse.require("projectFullWeighting (zero-guess sweep x)", *sweep.x);
    if (sweep.x == &b) throw gl::Error("projectFullWeighting: the sweep's x must not be b");
    pass.define("ZERO_SWEEP").uniform("u_omega", sweep.omega);
    if (sweep.borderInKernel) pass.define("BORDER_IN_KERNEL");
  }
  coarse.bind(pass, "u_coarse");
  pass.input("u_coarseCentre", coarseCentre).output(b);
  if (sweep.x) pass.output(*sweep.x);
  pass.run();
  if (sweep.x && !sweep.borderInKernel) coarse.syncBorder({sweep.x});
}

void composeGalerkin(const LayeredStencil& fine, LayeredStencil& coarse) {
  gl::StateGuard guard;
  const LayeredGrid& fg = fine.grid();
  const LayeredGrid& cg = coarse.grid();
  requireCoarser("composeGalerkin", fg, cg);
  // The fine operator without couplings into fixed nodes (owned texels, then borders).
  std::array<stream::Vector, 9> masked;
  for (int e = 0; e < 9; ++e) {
    if (e == 4) continue;
    masked[std::size_t(e)] = stream::Vector::temporary(fg.layout(), fine.name() + ".masked" + std::to_string(e));
    stream::Pass pass("multigrid/mask_couplings");
    fg.bind(pass);
    pass.uniform("u_offset", kDx[e], kDy[e]).input("u_entry", fine.entry(e)).input("u_centre", fine.centre());
    pass.output(masked[std::size_t(e)]).label("mg mask couplings").run();
  }
  fg.syncBorder({&masked[0], &masked[1], &masked[2], &masked[3]});
  fg.syncBorder({&masked[5], &masked[6], &masked[7], &masked[8]});
  for (int e = 0; e < 9; ++e) {
    stream::Pass pass("multigrid/compose_galerkin");
    fg.bind(pass, "u_fine");
    cg.bind(pass, "u_coarse");
    pass.uniform("u_coarseSize", cg.width(), cg.height());
    pass.uniform("u_entry", kDx[e], kDy[e]);
    for (int g = 0; g < 9; ++g)
      pass.input("u_A" + std::to_string(g), g == 4 ? fine.centre() : masked[std::size_t(g)]);
    pass.output(coarse.entry(e)).label("mg compose").run();
  }
  coarse.syncBorder();
}

}  // namespace multigrid
}  // namespace texstream::solvers
