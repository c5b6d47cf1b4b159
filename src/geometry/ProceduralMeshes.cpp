#include <texstream/geometry/ProceduralMeshes.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <unordered_map>

namespace texstream::geometry {

namespace {

/// SplitMix64: tiny, seedable, and the same on every platform (unlike std:: distributions).
class Random {
 public:
  explicit Random(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in (0, 1).
  double uniform() { return (double(next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }
  /// Standard normal (Box–Muller).
  double normal() {
    if (m_haveSpare) {
      m_haveSpare = false;
      return m_spare;
    }
    const double u = uniform(), v = uniform();
    const double r = std::sqrt(-2.0 * std::log(u)), a = 2.0 * std::numbers::pi * v;
    m_spare = r * std::sin(a);
    m_haveSpare = true;
    return r * std::cos(a);
  }

 private:
  std::uint64_t m_state;
  double m_spare = 0;
  bool m_haveSpare = false;
};

void requireResolution(const char* what, long long value, long long minimum) {
  if (value < minimum)
    throw std::invalid_argument(std::string(what) + ": resolution " + std::to_string(value) + " is below " +
                                std::to_string(minimum));
  if (value > 20000)
    throw std::invalid_argument(std::string(what) + ": resolution " + std::to_string(value) + " is above 20000");
}

}  // namespace

Mesh cubeMesh(int r) {
  requireResolution("cubeMesh", r, 1);
  Mesh mesh;
  mesh.name = "builtin:cube";
  const std::uint64_t side = std::uint64_t(r) + 1;
  std::unordered_map<std::uint64_t, std::int32_t> index;
  index.reserve(std::size_t(6 * side * side));
  std::vector<std::int32_t> grid(std::size_t(side * side));
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;  // e_u x e_v = e_axis
    for (int sign : {-1, 1}) {
      for (int iv = 0; iv <= r; ++iv) {
        for (int iu = 0; iu <= r; ++iu) {
          int lattice[3];
          lattice[axis] = sign > 0 ? r : 0;
          lattice[u] = iu;
          lattice[v] = iv;
          const std::uint64_t key = (std::uint64_t(lattice[0]) * side + std::uint64_t(lattice[1])) * side +
                                    std::uint64_t(lattice[2]);
          auto [it, inserted] = index.try_emplace(key, std::int32_t(mesh.vertexCount()));
          if (inserted) {
            for (int c = 0; c < 3; ++c) mesh.positions.push_back(-1.0 + 2.0 * double(lattice[c]) / double(r));
          }
          grid[std::size_t(iv) * side + std::size_t(iu)] = it->second;
        }
      }
      for (int iv = 0; iv < r; ++iv) {
        for (int iu = 0; iu < r; ++iu) {
          const std::int32_t a = grid[std::size_t(iv) * side + std::size_t(iu)];
          const std::int32_t b = grid[std::size_t(iv) * side + std::size_t(iu + 1)];
          const std::int32_t c = grid[std::size_t(iv + 1) * side + std::size_t(iu + 1)];
          const std::int32_t d = grid[std::size_t(iv + 1) * side + std::size_t(iu)];
          if (sign > 0) mesh.triangles.insert(mesh.triangles.end(), {a, b, c, a, c, d});
          else mesh.triangles.insert(mesh.triangles.end(), {a, c, b, a, d, c});
        }
      }
    }
  }
  return mesh;
}

Mesh icosphereMesh(int f, double radius) {
  requireResolution("icosphereMesh", f, 1);
  if (!(radius > 0) || !std::isfinite(radius))
    throw std::invalid_argument("icosphereMesh: radius " + std::to_string(radius) + " is not positive");
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  const double ico[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  const int faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9},  {5, 11, 4},
                            {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6},  {3, 6, 8},
                            {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  Mesh mesh;
  mesh.name = "builtin:icosphere";
  std::unordered_map<std::uint64_t, std::int32_t> shared;  // corners and edge points
  std::vector<std::int32_t> local;
  for (int face = 0; face < 20; ++face) {
    const int* F = faces[face];
    // Lattice point (i, j): weights (f - i - j, i, j) on the corners F[0], F[1], F[2].
    auto id = [&](int i, int j) { return std::size_t(j) * std::size_t(f + 1) + std::size_t(i); };
    local.assign(std::size_t(f + 1) * std::size_t(f + 1), -1);
    for (int j = 0; j <= f; ++j) {
      for (int i = 0; i + j <= f; ++i) {
        const int w[3] = {f - i - j, i, j};
        int nonZero = 0, k0 = -1, k1 = -1;
        for (int k = 0; k < 3; ++k) {
          if (w[k] > 0) {
            (nonZero++ == 0 ? k0 : k1) = k;
          }
        }
        std::uint64_t key = 0;
        bool interior = false;
        if (nonZero == 1) {
          key = std::uint64_t(F[k0]);
        } else if (nonZero == 2) {
          int a = F[k0], b = F[k1], wa = w[k0];
          if (a > b) {
            std::swap(a, b);
            wa = f - wa;
          }
          key = (1ull << 62) | (std::uint64_t(a) << 40) | (std::uint64_t(b) << 32) | std::uint64_t(wa);
        } else {
          interior = true;
        }
        std::int32_t v;
        auto create = [&] {
          double p[3] = {0, 0, 0};
          for (int k = 0; k < 3; ++k) {
            for (int c = 0; c < 3; ++c) p[c] += double(w[k]) * ico[F[k]][c];
          }
          const double len = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
          for (double c : p) mesh.positions.push_back(radius * c / len);
          return std::int32_t(mesh.vertexCount() - 1);
        };
        if (interior) {
          v = create();
        } else {
          auto it = shared.find(key);
          if (it == shared.end()) it = shared.emplace(key, create()).first;
          v = it->second;
        }
        local[id(i, j)] = v;
      }
    }
    for (int j = 0; j < f; ++j) {
      for (int i = 0; i + j < f; ++i) {
        mesh.triangles.insert(mesh.triangles.end(), {local[id(i, j)], local[id(i + 1, j)], local[id(i, j + 1)]});
        if (i + j + 1 < f)
          mesh.triangles.insert(mesh.triangles.end(),
                                {local[id(i + 1, j)], local[id(i + 1, j + 1)], local[id(i, j + 1)]});
      }
    }
  }
  return mesh;
}

Mesh torusMesh(int m, int k, double R, double r) {
  requireResolution("torusMesh (major)", m, 3);
  requireResolution("torusMesh (minor)", k, 3);
  if (!(R > r && r > 0))
    throw std::invalid_argument("torusMesh: radii " + std::to_string(R) + " and " + std::to_string(r) +
                                " need R > r > 0");
  Mesh mesh;
  mesh.name = "builtin:torus";
  mesh.positions.reserve(3 * std::size_t(m) * std::size_t(k));
  for (int u = 0; u < m; ++u) {
    const double theta = 2.0 * std::numbers::pi * double(u) / double(m);
    for (int v = 0; v < k; ++v) {
      const double phi = 2.0 * std::numbers::pi * double(v) / double(k);
      const double rho = R + r * std::cos(phi);
      mesh.positions.insert(mesh.positions.end(), {rho * std::cos(theta), rho * std::sin(theta), r * std::sin(phi)});
    }
  }
  auto at = [&](int u, int v) { return std::int32_t(((u + m) % m) * k + (v + k) % k); };
  for (int u = 0; u < m; ++u) {
    for (int v = 0; v < k; ++v) {
      const std::int32_t a = at(u, v), b = at(u + 1, v), c = at(u + 1, v + 1), d = at(u, v + 1);
      mesh.triangles.insert(mesh.triangles.end(), {a, b, c, a, c, d});
    }
  }
  return mesh;
}

Mesh patchMesh(int res, std::uint64_t seed) {
  requireResolution("patchMesh", res, 4);
  Random random(seed);
  const int side = res + 1;
  const double h = 2.0 / double(res);
  std::vector<double> grid(3 * std::size_t(side) * std::size_t(side));
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      double px = -1.0 + h * double(x), py = -1.0 + h * double(y);
      // A scanner's irregular sampling: interior points jittered (not enough to fold).
      if (x > 0 && y > 0 && x < res && y < res) {
        px += 0.25 * h * (2.0 * random.uniform() - 1.0);
        py += 0.25 * h * (2.0 * random.uniform() - 1.0);
      }
      const double pz = 0.25 * std::sin(1.7 * px + 0.3) * std::cos(2.1 * py) + 0.1 * px * py;
      // Height along +y (the demo's up); (x, y, z) = (px, height, -py) is a rotation, so
      // triangles counter-clockwise in the (px, py) plane face +y.
      double* p = &grid[3 * (std::size_t(y) * std::size_t(side) + std::size_t(x))];
      p[0] = px;
      p[1] = pz;
      p[2] = -py;
    }
  }
  struct Hole {
    double x, y, r;
  };
  const Hole holes[] = {{-0.40, -0.30, 0.17}, {0.35, 0.35, 0.12}, {0.45, -0.40, 0.09}, {-0.30, 0.45, 0.07}};
  auto keep = [&](double x, double y) {
    const double rho = std::sqrt(x * x + y * y), angle = std::atan2(y, x);
    if (rho > 0.92 + 0.06 * std::sin(5.0 * angle) + 0.04 * std::cos(11.0 * angle + 1.0)) return false;
    for (const Hole& o : holes) {
      if ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y) < o.r * o.r) return false;
    }
    return true;
  };
  Mesh mesh;
  mesh.name = "builtin:patch";
  std::vector<std::int32_t> remap(std::size_t(side) * std::size_t(side), -1);
  auto vertex = [&](int x, int y) {
    const std::size_t g = std::size_t(y) * std::size_t(side) + std::size_t(x);
    if (remap[g] < 0) {
      remap[g] = std::int32_t(mesh.vertexCount());
      mesh.positions.insert(mesh.positions.end(), {grid[3 * g], grid[3 * g + 1], grid[3 * g + 2]});
    }
    return remap[g];
  };
  auto emit = [&](int ax, int ay, int bx, int by, int cx, int cy) {
    const std::size_t a = std::size_t(ay) * std::size_t(side) + std::size_t(ax);
    const std::size_t b = std::size_t(by) * std::size_t(side) + std::size_t(bx);
    const std::size_t c = std::size_t(cy) * std::size_t(side) + std::size_t(cx);
    const double mx = (grid[3 * a] + grid[3 * b] + grid[3 * c]) / 3.0;
    const double my = -(grid[3 * a + 2] + grid[3 * b + 2] + grid[3 * c + 2]) / 3.0;
    if (!keep(mx, my)) return;
    mesh.triangles.insert(mesh.triangles.end(), {vertex(ax, ay), vertex(bx, by), vertex(cx, cy)});
  };
  for (int y = 0; y < res; ++y) {
    for (int x = 0; x < res; ++x) {
      // Diagonals alternate (a checkerboard), so valences vary as on a scanned mesh.
      if ((x + y) % 2 == 0) {
        emit(x, y, x + 1, y, x + 1, y + 1);
        emit(x, y, x + 1, y + 1, x, y + 1);
      } else {
        emit(x, y, x + 1, y, x, y + 1);
        emit(x + 1, y, x + 1, y + 1, x, y + 1);
      }
    }
  }
  return mesh;
}

