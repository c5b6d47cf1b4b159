// Mesa llvmpipe, two threads drawing at once in unshared contexts, with plain EGL and GL (no
// texstream): the reproducer that tests/stream/contexts.cpp and docs/hosts.md (Threads) cite.
//
// Each thread makes a context of its own (no share group) and renders small passes into
// RGBA32F textures, sampling three others, with a uniform array of varying length and one
// to three draws a pass, checking a read-back every fourth pass.
//
//   same      both contexts on one EGL display (the device platform's software device)
//   separate  the second thread's context on Mesa's surfaceless platform: another display
//
// On Mesa 22.3.6 llvmpipe, "same" dies with SIGSEGV in swrast_dri.so (LP_NUM_THREADS=0 too;
// the counts are in docs/hosts.md, Threads): a draw that binds a texture, or an upload that
// maps one (llvmpipe_set_sampler_views, llvmpipe_transfer_map_ms -> llvmpipe_flush_resource),
// walks the binned scenes of every context of the screen and reads a resource list the other
// thread is resetting. "separate" does not: each display has a screen of its own.
//
// Not built by CMake (it crashes by design). Build and run:
//   cc -O1 -g -o llvmpipe_threads tests/drivers/llvmpipe_threads.c -lEGL -lGLESv2 -lpthread
//   MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330 ./llvmpipe_threads gl same 10000
//   MESA_GLES_VERSION_OVERRIDE=3.0 ./llvmpipe_threads es separate 10000
// Exit status: 0 when both threads finished with the right values, 3 on a wrong value, 2 when
// a context could not be made; a crash is the shell's 139.
#define EGL_EGLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static EGLDisplay g_displays[2];
static int g_es = 1;
static int g_passes = 3000;
static pthread_barrier_t g_barrier;

static void die(const char* what) {
  fprintf(stderr, "llvmpipe_threads: %s (EGL error 0x%x)\n", what, (unsigned)eglGetError());
  exit(2);
}

static EGLContext makeContext(EGLDisplay display) {
  eglBindAPI(g_es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
  const EGLint es[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  const EGLint gl[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext c = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, g_es ? es : gl);
  if (c == EGL_NO_CONTEXT) die("eglCreateContext");
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) die("eglMakeCurrent");
  return c;
}

static GLuint compile(GLenum type, const char* body) {
  char src[2048];
  snprintf(src, sizeof src, "%s\n%s",
           g_es ? "#version 300 es\nprecision highp float;\nprecision highp sampler2D;" : "#version 330 core", body);
  GLuint s = glCreateShader(type);
  const char* p = src;
  glShaderSource(s, 1, &p, NULL);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    fprintf(stderr, "llvmpipe_threads: compile: %s\n", log);
    exit(2);
  }
  return s;
}

// o = a + 0.5 b + variant, plus c times (the sum of u_w, 4 + 8 variant ones, minus their count).
static GLuint program(int variant) {
  static const char* vs =
      "void main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));"
      " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }";
  const int n = 4 + 8 * variant;
  char fs[1024];
  snprintf(fs, sizeof fs,
           "uniform sampler2D u_a; uniform sampler2D u_b; uniform sampler2D u_c; uniform float u_s;\n"
           "uniform float u_w[%d]; uniform vec4 u_rect; out vec4 o_v;\n"
           "void main() { ivec2 t = ivec2(gl_FragCoord.xy); float w = 0.0; for (int i = 0; i < %d; ++i) w += u_w[i];\n"
           "  o_v = texelFetch(u_a, t, 0) + u_s * texelFetch(u_b, t, 0) + vec4(%d.0) + (w - float(%d)) * texelFetch(u_c, t, 0)\n"
           "        + 0.0 * u_rect; }",
           n, n, variant, n);
  GLuint p = glCreateProgram();
  GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    fprintf(stderr, "llvmpipe_threads: link failed\n");
    exit(2);
  }
  return p;
}

static GLuint texture(int w, int h, const float* data) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, data);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return t;
}

