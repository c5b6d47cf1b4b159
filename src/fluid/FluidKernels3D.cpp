// The passes of a 3D fluid step on a MAC grid (shaders/fluid3d/, fluid/FluidKernels3D.h).
#include <texstream/fluid/FluidKernels3D.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureDomain3D.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Scalar.h>

#include <vector>

namespace texstream::fluid {

namespace {

using stream::GridField3D;
using stream::GridLayout3D;
using stream::Pass;

void bindGrids(Pass& pass, const MacGrid3D& g) {
  stream::bindGrid(pass, "u_faces", g.faces());
  stream::bindGrid(pass, "u_cells", g.cells());
  stream::bindGrid(pass, "u_packed", g.packed());
}

void requireOn(const char* what, const GridField3D& f, const GridLayout3D& grid) { stream::requireGrid(what, f, grid); }

}  // namespace

MacGrid3D::MacGrid3D(int nx, int ny, int nz, const std::string& what)
    : m_faces(nx + 1, ny + 1, nz + 1, GridLayout3D::Packing::OneCellPerTexel, what + " (velocity faces)"),
      m_cells(nx, ny, nz, GridLayout3D::Packing::OneCellPerTexel, what + " (cells)"),
      m_packed(nx, ny, nz, GridLayout3D::Packing::FourCellsAlongX, what + " (packed cells)") {}

void computeCurl3D(const MacGrid3D& g, const GridField3D& velocity, float h, GridField3D& curl) {
  requireOn("computeCurl3D (velocity)", velocity, g.faces());
  requireOn("computeCurl3D (curl)", curl, g.cells());
  gl::StateGuard guard;
  Pass pass("fluid3d/curl");
  bindGrids(pass, g);
  pass.label("fluid3d curl").input("u_velocity", velocity).uniform("u_h", h).output(curl).run();
}

void computeCellForces3D(const MacGrid3D& g, const CellForces3D& forces, GridField3D& out) {
  requireOn("computeCellForces3D (out)", out, g.cells());
  if (forces.scalars) requireOn("computeCellForces3D (scalars)", *forces.scalars, g.cells());
  if (forces.curl) requireOn("computeCellForces3D (curl)", *forces.curl, g.cells());
  gl::StateGuard guard;
  Pass pass("fluid3d/forces");
  bindGrids(pass, g);
  pass.label("fluid3d forces");
  if (forces.scalars) {
    pass.define("BUOYANCY").input("u_scalars", *forces.scalars).uniform("u_buoyancy", forces.buoyancy);
    pass.uniform("u_densityWeight", forces.densityWeight);
  }
  if (forces.curl) {
    pass.define("VORTICITY").input("u_curl", *forces.curl).uniform("u_vorticity", forces.vorticity).uniform("u_h", forces.h);
  }
  pass.output(out).run();
}

void advectVelocity3D(const MacGrid3D& g, const GridField3D& velocity, float dtOverH, Advection scheme,
                      const FaceForces3D& forces, GridField3D& out) {
  requireOn("advectVelocity3D (velocity)", velocity, g.faces());
  requireOn("advectVelocity3D (out)", out, g.faces());
  if (!forces.solids) throw gl::Error("advectVelocity3D: FaceForces3D::solids is null (a cells field of solids)");
  requireOn("advectVelocity3D (solids)", *forces.solids, g.cells());
  if (forces.cellForces) requireOn("advectVelocity3D (cell forces)", *forces.cellForces, g.cells());
  gl::StateGuard guard;
  auto start = [&](Pass& pass) {
    bindGrids(pass, g);
    pass.input("u_velocity", velocity).uniform("u_dtOverH", dtOverH);
  };
  auto finish = [&](Pass& pass) {
    std::vector<int> closed(6);
    for (std::size_t s = 0; s < 6; ++s) closed[s] = forces.closed[s] ? 1 : 0;
    pass.input("u_solids", *forces.solids).uniformArray("u_closed", closed).uniform("u_dt", forces.dt);
    pass.uniform("u_gravity", forces.gravity);
    if (forces.cellForces) pass.define("CELL_FORCES").input("u_cellForces", *forces.cellForces);
  };
  if (scheme == Advection::MacCormack) {
    GridField3D forward = GridField3D::temporary(g.faces(), "fluid3d.velocity.forward");
    GridField3D backward = GridField3D::temporary(g.faces(), "fluid3d.velocity.backward");
    {
      Pass pass("fluid3d/advect_velocity");
      start(pass);
      pass.define("RAW").label("fluid3d advect velocity").input("u_q", velocity).output(forward).run();
    }
    {
      Pass pass("fluid3d/advect_velocity");
      start(pass);
      pass.define("RAW").define("REVERSE").label("fluid3d advect velocity back");
      pass.input("u_q", forward).output(backward).run();
    }
    Pass pass("fluid3d/advect_velocity");
    start(pass);
    finish(pass);
    pass.define("MACCORMACK").label("fluid3d advect velocity maccormack").input("u_q", velocity);
    pass.input("u_forward", forward).input("u_backward", backward).output(out).run();
  } else {
    Pass pass("fluid3d/advect_velocity");
    start(pass);
    finish(pass);
    pass.label("fluid3d advect velocity").input("u_q", velocity).output(out).run();
  }
}

void advectCells3D(const MacGrid3D& g, const GridField3D& q, const GridField3D& velocity, float dtOverH,
                   Advection scheme, const CellUpdate3D& update, GridField3D& out) {
  requireOn("advectCells3D (q)", q, g.cells());
  requireOn("advectCells3D (velocity)", velocity, g.faces());
  requireOn("advectCells3D (out)", out, g.cells());
  if (update.solids) requireOn("advectCells3D (solids)", *update.solids, g.cells());
  if (update.channels < 1 || update.channels > 4)
    throw gl::Error("advectCells3D: CellUpdate3D::channels is " + std::to_string(update.channels) + ", not 1 to 4");
  for (int c = update.channels; c < 4 && update.source; ++c)
    if (update.sourceValue[std::size_t(c)] != 0.0f)
      throw gl::Error("advectCells3D: the source's value in channel " + std::to_string(c) +
                      " is not 0, but CellUpdate3D::channels is " + std::to_string(update.channels));
  gl::StateGuard guard;
  auto start = [&](Pass& pass) {
    bindGrids(pass, g);
    pass.input("u_velocity", velocity).uniform("u_dtOverH", dtOverH).define("CHANNELS", (long long)update.channels);
  };
  auto finish = [&](Pass& pass) {
    pass.uniform("u_damping", update.damping);
    if (update.source) {
      const auto& s = update.sourceSphere;
      const auto& v = update.sourceValue;
      pass.define("SOURCE").uniform("u_source", s[0], s[1], s[2], s[3]).uniform("u_sourceValue", v[0], v[1], v[2], v[3]);
      pass.uniform("u_sourceRate", update.sourceRate);
    }
    if (update.solids) pass.define("SOLIDS").input("u_solids", *update.solids);
  };
  if (scheme == Advection::MacCormack) {
    GridField3D forward = GridField3D::temporary(g.cells(), "fluid3d.cells.forward");
    GridField3D backward = GridField3D::temporary(g.cells(), "fluid3d.cells.backward");
    {
      Pass pass("fluid3d/advect_scalars");
      start(pass);
      pass.define("RAW").label("fluid3d advect cells").input("u_q", q).output(forward).run();
    }
    {
      Pass pass("fluid3d/advect_scalars");
      start(pass);
      pass.define("RAW").define("REVERSE").label("fluid3d advect cells back").input("u_q", forward).output(backward).run();
    }
    Pass pass("fluid3d/advect_scalars");
    start(pass);
    finish(pass);
    pass.define("MACCORMACK").label("fluid3d advect cells maccormack").input("u_q", q);
    pass.input("u_forward", forward).input("u_backward", backward).output(out).run();
  } else {
    Pass pass("fluid3d/advect_scalars");
    start(pass);
    finish(pass);
    pass.label("fluid3d advect cells").input("u_q", q).output(out).run();
  }
}

void divergence3D(const MacGrid3D& g, const GridField3D& velocity, const GridField3D& diagonal, GridField3D& rhs,
                  GridField3D* equations) {
  requireOn("divergence3D (velocity)", velocity, g.faces());
  requireOn("divergence3D (diagonal)", diagonal, g.packed());
  requireOn("divergence3D (rhs)", rhs, g.packed());
  if (equations) requireOn("divergence3D (equations)", *equations, g.packed());
  gl::StateGuard guard;
  Pass pass("fluid3d/divergence");
  bindGrids(pass, g);
  pass.label("fluid3d divergence").input("u_velocity", velocity).input("u_diagonal", diagonal).output(rhs);
  if (equations) pass.define("STATISTICS").output(*equations);
  pass.run();
}

void subtractGradient3D(const MacGrid3D& g, const GridField3D& velocity, const GridField3D& q,
                        const GridField3D& diagonal, const std::array<int, 6>& outside, const GridField3D* levelSet,
                        bool extrapolationStates, GridField3D& out) {
  requireOn("subtractGradient3D (velocity)", velocity, g.faces());
  requireOn("subtractGradient3D (q)", q, g.packed());
  requireOn("subtractGradient3D (diagonal)", diagonal, g.packed());
  requireOn("subtractGradient3D (out)", out, g.faces());
  if (levelSet) requireOn("subtractGradient3D (level set)", *levelSet, g.packed());
  gl::StateGuard guard;
  Pass pass("fluid3d/subtract_gradient");
  bindGrids(pass, g);
  pass.label("fluid3d project").input("u_velocity", velocity).input("u_q", q).input("u_diagonal", diagonal);
  pass.uniformArray("u_outside", std::vector<int>(outside.begin(), outside.end()));
  if (levelSet) pass.define("LEVEL_SET").input("u_levelSet", *levelSet).uniform("u_minTheta", linalg::kMinSurfaceFraction);
  if (extrapolationStates) pass.define("EXTRAPOLATE");
  pass.output(out).run();
}

void extrapolateVelocity3D(const MacGrid3D& g, const GridField3D& velocity, bool last, GridField3D& out) {
  requireOn("extrapolateVelocity3D (velocity)", velocity, g.faces());
  requireOn("extrapolateVelocity3D (out)", out, g.faces());
  gl::StateGuard guard;
  Pass pass("fluid3d/extrapolate");
  bindGrids(pass, g);
  if (last) pass.define("LAST");
  pass.label("fluid3d extrapolate").input("u_velocity", velocity).output(out).run();
}

void measureVolume3D(const MacGrid3D& g, const GridField3D& levelSet, const GridField3D& solids, GridField3D& fraction,
                     GridField3D& band) {
  requireOn("measureVolume3D (level set)", levelSet, g.cells());
  requireOn("measureVolume3D (solids)", solids, g.cells());
  requireOn("measureVolume3D (fraction)", fraction, g.packed());
  requireOn("measureVolume3D (band)", band, g.packed());
  gl::StateGuard guard;
  Pass pass("fluid3d/volume");
  bindGrids(pass, g);
  pass.label("fluid3d volume").input("u_scalars", levelSet).input("u_solids", solids).output(fraction).output(band).run();
}

void redistance3D(const MacGrid3D& g, const GridField3D& levelSet, const VolumeCorrection3D* correction,
                  GridField3D& out) {
  requireOn("redistance3D (level set)", levelSet, g.cells());
  requireOn("redistance3D (out)", out, g.cells());
  if (correction && (!correction->volume || !correction->band)) {
    throw gl::Error("redistance3D: VolumeCorrection3D needs the volume and band sums (Scalars)");
  }
  gl::StateGuard guard;
  Pass pass("fluid3d/redistance");
  bindGrids(pass, g);
  pass.label("fluid3d redistance").input("u_scalars", levelSet);
  if (correction) {
    pass.define("CORRECT").input("u_volume", *correction->volume).input("u_band", *correction->band);
    pass.uniform("u_targetVolume", correction->target);
  }
  pass.output(out).run();
}

void cellLabels3D(const MacGrid3D& g, const GridField3D& solids, const GridField3D* levelSet, GridField3D& labels,
                  GridField3D* packedLevelSet) {
  requireOn("cellLabels3D (solids)", solids, g.cells());
  requireOn("cellLabels3D (labels)", labels, g.packed());
  if ((levelSet == nullptr) != (packedLevelSet == nullptr)) {
    throw gl::Error("cellLabels3D: a level set and its packed output go together");
  }
  if (levelSet) {
    requireOn("cellLabels3D (level set)", *levelSet, g.cells());
    requireOn("cellLabels3D (packed level set)", *packedLevelSet, g.packed());
  }
  gl::StateGuard guard;
  Pass pass("fluid3d/labels");
  bindGrids(pass, g);
  pass.label("fluid3d labels").input("u_solids", solids).output(labels);
  if (levelSet) pass.define("LEVEL_SET").input("u_scalars", *levelSet).output(*packedLevelSet);
  pass.run();
}

void solidCells3D(const MacGrid3D& g, const GridField3D* staticSolids, const std::array<float, 4>& sphere,
                  const std::array<float, 3>& sphereVelocity, GridField3D& out) {
  requireOn("solidCells3D (out)", out, g.cells());
  if (staticSolids) requireOn("solidCells3D (static solids)", *staticSolids, g.cells());
  gl::StateGuard guard;
  Pass pass("fluid3d/solids");
  bindGrids(pass, g);
  pass.label("fluid3d solids");
  if (staticSolids) pass.define("STATIC").input("u_static", *staticSolids);
  pass.uniform("u_sphere", sphere[0], sphere[1], sphere[2], sphere[3]);
  pass.uniform("u_sphereVelocity", sphereVelocity[0], sphereVelocity[1], sphereVelocity[2], 0.0f);
  pass.output(out).run();
}

}  // namespace texstream::fluid