double meanEdgeLength(const Mesh& mesh) {
  double sum = 0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const double* a = &mesh.positions[3 * std::size_t(mesh.triangles[3 * t + std::size_t(k)])];
      const double* b = &mesh.positions[3 * std::size_t(mesh.triangles[3 * t + std::size_t((k + 1) % 3)])];
      sum += std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }
  }
  return mesh.triangleCount() ? sum / double(3 * mesh.triangleCount()) : 0.0;
}

void addNormalNoise(Mesh& mesh, double noise, std::uint64_t seed) {
  if (!(noise >= 0) || !std::isfinite(noise))
    throw std::invalid_argument("addNormalNoise(\"" + mesh.name + "\"): noise " + std::to_string(noise) +
                                " is not a finite value >= 0");
  if (noise == 0) return;
  const std::size_t n = mesh.vertexCount();
  std::vector<double> normal(3 * n, 0.0);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::int32_t* f = &mesh.triangles[3 * t];
    const double* a = &mesh.positions[3 * std::size_t(f[0])];
    const double* b = &mesh.positions[3 * std::size_t(f[1])];
    const double* c = &mesh.positions[3 * std::size_t(f[2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int k = 0; k < 3; ++k) {
      for (int d = 0; d < 3; ++d) normal[3 * std::size_t(f[k]) + std::size_t(d)] += x[d];
    }
  }
  const double amplitude = noise * meanEdgeLength(mesh);
  Random random(seed);
  for (std::size_t v = 0; v < n; ++v) {
    double* nv = &normal[3 * v];
    const double len = std::sqrt(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
    const double g = random.normal();  // drawn for every vertex, so the sequence does not depend on the shape
    if (len == 0) continue;
    for (int d = 0; d < 3; ++d) mesh.positions[3 * v + std::size_t(d)] += amplitude * g * nv[d] / len;
  }
}

const std::vector<std::string>& builtinMeshNames() {
  static const std::vector<std::string> names = {"cube", "icosphere", "torus", "patch"};
  return names;
}

Mesh builtinMesh(const std::string& name, std::size_t vertices, double noise, std::uint64_t seed) {
  if (vertices > 16'000'000)
    throw std::invalid_argument("builtinMesh(\"" + name + "\"): " + std::to_string(vertices) +
                                " vertices requested; at most 16,000,000");
  if (!(noise >= 0) || !std::isfinite(noise))
    throw std::invalid_argument("builtinMesh(\"" + name + "\"): noise " + std::to_string(noise) +
                                " is not a finite value >= 0");
  const double v = double(std::max<std::size_t>(vertices, 1));
  Mesh mesh;
  if (name == "cube") {
    mesh = cubeMesh(std::max(1, int(std::lround(std::sqrt(std::max(v - 2.0, 6.0) / 6.0)))));
  } else if (name == "icosphere" || name == "sphere") {
    mesh = icosphereMesh(std::max(1, int(std::lround(std::sqrt(std::max(v - 2.0, 10.0) / 10.0)))));
  } else if (name == "torus") {
    const int k = std::max(3, int(std::lround(std::sqrt(v / 3.0))));
    mesh = torusMesh(std::max(3, int(std::lround(v / double(k)))), k);
  } else if (name == "patch") {
    mesh = patchMesh(std::max(4, int(std::lround(std::sqrt(v / 0.62)))));
  } else {
    std::string known;
    for (const std::string& n : builtinMeshNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown built-in mesh \"" + name + "\" (known: " + known + ")");
  }
  addNormalNoise(mesh, noise, seed);
  return mesh;
}

}  // namespace texstream::geometry