static void* worker(void* arg) {
  const int index = (int)(long)arg;
  EGLContext c = EGL_NO_CONTEXT;
  // The first context is made before the second thread starts; the second while the first
  // thread draws.
  if (index == 0) c = makeContext(g_displays[0]);
  pthread_barrier_wait(&g_barrier);
  if (index == 1) c = makeContext(g_displays[1]);

  const int w = 7 + index, h = 11;
  float* data = malloc(sizeof(float) * 4 * w * h);
  for (int i = 0; i < 4 * w * h; ++i) data[i] = (float)(i % 13);
  static const float ones[64] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  GLuint vao, fbo, programs[8];
  glGenVertexArrays(1, &vao);
  glGenFramebuffers(1, &fbo);
  for (int k = 0; k < 8; ++k) programs[k] = program(k);

  for (int pass = 0; pass < g_passes; ++pass) {
    GLuint a = texture(w, h, data), b = texture(w, h, data), cc = texture(w, h, data), out = texture(w, h, NULL);
    const GLuint p = programs[pass % 8];
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out, 0);
    glViewport(0, 0, w, h);
    glUseProgram(p);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, a);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, b);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, cc);
    glUniform1i(glGetUniformLocation(p, "u_a"), 0);
    glUniform1i(glGetUniformLocation(p, "u_b"), 1);
    glUniform1i(glGetUniformLocation(p, "u_c"), 2);
    glUniform1f(glGetUniformLocation(p, "u_s"), 0.5f);
    glUniform1fv(glGetUniformLocation(p, "u_w"), 4 + 8 * (pass % 8), ones);
    glBindVertexArray(vao);
    for (int d = 0; d <= pass % 3; ++d) {
      glUniform4f(glGetUniformLocation(p, "u_rect"), 1.0f, 1.0f, (float)d, 1.0f);
      // Rebinding a texture makes the next draw set the sampler views again.
      glActiveTexture(GL_TEXTURE0 + (d % 2));
      glBindTexture(GL_TEXTURE_2D, d % 2 ? b : a);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    if (pass % 4 == 0) {
      float px[4];
      glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, px);
      if (px[0] != data[0] * 1.5f + (float)(pass % 8)) {
        fprintf(stderr, "llvmpipe_threads: thread %d, pass %d: read %g\n", index, pass, px[0]);
        exit(3);
      }
    }
    GLuint textures[4] = {a, b, cc, out};
    glDeleteTextures(4, textures);
  }

  for (int k = 0; k < 8; ++k) glDeleteProgram(programs[k]);
  glDeleteFramebuffers(1, &fbo);
  glDeleteVertexArrays(1, &vao);
  free(data);
  pthread_barrier_wait(&g_barrier);
  eglMakeCurrent(g_displays[index], EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(g_displays[index], c);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 3 || (strcmp(argv[1], "gl") && strcmp(argv[1], "es")) ||
      (strcmp(argv[2], "same") && strcmp(argv[2], "separate"))) {
    fprintf(stderr, "usage: %s gl|es same|separate [passes]\n", argv[0]);
    return 2;
  }
  g_es = strcmp(argv[1], "es") == 0;
  const int separate = strcmp(argv[2], "separate") == 0;
  if (argc > 3) g_passes = atoi(argv[3]);

  PFNEGLQUERYDEVICESEXTPROC queryDevices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  PFNEGLGETPLATFORMDISPLAYEXTPROC platformDisplay =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (!queryDevices || !platformDisplay) die("no EGL device platform");
  EGLDeviceEXT devices[8];
  EGLint count = 0;
  if (!queryDevices(8, devices, &count) || count < 1) die("no EGL device");
  // The last device: Mesa lists its software device last.
  EGLint major, minor;
  g_displays[0] = g_displays[1] = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[count - 1], NULL);
  if (g_displays[0] == EGL_NO_DISPLAY || !eglInitialize(g_displays[0], &major, &minor)) die("device display");
  if (separate) {
    g_displays[1] = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (g_displays[1] == EGL_NO_DISPLAY || !eglInitialize(g_displays[1], &major, &minor)) die("surfaceless display");
  }

  pthread_barrier_init(&g_barrier, NULL, 2);
  pthread_t t0, t1;
  pthread_create(&t0, NULL, worker, (void*)0L);
  pthread_create(&t1, NULL, worker, (void*)1L);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  if (separate) eglTerminate(g_displays[1]);
  eglTerminate(g_displays[0]);
  printf("llvmpipe_threads: %s, %s display%s, %d passes a thread: ok\n", g_es ? "es" : "gl",
         separate ? "a" : "one", separate ? " each" : "", g_passes);
  return 0;
}
