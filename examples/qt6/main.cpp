// A Qt 6 host: two QOpenGLWidgets, each solving a Poisson problem with texstream's CG in
// its own context and drawing the answer with the host's shader (QOpenGLShaderProgram),
// checking the answer on the CPU, its own GL state (the widget's framebuffer included),
// and the pixels it drew.
//   --shared    both widgets in one window: Qt makes the contexts of the QOpenGLWidgets of
//               one window a share group, and one widget's vector is used in the other's;
//   --unshared  each widget in a window of its own: their contexts share nothing (Qt shares
//               between windows only with Qt::AA_ShareOpenGLContexts), and texstream refuses
//               one widget's vector in the other's context by name.
// texstream loads GL itself (the host uses Qt's functions) and finds each context from
// GLX or EGL, whichever Qt's xcb platform uses (QT_XCB_GL_INTEGRATION=xcb_egl picks EGL).
#include <texstream/texstream.h>

#include <QApplication>
#include <QHBoxLayout>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTimer>

#include "HostExample.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace {

example::Checks check{"texstream-example-qt6"};
constexpr int kFrames = 3;

class SolveView : public QOpenGLWidget, protected QOpenGLExtraFunctions {
 public:
  SolveView(std::string name, float scale) : m_name(std::move(name)), m_problem(44, 36, scale) {
    setMinimumSize(220, 180);
  }
  ~SolveView() override {
    makeCurrent();
    release();
    doneCurrent();
  }
  int frames() const { return m_frames; }
  texstream::Vector* answer() { return m_u.get(); }
  const std::string& name() const { return m_name; }

