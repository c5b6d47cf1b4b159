#include <texstream/linalg/PressureDomain3D.h>

#include <texstream/text/Format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::linalg {

namespace {

constexpr int kStep[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
const char* const kSideName[6] = {"-x", "+x", "-y", "+y", "-z", "+z"};

std::string cellText(int i, int j, int k) {
  return "cell (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + ")";
}

}  // namespace

const char* cellLabelName(CellLabel label) {
  switch (label) {
    case CellLabel::Fluid: return "fluid";
    case CellLabel::Solid: return "solid";
    case CellLabel::Air: return "air";
  }
  return "unknown";
}

void PressureDomain3D::validate(const std::string& where) const {
  if (nx < 1 || ny < 1 || nz < 1) {
    throw std::invalid_argument(where + ": the grid is " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                                std::to_string(nz) + ", each side needs at least one cell");
  }
  const std::size_t n = cells();
  if (labels.size() != n) {
    throw std::invalid_argument(where + ": " + std::to_string(labels.size()) + " labels for the " + std::to_string(nx) +
                                "x" + std::to_string(ny) + "x" + std::to_string(nz) + " grid (" + std::to_string(n) +
                                " cells)");
  }
  for (int s = 0; s < 6; ++s) {
    if (outside[std::size_t(s)] != CellLabel::Solid && outside[std::size_t(s)] != CellLabel::Air) {
      throw std::invalid_argument(where + ": beyond the " + kSideName[s] + " side lies " +
                                  cellLabelName(outside[std::size_t(s)]) + "; a side is solid (closed) or air (open)");
    }
  }
  bool anyFluid = false;
  for (std::size_t c = 0; c < n; ++c) {
    const auto value = std::uint8_t(labels[c]);
    if (value > std::uint8_t(CellLabel::Air)) {
      throw std::invalid_argument(where + ": label " + std::to_string(value) + " at cell index " + std::to_string(c) +
                                  " (expected fluid 0, solid 1 or air 2)");
    }
    anyFluid = anyFluid || labels[c] == CellLabel::Fluid;
  }
  if (!anyFluid) throw std::invalid_argument(where + ": no fluid cell: the domain has no pressure unknown");
  if (!levelSet.empty() && levelSet.size() != n) {
    throw std::invalid_argument(where + ": the level set has " + std::to_string(levelSet.size()) + " values for " +
                                std::to_string(n) + " cells");
  }
  for (std::size_t c = 0; c < levelSet.size(); ++c) {
    if (!std::isfinite(levelSet[c])) {
      throw std::invalid_argument(where + ": the level set is " + text::formatNumber(levelSet[c]) + " at cell index " +
                                  std::to_string(c));
    }
  }
  for (int a = 0; a < 3; ++a) {
    const auto& open = faceOpen[std::size_t(a)];
    if (open.empty()) continue;
    if (open.size() != n) {
      throw std::invalid_argument(where + ": " + std::to_string(open.size()) + " open fractions of " + kSideName[2 * a] +
                                  " faces for " + std::to_string(n) + " cells");
    }
    for (std::size_t c = 0; c < n; ++c) {
      if (!(open[c] >= 0.0f && open[c] <= 1.0f)) {
        throw std::invalid_argument(where + ": the open fraction of the " + std::string(kSideName[2 * a]) +
                                    " face of cell index " + std::to_string(c) + " is " + text::formatNumber(open[c]) +
                                    ", outside [0, 1]");
      }
    }
  }
  if (levelSet.empty()) return;
  // theta = phi_f / (phi_f - phi_a) is a fraction only when the surface lies between them.
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (labels[cell(i, j, k)] != CellLabel::Fluid) continue;
        for (int f = 0; f < 6; ++f) {
          const Face nb = face(i, j, k, f);
          if (nb.label != CellLabel::Air || nb.open == 0.0 || nb.cell == std::size_t(-1)) continue;
          const float pf = levelSet[cell(i, j, k)], pa = levelSet[nb.cell];
          if (!(pf < 0.0f) || !(pa >= 0.0f)) {
            throw std::invalid_argument(where + ": the level set disagrees with the labels at the " +
                                        std::string(kSideName[f]) + " face of fluid " + cellText(i, j, k) +
                                        ": phi = " + text::formatNumber(pf) + " there and " + text::formatNumber(pa) +
                                        " in the air beyond (the liquid has phi < 0, the air phi >= 0)");
          }
        }
      }
    }
  }
}

PressureDomain3D PressureDomain3D::box(int nx, int ny, int nz, std::initializer_list<BoxSide> openSides) {
  PressureDomain3D d;
  d.nx = nx, d.ny = ny, d.nz = nz;
  d.labels.assign(nx > 0 && ny > 0 && nz > 0 ? d.cells() : 0, CellLabel::Fluid);
  for (BoxSide side : openSides) d.outside[std::size_t(side)] = CellLabel::Air;
  return d;
}

PressureDomain3D PressureDomain3D::smokeAroundSphere(int n) {
  PressureDomain3D d = box(n, n, n, {kZHigh});
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const double x = i + 0.5 - n / 2.0, y = j + 0.5 - n / 2.0, z = k + 0.5 - n / 3.0;
        if (x * x + y * y + z * z < n * n / 36.0) d.labels[d.cell(i, j, k)] = CellLabel::Solid;
      }
    }
  }
  return d;
}

