// The pressure operator of a 3D fluid domain (Batty, Wiebe & Houston 2003: a 7-point matrix
// stored as textures beside the vectors), its coefficients computed on the GPU.
#include <texstream/linalg/PressureMatrix3D.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/FusedProductDot.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace texstream::linalg {

namespace {

using stream::GridField3D;
using stream::GridLayout3D;

GridLayout3D packedGrid(int nx, int ny, int nz, const std::string& title) {
  return GridLayout3D(nx, ny, nz, GridLayout3D::Packing::FourCellsAlongX, title);
}

std::vector<float> asFloats(const std::vector<CellLabel>& labels) {
  std::vector<float> values(labels.size());
  for (std::size_t c = 0; c < labels.size(); ++c) values[c] = float(labels[c]);
  return values;
}

}  // namespace

PressureMatrix3D::PressureMatrix3D(const Shape& shape, std::string name)
    : m_name(std::move(name)), m_shape(shape), m_grid(packedGrid(shape.nx, shape.ny, shape.nz, title())) {
  for (int s = 0; s < 6; ++s) {
    if (shape.outside[std::size_t(s)] != CellLabel::Solid && shape.outside[std::size_t(s)] != CellLabel::Air) {
      throw std::invalid_argument(title() + ": side " + std::to_string(s) + " is " +
                                  cellLabelName(shape.outside[std::size_t(s)]) + "; a side is solid or air");
    }
  }
  gl::StateGuard guard;
  m_diagonal = GridField3D(m_grid, m_name + ".diagonal");
  if (shape.faceFractions) {
    const char* axes[3] = {".couplingX", ".couplingY", ".couplingZ"};
    for (int a = 0; a < 3; ++a) m_couplings[std::size_t(a)] = GridField3D(m_grid, m_name + axes[a]);
  }
}

PressureMatrix3D::PressureMatrix3D(const PressureDomain3D& domain, std::string name)
    : PressureMatrix3D(
          [&] {
            domain.validate("PressureMatrix3D(\"" + name + "\")");
            Shape shape{domain.nx, domain.ny, domain.nz, domain.outside, false};
            for (const auto& open : domain.faceOpen) shape.faceFractions = shape.faceFractions || !open.empty();
            return shape;
          }(),
          name) {
  gl::StateGuard guard;
  GridField3D labels = GridField3D::temporary(m_grid, m_name + ".labels");
  labels.uploadCells(asFloats(domain.labels));
  GridField3D levelSet;
  if (!domain.levelSet.empty()) {
    levelSet = GridField3D::temporary(m_grid, m_name + ".levelSet");
    levelSet.uploadCells(domain.levelSet);
  }
  std::array<GridField3D, 3> open;
  std::array<const GridField3D*, 3> openPointers{};
  if (m_shape.faceFractions) {
    for (std::size_t a = 0; a < 3; ++a) {
      open[a] = GridField3D::temporary(m_grid, m_name + ".open" + char('X' + a));
      open[a].uploadCells(domain.faceOpen[a].empty() ? std::vector<float>(domain.cells(), 1.0f) : domain.faceOpen[a]);
      openPointers[a] = &open[a];
    }
  }
  update(labels, levelSet.empty() ? nullptr : &levelSet, m_shape.faceFractions ? &openPointers : nullptr, false);

  // Floating components, numbered 1, 2, ... on their cells (found on the CPU, where the
  // domain is).
  const auto components = domain.floatingComponents();
  m_floatingCount = int(components.size());
  if (m_floatingCount > 0) {
    m_floating = GridField3D(m_grid, m_name + ".floating");
    std::vector<float> ids(domain.cells(), 0.0f);
    for (std::size_t k = 0; k < components.size(); ++k) {
      for (std::size_t c : components[k]) ids[c] = float(k + 1);
    }
    m_floating.uploadCells(ids);
  }
}