 protected:
  void initializeGL() override {
    initializeOpenGLFunctions();
    // Qt destroys the context when the widget leaves its window: texstream's objects go
    // first, while it is still current.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
      makeCurrent();
      release();
      doneCurrent();
    });
    m_A = std::make_unique<texstream::StencilMatrix>(texstream::StencilMatrix::poisson2D(m_problem.nx, m_problem.ny, m_name + ".A"));
    m_b = std::make_unique<texstream::Vector>(m_problem.size(), m_name + ".b");
    m_u = std::make_unique<texstream::Vector>(m_problem.size(), m_name + ".u");
    m_program = std::make_unique<QOpenGLShaderProgram>();
    m_program->addShaderFromSourceCode(QOpenGLShader::Vertex,
                                       "#version 330 core\n"
                                       "out vec2 v_uv;\n"
                                       "void main() {\n"
                                       "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));\n"
                                       "  v_uv = p * 0.5 + 0.5;\n"
                                       "  gl_Position = vec4(p, 0.0, 1.0);\n"
                                       "}\n");
    m_program->addShaderFromSourceCode(QOpenGLShader::Fragment,
                                       "#version 330 core\n"
                                       "uniform sampler2D u_field;\n"
                                       "uniform ivec3 u_grid;\n"
                                       "uniform float u_max;\n"
                                       "in vec2 v_uv;\n"
                                       "out vec4 o_colour;\n"
                                       "void main() {\n"
                                       "  ivec2 cell = min(ivec2(v_uv * vec2(u_grid.xy)), u_grid.xy - 1);\n"
                                       "  int k = cell.y * u_grid.x + cell.x, t = k / 4;\n"
                                       "  float v = texelFetch(u_field, ivec2(t % u_grid.z, t / u_grid.z), 0)[k % 4] / u_max;\n"
                                       "  o_colour = vec4(v, v, v, 1.0);\n"
                                       "}\n");
    if (!m_program->link()) check(false, m_name + ": the host's shader: " + m_program->log().toStdString());
    m_vao.create();
  }

  void paintGL() override {
    if (!m_u || m_frames >= kFrames) return;
    const int number = m_frames++;
    if (number == 0) std::printf("texstream-example-qt6: %s paints in %s\n", m_name.c_str(), texstream::gl::currentContextName().c_str());
    const qreal ratio = devicePixelRatioF();
    const int width = int(this->width() * ratio), height = int(this->height() * ratio);
    glViewport(0, 0, width, height);
    m_program->bind();
    m_vao.bind();
    glEnable(GL_BLEND);
    glClearColor(0.1f, 0.15f, 0.1f, 1.0f);
    const std::string before = state();

    example::Poisson scaled = m_problem;
    for (float& v : scaled.f) v *= float(1 + number);
    m_b->upload(scaled.f);
    texstream::CgOptions options;
    options.tolerance = 5e-5f;  // above float's floor for this problem (about 1e-5): "converged" is the true residual's
    options.maxIterations = 1000;
    const texstream::SolverStatus status = texstream::cg(*m_A, *m_b, *m_u, options);
    const std::vector<float> x = m_u->download();
    const double residual = scaled.residual(x);
    const std::string where = m_name + ", frame " + std::to_string(number);
    check(status.converged() && residual < 1e-4, where + ": CG " + texstream::solvers::outcomeName(status.outcome) +
                                                     ", true residual " + std::to_string(residual));
    const std::string after = state();
    check(after == before, where + ": the host's state is as it left it (the widget's framebuffer bound)" +
                               (after == before ? "" : "\n  before " + before + "\n  after  " + after));

    glClear(GL_COLOR_BUFFER_BIT);
    const float top = *std::max_element(x.begin(), x.end());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_u->texture().id());
    m_program->setUniformValue("u_field", 0);
    glUniform3i(m_program->uniformLocation("u_grid"), int(m_problem.nx), int(m_problem.ny), m_u->layout().width());
    m_program->setUniformValue("u_max", top);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    const int px = width / 4, py = height / 3;
    const std::size_t i = std::size_t((px + 0.5) / width * double(m_problem.nx));
    const std::size_t j = std::size_t((py + 0.5) / height * double(m_problem.ny));
    unsigned char rgba[4] = {0, 0, 0, 0};
    glReadPixels(px, py, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    const int expected = int(std::lround(255.0 * x[j * m_problem.nx + i] / top));
    check(std::abs(int(rgba[0]) - expected) <= 2, where + ": drawn from texstream's texture (grey " +
                                                      std::to_string(int(rgba[0])) + ", expected " + std::to_string(expected) + ")");
    if (m_frames < kFrames) QTimer::singleShot(0, this, [this] { update(); });
  }

 private:
  std::string state() {
    GLint v[10] = {};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &v[0]);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &v[1]);
    glGetIntegerv(GL_CURRENT_PROGRAM, &v[2]);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &v[3]);
    glGetIntegerv(GL_VIEWPORT, &v[4]);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &v[8]);
    std::string s = "framebuffers " + std::to_string(v[0]) + "/" + std::to_string(v[1]) + " (the widget's " +
                    std::to_string(defaultFramebufferObject()) + "), program " + std::to_string(v[2]) + ", vao " +
                    std::to_string(v[3]) + ", viewport " + std::to_string(v[4]) + "," + std::to_string(v[5]) + "," +
                    std::to_string(v[6]) + "," + std::to_string(v[7]) + ", active texture " + std::to_string(v[8]) +
                    ", blend " + std::to_string(int(glIsEnabled(GL_BLEND)));
    GLfloat clear[4] = {};
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    return s + ", clear " + std::to_string(clear[0]) + "," + std::to_string(clear[1]) + "," + std::to_string(clear[2]);
  }

  void release() {
    if (!m_A && !m_program) return;
    m_A.reset();
    m_b.reset();
    m_u.reset();
    m_program.reset();
    m_vao.destroy();
    texstream::shutdown();
  }

  std::string m_name;
  example::Poisson m_problem;
  std::unique_ptr<texstream::StencilMatrix> m_A;
  std::unique_ptr<texstream::Vector> m_b, m_u;
  std::unique_ptr<QOpenGLShaderProgram> m_program;
  QOpenGLVertexArrayObject m_vao;
  int m_frames = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const bool shared = argc > 1 && std::strcmp(argv[1], "--shared") == 0;
  if (argc < 2 || (!shared && std::strcmp(argv[1], "--unshared") != 0)) {
    std::printf("usage: texstream-example-qt6 --shared | --unshared\n");
    return 2;
  }
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  QSurfaceFormat::setDefaultFormat(format);
  QApplication app(argc, argv);

  auto first = new SolveView("widget 1", 1.0f);
  auto second = new SolveView("widget 2", 2.5f);
  std::vector<std::unique_ptr<QWidget>> windows;
  if (shared) {
    auto window = std::make_unique<QWidget>();
    auto layout = new QHBoxLayout(window.get());
    layout->addWidget(first);
    layout->addWidget(second);
    windows.push_back(std::move(window));
  } else {
    for (SolveView* view : {first, second}) {
      auto window = std::make_unique<QWidget>();
      (new QHBoxLayout(window.get()))->addWidget(view);
      windows.push_back(std::move(window));
    }
  }
  for (auto& w : windows) w->show();

  int result = 1;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    if (first->frames() < kFrames || second->frames() < kFrames) return;
    poll.stop();
    const bool sharing = QOpenGLContext::areSharing(first->context(), second->context());
    check(sharing == shared, std::string("Qt made the widgets' contexts ") + (sharing ? "one share group" : "share nothing"));
    // Widget 1's answer in widget 2's context.
    first->makeCurrent();
    const std::vector<float> x1 = first->answer()->download();
    double expected = 0;
    for (float v : x1) expected += double(v) * v;
    second->makeCurrent();
    try {
      const double got = texstream::linalg::dot(*first->answer(), *first->answer());
      check(shared && std::abs(got - expected) <= 1e-4 * expected,
            "widget 1's vector in widget 2's context: dot " + std::to_string(got) + ", expected " + std::to_string(expected));
    } catch (const texstream::Error& e) {
      check(!shared && std::strstr(e.what(), "does not share objects"), std::string("widget 1's vector in widget 2's context: ") + e.what());
    }
    const texstream::gl::ContextCounts counts = texstream::gl::contextCounts();
    check(counts.contexts == 2 && counts.shareGroups == (shared ? 1u : 2u),
          "texstream holds " + std::to_string(counts.contexts) + " contexts in " + std::to_string(counts.shareGroups) +
              " share group(s)");
    second->doneCurrent();
    result = check.exitCode();
    app.quit();
  });
  poll.start(20);
  QTimer::singleShot(60000, [&] {
    check(false, "the widgets drew " + std::to_string(first->frames()) + " and " + std::to_string(second->frames()) +
                     " frames in 60 s");
    result = check.exitCode();
    app.quit();
  });
  app.exec();
  windows.clear();  // the widgets release texstream's objects in their contexts
  return result;
}
