#pragma once
// applyParameterEdit: the panel's edit of a simulation's parameters reaching the solver
// (the 2D and 3D fluids: fluid::FluidSolver, fluid::FluidSolver3D). An edit that needs a
// new solver (another scene, grid size) rebuilds it; any other goes through
// setParameters. Where either throws, the message goes to stderr and the edit is undone:
// the solver runs on with its own parameters, which the panel shows again.
#include <functional>
#include <iostream>
#include <memory>
#include <string_view>

namespace texstream::app {

/// `edited`: the panel's copy of the parameters, set back to the solver's afterwards;
/// `rebuild` makes a new solver from it. Returns whether the solver took the edit (false
/// where nothing changed or it failed). `program` prefixes the error ("texstream-fluid").
template <class Solver, class Parameters>
bool applyParameterEdit(std::string_view program, std::unique_ptr<Solver>& solver, Parameters& edited, bool changed,
                        bool needsRebuild, const std::function<void()>& rebuild) {
  if (!changed && !needsRebuild) return false;
  bool applied = true;
  try {
    if (needsRebuild)
      rebuild();
    else
      solver->setParameters(edited);
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    applied = false;
  }
  edited = solver->parameters();
  return applied;
}

}  // namespace texstream::app