void PressureMatrix3D::update(const GridField3D& labels, const GridField3D* levelSet,
                              const std::array<const GridField3D*, 3>* faceOpen, bool floating) {
  const std::string where = title() + ".update";
  stream::requireGrid(where + " (labels)", labels, m_grid);
  if (levelSet) stream::requireGrid(where + " (level set)", *levelSet, m_grid);
  if (m_shape.faceFractions != (faceOpen != nullptr)) {
    throw gl::Error(where + ": the matrix was made " + (m_shape.faceFractions ? "with" : "without") +
                    " face fractions, and update() was given " + (faceOpen ? "some" : "none"));
  }
  if (faceOpen) {
    for (const GridField3D* f : *faceOpen) {
      if (!f) throw gl::Error(where + ": a face-fraction field is null");
      stream::requireGrid(where + " (face fractions)", *f, m_grid);
    }
  }
  gl::StateGuard guard;
  std::vector<int> outside(6);
  for (std::size_t s = 0; s < 6; ++s) outside[s] = int(m_shape.outside[s]);
  stream::Pass pass("pressure3d/build");
  stream::bindGrid(pass, "u_grid", m_grid);
  pass.label(title() + ".build")
      .input("u_labels", labels)
      .uniformArray("u_outside", outside)
      .output(m_diagonal);
  if (levelSet) {
    pass.define("LEVEL_SET").input("u_levelSet", *levelSet).uniform("u_minTheta", kMinSurfaceFraction);
  }
  if (faceOpen) {
    pass.define("FACE_FRACTIONS")
        .input("u_openX", *(*faceOpen)[0])
        .input("u_openY", *(*faceOpen)[1])
        .input("u_openZ", *(*faceOpen)[2]);
    for (auto& c : m_couplings) pass.output(c);
  }
  if (floating) {
    if (m_floating.empty()) m_floating = GridField3D(m_grid, m_name + ".floating");
    pass.define("FLOATING_ALL").output(m_floating);
  }
  pass.run();
  m_floatingCount = floating ? 1 : 0;
}

void PressureMatrix3D::requireVector(const char* what, const std::string& op, const stream::Vector& v) const {
  if (v.empty() || v.layout() != m_grid.layout()) {
    throw gl::Error(title() + "." + op + ": " + what + " (vector \"" + v.name() + "\") has " +
                    (v.empty() ? std::string("no texture") : v.layout().describe()) + ", expected a field on the " +
                    m_grid.describe() + " grid, " + m_grid.layout().describe());
  }
}

void PressureMatrix3D::apply(const GridField3D& x, GridField3D& y) const {
  stream::requireGrid(title() + ".apply (x)", x, m_grid);
  stream::requireGrid(title() + ".apply (y)", y, m_grid);
  apply(static_cast<const stream::Vector&>(x), static_cast<stream::Vector&>(y));
}

void PressureMatrix3D::bindOperator(stream::Pass& pass) const {
  stream::bindGrid(pass, "u_grid", m_grid).input("u_diagonal", m_diagonal);
  if (m_shape.faceFractions) {
    pass.define("COUPLINGS")
        .input("u_couplingX", m_couplings[0])
        .input("u_couplingY", m_couplings[1])
        .input("u_couplingZ", m_couplings[2]);
  }
}

void PressureMatrix3D::apply(const stream::Vector& x, stream::Vector& y) const {
  requireVector("x", "apply", x);
  requireVector("y", "apply", y);
  stream::requireDistinct(title() + ".apply", {"x", x}, {"y", y}, "the product reads x at neighbours of y's texels");
  gl::StateGuard guard;
  stream::Pass pass("pressure3d/apply");
  pass.label(title() + ".apply").input("u_x", x).output(y);
  bindOperator(pass);
  pass.run();
}

