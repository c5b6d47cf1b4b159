#pragma once
// texstream::stream::Pass: one render-to-texture pass of a kernel (Bolz §2: a kernel reads
// any texel of its inputs and writes only its own output texel).
//
//   Pass("axpy").input("u_x", x).input("u_y", y).coefficient("u_a", a).output(y).run();
//
// The kernel is shaders/<name>.glsl: a GLSL `void kernel(ivec2 texel)` that assigns its
// outputs o_out0, o_out1, ... . The same body runs on both backends (Backend.h):
// fragment (a rectangle into an FBO) or compute (imageStore to the same rectangle).
// Variants are specialised with #defines and cached by (kernel, defines, backend,
// output formats). A pass covers the whole first output or a list of rectangles
// (Bolz §3.1.1: one rectangle per group of rows with the same non-zero count).
//
// An output that is also an input (x = x + a p) is rendered into a pooled texture that
// then takes the output's place, since reading and writing one texture in a pass is
// undefined in GL; texture ids of outputs may therefore change after a pass.
#include <texstream/stream/Backend.h>
#include <texstream/stream/Coefficient.h>

#include <optional>
#include <string>
#include <vector>

namespace texstream::gl {
class Program;
class Texture;
}

namespace texstream::stream {

class Vector;
class Scalar;

/// A rectangle of output texels: [x, x + w) x [y, y + h).
struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
};

class Pass {
 public:
  /// `kernel`: the file name under shaders/ without ".glsl" ("axpy", "reduce/sum").
  explicit Pass(std::string kernel);

  Pass& define(const std::string& name, const std::string& value = "1");
  Pass& define(const std::string& name, long long value);

  Pass& input(const std::string& sampler, const gl::Texture& texture);
  Pass& input(const std::string& sampler, const Vector& v);
  Pass& input(const std::string& sampler, const Scalar& s);

  Pass& uniform(const std::string& name, int v);
  Pass& uniform(const std::string& name, int a, int b);
  Pass& uniform(const std::string& name, int a, int b, int c, int d);
  Pass& uniform(const std::string& name, float v);
  Pass& uniform(const std::string& name, float a, float b);
  Pass& uniform(const std::string& name, float a, float b, float c, float d);
  Pass& uniformArray(const std::string& name, const std::vector<int>& values);
  Pass& uniformArray(const std::string& name, const std::vector<float>& values);
  /// Binds `uniform Coefficient name;` (factor, mode and scalar sampler).
  Pass& coefficient(const std::string& name, const Coefficient& c);

  /// Outputs o_out0, o_out1, ... in call order; all must have the same size.
  Pass& output(Vector& v);
  Pass& output(Scalar& s);
  Pass& output(gl::Texture& t);

  /// Compute backend only: run a raw kernel (KernelCache.h) as x * y * z workgroups
  /// instead of covering rectangles of the output.
  Pass& workgroups(int x, int y = 1, int z = 1);
  /// Compute backend, raw kernels: after the workgroups above, also dispatches the kernel
  /// specialised with `define` as x * y * z workgroups, with the same inputs, uniforms,
  /// images and buffers, before the pass's barrier: two programs whose workgroups write
  /// different texels of the same outputs, which may run at the same time (the tiled
  /// sweeps' tiles that need no stencil textures, multigrid/sweep_tile.glsl).
  Pass& alsoDispatch(const std::string& define, int x, int y = 1, int z = 1);
  /// Binds a buffer to shader-storage binding `index` (compute backend); binding an index
  /// again replaces the buffer bound before.
  Pass& storage(int index, unsigned int buffer);

  /// Run on this backend rather than the thread's current one.
  Pass& backend(Backend b);
  /// Label used by the profiler (default: the kernel name).
  Pass& label(std::string text);
  /// The kernel reads texels of an output that this pass does not write (Bolz §4.2: border
  /// copies that duplicate interior texels into the one-texel border of the same texture).
  /// Such an output is written in place instead of through a pooled replacement; reading
  /// a texel this pass writes, other than by the invocation writing it, stays undefined.
  /// On contexts without Capabilities::renderFeedbackLoops (ES, WebGL2) the fragment
  /// backend renders into a copy of the output instead, which then takes its place.
  Pass& inPlace();

  /// Covers the whole first output.
  void run();
  /// Covers these rectangles of the output (empty rectangles are skipped).
  void run(const std::vector<Rect>& rects);

 private:
  struct Uniform {
    std::string name;
    enum Kind { Int, Float, IntArray, FloatArray } kind = Int;
    int count = 1;
    int i[4] = {0, 0, 0, 0};
    float f[4] = {0, 0, 0, 0};
    std::vector<int> ia{};
    std::vector<float> fa{};
  };
  struct Input {
    std::string sampler;
    const gl::Texture* texture;
  };
  Pass& addUniform(Uniform u);
  /// Sets the samplers' units, the uniforms and u_doubleFloatOne of the bound `program`.
  void setUniforms(const gl::Program& program) const;

  std::string m_kernel, m_label;
  std::vector<std::pair<std::string, std::string>> m_defines;
  std::vector<Input> m_inputs;
  std::vector<Uniform> m_uniforms;
  std::vector<gl::Texture*> m_outputs;
  std::optional<Backend> m_backend;
  bool m_inPlace = false;
  int m_groups[3] = {0, 0, 0};
  std::string m_secondDefine;
  int m_secondGroups[3] = {0, 0, 0};
  std::vector<std::pair<int, unsigned int>> m_storage;
};

}  // namespace texstream::stream
