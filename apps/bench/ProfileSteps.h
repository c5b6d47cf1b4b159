#pragma once
// The per-pass-label GPU times of a few untimed steps (the fluid benches' split per stage).
// Apart from Timing.h because the profiler's headers are C++20 and Timing.h is also read by
// the CUDA peers' translation unit, which nvcc compiles as C++17.
#include <texstream/stream/Profiler.h>

#include <functional>
#include <map>
#include <string>

namespace texstream::bench {

/// Runs `step` `steps` times, untimed, with the GPU pass profiler on, each step a profiler
/// frame, and returns the GPU time and passes of each pass label over all of them (the
/// profiler reset and off again). Needs timer queries (stream::Profiler::available()).
std::map<std::string, stream::Profiler::Stat> profileSteps(int steps, const std::function<void()>& step);

}  // namespace texstream::bench
