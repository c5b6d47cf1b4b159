// Unstructured sparse matrices on mesh systems (Bolz et al. 2003, §3; Buatois et al. 2008):
// SpMV in the segment layout (both packings of Bolz §3.2), BCRS 2x2 and 4x4 (4x4 also
// after reverse Cuthill–McKee), and one CG iteration, on the curvature-flow matrix of a
// noisy icosphere (Bolz §3: a_ij = -λΔt (cot α_ij + cot β_ij), a_ii = 4 A_i - Σ_j a_ij,
// SPD) of about 37k vertices (Bolz's scanned mesh) and, in --full, about 1M (CNC's
// dragon). Peers on the same CSR matrix and vectors in the same run: cuSPARSE CSR SpMV and
// a cuSPARSE + cuBLAS CG (CUDA peers), Eigen SpMV and CG.
//
// texstream rows run on INTERNALLY ordered vectors (the solver's view: the permutation to
// and from the user's order happens once per solve, outside the loop); the row
// "spmv.segment_user" shows what apply() in user order costs with its two gathers.
// Every row is checked against the double-precision product (or k CG iterations) in the
// user's order.
#include "SparseRows.h"

#include "BenchCase.h"
#include "CgIterations.h"
#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"
#include "SpmvPeers.h"
#include "Traffic.h"

#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/stream/Vector.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>

namespace texstream::bench {

linalg::Csr curvatureMatrix(const geometry::Mesh& mesh, double lambdaDt) {
  const std::size_t n = mesh.vertexCount();
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  std::vector<double> area(n, 0.0), offSum(n, 0.0);
  const auto& p = mesh.positions;
  auto sub = [&](std::int32_t a, std::int32_t b, double* out) {
    for (int k = 0; k < 3; ++k) out[k] = p[3 * std::size_t(a) + std::size_t(k)] - p[3 * std::size_t(b) + std::size_t(k)];
  };
  auto cotAt = [&](std::int32_t a, std::int32_t b, std::int32_t cc) {  // angle at b
    double u[3], w[3];
    sub(a, b, u), sub(cc, b, w);
    const double dot = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
    const double cx = u[1] * w[2] - u[2] * w[1], cy = u[2] * w[0] - u[0] * w[2], cz = u[0] * w[1] - u[1] * w[0];
    const double cross = std::sqrt(cx * cx + cy * cy + cz * cz);
    return cross > 0 ? dot / cross : 0.0;
  };
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::int32_t i[3] = {mesh.triangles[3 * t], mesh.triangles[3 * t + 1], mesh.triangles[3 * t + 2]};
    double u[3], w[3];
    sub(i[1], i[0], u), sub(i[2], i[0], w);
    const double cx = u[1] * w[2] - u[2] * w[1], cy = u[2] * w[0] - u[0] * w[2], cz = u[0] * w[1] - u[1] * w[0];
    const double a = 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
    for (int k = 0; k < 3; ++k) {
      area[std::size_t(i[k])] += a;
      // Edge (i[k], i[k+1]) is opposite vertex i[k+2]: half of its cot weight per triangle.
      const std::int32_t s = i[k], e = i[(k + 1) % 3], o = i[(k + 2) % 3];
      const double aij = -lambdaDt * cotAt(s, o, e);
      for (auto [x, y] : {std::pair{s, e}, std::pair{e, s}}) {
        r.push_back(x), c.push_back(y), v.push_back(aij);
        offSum[std::size_t(x)] += aij;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i)), v.push_back(4.0 * area[i] - offSum[i]);
  }
  return linalg::Csr::fromTriplets(n, n, r, c, v);  // the two halves of each edge summed
}

