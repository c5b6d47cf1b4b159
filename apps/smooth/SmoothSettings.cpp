#include "SmoothSettings.h"

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <filesystem>

namespace texstream::app {

void describeSmoothSettings(SettingTable& t, SmoothSettings& s) {
  static constexpr stream::EnumName<bool> kPreconditionerNames[] = {{false, "none", "none"}, {true, "jacobi", "Jacobi"}};
  static constexpr stream::EnumName<bool> kMethodNames[] = {{false, "curvature", "curvature flow (Bolz s3)"},
                                                            {true, "dsi", "DSI (Mallet 1992, CNC)"}};
  t.text("mesh", s.mesh, [](std::string_view source, const std::string& text) { checkMeshSpec(std::string(source), text); },
         "A mesh file (.obj, .off, .ply: ASCII or binary) or builtin:NAME[:VERTICES] with NAME one of cube, icosphere, "
         "torus, patch (default 10000 vertices)")
      .typeName("PATH|builtin:NAME");
  t.named("method", s.dsi.enabled, std::span<const stream::EnumName<bool>>(kMethodNames),
          "Smoothing: mean curvature flow (Bolz et al. 2003), or Discrete Smooth Interpolation (Mallet 1992, as the CNC "
          "solves it), one least-squares solve a step");
  t.real("dsi-weight", s.dsi.dataWeight, 0.0, 1e6, false,
         "DSI: weight of the data rows pulling each vertex to where it was, > 0 (smaller smooths more per step)")
      .label("DSI data weight")
      .slider(1e-3, 10.0, true, "%.3g");
  t.real("dt", s.lambdaDt, 0.0, 1e30, true,
         "lambda*dt of a step, in the mesh's own units (no normalisation of the geometry); default: the squared mean "
         "edge length of the mesh")
      .unsetWhen([&s] { return s.lambdaDt < 0; });
  t.real("noise", s.noise, 0.0, 100.0, true,
         "Normal noise added to the mesh, in mean edge lengths (default 0.3 for built-in meshes, 0 for files)")
      .label("noise (edge lengths)")
      .slider(0.0, 2.0, false, "%.2f")
      .unsetWhen([&s] { return s.noise < 0; });
  t.integer("seed", s.seed, 0, 1ll << 53, "Seed of the noise");
  t.real("tolerance", s.cgTolerance, 0.0, 0.999999, false,
         "CG tolerance: stop at ||r|| / ||b|| below it (x, y, z together), in (0, 1)")
      .formerly("cg-tol")
      .label("CG tolerance")
      .slider(1e-7, 1e-2, true, "%.1e")
      .typeName("TOL");
  t.integer("max-iterations", s.cgMaxIterations, 1, 10000000, "CG iteration cap per step, >= 1")
      .formerly("cg-max-iter")
      .label("CG iteration cap")
      .slider(1, 5000, true);
  t.named("precond", s.jacobi, std::span<const stream::EnumName<bool>>(kPreconditionerNames),
          "CG preconditioner: jacobi (diag(A); needed on real scans, where plain CG stalls) or none")
      .label("preconditioner");
  t.named("flow", s.flow, geometry::flowNames(), "Flow");
  t.named("precision", s.precision, solvers::precisionNames(),
          "Solver precision: mixed reaches --tolerance on ill-conditioned steps where float CG stalls; auto solves "
          "each step in float and solves again in mixed precision the steps float cannot bring to --tolerance");
  t.real("inner-tol", s.innerTolerance, 0.0, 0.999999, false,
         "Mixed precision: the fall of CG's float residual after which the true one replaces it, in (0, 1)")
      .label("inner tolerance")
      .slider(1e-6, 0.5, true, "%.1e")
      .typeName("TOL");
  t.flag("free-boundary", [&s] { return !s.fixBoundary; }, [&s](bool free) { s.fixBoundary = !free; },
         "Let boundary vertices move too (default: fixed, as in Bolz et al.)")
      .label("free boundary");
  t.named("rescale", s.rescale, geometry::rescaleNames(),
          "Rescale after each step to keep the initial area or volume (needs a closed mesh or --free-boundary)");
  t.integer("steps-per-frame", s.stepsPerFrame, 1, 1000, "Flow steps per displayed frame (windowed runs)")
      .label("steps per frame")
      .slider(1, 20);
  t.flag("wireframe", s.wireframe, "Draw the mesh's edges");
  t.flag("curvature-colors", s.curvatureColors, "Colour the mesh by its mean curvature (red convex, blue concave)")
      .label("colour by curvature");
  t.real("curvature-range", s.curvatureRange, 0.0, 1e4, false,
         "Mean curvature |H| R shown at full colour (R: the mesh's bounding radius)")
      .label("curvature range (1/R)")
      .slider(0.5, 100.0, true, "%.1f");
}

}  // namespace texstream::app
