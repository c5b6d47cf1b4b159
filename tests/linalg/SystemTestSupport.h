#pragma once
// Test support for SystemBuilder and SystemSolver: random systems recorded row by row,
// and their solution in double precision by Eigen (dense, column-pivoting QR of the
// weighted rows, independent of LinearSystem's own assembly).
#include "support/Random.h"

#include <texstream/linalg/SystemBuilder.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <vector>

namespace texstream::test {

struct RecordedRow {
  std::vector<std::pair<std::int32_t, double>> entries;  ///< (scalar index, coefficient)
  std::vector<double> rhs;                               ///< one per system
  double weight = 1;
};

struct RandomSystem {
  std::size_t variables = 0;
  int blockSize = 1, systems = 1;
  linalg::SystemMode mode = linalg::SystemMode::LeastSquares;
  std::vector<bool> locked;           ///< per variable
  std::vector<double> values;         ///< per variable: blockSize * systems (locked values)
  std::vector<RecordedRow> rows;

  std::size_t scalars() const { return variables * std::size_t(blockSize); }

  linalg::SystemBuilder builder(const std::string& name) const {
    linalg::SystemBuilder b(variables, mode, name, blockSize, systems);
    const std::size_t per = std::size_t(blockSize * systems);
    for (std::size_t v = 0; v < variables; ++v)
      if (locked[v]) b.lock(v, std::span<const double>(values.data() + v * per, per));
    for (const RecordedRow& r : rows) {
      b.beginRow();
      for (auto [s, a] : r.entries) b.coefficient(std::size_t(s) / std::size_t(blockSize), int(s % blockSize), a);
      b.endRow(r.rhs, r.weight);
    }
    return b;
  }

  /// Every scalar's value of system k minimising sum w (a . x - rhs)^2 (least squares) or
  /// solving the rows (square), locked scalars at their values: Eigen, double precision.
  std::vector<double> reference(int k) const {
    std::vector<std::int32_t> unknown(scalars(), -1);
    std::int32_t n = 0;
    for (std::size_t s = 0; s < scalars(); ++s)
      if (!locked[s / std::size_t(blockSize)]) unknown[s] = n++;
    const std::size_t per = std::size_t(blockSize * systems);
    auto lockedValue = [&](std::size_t s) {
      const std::size_t v = s / std::size_t(blockSize);
      return values[v * per + std::size_t(k * blockSize) + s % std::size_t(blockSize)];
    };
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(Eigen::Index(rows.size()), n);
    Eigen::VectorXd b(Eigen::Index(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double scale = mode == linalg::SystemMode::LeastSquares ? std::sqrt(rows[r].weight) : rows[r].weight;
      double rhs = rows[r].rhs[std::size_t(k)];
      for (auto [s, a] : rows[r].entries) {
        if (unknown[std::size_t(s)] >= 0) A(Eigen::Index(r), unknown[std::size_t(s)]) += scale * a;
        else rhs -= a * lockedValue(std::size_t(s));
      }
      b(Eigen::Index(r)) = scale * rhs;
    }
    const Eigen::VectorXd x = A.colPivHouseholderQr().solve(b);
    std::vector<double> all(scalars());
    for (std::size_t s = 0; s < scalars(); ++s) all[s] = unknown[s] >= 0 ? x(unknown[s]) : lockedValue(s);
    return all;
  }
};

/// A random least-squares system: `variables` variables (about a fifth locked, at least
/// one free), 2-3 rows per unknown of 2 to 6 coefficients, every free scalar in some row,
/// weights in [0.5, 2], right-hand sides and locked values in [-1, 1].
inline RandomSystem randomLeastSquares(std::size_t variables, int blockSize, int systems, std::uint64_t seed) {
  RandomSystem sys;
  sys.variables = variables;
  sys.blockSize = blockSize;
  sys.systems = systems;
  const std::size_t per = std::size_t(blockSize * systems);
  const auto u = randomFloats(variables * (per + 1) + 10000, seed, 0.0f, 1.0f);
  std::size_t next = 0;
  auto uniform = [&]() { return double(u[next++ % u.size()]); };
  sys.locked.assign(variables, false);
  sys.values.assign(variables * per, 0.0);
  for (std::size_t v = 0; v < variables; ++v) {
    sys.locked[v] = variables > 1 && v % 5 == 3;
    for (std::size_t k = 0; k < per; ++k) sys.values[v * per + k] = 2 * uniform() - 1;
  }
  const std::size_t scalars = sys.scalars();
  // Each free scalar leads a few rows (so it appears in one), the others random.
  for (std::size_t s = 0; s < scalars; ++s) {
    if (sys.locked[s / std::size_t(blockSize)]) continue;
    const int count = 2 + int(uniform() * 2);
    for (int c = 0; c < count; ++c) {
      RecordedRow row;
      row.entries.emplace_back(std::int32_t(s), 0.5 + uniform());
      const int others = 1 + int(uniform() * 5);
      for (int o = 0; o < others; ++o) row.entries.emplace_back(std::int32_t(uniform() * double(scalars) * 0.999), 2 * uniform() - 1);
      for (int k = 0; k < systems; ++k) row.rhs.push_back(2 * uniform() - 1);
      row.weight = 0.5 + 1.5 * uniform();
      sys.rows.push_back(row);
    }
  }
  return sys;
}

/// A random square SPD system over the free scalars: K = B^T B + I over all scalars, one
/// row per free scalar (its row of K), locked variables as above.
inline RandomSystem randomSquare(std::size_t variables, int blockSize, std::uint64_t seed) {
  RandomSystem sys = randomLeastSquares(variables, blockSize, 1, seed);
  sys.mode = linalg::SystemMode::Square;
  sys.rows.clear();
  const std::size_t n = sys.scalars();
  const auto r = randomFloats(n * n + n, seed + 17);
  const Eigen::Index size = Eigen::Index(n);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(size, size);
  for (std::size_t i = 0; i < n * n; ++i)
    if (std::abs(r[i]) > 0.6f) B(Eigen::Index(i / n), Eigen::Index(i % n)) = r[i];
  const Eigen::MatrixXd K = B.transpose() * B + Eigen::MatrixXd::Identity(size, size);
  for (std::size_t i = 0; i < n; ++i) {
    if (sys.locked[i / std::size_t(blockSize)]) continue;
    RecordedRow row;
    for (std::size_t j = 0; j < n; ++j)
      if (K(Eigen::Index(i), Eigen::Index(j)) != 0.0) row.entries.emplace_back(std::int32_t(j), K(Eigen::Index(i), Eigen::Index(j)));
    row.rhs.push_back(double(r[n * n + i]));
    sys.rows.push_back(row);
  }
  return sys;
}

}  // namespace texstream::test
