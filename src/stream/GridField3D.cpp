#include <texstream/stream/GridField3D.h>

#include <texstream/gl/Error.h>

namespace texstream::stream {

namespace {

std::string fieldTitle(const std::string& name) { return "GridField3D(\"" + name + "\")"; }

}  // namespace

GridField3D::GridField3D(const GridLayout3D& grid, std::string name, gl::TextureFormat format)
    : Vector(grid.layout(), std::move(name), format), m_grid(grid) {}

GridField3D GridField3D::temporary(const GridLayout3D& grid, std::string name, gl::TextureFormat format) {
  return GridField3D(Vector::temporary(grid.layout(), std::move(name), format), grid);
}

void GridField3D::uploadCells(std::span<const float> values) {
  const std::string title = fieldTitle(name()) + "::uploadCells";
  if (m_grid.packing() != GridLayout3D::Packing::FourCellsAlongX) {
    throw gl::Error(title + ": the field keeps one cell a texel; upload its channels (uploadChannels)");
  }
  if (values.size() != m_grid.cells()) {
    throw gl::Error(title + ": " + std::to_string(values.size()) + " values for the " + m_grid.describe() + " grid (" +
                    std::to_string(m_grid.cells()) + " cells)");
  }
  std::vector<float> texels(layout().paddedSize(), 0.0f);
  const int nx = m_grid.nx(), ny = m_grid.ny(), nz = m_grid.nz();
  std::size_t c = 0;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      // A grid row is contiguous in the texture: tileWidth texels of four cells.
      const std::size_t row = m_grid.scalarIndex(0, j, k);
      for (int i = 0; i < nx; ++i) texels[row + std::size_t(i)] = values[c++];
    }
  }
  upload(texels);
}

std::vector<float> GridField3D::downloadCells() const {
  if (m_grid.packing() != GridLayout3D::Packing::FourCellsAlongX) {
    throw gl::Error(fieldTitle(name()) + "::downloadCells: the field keeps one cell a texel; download its channels");
  }
  const std::vector<float> texels = download();
  std::vector<float> values(m_grid.cells());
  std::size_t c = 0;
  for (int k = 0; k < m_grid.nz(); ++k) {
    for (int j = 0; j < m_grid.ny(); ++j) {
      const std::size_t row = m_grid.scalarIndex(0, j, k);
      for (int i = 0; i < m_grid.nx(); ++i) values[c++] = texels[row + std::size_t(i)];
    }
  }
  return values;
}

void GridField3D::uploadChannels(std::initializer_list<std::span<const float>> channels) {
  const std::string title = fieldTitle(name()) + "::uploadChannels";
  if (m_grid.packing() != GridLayout3D::Packing::OneCellPerTexel) {
    throw gl::Error(title + ": the field packs four cells a texel; upload its cells (uploadCells)");
  }
  if (channels.size() > 4) {
    throw gl::Error(title + ": " + std::to_string(channels.size()) + " channels, a cell has 4");
  }
  std::vector<float> texels(layout().paddedSize(), 0.0f);
  int ch = 0;
  for (std::span<const float> channel : channels) {
    if (channel.size() != m_grid.cells()) {
      throw gl::Error(title + ": channel " + std::to_string(ch) + " has " + std::to_string(channel.size()) +
                      " values for the " + m_grid.describe() + " grid (" + std::to_string(m_grid.cells()) + " cells)");
    }
    std::size_t c = 0;
    for (int k = 0; k < m_grid.nz(); ++k) {
      for (int j = 0; j < m_grid.ny(); ++j) {
        for (int i = 0; i < m_grid.nx(); ++i) texels[m_grid.scalarIndex(i, j, k) + std::size_t(ch)] = channel[c++];
      }
    }
    ++ch;
  }
  upload(texels);
}

std::vector<float> GridField3D::downloadChannel(int ch) const {
  const std::string title = fieldTitle(name()) + "::downloadChannel";
  if (m_grid.packing() != GridLayout3D::Packing::OneCellPerTexel) {
    throw gl::Error(title + ": the field packs four cells a texel; download its cells (downloadCells)");
  }
  if (ch < 0 || ch > 3) throw gl::Error(title + ": channel " + std::to_string(ch) + " (a cell has channels 0..3)");
  const std::vector<float> texels = download();
  std::vector<float> values(m_grid.cells());
  std::size_t c = 0;
  for (int k = 0; k < m_grid.nz(); ++k) {
    for (int j = 0; j < m_grid.ny(); ++j) {
      for (int i = 0; i < m_grid.nx(); ++i) values[c++] = texels[m_grid.scalarIndex(i, j, k) + std::size_t(ch)];
    }
  }
  return values;
}

void requireGrid(const std::string& what, const GridField3D& f, const GridLayout3D& grid) {
  if (f.empty()) throw gl::Error(what + ": field \"" + f.name() + "\" is empty, expected the " + grid.describe() + " grid");
  if (f.grid() != grid) {
    throw gl::Error(what + ": field \"" + f.name() + "\" is on the " + f.grid().describe() + " grid, expected " +
                    grid.describe() + (f.grid().packing() != grid.packing() ? " (and another packing)" : ""));
  }
}

}  // namespace texstream::stream
