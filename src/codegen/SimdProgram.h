#pragma once
// texstream::codegen::SimdProgram: the code generation stage of Bajaj et al. 2004, §2.3.1 —
// the instruction list, on the four-wide machine of §2.1 (Table 1), that evaluates an
// expression block row by block row, and a CPU interpreter of it.
//
// Block row I of y = A x + b (registers: X[J] = x_J, Y[I] = y_I, temporaries, the constant
// b_I and the matrix values as constant vec4s):
//  1. each block with r < c is evaluated row-major: DP4 per non-null row into a temporary;
//  2. those temporaries and a non-null b_I are added with ADD into Y[I];
//  3. the other blocks are evaluated column-major: per peel one MAD (coefficients of the
//     next non-zero of each row, x_J swizzled to their columns) accumulating on Y[I]; the
//     first is a MUL only when nothing came before (the paper's absorbed ADD).
// The arithmetic instructions (MUL, MAD, DP4, ADD) number exactly C(E). Two kinds of
// bookkeeping are not in the paper's count and are listed separately: clearing a
// temporary before its masked DP4 writes (a constant in GLSL) and MOV Y[I], b_I for a
// block row with no product at all.
//
// Gauss–Seidel (§3.3): block rows are evaluated in order and x is updated in place. Block
// row I first accumulates E2 (including the diagonal block's upper part, on the old x_I)
// and E1's blocks J < I (already new) into Y as above, writes the sum into X[I] (the last
// MAD/ADD targets X[I] directly), then runs the forced row-major DP4s of E1's diagonal
// block, one per non-null row p in order: X[I].p = dot(L_p + e_p, X[I]). The e_p lane adds
// the accumulated sum, so these DP4s absorb the ADD that joins E1 and E2, and lanes q < p
// already hold new values. The count equals the paper's C(E1, E2) except in two kinds of
// block rows: one more ADD where E1's diagonal block is null while both E1 (row-major
// terms off the diagonal) and E2 (b2 or row-major terms) have items to sum, since the two
// sums must still be joined; one fewer where E1's diagonal block is non-null, E1 has
// row-major terms off the diagonal and E2 has neither b2 nor a row-major term, since the
// DP4s then absorb a join the paper counts. See simdCost().
#include <texstream/codegen/LinearExpression.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace texstream::codegen {

class GaussSeidelSystem;

enum class Op {
  Mul,   ///< D = C * S.swizzle
  Mad,   ///< D = C * S.swizzle + A
  Dp4,   ///< D.lane = dot(C, S)
  Add,   ///< D = S + A
  Mov,   ///< D = S
  Zero,  ///< D = 0 (clears a temporary before masked DP4 writes)
};
const char* opName(Op op);

struct Operand {
  enum class Kind : std::uint8_t { None, X, Y, Temp, Bias };
  Kind kind = Kind::None;
  int index = 0;                                    ///< block (X, Y, Bias) or temporary number
  std::array<std::uint8_t, 4> swizzle{0, 1, 2, 3};  ///< lane p reads component swizzle[p] (X only)
};

struct Instruction {
  Op op = Op::Mov;
  Operand dst;
  int lane = -1;                         ///< Dp4: the lane of dst written
  std::array<double, 4> coefficients{};  ///< Mul, Mad, Dp4: the constant operand C
  Operand src;                           ///< Mul, Mad, Dp4: the x operand S; Add, Mov: S
  Operand addend;                        ///< Mad, Add: A
};

struct InstructionCounts {
  int mul = 0, mad = 0, dp4 = 0, add = 0, mov = 0, zero = 0;
  /// MUL + MAD + DP4 + ADD: what the paper's cost counts.
  int arithmetic() const { return mul + mad + dp4 + add; }
};

struct SimdProgram {
  int size = 0;    ///< padded size 4n
  int blocks = 0;  ///< n
  bool gaussSeidel = false;
  int temporaries = 0;  ///< temporaries used by the busiest block row
  /// Instructions of block row I (plain: computing Y[I]; Gauss–Seidel: updating X[I]).
  std::vector<std::vector<Instruction>> rows;
  /// b_I (b2_I) and whether it is non-null (Bias operands read it).
  std::vector<std::array<double, 4>> bias;
  std::vector<char> hasBias;

  InstructionCounts counts() const;
};

/// The program for y = A x + b (any size; padded to a multiple of 4).
SimdProgram compile(const LinearExpression& e);
/// The program for one Gauss–Seidel sweep in the system's order.
SimdProgram compile(const GaussSeidelSystem& s);

/// Runs the program in double precision. x has at most `size` entries (zero-extended).
/// Plain: returns y (size entries); Gauss–Seidel: x after the sweep.
std::vector<double> interpret(const SimdProgram& p, std::span<const double> x);

/// One line per instruction in the paper's assembly style, e.g.
/// "MAD  Y3, {0.25, 0, 0.25, 0.25}, X4.yxwz, Y3".
std::string toAssembly(const SimdProgram& p);

}  // namespace texstream::codegen
