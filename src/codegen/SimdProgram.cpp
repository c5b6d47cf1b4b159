// Bajaj et al. 2004, §2.3.1 (code generation stage) and §3.3 (Gauss–Seidel).
#include <texstream/codegen/GaussSeidel.h>
#include <texstream/codegen/SimdCost.h>
#include <texstream/codegen/SimdProgram.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace texstream::codegen {

const char* opName(Op op) {
  switch (op) {
    case Op::Mul: return "MUL";
    case Op::Mad: return "MAD";
    case Op::Dp4: return "DP4";
    case Op::Add: return "ADD";
    case Op::Mov: return "MOV";
    case Op::Zero: return "CLR";
  }
  return "?";
}

InstructionCounts SimdProgram::counts() const {
  InstructionCounts c;
  for (const auto& row : rows) {
    for (const Instruction& in : row) {
      switch (in.op) {
        case Op::Mul: ++c.mul; break;
        case Op::Mad: ++c.mad; break;
        case Op::Dp4: ++c.dp4; break;
        case Op::Add: ++c.add; break;
        case Op::Mov: ++c.mov; break;
        case Op::Zero: ++c.zero; break;
      }
    }
  }
  return c;
}

namespace {

using text::numbered;

using Block = std::array<double, 16>;  // row-major 4 x 4 values

Operand reg(Operand::Kind kind, int index) {
  Operand o;
  o.kind = kind;
  o.index = index;
  return o;
}

BlockMask maskOf(const Block& v) {
  BlockMask m = 0;
  for (int k = 0; k < 16; ++k) {
    if (v[std::size_t(k)] != 0.0) m |= BlockMask(1u << k);
  }
  return m;
}

/// The blocks of each block row: rows[I][J] = values.
std::vector<std::map<int, Block>> blockRows(const LinearExpression& e) {
  std::vector<std::map<int, Block>> rows(std::size_t(e.blocks()));
  for (const Entry& x : e.entries()) {
    Block& b = rows[std::size_t(x.row / 4)].try_emplace(x.col / 4, Block{}).first->second;
    b[std::size_t(4 * (x.row % 4) + x.col % 4)] = x.value;
  }
  return rows;
}

/// Emits one block row: row-major terms into temporaries, their sum with b_I, then the
/// column-major MADs; returns the operand holding the result (None: zero, Bias: b_I
/// alone, else Y[I]). `terms` holds (J, block values) of every product of the row.
Operand emitBlockRow(int I, bool hasBias, const std::vector<std::pair<int, Block>>& terms,
                     std::vector<Instruction>& out, int& temporaries) {
  const Operand y = reg(Operand::Kind::Y, I);
  std::vector<std::pair<int, const Block*>> rowMajor, columnMajor;
  for (const auto& [J, values] : terms) {
    const BlockCost bc = blockCost(maskOf(values));
    if (bc.method == Multiplication::RowMajor) rowMajor.push_back({J, &values});
    if (bc.method == Multiplication::ColumnMajor) columnMajor.push_back({J, &values});
  }
  // 1. Row-major products, each into its own temporary (or straight into Y when it is the
  //    only item of the sum).
  std::vector<Operand> items;
  if (hasBias) items.push_back(reg(Operand::Kind::Bias, I));
  const bool direct = !hasBias && rowMajor.size() == 1;
  int t = 0;
  for (const auto& [J, values] : rowMajor) {
    const Operand dst = direct ? y : reg(Operand::Kind::Temp, t++);
    out.push_back({Op::Zero, dst, -1, {}, {}, {}});
    for (int p = 0; p < 4; ++p) {
      Instruction in{Op::Dp4, dst, p, {}, reg(Operand::Kind::X, J), {}};
      bool any = false;
      for (int q = 0; q < 4; ++q) {
        in.coefficients[std::size_t(q)] = (*values)[std::size_t(4 * p + q)];
        any = any || in.coefficients[std::size_t(q)] != 0.0;
      }
      if (any) out.push_back(in);
    }
    items.push_back(dst);
  }
  temporaries = std::max(temporaries, t);
  // 2. Their sum.
  Operand acc;
  if (items.size() == 1) {
    acc = items[0];
  } else if (items.size() >= 2) {
    out.push_back({Op::Add, y, -1, {}, items[0], items[1]});
    for (std::size_t k = 2; k < items.size(); ++k) out.push_back({Op::Add, y, -1, {}, y, items[k]});
    acc = y;
  }
  // 3. Column-major peels: peel k takes the k-th non-zero of every row.
  for (const auto& [J, values] : columnMajor) {
    const int peels = columnMajorCost(maskOf(*values));
    for (int k = 0; k < peels; ++k) {
      Instruction in{acc.kind == Operand::Kind::None ? Op::Mul : Op::Mad, y, -1, {}, reg(Operand::Kind::X, J), acc};
      for (int p = 0; p < 4; ++p) {
        int seen = 0;
        for (int q = 0; q < 4; ++q) {
          const double v = (*values)[std::size_t(4 * p + q)];
          if (v == 0.0) continue;
          if (seen++ == k) {
            in.coefficients[std::size_t(p)] = v;
            in.src.swizzle[std::size_t(p)] = std::uint8_t(q);
            break;
          }
        }
      }
      if (in.op == Op::Mul) in.addend = {};
      out.push_back(in);
      acc = y;
    }
  }
  return acc;
}

SimdProgram emptyProgram(int size, bool gaussSeidel, const std::vector<double>& b) {
  SimdProgram p;
  p.size = (size + 3) / 4 * 4;
  p.blocks = p.size / 4;
  p.gaussSeidel = gaussSeidel;
  p.rows.resize(std::size_t(p.blocks));
  p.bias.assign(std::size_t(p.blocks), {0.0, 0.0, 0.0, 0.0});
  p.hasBias.assign(std::size_t(p.blocks), 0);
  for (std::size_t i = 0; i < b.size(); ++i) {
    p.bias[i / 4][i % 4] = b[i];
    if (b[i] != 0.0) p.hasBias[i / 4] = 1;
  }
  return p;
}

}  // namespace

