// The CPU references of shaders/fluid3d/ in double (mac_reference_3d.h).
#include "fluid/mac_reference_3d.h"

#include <texstream/linalg/PressureDomain3D.h>

#include <limits>
#include <span>

namespace texstream::test {

namespace {

using Index = MacReference::Index;

Index plus(Index a, Index b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Index minus(Index a, Index b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Index unit(int axis) {
  Index e{0, 0, 0};
  e[std::size_t(axis)] = 1;
  return e;
}
Index clampIndex(Index b, Index last) {
  return {std::clamp(b[0], 0, last[0]), std::clamp(b[1], 0, last[1]), std::clamp(b[2], 0, last[2])};
}

}  // namespace

Field3 download(const stream::GridField3D& f) {
  const auto& g = f.grid();
  Field3 out(g.nx(), g.ny(), g.nz());
  for (int c = 0; c < 4; ++c) {
    const std::vector<float> channel = f.downloadChannel(c);
    for (std::size_t t = 0; t < channel.size(); ++t) out.v[4 * t + std::size_t(c)] = channel[t];
  }
  return out;
}

void upload(const Field3& f, stream::GridField3D& out) {
  const std::size_t n = f.v.size() / 4;
  std::array<std::vector<float>, 4> channels;
  for (int c = 0; c < 4; ++c) {
    channels[std::size_t(c)].resize(n);
    for (std::size_t t = 0; t < n; ++t) channels[std::size_t(c)][t] = float(f.v[4 * t + std::size_t(c)]);
  }
  out.uploadChannels({channels[0], channels[1], channels[2], channels[3]});
}

std::vector<double> downloadPacked(const stream::GridField3D& f) {
  const std::vector<float> cells = f.downloadCells();
  return std::vector<double>(cells.begin(), cells.end());
}

void MacReference::clearBeyondFaces(Field3& f) const {
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        for (int a = 0; a < 3; ++a)
          if (!faceExists({i, j, k}, a)) f.at(i, j, k, a) = 0;
}

std::array<double, 4> MacReference::interpolate(const Field3& f, std::array<double, 3> p, Index last,
                                                std::array<double, 4>* lo, std::array<double, 4>* hi) const {
  Index b0{}, b1{};
  std::array<double, 3> w{};
  for (std::size_t a = 0; a < 3; ++a) {
    const double q = std::clamp(p[a], 0.0, double(last[a]));
    b0[a] = int(std::floor(q));
    w[a] = q - b0[a];
    b1[a] = std::min(b0[a] + 1, last[a]);
  }
  // grid3d/grid.glsl's kGridOnPlane: a point this close to a plane of texels takes the range
  // of those on it.
  constexpr double kOnPlane = 1e-4;
  std::array<double, 4> out{}, l{}, h{};
  l.fill(std::numeric_limits<double>::infinity());
  h.fill(-std::numeric_limits<double>::infinity());
  for (int corner = 0; corner < 8; ++corner) {
    const Index b{(corner & 1) ? b1[0] : b0[0], (corner & 2) ? b1[1] : b0[1], (corner & 4) ? b1[2] : b0[2]};
    const double weight = ((corner & 1) ? w[0] : 1 - w[0]) * ((corner & 2) ? w[1] : 1 - w[1]) * ((corner & 4) ? w[2] : 1 - w[2]);
    bool taken = true;
    for (int a = 0; a < 3; ++a) {
      const bool high = (corner >> a) & 1;
      taken = taken && (high ? w[std::size_t(a)] > kOnPlane : w[std::size_t(a)] <= 1 - kOnPlane);
    }
    for (int c = 0; c < 4; ++c) {
      const double v = f.at(b, c);
      out[std::size_t(c)] += weight * v;
      if (!taken) continue;
      l[std::size_t(c)] = std::min(l[std::size_t(c)], v);
      h[std::size_t(c)] = std::max(h[std::size_t(c)], v);
    }
  }
  if (lo) *lo = l;
  if (hi) *hi = h;
  return out;
}

double MacReference::interpolateFace(const Field3& f, std::array<double, 3> p, int axis, double* lo, double* hi) const {
  for (int a = 0; a < 3; ++a)
    if (a != axis) p[std::size_t(a)] -= 0.5;
  std::array<double, 4> l, h;
  const double v = interpolate(f, p, faceLast(axis), &l, &h)[std::size_t(axis)];
  if (lo) *lo = l[std::size_t(axis)];
  if (hi) *hi = h[std::size_t(axis)];
  return v;
}

std::array<double, 3> MacReference::faceVelocity(const Field3& u, Index b, int axis) const {
  std::array<double, 3> v{};
  const Index back = unit(axis);
  auto value = [&](Index t, int a) { return u.at(clampIndex(t, faceLast(a)), a); };
  for (int a = 0; a < 3; ++a) {
    if (a == axis) {
      v[std::size_t(a)] = value(b, a);
    } else {
      const Index up = unit(a);
      v[std::size_t(a)] = 0.25 * (value(minus(b, back), a) + value(b, a) + value(plus(minus(b, back), up), a) +
                                  value(plus(b, up), a));
    }
  }
  return v;
}

std::array<double, 3> MacReference::cellVelocity(const Field3& u, Index c) const {
  return {0.5 * (u.at(c, 0) + u.at(plus(c, unit(0)), 0)), 0.5 * (u.at(c, 1) + u.at(plus(c, unit(1)), 1)),
          0.5 * (u.at(c, 2) + u.at(plus(c, unit(2)), 2))};
}

Field3 MacReference::curl(const Field3& u, double h) const {
  Field3 out = cells();
  const Index last{nx - 1, ny - 1, nz - 1};
  auto centred = [&](Index c) { return cellVelocity(u, clampIndex(c, last)); };
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        std::array<std::array<double, 3>, 3> d{};
        for (int a = 0; a < 3; ++a) {
          const auto hi = centred(plus(c, unit(a))), lo = centred(minus(c, unit(a)));
          for (int b = 0; b < 3; ++b) d[std::size_t(a)][std::size_t(b)] = hi[std::size_t(b)] - lo[std::size_t(b)];
        }
        // d[a][b]: the difference of component b along axis a.
        const double wx = (d[1][2] - d[2][1]) / (2 * h), wy = (d[2][0] - d[0][2]) / (2 * h),
                     wz = (d[0][1] - d[1][0]) / (2 * h);
        out.at(c, 0) = wx;
        out.at(c, 1) = wy;
        out.at(c, 2) = wz;
        out.at(c, 3) = std::sqrt(wx * wx + wy * wy + wz * wz);
      }
  return out;
}

Field3 MacReference::advectFaces(const Field3& q, const Field3& u, double dtOverH, bool reverse) const {
  Field3 out = faces();
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        for (int a = 0; a < 3; ++a) {
          const Index b{i, j, k};
          if (!faceExists(b, a)) continue;
          std::array<double, 3> p{i + 0.5, j + 0.5, k + 0.5};
          p[std::size_t(a)] -= 0.5;
          const auto vel = faceVelocity(u, b, a);
          for (std::size_t d = 0; d < 3; ++d) p[d] += (reverse ? 1 : -1) * dtOverH * vel[d];
          out.at(b, a) = interpolateFace(q, p, a);
        }
  return out;
}

Field3 MacReference::advectCells(const Field3& q, const Field3& u, double dtOverH, bool reverse) const {
  Field3 out = cells();
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        const auto vel = cellVelocity(u, c);
        std::array<double, 3> p{i + 0.5, j + 0.5, k + 0.5};
        for (std::size_t d = 0; d < 3; ++d) p[d] += (reverse ? 1 : -1) * dtOverH * vel[d] - 0.5;
        const auto v = interpolate(q, p, {nx - 1, ny - 1, nz - 1});
        for (int ch = 0; ch < 4; ++ch) out.at(c, ch) = v[std::size_t(ch)];
      }
  return out;
}

Field3 MacReference::cellForces(const fluid::CellForces3D& f, const Field3* scalars, const Field3* curl) const {
  Field3 out = cells();
  const Index last{nx - 1, ny - 1, nz - 1};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        if (scalars) out.at(c, 2) += double(f.buoyancy) * scalars->at(c, 1) - double(f.densityWeight) * scalars->at(c, 0);
        if (!curl) continue;
        std::array<double, 3> g{};
        for (int a = 0; a < 3; ++a)
          g[std::size_t(a)] = curl->at(clampIndex(plus(c, unit(a)), last), 3) - curl->at(clampIndex(minus(c, unit(a)), last), 3);
        const double len2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
        if (!(len2 > 1e-20)) continue;
        const double inv = 1 / std::sqrt(len2), s = double(f.vorticity) * double(f.h);
        const std::array<double, 3> N{g[0] * inv, g[1] * inv, g[2] * inv}, w{curl->at(c, 0), curl->at(c, 1), curl->at(c, 2)};
        out.at(c, 0) += s * (N[1] * w[2] - N[2] * w[1]);
        out.at(c, 1) += s * (N[2] * w[0] - N[0] * w[2]);
        out.at(c, 2) += s * (N[0] * w[1] - N[1] * w[0]);
      }
  return out;
}

