#pragma once
// Built-in meshes for the curvature-flow demo, tests and benchmarks, at any resolution
// (cost linear in the size; millions of vertices take about a second):
//  - cube: Bolz et al. 2003, fig. 4 (a cube with normal noise): [-1, 1]^3, each face an
//    r x r grid of quads split into two triangles, closed, 6 r^2 + 2 vertices;
//  - icosphere: the unit icosahedron with each face cut into f^2 triangles and projected
//    onto the sphere (a frequency-f geodesic sphere), closed, 10 f^2 + 2 vertices;
//  - torus: major radius 1, minor 0.35, an m x k grid, closed (genus 1), m k vertices;
//  - patch: a wavy height field (height along +y) over [-1, 1]^2 with a ragged outline and
//    four holes, vertices jittered like a scan (Bolz fig. 4's scanned mesh), open: it has
//    boundaries.
// All are counter-clockwise seen from outside (from +y for the patch). Noise moves each
// vertex along its area-weighted normal by `noise` x the mean edge length x a standard
// normal sample, from a seeded generator (the same seed gives the same mesh everywhere).
#include <texstream/geometry/Mesh.h>

#include <cstdint>
#include <string>
#include <vector>

namespace texstream::geometry {

Mesh cubeMesh(int subdivisions);
Mesh icosphereMesh(int frequency, double radius = 1.0);
Mesh torusMesh(int majorSegments, int minorSegments, double majorRadius = 1.0, double minorRadius = 0.35);
/// `resolution` grid cells along each side before the outline and holes are cut.
Mesh patchMesh(int resolution, std::uint64_t seed = 7);

/// Moves every vertex along its normal as described above (noise >= 0; 0 changes nothing).
void addNormalNoise(Mesh& mesh, double noise, std::uint64_t seed);

/// The names builtinMesh() knows: cube, icosphere, torus, patch.
const std::vector<std::string>& builtinMeshNames();
/// A built-in mesh of about `vertices` vertices (at least the smallest of its kind) with
/// noise; named "builtin:<name>". std::invalid_argument for an unknown name (listing the
/// known ones), vertices > 16,000,000 or noise < 0.
Mesh builtinMesh(const std::string& name, std::size_t vertices, double noise, std::uint64_t seed = 1);

/// Mean edge length over the triangles' edges (each interior edge counted twice).
double meanEdgeLength(const Mesh& mesh);

}  // namespace texstream::geometry