namespace {

using stream::Backend;
using stream::Vector;

constexpr double kSpmvTolerance = 1e-5;
constexpr double kCgTolerance = 1e-3;  // as CgBench: float CG drifts a little from double CG

/// One storage format behind the internal-order interface.
struct Format {
  std::string op;    ///< "segment.groups", "bcrs4", ...
  std::string note;
  std::unique_ptr<linalg::PermutedMatrix> matrix;
  const linalg::SegmentMatrix* segment = nullptr;  ///< the matrix, when a SegmentMatrix
  std::unique_ptr<linalg::LinearOperator> view;     ///< the internal-order operator
  const linalg::LinearOperator& internal() const { return *view; }
  stream::Layout layout() const { return matrix->internalLayout(); }
  void toInternal(const Vector& u, Vector& i) const { matrix->toInternal(u, i); }
  void toUser(const Vector& i, Vector& u) const { matrix->toUser(i, u); }
};

std::unique_ptr<Format> segmentFormat(const linalg::Csr& A, linalg::SegmentPacking packing, const std::string& tag,
                                      const std::string& variant = "") {
  auto f = std::make_unique<Format>();
  linalg::SegmentOptions o;
  o.packing = packing;
  o.interleave = variant == "interleaved";
  if (variant == "unmerged") o.mergeBelow = 0;
  auto segment = std::make_unique<linalg::SegmentMatrix>(A, "bench." + tag + ".segment", o);
  f->segment = segment.get();
  f->matrix = std::move(segment);
  f->view = std::make_unique<linalg::PermutedMatrix::Internal>(*f->matrix);
  f->op = std::string("segment.") + linalg::packingName(packing) + (variant.empty() ? "" : "_" + variant);
  char note[200];
  std::snprintf(note, sizeof note, "%zu groups, %d passes, padding %.3f, %s segments%s; compute product: %s",
                f->segment->layout().groups.size(), f->segment->layout().passesPerApply(),
                f->segment->layout().paddingRatio(), f->segment->layout().interleaved ? "interleaved" : "consecutive",
                o.mergeBelow == 0 ? ", no group merging" : "",
                f->segment->computeProductPerGroup() ? "one program per group, the fused dot too"
                                                     : "the span kernel");
  f->note = note;
  return f;
}

std::unique_ptr<Format> bcrsFormat(const linalg::Csr& A, int block, bool rcm, const std::string& tag) {
  auto f = std::make_unique<Format>();
  linalg::BcrsOptions options;
  options.blockSize = block;
  options.reverseCuthillMcKee = rcm;
  auto bcrs = std::make_unique<linalg::BcrsMatrix>(A, "bench." + tag + ".bcrs", options);
  f->view = std::make_unique<linalg::PermutedMatrix::Internal>(*bcrs);
  f->op = "bcrs" + std::to_string(block) + (rcm ? "_rcm" : "");
  char note[200];
  std::snprintf(note, sizeof note, "%zu blocks (%zu stored%s), fill %.3f, bandwidth %zu%s", bcrs->blocks(),
                bcrs->storedBlocks(), bcrs->interleaved() ? ", interleaved" : "", bcrs->fillRatio(),
                bcrs->internalBandwidth(), rcm ? " after RCM" : "");
  f->note = note;
  f->matrix = std::move(bcrs);
  return f;
}

std::vector<float> toUserOrder(const Format& f, const Vector& internal, std::size_t n) {
  Vector user(n, "bench.sparse.user");
  f.toUser(internal, user);
  return user.download();
}

std::unique_ptr<Format> makeFormat(const linalg::Csr& A, SparseFormat format, const std::string& tag) {
  using linalg::SegmentPacking;
  switch (format) {
    case SparseFormat::SegmentGroups: return segmentFormat(A, SegmentPacking::GroupRectangles, tag);
    case SparseFormat::SegmentTiles: return segmentFormat(A, SegmentPacking::IdenticalTiles, tag);
    case SparseFormat::SegmentTilesInterleaved: return segmentFormat(A, SegmentPacking::IdenticalTiles, tag, "interleaved");
    case SparseFormat::SegmentGroupsInterleaved:
      return segmentFormat(A, SegmentPacking::GroupRectangles, tag, "interleaved");
    case SparseFormat::SegmentTilesUnmerged: return segmentFormat(A, SegmentPacking::IdenticalTiles, tag, "unmerged");
    case SparseFormat::Bcrs2: return bcrsFormat(A, 2, false, tag);
    case SparseFormat::Bcrs4: return bcrsFormat(A, 4, false, tag);
    case SparseFormat::Bcrs4Rcm: return bcrsFormat(A, 4, true, tag);
  }
  throw std::logic_error("sparse rows: unknown format");
}

}  // namespace

