#pragma once
// texstream::fluid 3D kernels: the passes FluidSolver3D's step is made of (shaders/fluid3d/),
// each a function on fields of one MacGrid3D, so that a caller (the solver, a test, another
// simulation) can run them one by one.
//
// A MacGrid3D has nx x ny x nz cells; positions are in cell units (the box [0, nx] x [0, ny]
// x [0, nz], +z up), velocities in domain units per time (h the cell side). Fields:
//  - cells: one cell a texel on cells() (smoke density .x and temperature .y, a level set
//    phi in .x (in cells, < 0 in the liquid), solids .x 1 with the solid's velocity in .yzw,
//    vorticity);
//  - faces: (nx + 1) x (ny + 1) x (nz + 1) texels on faces(): texel (i, j, k) holds u on the
//    -x face of cell (i, j, k) in .x, v on its -y face in .y, w on its -z face in .z (the MAC
//    grid of Harlow & Welch 1965); a component's texels beyond its faces hold 0;
//  - packed: four cells a texel on packed() (linalg::PressureMatrix3D's grid: labels, the
//    right-hand side, the pressure q, the packed level set).
// Outputs are written whole (zero beyond the grid) and must not be inputs of the same call.
#include <texstream/fluid/FluidSolver.h>  // Advection
#include <texstream/stream/GridField3D.h>

#include <array>
#include <string>

namespace texstream::stream {
class Scalar;
}

namespace texstream::fluid {

class MacGrid3D {
 public:
  MacGrid3D() = default;
  /// Throws gl::Error naming `what` when a field of the grid does not fit a texture.
  MacGrid3D(int nx, int ny, int nz, const std::string& what);
  int nx() const { return m_cells.nx(); }
  int ny() const { return m_cells.ny(); }
  int nz() const { return m_cells.nz(); }
  const stream::GridLayout3D& cells() const { return m_cells; }
  const stream::GridLayout3D& faces() const { return m_faces; }
  const stream::GridLayout3D& packed() const { return m_packed; }