void PressureMatrix3D::applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const {
  requireVector("x", "applyAndDot", x);
  requireVector("y", "applyAndDot", y);
  if (stream::Runtime::current().backend() != stream::Backend::Compute) {
    LinearOperator::applyAndDot(x, y, epilogue);  // its reduction throws: epilogues are compute-only
    return;
  }
  stream::requireDistinct(title() + ".applyAndDot", {"x", x}, {"y", y},
                          "the product reads x at neighbours of y's texels");
  gl::StateGuard guard;
  stream::Pass pass(stream::composeReductionKernel("pressure3d/apply_dot", epilogue.include, 1));
  pass.label(title() + ".apply + dot").input("u_x", x).output(y);
  bindOperator(pass);
  runProductWithDot(pass, m_grid.layout(), epilogue, m_dotScratch, m_name + ".dot_scratch");
}

void PressureMatrix3D::diagonal(stream::Vector& d) const {
  requireVector("d", "diagonal", d);
  gl::StateGuard guard;
  stream::Pass("pressure3d/diagonal").label(title() + ".diagonal").input("u_diagonal", m_diagonal).output(d).run();
}

Csr PressureMatrix3D::toCsr(std::vector<std::int64_t>* unknownOfCell) const {
  gl::StateGuard guard;
  const std::vector<float> diag = m_diagonal.downloadCells();
  std::array<std::vector<float>, 3> coupling;
  if (m_shape.faceFractions) {
    for (std::size_t a = 0; a < 3; ++a) coupling[a] = m_couplings[a].downloadCells();
  }
  const std::size_t nx = std::size_t(m_grid.nx()), ny = std::size_t(m_grid.ny()), nz = std::size_t(m_grid.nz());
  std::vector<std::int64_t> unknown(diag.size(), -1);
  std::int64_t count = 0;
  for (std::size_t c = 0; c < diag.size(); ++c) {
    if (diag[c] > 0) unknown[c] = count++;
  }
  // c_ij with the neighbour across axis a on the - side of cell c (0 unless both have equations).
  auto minusCoupling = [&](std::size_t c, std::size_t n, std::size_t a) -> double {
    if (unknown[c] < 0 || unknown[n] < 0) return 0.0;
    return m_shape.faceFractions ? double(coupling[a][c]) : 1.0;
  };
  Csr A;
  A.rows = A.cols = std::size_t(count);
  A.rowPtr.push_back(0);
  const std::size_t stride[3] = {1, nx, nx * ny};
  for (std::size_t k = 0; k < nz; ++k) {
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        const std::size_t c = i + nx * (j + ny * k);
        if (unknown[c] < 0) continue;
        const std::size_t at[3] = {i, j, k}, size[3] = {nx, ny, nz};
        std::vector<std::pair<std::int32_t, double>> row;
        for (std::size_t a = 0; a < 3; ++a) {
          if (at[a] > 0) {
            const double w = minusCoupling(c, c - stride[a], a);
            if (w != 0) row.emplace_back(std::int32_t(unknown[c - stride[a]]), -w);
          }
          if (at[a] + 1 < size[a]) {
            const double w = minusCoupling(c + stride[a], c, a);
            if (w != 0) row.emplace_back(std::int32_t(unknown[c + stride[a]]), -w);
          }
        }
        row.emplace_back(std::int32_t(unknown[c]), double(diag[c]));
        std::sort(row.begin(), row.end());
        for (const auto& [col, value] : row) {
          A.colIdx.push_back(col);
          A.values.push_back(value);
        }
        A.rowPtr.push_back(std::int64_t(A.values.size()));
      }
    }
  }
  if (unknownOfCell) *unknownOfCell = std::move(unknown);
  return A;
}

double PressureMatrix3D::bytesPerApply() const {
  // x and the diagonal read once, y written once (neighbours come from caches); with
  // couplings three more fields.
  const double texels = double(m_grid.layout().texels());
  return texels * 16.0 * (3.0 + (m_shape.faceFractions ? 3.0 : 0.0));
}

double PressureMatrix3D::flopsPerApply() const { return 7.0 * double(m_grid.cells()); }

}  // namespace texstream::linalg
