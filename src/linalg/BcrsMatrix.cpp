// Buatois et al. 2008 (the Concurrent Number Cruncher), §2.2.3 and §2.3.3: BCRS with 2x2
// and 4x4 blocks (the plan: BcrsLayout.cpp), x read once per block; optional reverse
// Cuthill–McKee before blocking.
#include <texstream/linalg/BcrsMatrix.h>

#include <texstream/linalg/DoubleFloatVector.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/BcrsLayout.h>
#include <texstream/linalg/FusedProductDot.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace texstream::linalg {

BcrsMatrix::BcrsMatrix(const Csr& A, std::string name, BcrsOptions options)
    : PermutedMatrix("BcrsMatrix", std::move(name), A.rows), m_options(options) {
  const std::string title = this->title();
  requireBcrsInput(A, options.blockSize, title);
  const int B = options.blockSize;
  const std::size_t n = A.rows;
  m_nonZeros = A.nonZeros();

  // The internal order: the user's, or reverse Cuthill–McKee's.
  std::vector<std::int32_t> order;
  if (options.reverseCuthillMcKee) order = reverseCuthillMcKee(A);
  const Csr P = order.empty() ? Csr{} : permuteSymmetric(A, order);
  const Csr& M = order.empty() ? A : P;  // the internally ordered matrix
  m_bandwidth = bandwidth(M);
  std::vector<std::int32_t> userToInternal(n);
  if (order.empty()) {
    std::iota(userToInternal.begin(), userToInternal.end(), 0);
  } else {
    for (std::size_t k = 0; k < n; ++k) userToInternal[std::size_t(order[k])] = std::int32_t(k);
  }

  // The plan (BcrsLayout.h), then its upload.
  gl::StateGuard guard;
  const stream::Layout layout = stream::Layout::forSize(n);
  setPermutation(RowPermutation(std::move(userToInternal), layout, this->name()));
  const stream::Runtime& rt = stream::Runtime::current();
  const BcrsPlan plan = planBcrs(M, B, layout.usedTexels(), options.interleave, rt.backend() == stream::Backend::Compute,
                                 rt.caps().maxTextureSize, title);
  m_blocks = plan.blocks.count();
  m_storedBlocks = plan.placement.stored;
  m_interleaved = plan.placement.interleaved;

  const BcrsTextureShape& shape = plan.shape;
  const int layers = B == 4 ? 4 : 1;
  m_values = gl::Texture(int(shape.width), int(shape.valuesHeight), gl::TextureFormat::RGBA32F, this->name() + ".blocks",
                         layers);
  std::vector<float> texels;
  for (int l = 0; l < layers; ++l) {
    valueLayer(plan.blocks, plan.placement, shape, l, texels);
    m_values.upload(texels.data(), l);
  }
  m_columns = gl::Texture(int(shape.width), int(shape.height), gl::TextureFormat::R32F, this->name() + ".blockColumns");
  m_columns.upload(blockColumnTexels(plan.blocks, plan.placement, shape).data());
  m_rowBlocks = gl::Texture(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, this->name() + ".rowBlocks");
  m_rowBlocks.upload(paddedTexels(layout, rowBlockTexels(plan.blocks, plan.placement, layout.usedTexels())).data());
  setDiagonal(stream::Vector(layout, this->name() + ".diagonal"));
  storedDiagonal().mutableTexture().upload(paddedTexels(layout, plan.blocks.diagonal).data());
}

void BcrsMatrix::bindProduct(stream::Pass& pass, const stream::Vector& x) const {
  if (m_interleaved) pass.define("INTERLEAVED", kBcrsInterleaveTexels);
  pass.define("BLOCK", m_options.blockSize)
      .define("X_WIDTH", x.layout().width())
      .input("u_values", m_values)
      .input("u_columns", m_columns)
      .input("u_rows", m_rowBlocks)
      .input("u_x", x)
      .uniform("u_blockShift", log2Ceil(std::size_t(m_columns.width())));
}

bool BcrsMatrix::blockRowInvocations() const {
  return m_options.blockSize == 2 && stream::Runtime::current().backend() == stream::Backend::Compute;
}

