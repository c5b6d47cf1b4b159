#pragma once
// What the current GL context can do, read once per context, and the loading of GL entry
// points for a context the host made (GLFW, Qt, SDL, EGL): texstream needs nothing but that
// it is current. This record is the only place that knows which GL texstream runs on: every
// optional path (immutable storage, compute, image load/store, SSBOs, timer queries, debug
// labels, float blending and filtering, pixel-buffer objects, polygon mode) asks it, and no
// code calls an entry point the context lacks.
//
// Contexts texstream runs on: desktop OpenGL 3.3 core and up (macOS stops at 4.1), and
// OpenGL ES 3.0 and up with EXT_color_buffer_float (the WebGL2 feature set). The compute
// backend needs desktop 4.3 or ES 3.1. An ES context with half-float render targets only
// (EXT_color_buffer_half_float, as iOS Safari) is accepted too: its record says so
// (floatRenderTargets false), fragment passes into 32-bit float textures refuse with
// floatTargetsMissing(), and code that can do with RGBA16F (the fluid's advected fields)
// asks for it.
#include <cstdint>
#include <string>
#include <string_view>

namespace texstream::gl {

struct Capabilities {
  bool es = false;  ///< OpenGL ES (or WebGL2), else desktop core
  int major = 0, minor = 0;
  std::string renderer, vendor, version;
  int maxTextureSize = 0;
  int maxArrayLayers = 0;
  int maxTextureUnits = 0;      ///< fragment stage sampler units
  int maxColorAttachments = 0;

  bool textureStorage = false;  ///< glTexStorage2D/3D (desktop 4.2, ARB_texture_storage, ES 3.0)
  /// Compute shaders (desktop 4.3, ES 3.1) whose workgroups hold the 16 x 16 invocations
  /// every compute kernel runs (stream/KernelCache.h; ES 3.1 guarantees 128 only).
  bool compute = false;
  /// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS and the smaller of GL_MAX_COMPUTE_WORK_GROUP_SIZE's
  /// x and y (0 without compute shaders), as TEXSTREAM_MAX_COMPUTE_INVOCATIONS may lower them;
  /// what sizes the solvers' larger workgroups (the multigrid tiles and block cycles).
  int maxComputeInvocations = 0, maxComputeGroupSide = 0;
  /// The invocations the driver allows when TEXSTREAM_MAX_COMPUTE_INVOCATIONS lowered
  /// maxComputeInvocations (0: not lowered).
  int driverMaxComputeInvocations = 0;
  bool imageLoadStore = false;  ///< glBindImageTexture (desktop 4.2, ES 3.1)
  bool storageBuffers = false;  ///< shader storage buffers (desktop 4.3, ES 3.1)
  /// GL_MAX_SHADER_STORAGE_BLOCK_SIZE (0 without storage buffers), as
  /// TEXSTREAM_MAX_STORAGE_BLOCK_BYTES may lower it: the most bytes one storage block of a
  /// kernel may span (desktop 4.3 guarantees 2^24, ES 3.1 2^27), which bounds the vectors
  /// an element copy serves (stream/ElementCopy.h).
  std::int64_t maxStorageBlockBytes = 0;
  /// The driver's limit when TEXSTREAM_MAX_STORAGE_BLOCK_BYTES lowered it (0: not lowered).
  std::int64_t driverMaxStorageBlockBytes = 0;
  bool memoryBarrier = false;   ///< glMemoryBarrier (desktop 4.2, ES 3.1)
  bool debugOutput = false;     ///< KHR_debug messages and object labels (desktop 4.3 or KHR_debug)
  /// GL_TIME_ELAPSED (desktop 3.3; ES: EXT_disjoint_timer_query; WebGL2:
  /// EXT_disjoint_timer_query_webgl2)
  bool timerQueries = false;
  bool polygonMode = false;     ///< glPolygonMode (desktop only)
  bool framebufferSrgb = false; ///< GL_FRAMEBUFFER_SRGB enable (desktop only)
  bool programPointSize = false;///< GL_PROGRAM_POINT_SIZE enable (desktop only; always on in ES)
  bool floatRenderTargets = false;  ///< RGBA32F colour attachments complete (ES: EXT_color_buffer_float)
  /// RGBA16F colour attachments complete (desktop 3.0; ES: EXT_color_buffer_half_float or
  /// EXT_color_buffer_float)
  bool halfFloatRenderTargets = false;
  bool floatBlending = false;       ///< additive blending into RGBA32F (ES: EXT_float_blend)
  bool floatLinearFiltering = false;///< GL_LINEAR on float textures (ES: OES_texture_float_linear)
  bool pixelBuffers = false;        ///< pixel pack/unpack buffers (desktop 2.1, ES 3.0)
  bool mapBufferRead = false;       ///< glMapBufferRange for reading (not in WebGL2)
  /// glBufferStorage with a persistent, coherent read mapping (desktop 4.4): the CPU reads
  /// what the GPU wrote once a fence passes, with no map call (which may wait for the GPU
  /// to go idle)
  bool persistentMapping = false;
  bool getTexImage = false;         ///< glGetTexImage (desktop only)
  /// A pass may sample a texture while rendering into other texels of it (desktop drivers
  /// allow it; ES drivers may skip such draws and WebGL2 refuses them).
  bool renderFeedbackLoops = false;
  std::string disabled;             ///< features switched off by TEXSTREAM_DISABLE_FEATURES
  /// The GL_MAX_TEXTURE_SIZE the driver reports when TEXSTREAM_MAX_TEXTURE_SIZE lowered
  /// maxTextureSize (0: not lowered).
  int driverMaxTextureSize = 0;

