#include "HealthWatch.h"

#include "DemoRunner.h"

#include <texstream/text/Format.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace texstream::app {

HealthMeasure runawaySpeedMeasure(double samples, const std::string& sample, double cellsPerStep, double h, double dt) {
  const double runawaySpeed = cellsPerStep * h / dt;
  HealthMeasure m;
  m.quantity = "sum of squared " + sample + " speeds";
  m.limit = samples * runawaySpeed * runawaySpeed;
  char cells[32];
  std::snprintf(cells, sizeof cells, "%g", cellsPerStep);
  m.limitText = "every " + sample + " moving " + cells + " cells a step";
  return m;
}

HealthWatch::HealthWatch(int checkEvery) : m_checkEvery(checkEvery), m_value("health") {
  if (checkEvery < 1) throw std::invalid_argument("HealthWatch: checkEvery must be >= 1, got " + std::to_string(checkEvery));
}

void HealthWatch::start(Demo& demo, long long step) {
  m_pendingMeasure = demo.measureHealth(m_value);
  if (!m_pendingMeasure.unavailable.empty()) return;  // nothing in flight
  m_readback.start(m_value);
  m_pendingStep = step;
}

void HealthWatch::judge() {
  const double value = double(m_readback.value()[0]);
  const long long step = m_pendingStep;
  m_pendingStep = -1;
  if (m_blowUp) return;
  const HealthMeasure& m = m_pendingMeasure;
  if (!std::isfinite(value)) {
    m_blowUp = BlowUp{step, "the " + m.quantity + " is " + (std::isnan(value) ? "NaN" : "Inf") +
                                ": the state holds non-finite values"};
  } else if (value > m.limit) {
    m_blowUp = BlowUp{step, "the " + m.quantity + " grew to " + text::formatNumber(value) + ", beyond " + m.limitText + " (" +
                                text::formatNumber(m.limit) + "): the state is running away"};
  } else if (value < m.floor) {
    m_blowUp = BlowUp{step, "the " + m.quantity + " fell to " + text::formatNumber(value) + ", below " + m.floorText + " (" +
                                text::formatNumber(m.floor) + "): the state has collapsed"};
  }
}

const std::optional<BlowUp>& HealthWatch::afterStep(Demo& demo, long long step) {
  if (m_blowUp) return m_blowUp;
  if (m_pendingStep >= 0 && m_readback.ready()) judge();
  if (!m_blowUp && step % m_checkEvery == 0) {
    if (m_pendingStep >= 0) judge();  // landed by now in practice; waits otherwise
    if (!m_blowUp) start(demo, step);
  }
  return m_blowUp;
}

const std::optional<BlowUp>& HealthWatch::checkNow(Demo& demo, long long step) {
  if (m_pendingStep >= 0) judge();
  if (!m_blowUp) {
    start(demo, step);
    if (m_pendingStep >= 0) judge();
  }
  return m_blowUp;
}

void HealthWatch::reset() {
  if (m_pendingStep >= 0) m_readback.value();  // ends the copy in flight
  m_pendingStep = -1;
  m_blowUp.reset();
}

std::string describe(const BlowUp& b) { return "blew up at step " + std::to_string(b.step) + ": " + b.reason; }

}  // namespace texstream::app