void BcrsMatrix::applyInternal(const stream::Vector& x, stream::Vector& y) const {
  requireApplyShapes(title(), internalLayout(), cols(), x, y);
  gl::StateGuard guard;
  if (blockRowInvocations()) {
    const std::size_t texels = internalLayout().texels();
    stream::Pass pass("sparse/spmv_bcrs2_rows");
    bindProduct(pass, x);
    pass.label("spmv_bcrs 2x2").uniform("u_texels", int(texels)).uniform("u_width", internalLayout().width()).output(y);
    pass.workgroups(int((texels + 127) / 128)).run();
    return;
  }
  stream::Pass pass("sparse/spmv_bcrs");
  bindProduct(pass, x);
  pass.label(m_options.blockSize == 4 ? "spmv_bcrs 4x4" : "spmv_bcrs 2x2").output(y).run();
}

void BcrsMatrix::residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                               stream::Vector& r) const {
  requireResidualShapes(title() + " (internal order)", internalLayout(), cols(), b, x, r);
  gl::StateGuard guard;
  stream::Pass pass("sparse/spmv_bcrs");
  bindProduct(pass, x.hi());
  pass.define("DOUBLE_FLOAT_RESIDUAL")
      .input("u_xLo", x.lo())
      .input("u_bHi", b.hi())
      .input("u_bLo", b.lo())
      .label(m_options.blockSize == 4 ? "spmv_bcrs 4x4 residual" : "spmv_bcrs 2x2 residual")
      .output(r)
      .run();
}

void BcrsMatrix::applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                                     const stream::Epilogue& epilogue) const {
  requireApplyShapes(title(), internalLayout(), cols(), x, y);
  if (x.layout() != internalLayout()) {
    throw gl::Error(title() + ".applyInternalAndDot: x (vector \"" + x.name() + "\") has " + x.layout().describe() +
                    "; y . x needs x in y's layout " + internalLayout().describe() + " (Layout::forSize)");
  }
  if (stream::Runtime::current().backend() != stream::Backend::Compute) {
    PermutedMatrix::applyInternalAndDot(x, y, epilogue);  // its reduction throws: epilogues are compute-only
    return;
  }
  gl::StateGuard guard;
  if (blockRowInvocations()) {
    const std::size_t texels = internalLayout().texels();
    const int groups = int((texels + 127) / 128);
    if (m_rowsDotScratch.id() == 0) {
      // A zero counter, then one partial per workgroup; the last workgroup resets the counter.
      const std::vector<unsigned char> zeros(16 + 4 * std::size_t(groups), 0);
      m_rowsDotScratch = gl::Buffer(name() + ".rows_dot_scratch", zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
    }
    stream::Pass pass(stream::composeReductionKernel("sparse/spmv_bcrs2_rows", epilogue.include, 1));
    bindProduct(pass, x);
    pass.define("WITH_DOT").label("spmv_bcrs 2x2 + dot").output(y);
    pass.uniform("u_texels", int(texels)).uniform("u_width", internalLayout().width());
    pass.uniform("u_groupBase", 0).uniform("u_totalGroups", groups);
    epilogue.bind(pass);
    pass.storage(0, m_rowsDotScratch.id()).workgroups(groups).inPlace().run();
    return;
  }
  // One dispatch over y's whole texture (x shares its layout, so texel t of y meets texel
  // t of x).
  stream::Pass pass(stream::composeReductionKernel("sparse/spmv_bcrs_dot", epilogue.include, 1));
  bindProduct(pass, x);
  pass.label(m_options.blockSize == 4 ? "spmv_bcrs 4x4 + dot" : "spmv_bcrs 2x2 + dot").output(y);
  runProductWithDot(pass, internalLayout(), epilogue, m_dotScratch, name() + ".dot_scratch");
}

double BcrsMatrix::bytesPerApply() const {
  const double B = m_options.blockSize;
  const double texels = double(internalLayout().texels());
  return double(m_storedBlocks) * (B * B * 4 + 4) + texels * (16 + 16);
}

double BcrsMatrix::flopsPerApply() const { return 2.0 * double(m_nonZeros); }

double BcrsMatrix::fillRatio() const {
  const double stored = double(m_blocks) * m_options.blockSize * m_options.blockSize;
  return stored == 0 ? 1.0 : double(m_nonZeros) / stored;
}

}  // namespace texstream::linalg
