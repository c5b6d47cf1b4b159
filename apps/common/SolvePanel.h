#pragma once
// Dear ImGui pieces the demos that solve a system each step share: the last solve's
// verdict with its residual history, and plots of per-step series.
#include <texstream/solvers/SolverStatus.h>

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <vector>

namespace texstream::app {

/// The last `count` values as floats, for ImGui::PlotLines.
template <class T>
std::vector<float> plotTail(const std::vector<T>& values, std::size_t count = 300) {
  const std::size_t first = values.size() > count ? values.size() - count : 0;
  return std::vector<float>(values.begin() + std::ptrdiff_t(first), values.end());
}

/// "last solve: 12 iterations, converged, |r|/|b| = 3.1e-06", log10 of the residual at each
/// check, and the iterations of the last 300 steps.
inline void lastSolvePanel(const solvers::SolverStatus& s, const std::vector<int>& iterationsPerStep) {
  ImGui::Text("last solve: %d iterations, %s, |r|/|b| = %.2e", s.iterations, solvers::outcomeName(s.outcome),
              s.relativeResidual);
  std::vector<float> logRes;
  for (double r : s.residualHistory) logRes.push_back(float(std::log10(std::max(r, 1e-30))));
  if (!logRes.empty())
    ImGui::PlotLines("log10 |r|/|b|\n(per check)", logRes.data(), int(logRes.size()), 0, nullptr, FLT_MAX, FLT_MAX,
                     ImVec2(0, 60));
  const std::vector<float> its = plotTail(iterationsPerStep);
  ImGui::PlotLines("CG iterations\n(per step)", its.data(), int(its.size()), 0, nullptr, 0.0f, FLT_MAX, ImVec2(0, 50));
}

}  // namespace texstream::app
