// texstream-linexpr: see LinexprOptions.h for the command line and LinexprReport.h for
// the JSON it writes. Bajaj, Ihm, Min & Oh 2004: cost model (§2.3.1), annealing (§2.3.3),
// code generation, on the paper's examples (§3, §4.1) or a Matrix Market file.
#include "LinexprOptions.h"
#include "LinexprReport.h"
#include "MainGuard.h"

#include <texstream/codegen/Examples.h>
#include <texstream/codegen/Glsl.h>
#include <texstream/codegen/LinearExpressionFile.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace texstream;

namespace {

void writeFile(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(std::string(what) + ": cannot write " + path);
  out << text;
  if (!out.flush()) throw std::runtime_error(std::string(what) + ": writing " + path + " failed");
}

int run(const linexpr::Options& options) {
  linexpr::Outcome o;
  codegen::LinearExpression expression;
  codegen::GaussSeidelSystem system;
  if (!options.example.empty()) {
    codegen::Example ex = codegen::example(options.example);
    o.isExample = true;
    o.name = ex.name;
    o.summary = ex.summary;
    o.gaussSeidel = ex.gaussSeidel;
    o.paperBefore = ex.paperCostBefore;
    o.paperAfter = ex.paperCostAfter;
    o.schedule = ex.schedule;
    expression = ex.expression;
    system = ex.system;
  } else {
    o.name = options.matrix;
    o.bPath = options.b;
    o.gaussSeidel = options.gaussSeidel;
    expression = codegen::readLinearExpression(options.matrix, options.b);
    if (o.gaussSeidel) {
      try {
        system = codegen::GaussSeidelSystem::fromSystem(expression);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(options.matrix + ": " + e.what());
      }
      expression = system.iteration();
    }
    o.summary = o.gaussSeidel ? "Gauss-Seidel sweep for A x = b from " + options.matrix
                              : "y = A x + b from " + options.matrix;
  }
  if (options.seed) o.schedule.seed = *options.seed;
  if (options.iterations) o.schedule.iterations = *options.iterations;
  if (options.restarts) o.schedule.restarts = *options.restarts;
  if (options.initialTemperature) o.schedule.initialTemperature = *options.initialTemperature;
  if (options.finalTemperature) o.schedule.finalTemperature = *options.finalTemperature;
  try {
    o.schedule.validate();
  } catch (const std::invalid_argument& e) {
    std::cerr << "texstream-linexpr: --t0/--t1: " << e.what() << "\n";
    return linexpr::kUsageExitCode;
  }

  o.size = expression.size();
  o.paddedSize = expression.paddedSize();
  o.nonzeros = expression.nonzeros();
  const auto start = std::chrono::steady_clock::now();
  codegen::SimdProgram program;
  if (o.gaussSeidel) {
    o.before = codegen::simdCost(system);
    auto result = codegen::anneal(system, o.schedule);
    o.after = codegen::simdCost(result.system);
    o.run = std::move(result.run);
    program = codegen::compile(result.system);
  } else {
    o.before = codegen::simdCost(expression);
    auto result = codegen::anneal(expression, o.schedule);
    o.after = codegen::simdCost(result.expression);
    o.run = std::move(result.run);
    program = codegen::compile(result.expression);
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.instructions = program.counts();

  const std::string title = o.name + ": " + o.summary + "\ncost " + std::to_string(o.before.total) + " -> " +
                            std::to_string(o.after.total) + " instructions; the vectors x, y" +
                            (o.gaussSeidel ? "" : ", b") + " are in the order of the permutation in the JSON report";
  if (!options.glsl.empty()) {
    codegen::GlslOptions g;
    g.form = options.glslForm == "function" ? codegen::GlslForm::Function : codegen::GlslForm::TexelKernel;
    g.comment = title;
    writeFile(options.glsl, codegen::toGlsl(program, g), "--glsl");
  }
  if (!options.assembly.empty()) writeFile(options.assembly, codegen::toAssembly(program), "--asm");
  if (!options.json.empty()) writeFile(options.json, linexpr::toJson(o).dump(2) + "\n", "--json");

  if (!options.quiet) {
    std::printf("%s: %s\n", o.name.c_str(), o.summary.c_str());
    std::printf("  size %d (padded %d), %zu non-zeros, %lld scalar operations\n", o.size, o.paddedSize, o.nonzeros,
                o.before.operations);
    std::printf(
        "  cost %d -> %d SIMD instructions (lower bound %d), efficiency %.2f -> %.2f operations/instruction\n",
        o.before.total, o.after.total, o.run.lowerBound, o.before.efficiency(), o.after.efficiency());
    if (o.paperBefore) std::printf("  paper: %d -> %d\n", *o.paperBefore, *o.paperAfter);
    std::printf("  code: MUL %d, MAD %d, DP4 %d, ADD %d (+ MOV %d)\n", o.instructions.mul, o.instructions.mad,
                o.instructions.dp4, o.instructions.add, o.instructions.mov);
    std::printf("  annealing: %d run(s), %lld proposals, best at %lld%s, %.2f s (seed %llu)\n", o.run.runs,
                o.run.iterations, o.run.bestIteration, o.run.stoppedEarly ? " (reached the bound)" : "", o.seconds,
                (unsigned long long)o.schedule.seed);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  linexpr::Options options;
  return app::toolMain(
      "texstream-linexpr", [&] { return linexpr::parseOptions(argc, argv, options); }, [&] { return run(options); });
}
