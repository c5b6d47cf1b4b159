// The example systems of Bajaj et al. 2004, §3.1–3.3 and §4.1.
#include <texstream/codegen/Examples.h>

#include <cmath>
#include <stdexcept>

namespace texstream::codegen {

LinearExpression waveEquation2d(int nx, int ny, double lambda2) {
  if (nx < 1 || ny < 1) throw std::invalid_argument("waveEquation2d: grid sides must be >= 1");
  if (!(lambda2 > 0.0) || !std::isfinite(lambda2))
    throw std::invalid_argument("waveEquation2d: lambda^2 must be positive");
  const int m = nx * ny;
  std::vector<Entry> entries;
  std::vector<double> b(static_cast<std::size_t>(m));
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int row = i + nx * j;
      entries.push_back({row, row, 2.0 * (1.0 - 2.0 * lambda2)});
      if (i > 0) entries.push_back({row, row - 1, lambda2});
      if (i + 1 < nx) entries.push_back({row, row + 1, lambda2});
      if (j > 0) entries.push_back({row, row - nx, lambda2});
      if (j + 1 < ny) entries.push_back({row, row + nx, lambda2});
      // b = -w_{k-1}: a positive bump centred on the grid.
      const double u = (i + 0.5) / nx - 0.5, v = (j + 0.5) / ny - 0.5;
      b[std::size_t(row)] = -(0.1 + std::exp(-20.0 * (u * u + v * v)));
    }
  }
  return LinearExpression(m, std::move(entries), std::move(b));
}

LinearExpression suspensionRk4(int cars, double h) {
  if (cars < 1) throw std::invalid_argument("suspensionRk4: needs at least one car");
  if (!(h > 0.0) || !std::isfinite(h)) throw std::invalid_argument("suspensionRk4: step h must be positive");
  std::vector<Entry> entries;
  std::vector<double> b(std::size_t(4 * cars), 0.0);
  for (int car = 0; car < cars; ++car) {
    // Palm, "Modeling, Analysis, and Control of Dynamic Systems": mass m, pitch inertia I,
    // front/rear springs k0, k1 and dampers c0, c1, wheelbase L, centre of mass L0 behind
    // the front axle; d0, d1 from the road displacements z0, z1 and their rates.
    const double mass = 1200.0 + 100.0 * car, inertia = 1800.0 + 150.0 * car;
    const double k0 = 35000.0 + 1000.0 * car, k1 = 38500.0, c0 = 2500.0, c1 = 2800.0 + 50.0 * car;
    const double L = 2.7, L0 = 1.2 + 0.05 * car, L1 = L - L0;
    const double z0 = 0.02 + 0.01 * car, z1 = 0.01, dz0 = 0.1, dz1 = -0.05 - 0.01 * car;
    const double d0 = k0 * z0 + c0 * dz0 + k1 * z1 + c1 * dz1;
    const double d1 = -L0 * (k0 * z0 + c0 * dz0) + L1 * (k1 * z1 + c1 * dz1);
    const int o = 4 * car;
    entries.push_back({o + 0, o + 1, h});                      // y0' = y1
    entries.push_back({o + 1, o + 0, -h * (k0 + k1) / mass});  // y1' = ...
    entries.push_back({o + 1, o + 1, -h * (c0 + c1) / mass});
    entries.push_back({o + 1, o + 2, h * (k0 * L0 - k1 * L1) / mass});
    entries.push_back({o + 1, o + 3, h * (c0 * L0 - c1 * L1) / mass});
    entries.push_back({o + 2, o + 3, h});                                  // y2' = y3
    entries.push_back({o + 3, o + 0, h * (L0 * k0 - L1 * k1) / inertia});  // y3' = ...
    entries.push_back({o + 3, o + 1, h * (L0 * c0 - L1 * c1) / inertia});
    entries.push_back({o + 3, o + 2, -h * (L0 * L0 * k0 + L1 * L1 * k1) / inertia});
    entries.push_back({o + 3, o + 3, -h * (L0 * L0 * c0 + L1 * L1 * c1) / inertia});
    b[std::size_t(o + 1)] = h * d0 / mass;
    b[std::size_t(o + 3)] = h * d1 / inertia;
  }
  return LinearExpression(4 * cars, std::move(entries), std::move(b));
}