SimdProgram compile(const LinearExpression& e) {
  SimdProgram p = emptyProgram(e.size(), false, e.b());
  const auto rows = blockRows(e);
  for (int I = 0; I < p.blocks; ++I) {
    std::vector<std::pair<int, Block>> terms(rows[std::size_t(I)].begin(), rows[std::size_t(I)].end());
    auto& out = p.rows[std::size_t(I)];
    const Operand acc = emitBlockRow(I, p.hasBias[std::size_t(I)] != 0, terms, out, p.temporaries);
    const Operand y = reg(Operand::Kind::Y, I);
    if (acc.kind == Operand::Kind::None) out.push_back({Op::Zero, y, -1, {}, {}, {}});
    if (acc.kind == Operand::Kind::Bias) out.push_back({Op::Mov, y, -1, {}, acc, {}});
  }
  return p;
}

SimdProgram compile(const GaussSeidelSystem& s) {
  const LinearExpression& m = s.iteration();
  SimdProgram p = emptyProgram(m.size(), true, m.b());
  const auto rows = blockRows(m);
  for (int I = 0; I < p.blocks; ++I) {
    std::vector<std::pair<int, Block>> terms;
    Block diagonalLower{};
    for (const auto& [J, values] : rows[std::size_t(I)]) {
      if (J != I) {
        terms.push_back({J, values});  // J < I: E1 (new x_J); J > I: E2 (old x_J)
        continue;
      }
      Block upper = values;
      for (int q = 0; q < 4; ++q) {
        for (int r = q + 1; r < 4; ++r) {  // (r, q) with q < r: strictly lower
          diagonalLower[std::size_t(4 * r + q)] = values[std::size_t(4 * r + q)];
          upper[std::size_t(4 * r + q)] = 0.0;
        }
      }
      if (maskOf(upper) != 0) terms.push_back({J, upper});
    }
    auto& out = p.rows[std::size_t(I)];
    const Operand acc = emitBlockRow(I, p.hasBias[std::size_t(I)] != 0, terms, out, p.temporaries);
    const Operand x = reg(Operand::Kind::X, I);
    // The sum becomes x_I: retarget the last full write of Y[I], else move or clear.
    if (acc.kind == Operand::Kind::None) {
      out.push_back({Op::Zero, x, -1, {}, {}, {}});
    } else if (acc.kind == Operand::Kind::Bias) {
      out.push_back({Op::Mov, x, -1, {}, acc, {}});
    } else if (!out.empty() && out.back().dst.kind == Operand::Kind::Y && out.back().lane < 0 &&
               (out.back().op == Op::Mad || out.back().op == Op::Mul || out.back().op == Op::Add)) {
      out.back().dst = x;
    } else {
      out.push_back({Op::Mov, x, -1, {}, acc, {}});
    }
    // E1's diagonal block, row by row on the updated lanes; lane p's own coefficient 1
    // adds the sum already in X[I].p.
    for (int r = 1; r < 4; ++r) {
      Instruction in{Op::Dp4, x, r, {}, x, {}};
      bool any = false;
      for (int q = 0; q < r; ++q) {
        in.coefficients[std::size_t(q)] = diagonalLower[std::size_t(4 * r + q)];
        any = any || in.coefficients[std::size_t(q)] != 0.0;
      }
      in.coefficients[std::size_t(r)] = 1.0;
      if (any) out.push_back(in);
    }
  }
  return p;
}

