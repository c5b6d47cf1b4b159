// An SDL2 host: a window with an OpenGL 3.3 core context made by SDL; each frame it solves
// a Poisson problem with texstream's CG and draws the answer with its own shader, checking
// the answer on the CPU, its own GL state, and the pixels it drew. It names its context to
// texstream with a ContextScope (SDL's context handle as the key), as a host on a platform
// where texstream can read no handle would.
#include <texstream/texstream.h>

#include <glad/gl.h>

#include <SDL.h>

#include "HostExample.h"
#include "HostGl.h"

#include <algorithm>

int main(int, char**) {
  example::Checks check{"texstream-example-sdl2"};
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    std::printf("texstream-example-sdl2: SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_Window* window = SDL_CreateWindow("texstream in SDL2", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 256, 192,
                                        SDL_WINDOW_OPENGL);
  SDL_GLContext context = window ? SDL_GL_CreateContext(window) : nullptr;
  if (!context) {
    std::printf("texstream-example-sdl2: no OpenGL 3.3 core window: %s\n", SDL_GetError());
    return 1;
  }
  texstream::gl::loadGl(SDL_GL_GetProcAddress);
  std::printf("texstream-example-sdl2: %s, %s\n", SDL_GetCurrentVideoDriver(), reinterpret_cast<const char*>(glGetString(GL_VERSION)));

  {
    texstream::ContextScope scope(context);
    const example::Poisson problem(50, 38, 1.0f);
    auto A = texstream::StencilMatrix::poisson2D(problem.nx, problem.ny, "A");
    texstream::Vector b(problem.size(), "b"), u(problem.size(), "u");
    example::HostRenderer renderer;
    for (int number = 0; number < 3 && check.failures == 0; ++number) {
      int width = 0, height = 0;
      SDL_GL_GetDrawableSize(window, &width, &height);
      glViewport(0, 0, width, height);
      glUseProgram(renderer.program());
      glBindVertexArray(renderer.vertexArray());
      glEnable(GL_BLEND);
      glEnable(GL_DEPTH_TEST);
      glClearColor(0.05f, 0.1f, 0.2f, 1.0f);
      const std::string before = example::hostState();

      example::Poisson scaled = problem;
      for (float& v : scaled.f) v *= float(1 + number);
      b.upload(scaled.f);
      texstream::CgOptions options;
      options.tolerance = 5e-5f;  // above float's floor for this problem (about 1e-5): "converged" is the true residual's
      options.maxIterations = 1000;
      const texstream::SolverStatus status = texstream::cg(A, b, u, options);
      const std::vector<float> x = u.download();
      const double residual = scaled.residual(x);
      const std::string where = "frame " + std::to_string(number);
      check(status.converged() && residual < 1e-4, where + ": CG " + texstream::solvers::outcomeName(status.outcome) +
                                                       ", true residual " + std::to_string(residual));
      const std::string after = example::hostState();
      check(after == before, where + ": the host's state is as it left it" +
                                 (after == before ? "" : "\n  before " + before + "\n  after  " + after));

      glDisable(GL_DEPTH_TEST);
      glClear(GL_COLOR_BUFFER_BIT);
      const float top = *std::max_element(x.begin(), x.end());
      renderer.draw(u.texture().id(), u.layout().width(), int(problem.nx), int(problem.ny), top);
      const int px = width / 3, py = height / 2;
      const std::size_t i = std::size_t((px + 0.5) / width * double(problem.nx));
      const std::size_t j = std::size_t((py + 0.5) / height * double(problem.ny));
      const int expected = int(std::lround(255.0 * x[j * problem.nx + i] / top)), got = example::greyAt(px, py);
      check(std::abs(got - expected) <= 2, where + ": drawn from texstream's texture (grey " + std::to_string(got) +
                                               ", expected " + std::to_string(expected) + ")");
      SDL_GL_SwapWindow(window);
      SDL_Event event;
      while (SDL_PollEvent(&event)) {
      }
    }
  }
  // texstream's objects are gone (the scope's block); its record of the context goes now.
  texstream::shutdown();
  SDL_GL_DeleteContext(context);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return check.exitCode();
}