GaussSeidelSystem poissonGaussSeidel3d(int nx, int ny, int nz) {
  if (nx < 1 || ny < 1 || nz < 1) throw std::invalid_argument("poissonGaussSeidel3d: grid sides must be >= 1");
  const int m = nx * ny * nz;
  std::vector<Entry> entries;
  std::vector<double> rhs(static_cast<std::size_t>(m));
  auto index = [&](int i, int j, int k) { return i + nx * (j + ny * k); };
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const int row = index(i, j, k);
        entries.push_back({row, row, 6.0});
        if (i > 0) entries.push_back({row, index(i - 1, j, k), -1.0});
        if (i + 1 < nx) entries.push_back({row, index(i + 1, j, k), -1.0});
        if (j > 0) entries.push_back({row, index(i, j - 1, k), -1.0});
        if (j + 1 < ny) entries.push_back({row, index(i, j + 1, k), -1.0});
        if (k > 0) entries.push_back({row, index(i, j, k - 1), -1.0});
        if (k + 1 < nz) entries.push_back({row, index(i, j, k + 1), -1.0});
        rhs[std::size_t(row)] = 0.5 + 0.25 * std::sin(1.0 + row);  // in [0.25, 0.75]
      }
    }
  }
  return GaussSeidelSystem::fromSystem(LinearExpression(m, std::move(entries), std::move(rhs)));
}

LinearExpression enhancedBlockJacobiS(int length, double end, double interior) {
  if (length < 2) throw std::invalid_argument("enhancedBlockJacobiS: length must be >= 2");
  std::vector<Entry> entries;
  for (int i = 0; i < length; ++i) {
    const double c = (i == 0 || i == length - 1) ? end : interior;
    if (i > 0) entries.push_back({i, i - 1, c});
    if (i + 1 < length) entries.push_back({i, i + 1, c});
  }
  return LinearExpression(length, std::move(entries));
}

namespace {

AnnealingSchedule schedule(long long iterations, int restarts, double t0, double t1) {
  AnnealingSchedule s;
  s.iterations = iterations;
  s.restarts = restarts;
  s.initialTemperature = t0;
  s.finalTemperature = t1;
  return s;
}

}  // namespace

namespace {

/// One of the paper's examples: its expression, the costs the paper reports before and
/// after its optimisation, and its schedule.
struct PaperExample {
  const char* name;
  const char* summary;
  void (*build)(Example&);  ///< sets the expression (and the system)
  int paperCostBefore, paperCostAfter;
  AnnealingSchedule schedule;
};

const std::vector<PaperExample>& paperExamples() {
  static const std::vector<PaperExample> list = {
      {"wave8x8", "§3.1 2D wave equation on an 8 x 8 grid (64 x 64, lambda^2 = 0.25)",
       [](Example& e) { e.expression = waveEquation2d(8, 8, 0.25); }, 82, 63, schedule(4000000, 2, 0.6, 0.4)},
      {"rk4-suspension", "§3.2 RK4 stage of five cars' bounce-and-pitch suspensions (20 equations)",
       [](Example& e) { e.expression = suspensionRk4(5, 0.01); }, 20, 14, schedule(200000, 4, 2.0, 0.1)},
      {"gauss-seidel", "§3.3 Gauss-Seidel sweep for a 64-unknown 3D Poisson system (4 x 4 x 4 fluid cells)",
       [](Example& e) {
         e.gaussSeidel = true;
         e.system = poissonGaussSeidel3d(4, 4, 4);
         e.expression = e.system.iteration();
       },
       112, 72, schedule(4000000, 4, 2.0, 0.3)},
      {"ebj2d", "§4.1.1 S block of the 2D enhanced block Jacobi method (8 x 8, a = -1/3, b = -1/4)",
       [](Example& e) { e.expression = enhancedBlockJacobiS(8, -1.0 / 3.0, -1.0 / 4.0); }, 6, 4,
       schedule(20000, 1, 2.0, 0.1)},
      {"ebj3d", "§4.1.2 S block of the 3D enhanced block Jacobi method (40 x 40, a = -1/5, b = -1/6)",
       [](Example& e) { e.expression = enhancedBlockJacobiS(40, -1.0 / 5.0, -1.0 / 6.0); }, 38, 20,
       schedule(2000000, 24, 0.35, 0.35)},
  };
  return list;
}

}  // namespace

std::vector<std::string> exampleNames() {
  std::vector<std::string> names;
  for (const PaperExample& entry : paperExamples()) names.push_back(entry.name);
  return names;
}

Example example(const std::string& name) {
  for (const PaperExample& entry : paperExamples()) {
    if (name != entry.name) continue;
    Example e;
    e.name = name;
    e.summary = entry.summary;
    entry.build(e);
    e.paperCostBefore = entry.paperCostBefore;
    e.paperCostAfter = entry.paperCostAfter;
    e.schedule = entry.schedule;
    return e;
  }
  std::string list;
  for (const auto& n : exampleNames()) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown example \"" + name + "\" (choose one of: " + list + ")");
}

}  // namespace texstream::codegen
