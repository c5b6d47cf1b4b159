// Bajaj et al. 2004, §2.3.3 (Figure 4): simulated annealing over (i, j) swaps.
#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/PackingState.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::codegen {

void AnnealingSchedule::validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("AnnealingSchedule: " + what); };
  if (iterations < 0) bad("iterations must be >= 0 (got " + std::to_string(iterations) + ")");
  if (restarts < 1) bad("restarts must be >= 1 (got " + std::to_string(restarts) + ")");
  if (movesPerTemperature < 0)
    bad("movesPerTemperature must be >= 0 (got " + std::to_string(movesPerTemperature) + ")");
  if (!(initialTemperature > 0.0) || !std::isfinite(initialTemperature))
    bad("initialTemperature must be positive and finite");
  if (!(finalTemperature > 0.0) || !(finalTemperature <= initialTemperature)) {
    bad("finalTemperature must be positive and at most initialTemperature");
  }
  if (!(boltzmann > 0.0) || !std::isfinite(boltzmann)) bad("boltzmann must be positive and finite");
  if (stopAtCost < -1) bad("stopAtCost must be >= 0, or -1 for the lower bound");
}

int costLowerBound(const LinearExpression& e) { return int((e.nonzeros() + 3) / 4); }

namespace {

// xoshiro256** seeded through splitmix64: the same sequence on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& s : m_s) {
      seed += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      s = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9, t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }
  /// Uniform in [0, n), n > 0 (multiply-shift; the bias is below 2^-32 for our n).
  int below(int n) { return int(((next() >> 32) * std::uint64_t(n)) >> 32); }
  /// Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t m_s[4];
};

template <class Input>
AnnealingRun search(const Input& input, int lowerBound, const AnnealingSchedule& schedule) {
  schedule.validate();
  PackingState state(input);
  const int size = state.paddedSize(), blocks = size / 4;
  AnnealingRun out;
  out.initialCost = out.bestCost = state.cost();
  out.lowerBound = lowerBound;
  out.permutation = state.permutation();
  const int stopAt = schedule.stopAtCost >= 0 ? schedule.stopAtCost : lowerBound;
  // A plain expression needs two blocks to change anything; a Gauss–Seidel sweep also
  // changes under swaps inside a block (lower/upper membership moves).
  const bool movable = state.gaussSeidel() ? size >= 2 : blocks >= 2;
  if (schedule.iterations == 0 || !movable || out.bestCost <= stopAt) {
    out.history.push_back({0, 0, schedule.initialTemperature, out.initialCost, out.bestCost});
    out.stoppedEarly = out.bestCost <= stopAt;
    return out;
  }
  const long long perStep = schedule.movesPerTemperature > 0 ? schedule.movesPerTemperature : 4LL * size;
  const long long steps = (schedule.iterations + perStep - 1) / perStep;
  const double factor =
      steps > 1 ? std::pow(schedule.finalTemperature / schedule.initialTemperature, 1.0 / double(steps - 1)) : 1.0;

  for (int r = 0; r < schedule.restarts && !out.stoppedEarly; ++r) {
    PackingState run(input);
    Rng rng(schedule.seed + std::uint64_t(r) * 0xD1B54A32D192ED03ull);  // runs of nearby seeds differ
    ++out.runs;
    int current = run.cost();
    double temperature = schedule.initialTemperature;
    out.history.push_back({r, out.iterations, temperature, current, out.bestCost});
    long long done = 0;
    for (long long step = 0; step < steps && !out.stoppedEarly; ++step) {
      const long long moves = std::min(perStep, schedule.iterations - done);
      const double kT = schedule.boltzmann * temperature;
      for (long long k = 0; k < moves; ++k) {
        const int i = rng.below(size);
        int j;
        if (run.gaussSeidel()) {
          j = rng.below(size - 1);
          if (j >= i) ++j;
        } else {
          int J = rng.below(blocks - 1);  // another block, then any position in it
          if (J >= i / 4) ++J;
          j = 4 * J + rng.below(4);
        }
        const int proposed = run.swap(i, j);
        const int delta = proposed - current;
        if (delta <= 0 || rng.unit() < std::exp(-double(delta) / kT)) {
          current = proposed;
          ++out.accepted;
          if (current < out.bestCost) {
            out.bestCost = current;
            out.permutation = run.permutation();
            out.bestIteration = out.iterations + done + k + 1;
            if (current <= stopAt) {
              out.stoppedEarly = true;
              done += k + 1;
              break;
            }
          }
        } else {
          run.swap(i, j);
        }
      }
      if (!out.stoppedEarly) done += moves;
      out.history.push_back({r, out.iterations + done, temperature, current, out.bestCost});
      temperature *= factor;
    }
    out.iterations += done;
  }
  return out;
}

}  // namespace

AnnealedExpression anneal(const LinearExpression& e, const AnnealingSchedule& schedule) {
  AnnealingRun r = search(e, costLowerBound(e), schedule);
  LinearExpression best = e.permuted(r.permutation);
  return {std::move(best), std::move(r)};
}

AnnealedGaussSeidel anneal(const GaussSeidelSystem& s, const AnnealingSchedule& schedule) {
  AnnealingRun r = search(s, costLowerBound(s.iteration()), schedule);
  GaussSeidelSystem best = s.permuted(r.permutation);
  return {std::move(best), std::move(r)};
}

}  // namespace texstream::codegen
