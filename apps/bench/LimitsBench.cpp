// The two ceilings of GPU.md, measured in the same run as everything else and printed
// always: a fragment pass that only writes a constant into an RGBA32F render target (the
// raster back end's write rate, which bounds the fragment path), and a compute pass that
// copies one RGBA32F texture into another (the memory system, which bounds the compute
// path). Raw GL programs, so that no library overhead lowers the ceilings; the CUDA copy
// and memcpy ceilings of the peers come along.
#include "BenchCase.h"
#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/Program.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>
#include <texstream/linalg/VectorOps.h>

#include <glad/gl.h>

#include <algorithm>
#include <vector>

namespace texstream::bench {

namespace {

constexpr float kFillValue = 0.7f;

const char* kRectangleVertex =
    "void main() {\n"
    "  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
    "  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";
const char* kFillFragment =
    "uniform vec4 u_value;\n"
    "out vec4 o_fill;\n"
    "void main() { o_fill = u_value; }\n";
// texelFetch -> imageStore: how texstream's compute kernels read and write.
const char* kCopyFetch =
    "layout(local_size_x = 16, local_size_y = 16) in;\n"
    "uniform sampler2D u_x;\n"
    "layout(binding = 1, rgba32f) writeonly uniform highp image2D u_out;\n"
    "uniform ivec2 u_size;\n"
    "void main() {\n"
    "  ivec2 t = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (t.x >= u_size.x || t.y >= u_size.y) return;\n"
    "  imageStore(u_out, t, texelFetch(u_x, t, 0));\n"
    "}\n";
// imageLoad -> imageStore: what GPU.md's 4280 GB/s compute axpy used.
const char* kCopyImage =
    "layout(local_size_x = 16, local_size_y = 16) in;\n"
    "layout(binding = 0, rgba32f) readonly uniform highp image2D u_in;\n"
    "layout(binding = 1, rgba32f) writeonly uniform highp image2D u_out;\n"
    "uniform ivec2 u_size;\n"
    "void main() {\n"
    "  ivec2 t = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (t.x >= u_size.x || t.y >= u_size.y) return;\n"
    "  imageStore(u_out, t, imageLoad(u_in, t));\n"
    "}\n";

double errorAgainst(const gl::Texture& t, const std::vector<double>& reference) {
  std::vector<float> got(reference.size());
  t.download(got.data());
  return maxRelativeError(got, reference);
}

void fragmentFill(BenchContext& ctx, const stream::Layout& layout) {
  stream::Runtime& rt = stream::Runtime::current();
  gl::Program program("bench limits.fragment_fill",
                      {{GL_VERTEX_SHADER, stream::Runtime::current().caps().glslHeader(330, 300), {{"<bench fill vertex>", kRectangleVertex, 1}}},
                       {GL_FRAGMENT_SHADER, stream::Runtime::current().caps().glslHeader(330, 300), {{"<bench fill fragment>", kFillFragment, 1}}}});
  gl::Texture target(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, "bench.fill");
  const int valueLoc = program.uniformLocation("u_value");
  auto fill = [&] {
    rt.framebuffer().bindForDrawing({&target});
    glViewport(0, 0, target.width(), target.height());
    glUseProgram(program.id());
    glBindVertexArray(rt.emptyVertexArray().id());
    glUniform4f(valueLoc, kFillValue, kFillValue, kFillValue, kFillValue);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  };
  const Timing t = timeGl(fill, ctx.timing);
  const double written = double(layout.texels()) * 16;
  Row row = makeRow(kFragmentCeiling, "fragment", layout.size(), t, written, written, 0);
  target.fill(poison());
  fill();
  row.maxRelErr = errorAgainst(target, std::vector<double>(layout.paddedSize(), kFillValue));
  row.tolerance = 0;
  row.note = "write-only fill, RGBA32F " + std::to_string(layout.width()) + "x" + std::to_string(layout.height());
  ctx.add(std::move(row));
}

void computeCopy(BenchContext& ctx, const stream::Layout& layout) {
  const std::vector<float> data = randomFloats(layout.paddedSize(), 101);
  gl::Texture source(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, "bench.copy.source");
  gl::Texture target(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, "bench.copy.target");
  source.upload(data.data());
  const std::vector<double> reference = toDouble(data);
  const unsigned groupsX = unsigned((layout.width() + 15) / 16), groupsY = unsigned((layout.height() + 15) / 16);

  Row best;
  bool first = true;
  for (const bool image : {false, true}) {
    gl::Program program(image ? "bench limits.compute_copy imageLoad" : "bench limits.compute_copy texelFetch",
                        {{GL_COMPUTE_SHADER, stream::Runtime::current().caps().glslHeader(430, 310),
                          {{"<bench compute copy>", image ? kCopyImage : kCopyFetch, 1}}}});
    auto copy = [&] {
      glUseProgram(program.id());
      if (image) {
        gl::StateGuard::bindImage(0, source.id(), GL_READ_ONLY, GL_RGBA32F);  // layout(binding = 0)
      } else {
        gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, source.id());
        glUniform1i(program.uniformLocation("u_x"), 0);
      }
      gl::StateGuard::bindImage(1, target.id(), GL_WRITE_ONLY, GL_RGBA32F);  // layout(binding = 1)
      glUniform2i(program.uniformLocation("u_size"), layout.width(), layout.height());
      glDispatchCompute(groupsX, groupsY, 1);
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    };
    const Timing t = timeGl(copy, ctx.timing);
    const double texelBytes = double(layout.texels()) * 16;
    Row row = makeRow(kComputeCeiling, "compute", layout.size(), t, 2 * texelBytes, texelBytes, 0);
    target.fill(poison());
    {
      gl::StateGuard guard;
      copy();
    }
    row.maxRelErr = errorAgainst(target, reference);
    row.tolerance = 0;
    row.note = std::string(image ? "imageLoad" : "texelFetch") + " -> imageStore (the better of both), RGBA32F " +
               std::to_string(layout.width()) + "x" + std::to_string(layout.height());
    if (first || row.ms < best.ms || !row.ok()) best = std::move(row);
    first = false;
    if (!best.ok()) break;
  }
  ctx.add(std::move(best));
}

// One pass's fixed cost, the floor under every small problem (a V-cycle's coarse levels,
// CG on 37k rows): a chain of dependent passes over a 16x16 texture, each reading what the
// previous one wrote. Raw GL first (the driver and GPU floor: dispatch or draw, barrier),
// then a texstream Pass doing the same (axpy on 1024 elements), whose excess over the raw
// chain is the library's own overhead. ms is GPU time per pass; submit_ms is the CPU time
// per pass to enqueue it.
constexpr int kChain = 64;
const char* kStepCompute =
    "layout(local_size_x = 16, local_size_y = 16) in;\n"
    "uniform sampler2D u_x;\n"
    "layout(binding = 1, rgba32f) writeonly uniform highp image2D u_out;\n"
    "void main() {\n"
    "  ivec2 t = ivec2(gl_GlobalInvocationID.xy);\n"
    "  imageStore(u_out, t, texelFetch(u_x, t, 0) + vec4(1.0));\n"
    "}\n";
const char* kStepFragment =
    "uniform sampler2D u_x;\n"
    "out vec4 o_value;\n"
    "void main() { o_value = texelFetch(u_x, ivec2(gl_FragCoord.xy), 0) + vec4(1.0); }\n";

/// The raw chain of kChain dependent passes over side x side texels: "limits.<backend>_pass"
/// at 16 x 16 (the latency), `suffix` names a larger side's row.
void rawPassChain(BenchContext& ctx, stream::Backend backend, int side, const std::string& suffix);

void passLatency(BenchContext& ctx, stream::Backend backend) {
  rawPassChain(ctx, backend, 16, "");
  // A dependent pass over 500 x 500 texels (1M elements, the CG and multigrid rows' size):
  // latency and bytes together, what a million-unknown kernel's pass cannot go below.
  if (backend == stream::Backend::Compute) rawPassChain(ctx, backend, 500, "_1m");
  // The same chain through texstream's Pass (axpy on 1024 elements).
  const char* name = backend == stream::Backend::Compute ? "compute" : "fragment";
  stream::BackendScope scope(backend);
  stream::Vector x(stream::Layout::forSize(1024), "bench.latency.x");
  stream::Vector one(stream::Layout::forSize(1024), "bench.latency.one");
  one.upload(std::vector<float>(1024, 1.0f));
  x.setZero();
  auto passes = [&] {
    for (int i = 0; i < kChain; ++i) linalg::axpy(1.0f, one, x);
  };
  Timing t = timeGl(passes, ctx.timing);
  t.ms /= kChain, t.wallMs /= kChain, t.submitMs /= kChain, t.passes /= kChain, t.reps *= kChain;
  Row row = makeRow("overhead.pass", name, 1024, t, 0, 0, 0);
  x.setZero();
  {
    gl::StateGuard guard;
    passes();
  }
  std::vector<float> got = x.download();
  row.maxRelErr = maxRelativeError(got, std::vector<double>(got.size(), double(kChain)));
  row.tolerance = 0;
  row.note = "texstream Pass (axpy, 1024 elements), " + std::to_string(kChain) + " dependent passes, per pass";
  ctx.add(std::move(row));
}

void rawPassChain(BenchContext& ctx, stream::Backend backend, int side, const std::string& suffix) {
  stream::Runtime& rt = stream::Runtime::current();
  const bool compute = backend == stream::Backend::Compute;
  const char* name = compute ? "compute" : "fragment";
  gl::Texture a(side, side, gl::TextureFormat::RGBA32F, "bench.latency.a");
  gl::Texture b(side, side, gl::TextureFormat::RGBA32F, "bench.latency.b");
  a.fill(0.0f);
  // Stages built one by one: a conditional over two braced Program temporaries trips GCC
  // 12's false -Wmaybe-uninitialized in their strings' destructors.
  std::vector<gl::ShaderStage> stages;
  if (compute) {
    stages.push_back({GL_COMPUTE_SHADER, stream::Runtime::current().caps().glslHeader(430, 310), {{"<bench pass step>", kStepCompute, 1}}});
  } else {
    stages.push_back({GL_VERTEX_SHADER, stream::Runtime::current().caps().glslHeader(330, 300), {{"<bench fill vertex>", kRectangleVertex, 1}}});
    stages.push_back({GL_FRAGMENT_SHADER, stream::Runtime::current().caps().glslHeader(330, 300), {{"<bench pass step>", kStepFragment, 1}}});
  }
  gl::Program program(compute ? "bench limits.pass compute" : "bench limits.pass fragment", std::move(stages));
  const int groups = (side + 15) / 16;
  auto chain = [&] {
    glUseProgram(program.id());
    glUniform1i(program.uniformLocation("u_x"), 0);
    if (!compute) glBindVertexArray(rt.emptyVertexArray().id()), glViewport(0, 0, side, side);
    for (int i = 0; i < kChain; ++i) {
      gl::Texture& from = i % 2 ? b : a;
      gl::Texture& to = i % 2 ? a : b;
      gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, from.id());
      if (compute) {
        gl::StateGuard::bindImage(1, to.id(), GL_WRITE_ONLY, GL_RGBA32F);
        glDispatchCompute(GLuint(groups), GLuint(groups), 1);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      } else {
        rt.framebuffer().bindForDrawing({&to});
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
      }
    }
  };
  Timing t = timeGl(chain, ctx.timing);
  t.ms /= kChain, t.wallMs /= kChain, t.submitMs /= kChain, t.passes /= kChain, t.reps *= kChain;
  const double texels = double(side) * double(side);
  Row row = makeRow(std::string("limits.") + name + "_pass" + suffix, name, std::size_t(4 * texels), t,
                    32.0 * texels, 16.0 * texels, 0);
  a.fill(0.0f);
  {
    gl::StateGuard guard;
    chain();
  }
  // kChain (even) steps of +1 from zero end in a.
  row.maxRelErr = errorAgainst(a, std::vector<double>(std::size_t(4 * texels), double(kChain)));
  row.tolerance = 0;
  row.note = "raw GL: " + std::to_string(kChain) + " dependent passes over " + std::to_string(side) + "x" +
             std::to_string(side) + " texels, per pass";
  ctx.add(std::move(row));
}

}  // namespace