  bool atLeast(int maj, int min) const { return major > maj || (major == maj && minor >= min); }
  /// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6"
  std::string summary() const;
  /// "OpenGL ES 3.0" or "OpenGL 4.1 core": the API and version, short.
  std::string apiName() const;
  /// The extension that gives 32-bit float render targets where they are missing
  /// ("EXT_color_buffer_float" on ES and WebGL2), and the one that gives half floats.
  static constexpr const char* kFloatTargetsExtension = "EXT_color_buffer_float";
  static constexpr const char* kHalfFloatTargetsExtension = "EXT_color_buffer_half_float";
  /// "" where floatRenderTargets, else one sentence for messages: "RGBA32F render targets
  /// (EXT_color_buffer_float on OpenGL ES and WebGL2) are missing: this context (OpenGL ES
  /// 3.0, Apple GPU) lacks EXT_color_buffer_float" (or names the TEXSTREAM_DISABLE_FEATURES
  /// list that switched them off).
  std::string floatTargetsMissing() const;
  /// Why compute is false, for an error message: the missing API or the workgroup limits.
  std::string computeMissing() const;
  /// The first line of every shader texstream compiles for a stage that needs GLSL of at
  /// least desktop `desktopVersion` or ES `esVersion` (330/300 for fragment kernels,
  /// 430/310 for compute), with the precision statements ES needs.
  std::string glslHeader(int desktopVersion, int esVersion) const;
};

/// Loads GL entry points for the context current on this thread, desktop or ES, through
/// `getProcAddress` (glfwGetProcAddress, eglGetProcAddress, SDL_GL_GetProcAddress). Hosts
/// that load GL themselves with glad call nothing: texstream loads on first use. Throws
/// Error when no context is current.
void loadGl(void* (*getProcAddress)(const char* name));
/// Loads GL entry points if nobody has yet (opening the system's GL library, which stays
/// open) and checks that a context is current; throws Error("... no current OpenGL
/// context ...") otherwise, every time.
void ensureGlLoaded();
/// True when GL entry points are loaded and a context is current on this thread.
bool contextIsCurrent();
/// Queries the current context (not cached). Throws Error when it is older than desktop
/// 3.3 / ES 3.0 or can render to neither RGBA32F nor RGBA16F, each with one clear sentence
/// naming the context, the missing extension and what cannot run without it.
Capabilities queryCapabilities();
/// Loads the entry points again if the current context is of a higher version, or of the
/// other API (desktop / ES), than any loaded for so far (called for each new context).
void loadGlForCurrentContext();
/// The record of the current context (ContextRecord.h): queried when texstream first sees
/// the context, kept until texstream::shutdown() there.
const Capabilities& capabilities();

/// Feature names TEXSTREAM_DISABLE_FEATURES accepts (comma-separated), to simulate a
/// context that lacks them: textureStorage, compute, imageLoadStore, storageBuffers,
/// memoryBarrier, debugOutput, timerQueries, polygonMode, floatRenderTargets,
/// halfFloatRenderTargets, floatBlending, floatLinearFiltering, pixelBuffers,
/// mapBufferRead, persistentMapping, getTexImage, renderFeedbackLoops. `floatRenderTargets`
/// alone simulates a device with half-float targets only (iOS Safari).
/// TEXSTREAM_MAX_TEXTURE_SIZE=N lowers maxTextureSize to N (never raises it), to simulate a
/// device with a smaller limit. TEXSTREAM_MAX_COMPUTE_INVOCATIONS=N lowers the compute
/// workgroup limits to N invocations (and N a side), as on GLES 3.1 devices that allow 128,
/// 256 or 512: below 256 there is no compute backend. TEXSTREAM_MAX_STORAGE_BLOCK_BYTES=N
/// lowers maxStorageBlockBytes to N, as on a desktop GL 4.3 that allows the minimum 16 MiB.
std::string_view disableableFeatures();

/// The workgroup every compute kernel runs (stream::kWorkgroupSize squared).
constexpr int kComputeWorkgroupSide = 16, kComputeWorkgroupInvocations = 256;
/// Whether a GL's compute limits hold that workgroup.
bool computeWorkgroupsFit(int invocations, int groupSide);

}  // namespace texstream::gl
