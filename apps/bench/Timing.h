#pragma once
// Timing rules of GPU.md: GL work is asynchronous, so every measurement warms up, picks a
// repetition count that makes one batch last at least minBatchMs, times several batches
// (GL_TIME_ELAPSED around each batch, and glFinish + a CPU clock around it too) and keeps
// the median per repetition.
#include <functional>
#include <string>
#include <vector>

namespace texstream::bench {

struct TimingSpec {
  int warmup = 2;            ///< untimed runs first (kernel compilation, pool allocation)
  /// Then untimed runs for at least this long: an H200 idle for a moment (a CPU reference,
  /// a case's set-up) needs a few hundred ms of work to reach its clocks again (rows read
  /// up to 3x slow without it, the first batches of a large multigrid cycle).
  double warmupMs = 0;
  int batches = 5;           ///< timed batches; the median is reported
  double minBatchMs = 50;    ///< repetitions per batch are chosen to last at least this
  int minReps = 1, maxReps = 1000;
};

struct Timing {
  double ms = 0;      ///< median per repetition: GPU time (GL_TIME_ELAPSED / cudaEvent), else wall
  double wallMs = 0;  ///< median per repetition: wall clock with the device drained at both ends
  /// Median per repetition: CPU time to enqueue the work, up to the glFinish. Close to
  /// wallMs means the CPU side (library + driver) bounds the rate, not the GPU.
  double submitMs = 0;
  int reps = 0, batches = 0;
  /// Passes (stream::Pass runs) in one repetition, counted on its calibration run: each
  /// waits for the one before, so their number times the pass latency bounds the time from
  /// below; a case that reports per iteration divides it as it divides ms. -1 where not
  /// counted (CPU and CUDA work).
  double passes = -1;
  const char* method = "";  ///< "GL_TIME_ELAPSED", "glFinish+clock", "cudaEvent", "clock"
};

double median(std::vector<double> values);
/// The spec for the CPU peers: at most 3 batches of at least one repetition (a CPU SpMV
/// at GPU sizes takes a good fraction of a second, and CPU timings vary little).
TimingSpec cpuSpec(TimingSpec spec);
/// Repetitions for one batch, given one calibration run of `singleMs`.
int repetitionsFor(double singleMs, const TimingSpec& spec);

/// Times GL work `body` inside one gl::StateGuard, with the texstream profiler switched off
/// (GL allows one time-elapsed query at a time). ms is the GL_TIME_ELAPSED time unless it
/// is implausibly below the wall time (the timer missed the work), then the wall time.
/// `gpuTimer` false: wall clock only, for bodies that read results back to the CPU (a
/// solver checking its residual).
Timing timeGl(const std::function<void()>& body, const TimingSpec& spec, bool gpuTimer = true);
/// Times CPU work (the Eigen peer, memcpy ceiling).
Timing timeCpu(const std::function<void()>& body, const TimingSpec& spec);
/// Runs `solve` once more, untimed, with the GPU pass profiler on (where the context has
/// timer queries): "; GPU passes X ms of Y ms wall (label a, label b, ...)" with the four
/// costliest labels, so that a row shows how much of its time is GPU work and where the
/// rest goes (read-backs, CPU); "" without timer queries.
std::string passBreakdown(const std::function<void()>& solve);

}  // namespace texstream::bench