PressureDomain3D PressureDomain3D::pool(int nx, int ny, int nz, double fill) {
  PressureDomain3D d = box(nx, ny, nz, {kZHigh});
  const double surface = fill * nz + 0.3;
  d.levelSet.resize(d.labels.size());
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const double phi = (k + 0.5) - surface;
        d.levelSet[d.cell(i, j, k)] = float(phi);
        d.labels[d.cell(i, j, k)] = phi < 0 ? CellLabel::Fluid : CellLabel::Air;
      }
    }
  }
  return d;
}

PressureDomain3D::Face PressureDomain3D::face(int i, int j, int k, int f) const {
  const int a = i + kStep[f][0], b = j + kStep[f][1], c = k + kStep[f][2];
  const int axis = f / 2;
  // The face's open fraction is stored with the cell on its + side.
  const bool plusSide = f % 2 == 1;
  const int oi = plusSide ? a : i, oj = plusSide ? b : j, ok = plusSide ? c : k;
  const auto& open = faceOpen[std::size_t(axis)];
  const bool inside = a >= 0 && b >= 0 && c >= 0 && a < nx && b < ny && c < nz;
  Face result{};
  result.theta = 1.0;
  result.open = 1.0;
  if (!open.empty() && oi < nx && oj < ny && ok < nz) result.open = open[cell(oi, oj, ok)];
  if (!inside) {
    result.label = outside[std::size_t(f)];
    result.cell = std::size_t(-1);
    return result;
  }
  result.cell = cell(a, b, c);
  result.label = labels[result.cell];
  if (result.label == CellLabel::Air && !levelSet.empty()) {
    const double pf = levelSet[cell(i, j, k)], pa = levelSet[result.cell];
    result.theta = std::clamp(pf / (pf - pa), double(kMinSurfaceFraction), 1.0);
  }
  return result;
}

double PressureDomain3D::diagonal(int i, int j, int k) const {
  double d = 0;
  for (int f = 0; f < 6; ++f) {
    const Face nb = face(i, j, k, f);
    if (nb.label == CellLabel::Fluid) d += nb.open;
    if (nb.label == CellLabel::Air) d += nb.open / nb.theta;
  }
  return d;
}

Csr PressureDomain3D::toCsr(std::vector<std::int64_t>* unknownOfCell) const {
  const std::size_t n = cells();
  std::vector<std::int64_t> unknown(n, -1);
  std::int64_t count = 0;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (labels[cell(i, j, k)] == CellLabel::Fluid && diagonal(i, j, k) > 0) unknown[cell(i, j, k)] = count++;
      }
    }
  }
  Csr A;
  A.rows = A.cols = std::size_t(count);
  A.rowPtr.reserve(std::size_t(count) + 1);
  A.rowPtr.push_back(0);
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const std::int64_t row = unknown[cell(i, j, k)];
        if (row < 0) continue;
        // Columns ascending: -z, -y, -x, the diagonal, +x, +y, +z.
        const int order[7] = {4, 2, 0, -1, 1, 3, 5};
        for (int f : order) {
          if (f < 0) {
            A.colIdx.push_back(std::int32_t(row));
            A.values.push_back(diagonal(i, j, k));
            continue;
          }
          const Face nb = face(i, j, k, f);
          if (nb.label != CellLabel::Fluid || nb.open == 0.0 || unknown[nb.cell] < 0) continue;
          A.colIdx.push_back(std::int32_t(unknown[nb.cell]));
          A.values.push_back(-nb.open);
        }
        A.rowPtr.push_back(std::int64_t(A.values.size()));
      }
    }
  }
  if (unknownOfCell) *unknownOfCell = std::move(unknown);
  return A;
}

std::vector<std::vector<std::size_t>> PressureDomain3D::floatingComponents() const {
  const std::size_t n = cells();
  std::vector<char> seen(n, 0);
  std::vector<std::vector<std::size_t>> floating;
  std::vector<std::size_t> stack, members;
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start] || labels[start] != CellLabel::Fluid) continue;
    const int si = int(start % std::size_t(nx)), sj = int(start / std::size_t(nx) % std::size_t(ny)),
              sk = int(start / (std::size_t(nx) * std::size_t(ny)));
    if (diagonal(si, sj, sk) == 0) continue;  // walled in: no unknown
    bool anchored = false;
    members.clear();
    stack.assign(1, start);
    seen[start] = 1;
    while (!stack.empty()) {
      const std::size_t c = stack.back();
      stack.pop_back();
      members.push_back(c);
      const int i = int(c % std::size_t(nx)), j = int(c / std::size_t(nx) % std::size_t(ny)),
                k = int(c / (std::size_t(nx) * std::size_t(ny)));
      for (int f = 0; f < 6; ++f) {
        const Face nb = face(i, j, k, f);
        if (nb.open == 0.0) continue;
        if (nb.label == CellLabel::Air) anchored = true;
        if (nb.label == CellLabel::Fluid && !seen[nb.cell]) {
          seen[nb.cell] = 1;
          stack.push_back(nb.cell);
        }
      }
    }
    if (!anchored) {
      std::sort(members.begin(), members.end());
      floating.push_back(members);
    }
  }
  return floating;
}

}  // namespace texstream::linalg
