#include "ParamSettings.h"

#include "MeshSpec.h"

#include <texstream/text/Format.h>

#include <climits>

namespace texstream::app {

namespace {

constexpr stream::EnumName<solvers::LeastSquaresRoute> kRouteNames[] = {
    {solvers::LeastSquaresRoute::NormalEquations, "normal", "normal equations (BCRS)"},
    {solvers::LeastSquaresRoute::Cgls, "cgls", "CGLS (segment A, A^T)"}};
constexpr stream::EnumName<solvers::SystemMatrixFormat> kFormatNames[] = {
    {solvers::SystemMatrixFormat::Auto, "auto", "auto (BCRS 2x2)"},
    {solvers::SystemMatrixFormat::Segment, "segment", "segment"},
    {solvers::SystemMatrixFormat::Bcrs2, "bcrs2", "BCRS 2x2"},
    {solvers::SystemMatrixFormat::Bcrs4, "bcrs4", "BCRS 4x4"}};
constexpr stream::EnumName<solvers::SystemPreconditioner> kPreconditionerNames[] = {
    {solvers::SystemPreconditioner::Auto, "auto", "auto (multigrid; Jacobi for CGLS)"},
    {solvers::SystemPreconditioner::Multigrid, "multigrid", "multigrid (smoothed aggregation)"},
    {solvers::SystemPreconditioner::Jacobi, "jacobi", "Jacobi"},
    {solvers::SystemPreconditioner::None, "none", "none"}};

}  // namespace

std::optional<std::array<std::int32_t, 2>> parsePins(const std::string& option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos)
    throw UsageError(option + ": invalid value " + text::quoted(text) + ": expected two vertex indices A,B");
  return std::array<std::int32_t, 2>{std::int32_t(parseInteger(option, text.substr(0, comma), 0, INT32_MAX)),
                                     std::int32_t(parseInteger(option, text.substr(comma + 1), 0, INT32_MAX))};
}

void checkParamSettings(const ParamSettings& s) {
  if (s.solver.route == solvers::LeastSquaresRoute::Cgls && s.solver.preconditioner == solvers::SystemPreconditioner::Multigrid)
    throw UsageError("--precond: invalid value \"multigrid\" with --route cgls: CGLS never forms the normal matrix that "
                     "multigrid coarsens (use --precond jacobi, or --route normal)");
}

void describeParamSettings(SettingTable& t, ParamSettings& s) {
  t.text("mesh", s.mesh, [](std::string_view source, const std::string& text) { checkMeshSpec(std::string(source), text); },
         "A mesh file (.obj, .off, .ply) with a boundary, or builtin:patch[:VERTICES] (default 2000 vertices; the other "
         "built-in meshes are closed, which LSCM refuses)")
      .typeName("PATH|builtin:NAME");
  t.real("noise", s.noise, 0.0, 100.0, true, "Normal noise added to the mesh, in mean edge lengths")
      .label("noise (edge lengths)");
  t.integer("seed", s.seed, 0, 1ll << 53, "Seed of the noise and of the built-in mesh");
  t.text("pins", s.pins, [](std::string_view source, const std::string& text) { parsePins(std::string(source), text); },
         "The two pinned vertices (0-based); default: the boundary vertices farthest apart")
      .typeName("A,B");
  t.named("route", s.solver.route, NameTable<solvers::LeastSquaresRoute>(kRouteNames),
          "How the least-squares system is solved: its normal equations A^T A formed on the CPU and solved by CG on the "
          "GPU, or CGLS with A and A^T on the GPU");
  t.named("format", s.solver.format, NameTable<solvers::SystemMatrixFormat>(kFormatNames),
          "The normal matrix's GPU format");
  t.named("precond", s.solver.preconditioner, NameTable<solvers::SystemPreconditioner>(kPreconditionerNames),
          "CG's preconditioner (multigrid on the normal route only)");
  t.real("tolerance", s.solver.cg.tolerance, 0.0, 0.999999, false,
         "Relative residual of the normal equations to reach, in (0, 1)")
      .formerly("cg-tol")
      .label("CG tolerance");
  t.integer("max-iterations", *s.solver.cg.maxIterations, 1, 10000000, "Iteration cap of one GPU solve, >= 1")
      .formerly("cg-max-iter")
      .label("CG iteration cap");
  t.integer("refine", s.solver.refinementSteps, 0, 100,
            "Rounds of defect correction in double after the GPU solve at most, ending early when one gains less than "
            "2x (0: none)")
      .label("refinement rounds");
}

}  // namespace texstream::app