 private:
  stream::GridLayout3D m_faces, m_cells, m_packed;
};

/// The vorticity omega = curl u at the cell centres (.xyz, |omega| in .w; 1 / time) by
/// central differences of the cell-centred velocity, the nearest cell standing in for
/// neighbours beyond the box. h: the cell side (domain units).
void computeCurl3D(const MacGrid3D& g, const stream::GridField3D& velocity, float h, stream::GridField3D& curl);

/// Body forces at the cell centres (.xyz, domain units / time^2): buoyancy along +z,
/// buoyancy T - densityWeight rho from the temperature .y and density .x of `scalars`
/// (Fedkiw, Stam & Jensen 2001), and vorticity confinement vorticity h (N x omega) from
/// `curl` (computeCurl3D), N = grad|omega| / |grad|omega||; either may be null.
struct CellForces3D {
  const stream::GridField3D* scalars = nullptr;
  float buoyancy = 0, densityWeight = 0;
  const stream::GridField3D* curl = nullptr;
  float vorticity = 0, h = 0;
};
void computeCellForces3D(const MacGrid3D& g, const CellForces3D& forces, stream::GridField3D& out);

/// The last pass of the velocity's advection: forces over dt and the boundary velocities.
struct FaceForces3D {
  float dt = 0;
  float gravity = 0;  ///< along -z
  /// computeCellForces3D's forces (may be null): a face takes the mean of the cells beside it.
  const stream::GridField3D* cellForces = nullptr;
  /// Cells: .x 1 in solids, .yzw their velocity; a face beside a solid takes its velocity.
  const stream::GridField3D* solids = nullptr;
  /// The box's sides (BoxSide order, linalg/PressureDomain3D.h): a closed side's faces are 0.
  std::array<bool, 6> closed{true, true, true, true, true, true};
};

/// out = the velocity advected through itself over dt = dtOverH h (semi-Lagrangian: a trace
/// back from each face, trilinear interpolation of its component; MacCormack: Selle et al.
/// 2008, limited to the range of the faces the trace-back blends), then each face's force
/// (the mean over the cells beside it) and the boundary velocities. Three passes for
/// MacCormack, one otherwise.
void advectVelocity3D(const MacGrid3D& g, const stream::GridField3D& velocity, float dtOverH, Advection scheme,
                      const FaceForces3D& forces, stream::GridField3D& out);

/// What the cells' advection adds after moving a field.
struct CellUpdate3D {
  float damping = 1;  ///< a factor on every value: 1 / (1 + dissipation dt)
  /// A source: the cells in a sphere (centre in cell units, radius in cells, a soft edge a
  /// cell wide) blend toward `value` by `rate` (0..1) a step.
  bool source = false;
  std::array<float, 4> sourceSphere{}, sourceValue{};
  float sourceRate = 0;
  const stream::GridField3D* solids = nullptr;  ///< when given: 0 in solid cells
  /// The channels of q that carry values (1 to 4, from .x); the others come out 0. Fewer
  /// channels fetch less on the compute backend (two gathers a channel rather than eight
  /// texel fetches for all four).
  int channels = 4;
};

/// out = the cells field q advected through the face velocity over dt = dtOverH h (the cell
/// centre traced back from the velocity at the centre; semi-Lagrangian or MacCormack as
/// advectVelocity3D), then `update`.
void advectCells3D(const MacGrid3D& g, const stream::GridField3D& q, const stream::GridField3D& velocity, float dtOverH,
                   Advection scheme, const CellUpdate3D& update, stream::GridField3D& out);

/// The projection's right-hand side on packed(): b_i = -(the sum of cell i's outward face
/// velocities), h = 1 units, where diagonal (PressureMatrix3D::diagonalField()) is > 0, else
/// 0; `equations`, when given, gets 1 on those cells.
void divergence3D(const MacGrid3D& g, const stream::GridField3D& velocity, const stream::GridField3D& diagonal,
                  stream::GridField3D& rhs, stream::GridField3D* equations = nullptr);

/// out = the velocity after the pressure projection from q (A q = b, PressureMatrix3D in h = 1
/// units): faces between fluid cells lose q_p - q_m; faces between fluid and air the
/// ghost-fluid gradient (theta from `levelSet`, packed, exactly as PressureMatrix3D builds
/// it; 1 without one); faces beside solids and between air cells keep theirs. `outside`:
/// what lies beyond each side (BoxSide order), Solid or Air. With `extrapolationStates`
/// .w codes each face's state for extrapolateVelocity3D, else .w is 0.
void subtractGradient3D(const MacGrid3D& g, const stream::GridField3D& velocity, const stream::GridField3D& q,
                        const stream::GridField3D& diagonal, const std::array<int, 6>& outside,
                        const stream::GridField3D* levelSet, bool extrapolationStates, stream::GridField3D& out);

/// One layer of the velocity's extrapolation into the air (faces between air cells, coded
/// by subtractGradient3D): each such face with known neighbours of its component takes their
/// mean. `last`: faces still unknown get 0 and .w is 0.
void extrapolateVelocity3D(const MacGrid3D& g, const stream::GridField3D& velocity, bool last, stream::GridField3D& out);

/// A liquid's volume on packed(): per cell not solid, the fraction inside the liquid,
/// clamp(1/2 - phi, 0, 1), in `fraction`, and 1 where it is strictly between 0 and 1 in `band`.
void measureVolume3D(const MacGrid3D& g, const stream::GridField3D& levelSet, const stream::GridField3D& solids,
                     stream::GridField3D& fraction, stream::GridField3D& band);

/// The global volume correction: delta = clamp((sum of fractions - target) / sum of band, -1/2,
/// 1/2), read on the GPU from the two sums (Scalars) of measureVolume3D's fields.
struct VolumeCorrection3D {
  const stream::Scalar* volume = nullptr;
  const stream::Scalar* band = nullptr;
  float target = 0;  ///< cells
};

/// One Jacobi sweep of redistancing (phi in .x, in cells): cells beside a sign change keep
/// their value; the others take the upwind solution of |grad phi| = 1 from their neighbours.
/// With `correction`, phi + delta is read everywhere.
void redistance3D(const MacGrid3D& g, const stream::GridField3D& levelSet, const VolumeCorrection3D* correction,
                  stream::GridField3D& out);

/// Labels on packed() for PressureMatrix3D::update: 1 in solid cells, else with a level set
/// 0 where phi < 0 and 2 elsewhere (and phi packed into `packedLevelSet`), without one 0.
void cellLabels3D(const MacGrid3D& g, const stream::GridField3D& solids, const stream::GridField3D* levelSet,
                  stream::GridField3D& labels, stream::GridField3D* packedLevelSet);

/// The solid cells: those of `staticSolids` (.x, at rest; may be null) and those whose
/// centre lies in the sphere (centre in cell units, radius in cells) with its velocity.
void solidCells3D(const MacGrid3D& g, const stream::GridField3D* staticSolids, const std::array<float, 4>& sphere,
                  const std::array<float, 3>& sphereVelocity, stream::GridField3D& out);

}  // namespace texstream::fluid