void sparseMatrixRows(BenchContext& ctx, const linalg::Csr& A, const SparseRowsSpec& spec) {
  const std::string& tag = spec.tag;
  const std::size_t n = A.rows;
  const std::string matrixNote = spec.matrixNote.empty() ? "" : spec.matrixNote + "; ";
  std::vector<std::unique_ptr<Format>> formats;
  for (SparseFormat f : spec.spmvFormats) formats.push_back(makeFormat(A, f, tag));

  const std::vector<float> xs = randomFloats(n, 501);
  const std::vector<double> reference = A.multiply(toDouble(xs));
  const std::vector<std::string> spmvPeers = sparsePeerNames(tag);
  Vector xUser(n, "bench.sparse.x");
  xUser.upload(xs);

  for (const auto& f : formats) {
    Vector x(f->layout(), "bench.sparse.xi"), y(f->layout(), "bench.sparse.yi");
    f->toInternal(xUser, x);
    const linalg::LinearOperator& M = f->internal();
    for (Backend b : ctx.backends) {
      stream::BackendScope scope(b);
      const Timing t = timeGl([&] { M.apply(x, y); }, ctx.timing);
      Row row = makeRow("spmv." + f->op + "." + tag, stream::backendName(b), n, t, M.bytesPerApply(),
                        double(f->layout().texels()) * 16.0, M.flopsPerApply());
      y.upload(std::vector<float>(f->layout().size(), poison()));
      M.apply(x, y);
      row.maxRelErr = maxRelativeError(toUserOrder(*f, y, n), reference);
      row.tolerance = kSpmvTolerance;
      row.peerCandidates = spmvPeers;
      row.note = matrixNote + f->note + ", internal order";
      ctx.add(std::move(row));
    }
  }
  // apply() in the user's order: gather x in, multiply, gather y out.
  if (spec.userOrderRow) {
    if (formats.empty() || !formats[0]->segment)
      throw std::logic_error("sparse rows: the user-order row needs a segment format first");
    const linalg::SegmentMatrix& S = *formats[0]->segment;
    Vector y(n, "bench.sparse.y");
    for (Backend b : ctx.backends) {
      stream::BackendScope scope(b);
      const Timing t = timeGl([&] { S.apply(xUser, y); }, ctx.timing);
      Row row = makeRow("spmv.segment_user." + tag, stream::backendName(b), n, t,
                        S.bytesPerApply() + 4 * texelBytes(n), double(S.internalLayout().texels()) * 32.0 + texelBytes(n),
                        S.flopsPerApply());
      y.upload(std::vector<float>(n, poison()));
      S.apply(xUser, y);
      row.maxRelErr = maxRelativeError(y.download(), reference);
      row.tolerance = kSpmvTolerance;
      row.peerCandidates = spmvPeers;
      row.note = matrixNote + "groups packing, user order: permute x, product, permute y";
      ctx.add(std::move(row));
    }
  }
  sparsePeers(ctx, tag, A, xs, reference, kSpmvTolerance);

  // One CG iteration: k iterations of plain CG from x = 0 with tolerance 0 (as the peers),
  // one residual read-back per solve, set-up included, divided by k.
  const int k = spec.cgIterations;
  const std::vector<float> bs = randomFloats(n, 502);
  const std::vector<double> cgRef = cgReference(A, toDouble(bs), k);
  // Float rounding alone moves k iterations on an ill-conditioned A (the LSCM normal
  // matrices) by more than kCgTolerance: the rows may differ from the double reference by
  // 4x what a plain float CG on the CPU does, and no less strictly than kCgTolerance.
  const double floatDrift = maxRelativeError(cgInFloat(A, toDouble(bs), k), cgRef);
  const double cgTolerance = std::max(kCgTolerance, 4.0 * floatDrift);
  const std::string toleranceNote =
      cgTolerance > kCgTolerance ? "; tolerance 4x the drift of float CG on the CPU (" + text::formatNumber(floatDrift) + ")"
                                 : "";
  const std::vector<std::string> cgPeers = {"peer.cusparse_cg_iteration." + tag, "peer.eigen_cg_iteration." + tag};
  Vector bUser(n, "bench.sparse.b");
  bUser.upload(bs);
  for (SparseFormat cgFormat : spec.cgFormats) {
    const auto which = std::size_t(
        std::find(spec.spmvFormats.begin(), spec.spmvFormats.end(), cgFormat) - spec.spmvFormats.begin());
    if (which == formats.size()) throw std::logic_error("sparse rows: a CG format that is not an SpMV format");
    const Format& f = *formats[which];
    Vector b(f.layout(), "bench.sparse.bi"), x(f.layout(), "bench.sparse.xi");
    f.toInternal(bUser, b);
    for (Backend backend : ctx.backends) {
      stream::BackendScope scope(backend);
      const std::string op = "cg_iteration." + f.op + "." + tag;
      std::string breakdown;
      const Timing t = timeCgIterations(f.internal(), b, x, k, k, ctx.timing, op, &breakdown);
      const double ni = double(f.layout().size()), texels = double(f.layout().texels());
      // On the compute backend an operator that gathers single elements has the update
      // write u's element copy too, which its product's gathers read (stream/ElementCopy.h).
      const bool copiesU = backend == Backend::Compute && f.internal().gathersElements();
      const double copyBytes = copiesU ? 16.0 * texels : 0.0;
      Row row = makeRow(op, stream::backendName(backend), n, t, f.internal().bytesPerApply() + 52.0 * ni + copyBytes,
                        4 * 16.0 * texels + copyBytes, f.internal().flopsPerApply() + 10.0 * ni);
      row.maxRelErr = maxRelativeError(toUserOrder(f, x, n), cgRef);
      row.tolerance = cgTolerance;
      row.peerCandidates = cgPeers;
      row.note = matrixNote + std::to_string(k) + " iterations per solve, " + f.note + ", internal order" + toleranceNote +
                 breakdown;
      ctx.add(std::move(row));
    }
  }
  std::vector<float> peerOut;
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    Row row = makeRow("peer.cusparse_cg_iteration." + tag, "cuda", n, cuda::cg(A, bs, k, peerOut, ctx.timing),
                      csrSpmvBytes(A) + 52.0 * double(n), 16.0 * double(n), 2.0 * double(A.nonZeros()) + 10.0 * double(n));
    row.maxRelErr = maxRelativeError(peerOut, cgRef);
    row.tolerance = cgTolerance;
    row.note = std::to_string(k) + " iterations per solve, scalars on the device, one residual read-back per solve, set-up included" + toleranceNote;
    ctx.add(std::move(row));
  }
