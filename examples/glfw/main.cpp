// A GLFW host with two windows on one thread, each with a context of its own (shared with
// --shared): every frame it makes each window's context current in turn, solves that
// window's Poisson problem with texstream's CG and draws the answer with its own shader,
// checking the answer on the CPU, its own GL state, and the pixels it drew.
#include <texstream/texstream.h>

#include <glad/gl.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "HostExample.h"
#include "HostGl.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace {

example::Checks check{"texstream-example-glfw"};

// What the host keeps for a window: its problem, texstream's vectors, its renderer.
struct View {
  GLFWwindow* window;
  std::string name;
  example::Poisson problem;
  texstream::StencilMatrix A;
  texstream::Vector b, u;
  example::HostRenderer renderer;

  View(GLFWwindow* w, std::string n, float scale)
      : window(w), name(std::move(n)), problem(40, 30, scale),
        A(texstream::StencilMatrix::poisson2D(problem.nx, problem.ny, name + ".A")),
        b(problem.size(), name + ".b"), u(problem.size(), name + ".u") {}
};

void frame(View& view, int number) {
  glfwMakeContextCurrent(view.window);
  int width = 0, height = 0;
  glfwGetFramebufferSize(view.window, &width, &height);
  glViewport(0, 0, width, height);
  glUseProgram(view.renderer.program());
  glBindVertexArray(view.renderer.vertexArray());
  glEnable(GL_BLEND);
  glClearColor(0.2f, 0.1f, 0.1f, 1.0f);
  const std::string before = example::hostState();

  // The right-hand side changes every frame; the last answer is the initial guess.
  std::vector<float> f = view.problem.f;
  for (float& v : f) v *= float(1 + number);
  example::Poisson scaled = view.problem;
  scaled.f = f;
  view.b.upload(f);
  texstream::CgOptions options;
  options.tolerance = 5e-5f;  // above float's floor for this problem (about 1e-5): "converged" is the true residual's
  options.maxIterations = 1000;
  const texstream::SolverStatus status = texstream::cg(view.A, view.b, view.u, options);
  const std::vector<float> x = view.u.download();
  const double residual = scaled.residual(x);
  const std::string where = view.name + ", frame " + std::to_string(number);
  check(status.converged() && residual < 1e-4, where + ": CG " + texstream::solvers::outcomeName(status.outcome) +
                                                   ", true residual " + std::to_string(residual));
  const std::string after = example::hostState();
  check(after == before, where + ": the host's state is as it left it" +
                             (after == before ? "" : "\n  before " + before + "\n  after  " + after));

  glClear(GL_COLOR_BUFFER_BIT);
  const float top = *std::max_element(x.begin(), x.end());
  view.renderer.draw(view.u.texture().id(), view.u.layout().width(), int(view.problem.nx), int(view.problem.ny), top);
  const int px = width / 4, py = height / 3;
  const std::size_t i = std::size_t((px + 0.5) / width * double(view.problem.nx));
  const std::size_t j = std::size_t((py + 0.5) / height * double(view.problem.ny));
  const int expected = int(std::lround(255.0 * x[j * view.problem.nx + i] / top)), got = example::greyAt(px, py);
  check(std::abs(got - expected) <= 2, where + ": drawn from texstream's texture (grey " + std::to_string(got) +
                                           ", expected " + std::to_string(expected) + ")");
  glfwSwapBuffers(view.window);
}

}  // namespace

int main(int argc, char** argv) {
  const bool shared = argc > 1 && std::strcmp(argv[1], "--shared") == 0;
  if (!glfwInit()) {
    std::printf("texstream-example-glfw: glfwInit failed (no display?)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* first = glfwCreateWindow(200, 150, "texstream: window 1", nullptr, nullptr);
  GLFWwindow* second = first ? glfwCreateWindow(240, 180, "texstream: window 2", nullptr, shared ? first : nullptr) : nullptr;
  if (!first || !second) {
    std::printf("texstream-example-glfw: no OpenGL 3.3 core window\n");
    return 1;
  }
  glfwMakeContextCurrent(first);
  texstream::gl::loadGl(reinterpret_cast<void* (*)(const char*)>(glfwGetProcAddress));
  std::printf("texstream-example-glfw: two windows, %s contexts, %s\n", shared ? "shared" : "separate",
              reinterpret_cast<const char*>(glGetString(GL_VERSION)));

  std::vector<std::unique_ptr<View>> views;
  glfwMakeContextCurrent(first);
  views.push_back(std::make_unique<View>(first, "window 1", 1.0f));
  glfwMakeContextCurrent(second);
  views.push_back(std::make_unique<View>(second, "window 2", 3.0f));
  for (int number = 0; number < 3; ++number) {
    for (auto& view : views) frame(*view, number);
    glfwPollEvents();
  }
  const texstream::gl::ContextCounts counts = texstream::gl::contextCounts();
  check(counts.contexts == 2 && counts.shareGroups == (shared ? 1u : 2u),
        "texstream holds " + std::to_string(counts.contexts) + " contexts in " + std::to_string(counts.shareGroups) +
            " share group(s)");

  // Window 1's answer in window 2's context: the same texture where the contexts share,
  // refused by name where they do not.
  glfwMakeContextCurrent(first);
  const std::vector<float> x1 = views[0]->u.download();
  double expected = 0;
  for (float v : x1) expected += double(v) * v;
  glfwMakeContextCurrent(second);
  try {
    const double got = texstream::linalg::dot(views[0]->u, views[0]->u);
    check(shared && std::abs(got - expected) <= 1e-4 * expected,
          "window 1's vector in window 2's context: dot " + std::to_string(got) + ", expected " + std::to_string(expected));
  } catch (const texstream::Error& e) {
    check(!shared && std::strstr(e.what(), "does not share objects"), std::string("window 1's vector in window 2's context: ") + e.what());
  }

  // Each window's objects go with its context current, then texstream's record of it.
  for (auto& view : views) {
    GLFWwindow* window = view->window;
    glfwMakeContextCurrent(window);
    view.reset();
    texstream::shutdown();
    glfwDestroyWindow(window);
  }
  glfwTerminate();
  return check.exitCode();
}