void runLimits(BenchContext& ctx) {
  const stream::Layout layout = stream::Layout::forSize(ctx.sizes.vector);
  gl::StateGuard guard;
  for (stream::Backend b : ctx.backends) {
    if (b == stream::Backend::Fragment) fragmentFill(ctx, layout);
    else computeCopy(ctx, layout);
    passLatency(ctx, b);
  }
  const std::size_t n = ctx.sizes.vector;
  const double bytes = 8.0 * double(n);
  if (ctx.cudaPeers || ctx.cpuPeers) {
    const std::vector<float> x = randomFloats(n, 102);
    const std::vector<double> reference = toDouble(x);
    std::vector<float> y;
#ifdef TEXSTREAM_BENCH_CUDA
    if (ctx.cudaPeers) {
      Row row = makeRow(kCudaCeiling, "cuda", n, cuda::copy(x, y, ctx.timing), bytes, bytes / 2, 0);
      row.maxRelErr = maxRelativeError(y, reference);
      row.note = "cudaMemcpy device to device";
      ctx.add(std::move(row));
    }
#endif
    if (ctx.cpuPeers) {
      Row row = makeRow(kCpuCeiling, "cpu", n, eigen::copy(x, y, cpuSpec(ctx.timing)), bytes, bytes / 2, 0);
      row.maxRelErr = maxRelativeError(y, reference);
      row.note = "std::memcpy, 1 thread";
      ctx.add(std::move(row));
    }
  }
}

}  // namespace texstream::bench