#endif
  if (ctx.cpuPeers) {
    Row row = makeRow("peer.eigen_cg_iteration." + tag, "cpu", n, eigen::cg(A, bs, k, peerOut, cpuSpec(ctx.timing)),
                      csrSpmvBytes(A) + 52.0 * double(n), 16.0 * double(n), 2.0 * double(A.nonZeros()) + 10.0 * double(n));
    row.maxRelErr = maxRelativeError(peerOut, cgRef);
    row.tolerance = cgTolerance;
    row.note = std::to_string(k) + " iterations per solve, " + eigen::description() + toleranceNote;
    ctx.add(std::move(row));
  }
}

namespace {

void meshCase(BenchContext& ctx, const std::string& tag, std::size_t vertices, int cgIterations) {
  const geometry::Mesh mesh = geometry::builtinMesh("icosphere", vertices, 0.3, 5);
  const linalg::Csr A = curvatureMatrix(mesh, 1e-3);
  ctx.progress("sparse." + tag + ": noisy icosphere, " + std::to_string(A.rows) + " vertices, " +
               std::to_string(A.nonZeros()) + " non-zeros (curvature flow, lambda dt = 1e-3)");
  SparseRowsSpec spec;
  spec.tag = tag;
  spec.spmvFormats = {SparseFormat::SegmentGroups,        SparseFormat::SegmentTiles,
                      SparseFormat::SegmentTilesInterleaved, SparseFormat::SegmentGroupsInterleaved,
                      SparseFormat::SegmentTilesUnmerged, SparseFormat::Bcrs2,
                      SparseFormat::Bcrs4,                SparseFormat::Bcrs4Rcm};
  // Segment groups (Bolz's consecutive segments), groups interleaved, bcrs4.
  spec.cgFormats = {SparseFormat::SegmentGroups, SparseFormat::SegmentGroupsInterleaved, SparseFormat::Bcrs4Rcm};
  spec.cgIterations = cgIterations;
  spec.userOrderRow = true;
  sparseMatrixRows(ctx, A, spec);
}

}  // namespace

void runSparse(BenchContext& ctx) {
  switch (ctx.options.preset) {
    case Preset::Quick: meshCase(ctx, "mesh2k", 2000, 10); break;
    case Preset::Default: meshCase(ctx, "mesh37k", 37000, 30); break;
    case Preset::Full:
      // The 1M-vertex system: 200 iterations a solve, as the cg case, so that the per-solve
      // set-up (one blocking read-back of ||b|| and ||r0||, the final check) is a small
      // share of an iteration for texstream and the peers alike. The 37k one converges to
      // float precision well before 200 (with tolerance 0 float CG then wanders off the
      // double reference: 3e7 relative error seen), so it keeps 50.
      meshCase(ctx, "mesh37k", 37000, 50);
      meshCase(ctx, "mesh1m", 1000000, 200);
      break;
  }
}

}  // namespace texstream::bench