Field3 MacReference::advectVelocity(const Field3& u, double dtOverH, fluid::Advection scheme,
                                    const fluid::FaceForces3D& forces, const Field3& solids,
                                    const Field3* cellForces) const {
  Field3 out = advectFaces(u, u, dtOverH, false);
  if (scheme == fluid::Advection::MacCormack) {
    const Field3 forward = out, backward = advectFaces(forward, u, dtOverH, true);
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i)
          for (int a = 0; a < 3; ++a) {
            const Index b{i, j, k};
            if (!faceExists(b, a)) continue;
            std::array<double, 3> p{i + 0.5, j + 0.5, k + 0.5};
            p[std::size_t(a)] -= 0.5;
            const auto vel = faceVelocity(u, b, a);
            for (std::size_t d = 0; d < 3; ++d) p[d] -= dtOverH * vel[d];
            double lo, hi;
            interpolateFace(u, p, a, &lo, &hi);
            out.at(b, a) = std::clamp(forward.at(b, a) + 0.5 * (u.at(b, a) - backward.at(b, a)), lo, hi);
          }
  }
  auto cellForce = [&](Index c, int axis) {
    double f = axis == 2 ? -double(forces.gravity) : 0.0;
    if (cellForces) f += cellForces->at(c, axis);
    return f;
  };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        for (int a = 0; a < 3; ++a) {
          const Index b{i, j, k};
          if (!faceExists(b, a)) continue;
          const Index m = minus(b, unit(a));
          const bool hasMinus = b[std::size_t(a)] > 0, hasPlus = b[std::size_t(a)] < n()[std::size_t(a)];
          double& v = out.at(b, a);
          if ((!hasMinus && forces.closed[std::size_t(2 * a)]) || (!hasPlus && forces.closed[std::size_t(2 * a + 1)])) {
            v = 0;
            continue;
          }
          const bool sm = hasMinus && solids.at(m, 0) > 0.5, sp = hasPlus && solids.at(b, 0) > 0.5;
          if (sm || sp) {
            v = ((sm ? solids.at(m, a + 1) : 0.0) + (sp ? solids.at(b, a + 1) : 0.0)) / ((sm ? 1 : 0) + (sp ? 1 : 0));
            continue;
          }
          double f = 0, count = 0;
          if (hasMinus) f += cellForce(m, a), count += 1;
          if (hasPlus) f += cellForce(b, a), count += 1;
          v += double(forces.dt) * f / count;
        }
  return out;
}