std::vector<double> interpret(const SimdProgram& p, std::span<const double> xIn) {
  if (xIn.size() > std::size_t(p.size)) {
    throw std::invalid_argument("interpret: x has " + std::to_string(xIn.size()) + " entries, the program " +
                                std::to_string(p.size));
  }
  using V = std::array<double, 4>;
  std::vector<V> X(std::size_t(p.blocks), V{}), Y(std::size_t(p.blocks), V{}), T(std::size_t(p.temporaries), V{});
  for (std::size_t i = 0; i < xIn.size(); ++i) X[i / 4][i % 4] = xIn[i];
  auto ref = [&](const Operand& o) -> V& {
    switch (o.kind) {
      case Operand::Kind::X: return X.at(std::size_t(o.index));
      case Operand::Kind::Y: return Y.at(std::size_t(o.index));
      case Operand::Kind::Temp: return T.at(std::size_t(o.index));
      default: throw std::logic_error("interpret: operand is not a register");
    }
  };
  auto read = [&](const Operand& o) -> V {
    if (o.kind == Operand::Kind::Bias) return p.bias.at(std::size_t(o.index));
    const V v = ref(o);
    return {v[o.swizzle[0]], v[o.swizzle[1]], v[o.swizzle[2]], v[o.swizzle[3]]};
  };
  for (const auto& row : p.rows) {
    for (const Instruction& in : row) {
      V r{};
      switch (in.op) {
        case Op::Mul:
        case Op::Mad: {
          const V s = read(in.src), a = in.op == Op::Mad ? read(in.addend) : V{};
          for (int k = 0; k < 4; ++k)
            r[std::size_t(k)] = in.coefficients[std::size_t(k)] * s[std::size_t(k)] + a[std::size_t(k)];
          break;
        }
        case Op::Add: {
          const V s = read(in.src), a = read(in.addend);
          for (int k = 0; k < 4; ++k) r[std::size_t(k)] = s[std::size_t(k)] + a[std::size_t(k)];
          break;
        }
        case Op::Mov: r = read(in.src); break;
        case Op::Zero: break;
        case Op::Dp4: {
          const V s = read(in.src);
          double d = 0.0;
          for (int k = 0; k < 4; ++k) d += in.coefficients[std::size_t(k)] * s[std::size_t(k)];
          ref(in.dst)[std::size_t(in.lane)] = d;
          continue;
        }
      }
      ref(in.dst) = r;
    }
  }
  const std::vector<V>& result = p.gaussSeidel ? X : Y;
  std::vector<double> out(std::size_t(p.size));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = result[i / 4][i % 4];
  return out;
}

namespace {

std::string operandText(const Operand& o) {
  static const char* lanes = "xyzw";
  switch (o.kind) {
    case Operand::Kind::None: return "-";
    case Operand::Kind::Bias: return numbered("B", o.index);
    case Operand::Kind::Y: return numbered("Y", o.index);
    case Operand::Kind::Temp: return numbered("T", o.index);
    case Operand::Kind::X: {
      std::string s = numbered("X", o.index);
      if (o.swizzle != std::array<std::uint8_t, 4>{0, 1, 2, 3}) {
        s += '.';
        for (auto c : o.swizzle) s += lanes[c];
      }
      return s;
    }
  }
  return "?";
}

std::string constantText(const std::array<double, 4>& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "{%.6g, %.6g, %.6g, %.6g}", c[0], c[1], c[2], c[3]);
  return buf;
}

}  // namespace

std::string toAssembly(const SimdProgram& p) {
  std::string s;
  for (int I = 0; I < p.blocks; ++I) {
    s += "# block row " + std::to_string(I) + "\n";
    for (const Instruction& in : p.rows[std::size_t(I)]) {
      std::string dst = operandText(in.dst);
      if (in.lane >= 0) dst += std::string(".") + "xyzw"[in.lane];
      s += std::string(opName(in.op)) + "  " + dst;
      switch (in.op) {
        case Op::Mul: s += ", " + constantText(in.coefficients) + ", " + operandText(in.src); break;
        case Op::Mad:
          s += ", " + constantText(in.coefficients) + ", " + operandText(in.src) + ", " + operandText(in.addend);
          break;
        case Op::Dp4: s += ", " + constantText(in.coefficients) + ", " + operandText(in.src); break;
        case Op::Add: s += ", " + operandText(in.src) + ", " + operandText(in.addend); break;
        case Op::Mov: s += ", " + operandText(in.src); break;
        case Op::Zero: break;
      }
      s += "\n";
    }
  }
  return s;
}

}  // namespace texstream::codegen
