#pragma once
// The blow-up watch every demo runs under (DemoRunner): every few steps the demo enqueues
// a GPU measure of its state (Demo::measureHealth: a sum of squares or an energy, which
// stream's reductions turn into NaN or Inf when any value is, as CG's residual checks
// rely on), and the watch reads that one scalar back asynchronously (a PBO and a fence,
// stream::ScalarReadback), judging it when it has landed: non-finite, beyond the demo's
// limit (a runaway but finite state) or below its floor (a collapsed one) is a blow-up.
#include <texstream/stream/Scalar.h>

#include <limits>
#include <optional>
#include <string>

namespace texstream::app {

class Demo;

/// What a demo's health measure is and where a healthy state ends.
struct HealthMeasure {
  std::string quantity;  ///< what Demo::measureHealth computes, e.g. "wave energy"
  double limit = 0;      ///< the largest healthy value (may change during a run: drops, splats)
  std::string limitText; ///< why that limit, e.g. "1e4 x the energy after the last input"
  /// The smallest healthy value, for states that collapse (a mesh shrunk to a point);
  /// -infinity where any value is healthy.
  double floor = -std::numeric_limits<double>::infinity();
  std::string floorText;
  /// Non-empty where the demo cannot measure on this context (why): the watch then
  /// measures nothing and never reports a blow-up.
  std::string unavailable;
};

/// The measure of a velocity field by the sum of its squared speeds, runaway where every one
/// of `samples` `sample`s ("node", "face") moves `cellsPerStep` cells of side h a step of dt.
HealthMeasure runawaySpeedMeasure(double samples, const std::string& sample, double cellsPerStep, double h, double dt);

/// A run that went wrong: the step by which the watch saw it, and why.
struct BlowUp {
  long long step = 0;
  std::string reason;  ///< "the wave energy is NaN or Inf: the state holds non-finite values"
};

class HealthWatch {
 public:
  /// A current context is needed. `checkEvery`: steps between measures (>= 1).
  explicit HealthWatch(int checkEvery = 4);

  /// After the demo's step number `step` (1 for the first): judges a measure that has
  /// landed, and every checkEvery steps enqueues the next one. Returns the blow-up once
  /// seen (then it stays until reset()).
  const std::optional<BlowUp>& afterStep(Demo& demo, long long step);
  /// Measures the current state and waits for the value (the end of a run, or its start).
  const std::optional<BlowUp>& checkNow(Demo& demo, long long step);
  const std::optional<BlowUp>& blowUp() const { return m_blowUp; }
  /// Forgets the blow-up and any measure in flight (after the demo's restart).
  void reset();

 private:
  void start(Demo& demo, long long step);
  void judge();

  int m_checkEvery;
  stream::Scalar m_value;
  stream::ScalarReadback m_readback;
  long long m_pendingStep = -1;
  HealthMeasure m_pendingMeasure;
  std::optional<BlowUp> m_blowUp;
};

/// "blew up at step 36: the wave energy is NaN or Inf ..." (stderr and the panel).
std::string describe(const BlowUp& b);

}  // namespace texstream::app