Field3 MacReference::advectCellsFull(const Field3& q, const Field3& u, double dtOverH, fluid::Advection scheme,
                                     const fluid::CellUpdate3D& update, const Field3* solids) const {
  Field3 out = advectCells(q, u, dtOverH, false);
  if (scheme == fluid::Advection::MacCormack) {
    const Field3 forward = out, backward = advectCells(forward, u, dtOverH, true);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const Index c{i, j, k};
          const auto vel = cellVelocity(u, c);
          std::array<double, 3> p{i + 0.5, j + 0.5, k + 0.5};
          for (std::size_t d = 0; d < 3; ++d) p[d] -= dtOverH * vel[d] + 0.5;
          std::array<double, 4> lo, hi;
          interpolate(q, p, {nx - 1, ny - 1, nz - 1}, &lo, &hi);
          for (int ch = 0; ch < 4; ++ch)
            out.at(c, ch) = std::clamp(forward.at(c, ch) + 0.5 * (q.at(c, ch) - backward.at(c, ch)), lo[std::size_t(ch)],
                                       hi[std::size_t(ch)]);
        }
  }
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        for (int ch = 0; ch < 4; ++ch) out.at(c, ch) *= double(update.damping);
        if (update.source) {
          const auto& s = update.sourceSphere;
          const double dx = i + 0.5 - s[0], dy = j + 0.5 - s[1], dz = k + 0.5 - s[2];
          const double inside = std::clamp(double(s[3]) - std::sqrt(dx * dx + dy * dy + dz * dz) + 0.5, 0.0, 1.0);
          const double t = inside * double(update.sourceRate);
          for (int ch = 0; ch < 4; ++ch) out.at(c, ch) += (double(update.sourceValue[std::size_t(ch)]) - out.at(c, ch)) * t;
        }
        if (solids && solids->at(c, 0) > 0.5)
          for (int ch = 0; ch < 4; ++ch) out.at(c, ch) = 0;
      }
  return out;
}

std::vector<double> MacReference::divergence(const Field3& u, const std::vector<double>& diagonal) const {
  std::vector<double> b(std::size_t(nx) * ny * nz, 0.0);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        if (!(diagonal[cell(c)] > 0)) continue;
        double out = 0;
        for (int a = 0; a < 3; ++a) out += u.at(plus(c, unit(a)), a) - u.at(c, a);
        b[cell(c)] = -out;
      }
  return b;
}

