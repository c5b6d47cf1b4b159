#pragma once
// texstream: everything a host application needs, with the common names lifted into the
// texstream namespace:
//   texstream::Vector x(n, "x");  texstream::cg(A, b, x, {.tolerance = 1e-6f});
#include <texstream/codegen/EbjKernel.h>
#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Context.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/HeadlessContext.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/fluid/FluidSolver.h>
#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/Dsi.h>
#include <texstream/geometry/Lscm.h>
#include <texstream/geometry/Mesh.h>
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/PermutedMatrix.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/PressureDomain3D.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/SystemBuilder.h>
#include <texstream/linalg/SystemExport.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/Cgls.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/solvers/multigrid/MultigridPreconditioner.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/systems/PressureSolver3D.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/solvers/systems/SystemSolver.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/GridField.h>
#include <texstream/stream/GridField3D.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

namespace texstream {

using gl::ContextScope;
using gl::Error;
using gl::HeadlessContext;
using gl::forgetContext;
using gl::makeCurrent;
using stream::Backend;
using stream::BackendScope;
using stream::GridField;
using stream::GridField3D;
using stream::GridLayout3D;
using stream::Layout;
using stream::Scalar;
using stream::ScalarReadback;
using stream::Vector;

using linalg::BandedMatrix;
using linalg::Csr;
using linalg::DenseMatrix;
using linalg::LinearOperator;
using linalg::BcrsMatrix;
using linalg::PermutedMatrix;
using linalg::PointMatrix;
using linalg::CellLabel;
using linalg::PressureDomain3D;
using linalg::PressureMatrix3D;
using linalg::SegmentMatrix;
using linalg::StencilMatrix;
using linalg::LinearSystem;
using linalg::SystemBuilder;
using linalg::SystemMode;

using solvers::CgOptions;
using solvers::cg;
using solvers::ConjugateGradient;
using solvers::IterativeOptions;
using solvers::IterativeSolver;
using solvers::JacobiPreconditioner;
using solvers::Multigrid;
using solvers::PressurePreconditioner;
using solvers::PressureSolver3D;
using solvers::SolverStatus;
using solvers::SystemSolver;
using solvers::cgls;

/// Frees texstream's GL objects for the context current on this thread and forgets it;
/// call it before destroying that context (gl::releaseCurrentContext, gl/Context.h).
inline void shutdown() { gl::releaseCurrentContext(); }

}  // namespace texstream
