#include "Timing.h"

#include "ProfileSteps.h"

#include <texstream/gl/Query.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/text/Format.h>

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

namespace texstream::bench {

namespace {
using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Restores the profiler's switch on every exit path.
class ProfilerOff {
 public:
  ProfilerOff() : m_profiler(stream::Runtime::current().profiler()), m_was(m_profiler.enabled()) {
    m_profiler.setEnabled(false);
  }
  ~ProfilerOff() { m_profiler.setEnabled(m_was); }
  ProfilerOff(const ProfilerOff&) = delete;
  ProfilerOff& operator=(const ProfilerOff&) = delete;

 private:
  stream::Profiler& m_profiler;
  bool m_was;
};
}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

TimingSpec cpuSpec(TimingSpec spec) {
  spec.warmup = std::min(spec.warmup, 1);
  spec.batches = std::min(spec.batches, 3);
  spec.minReps = 1;
  return spec;
}

int repetitionsFor(double singleMs, const TimingSpec& spec) {
  const double reps = std::ceil(spec.minBatchMs / std::max(singleMs, 1e-3));
  return int(std::clamp(reps, double(spec.minReps), double(spec.maxReps)));
}

Timing timeGl(const std::function<void()>& body, const TimingSpec& spec, bool gpuTimer) {
  gl::StateGuard guard;
  ProfilerOff profilerOff;
  gpuTimer = gpuTimer && stream::Runtime::current().caps().timerQueries;

  for (int i = 0; i < spec.warmup; ++i) body();
  glFinish();
  Clock::time_point t0 = Clock::now();
  while (msSince(t0) < spec.warmupMs) {
    body();
    glFinish();
  }
  t0 = Clock::now();
  const long long passesBefore = stream::Runtime::current().profiler().passesBegun();
  body();
  const long long passes = stream::Runtime::current().profiler().passesBegun() - passesBefore;
  glFinish();
  const int reps = repetitionsFor(msSince(t0), spec);

  gl::TimerQuery query;
  std::vector<double> gpu, wall, submit;
  for (int b = 0; b < spec.batches; ++b) {
    glFinish();
    t0 = Clock::now();
    if (gpuTimer) query.begin();
    for (int r = 0; r < reps; ++r) body();
    submit.push_back(msSince(t0) / reps);
    if (gpuTimer) query.end();
    glFinish();
    wall.push_back(msSince(t0) / reps);
    if (gpuTimer) gpu.push_back(double(query.resultNanoseconds()) * 1e-6 / reps);
  }
  Timing t;
  t.wallMs = median(wall);
  t.submitMs = median(submit);
  t.ms = t.wallMs;
  t.method = "glFinish+clock";
  // A batch lasts minBatchMs, so the GPU's elapsed time (idle gaps included) is close to
  // the wall time. Far less means the timer did not see the work: Mesa's llvmpipe runs
  // compute dispatches outside its time-elapsed queries. The wall clock is right then.
  // Far more than the wall time (seen on llvmpipe: seconds for a millisecond's work) is
  // just as wrong; the GPU timer is trusted only in between.
  if (gpuTimer && median(gpu) >= 0.5 * t.wallMs && median(gpu) <= 2.0 * t.wallMs) {
    t.ms = median(gpu);
    t.method = "GL_TIME_ELAPSED";
  }
  t.reps = reps;
  t.batches = spec.batches;
  t.passes = double(passes);
  return t;
}

Timing timeCpu(const std::function<void()>& body, const TimingSpec& spec) {
  for (int i = 0; i < std::min(spec.warmup, 1); ++i) body();
  Clock::time_point t0 = Clock::now();
  body();
  const int reps = repetitionsFor(msSince(t0), spec);
  std::vector<double> wall;
  for (int b = 0; b < spec.batches; ++b) {
    t0 = Clock::now();
    for (int r = 0; r < reps; ++r) body();
    wall.push_back(msSince(t0) / reps);
  }
  Timing t;
  t.ms = t.wallMs = median(wall);
  t.reps = reps;
  t.batches = spec.batches;
  t.method = "clock";
  return t;
}

// See Timing.h: the four costliest pass labels of one untimed run.
std::string passBreakdown(const std::function<void()>& solve) {
  if (!stream::Profiler::available()) return "";
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  profiler.reset();
  profiler.setEnabled(true);
  const auto start = std::chrono::steady_clock::now();
  solve();
  glFinish();
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  profiler.collect();
  profiler.setEnabled(false);
  std::vector<std::pair<double, std::string>> byTime;
  double total = 0;
  for (const auto& [label, stat] : profiler.stats()) {
    byTime.emplace_back(stat.totalMs, label + " " + text::formatNumber(stat.totalMs) + " ms/" +
                                          std::to_string(stat.passes));
    total += stat.totalMs;
  }
  profiler.reset();
  std::sort(byTime.rbegin(), byTime.rend());
  std::string out = "; GPU passes " + text::formatNumber(total) + " ms of " + text::formatNumber(wall) + " ms wall (";
  for (std::size_t i = 0; i < std::min<std::size_t>(4, byTime.size()); ++i) out += (i ? ", " : "") + byTime[i].second;
  return out + ")";
}

std::map<std::string, stream::Profiler::Stat> profileSteps(int steps, const std::function<void()>& step) {
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  profiler.reset();
  profiler.setEnabled(true);
  for (int k = 0; k < steps; ++k) {
    step();
    profiler.newFrame();
  }
  glFinish();
  // Two more frames collect the queries of the last steps.
  profiler.newFrame();
  profiler.newFrame();
  std::map<std::string, stream::Profiler::Stat> stats = profiler.stats();
  profiler.setEnabled(false);
  profiler.reset();
  return stats;
}

}  // namespace texstream::bench