Field3 MacReference::subtractGradient(const Field3& u, const std::vector<double>& q, const std::vector<double>& diagonal,
                                      const std::array<int, 6>& outside, const std::vector<double>* levelSet,
                                      bool states) const {
  enum { kFluid = 0, kSolid = 1, kAir = 2 };
  auto kind = [&](Index c, int side) {
    if (!cellInside(c)) return outside[std::size_t(side)];
    const double d = diagonal[cell(c)];
    return d > 0 ? int(kFluid) : (d < 0 ? int(kAir) : int(kSolid));
  };
  auto jump = [&](Index f, Index a) {
    double theta = 1;
    if (levelSet && cellInside(a)) {
      const double phi = (*levelSet)[cell(f)];
      theta = std::clamp(phi / (phi - (*levelSet)[cell(a)]), double(linalg::kMinSurfaceFraction), 1.0);
    }
    return q[cell(f)] / theta;
  };
  Field3 out = faces();
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Index b{i, j, k};
        double code = 0;
        for (int a = 0; a < 3; ++a) {
          double state = 2;
          if (faceExists(b, a)) {
            const Index m = minus(b, unit(a));
            const int km = kind(m, 2 * a), kp = kind(b, 2 * a + 1);
            double v = u.at(b, a);
            if (km == kSolid || kp == kSolid) {
              state = 2;
            } else if (km == kAir && kp == kAir) {
              state = 0;
            } else {
              if (km == kFluid && kp == kFluid) v -= q[cell(b)] - q[cell(m)];
              else if (kp == kAir) v += jump(m, b);
              else v -= jump(b, m);
              state = 1;
            }
            out.at(b, a) = v;
          }
          code += state * (a == 0 ? 1 : (a == 1 ? 4 : 16));
        }
        if (states) out.at(b, 3) = code;
      }
  return out;
}

Field3 MacReference::extrapolate(const Field3& u, bool last) const {
  auto state = [](double code, int axis) { return (int(code + 0.5) >> (2 * axis)) & 3; };
  Field3 out = faces();
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Index b{i, j, k};
        std::array<double, 3> sum{}, count{};
        for (int d = 0; d < 6; ++d) {
          const Index nb = d % 2 == 0 ? minus(b, unit(d / 2)) : plus(b, unit(d / 2));
          if (nb[0] < 0 || nb[1] < 0 || nb[2] < 0 || nb[0] > nx || nb[1] > ny || nb[2] > nz) continue;
          for (int a = 0; a < 3; ++a)
            if (state(u.at(nb, 3), a) == 1) sum[std::size_t(a)] += u.at(nb, a), count[std::size_t(a)] += 1;
        }
        double code = 0;
        for (int a = 0; a < 3; ++a) {
          int s = state(u.at(b, 3), a);
          double v = u.at(b, a);
          if (s == 0 && count[std::size_t(a)] > 0) v = sum[std::size_t(a)] / count[std::size_t(a)], s = 1;
          if (last && s == 0) v = 0;
          out.at(b, a) = v;
          code += s * (a == 0 ? 1 : (a == 1 ? 4 : 16));
        }
        out.at(b, 3) = last ? 0 : code;
      }
  return out;
}

Field3 MacReference::redistance(const Field3& phi, double shift) const {
  Field3 out = phi;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Index c{i, j, k};
        const double p = phi.at(c, 0) + shift;
        const bool liquid = p < 0;
        bool surface = false;
        std::array<double, 3> nearest{1e30, 1e30, 1e30};
        for (int d = 0; d < 6; ++d) {
          const Index nb = d % 2 == 0 ? minus(c, unit(d / 2)) : plus(c, unit(d / 2));
          if (!cellInside(nb)) continue;
          const double v = phi.at(nb, 0) + shift;
          surface = surface || ((v < 0) != liquid);
          nearest[std::size_t(d / 2)] = std::min(nearest[std::size_t(d / 2)], std::abs(v));
        }
        double result = p;
        if (!surface && std::min({nearest[0], nearest[1], nearest[2]}) < 1e30) {
          std::sort(nearest.begin(), nearest.end());
          const double a = nearest[0], b = nearest[1], c3 = nearest[2];
          double dist = a + 1;
          if (dist > b) {
            dist = 0.5 * (a + b + std::sqrt(std::max(2 - (a - b) * (a - b), 0.0)));
            if (dist > c3) {
              const double s = a + b + c3;
              dist = (s + std::sqrt(std::max(s * s - 3 * (a * a + b * b + c3 * c3 - 1), 0.0))) / 3;
            }
          }
          result = liquid ? -dist : dist;
        }
        out.at(c, 0) = result;
      }
  return out;
}

}  // namespace texstream::test
