#pragma once
// Text pieces of messages, the same everywhere: a name or token in quotes, and a number
// in three significant digits (residuals, tolerances and limits as users read them).
#include <cstddef>
#include <string>
#include <string_view>

namespace texstream::text {

/// "\"text\"".
std::string quoted(std::string_view text);
/// A token quoted from a file, which may be a whole line of binary: its first
/// kTokenChars characters in quotes, followed by "..." when cut.
std::string quotedToken(std::string_view token);
inline constexpr std::size_t kTokenChars = 40;

/// `value` with three significant digits: "0.000123", "1.5e+06", "nan".
std::string formatNumber(double value);

/// prefix + i + suffix, for generated names ("r12", "u_block3.x"). Built by appending:
/// GCC 12 warns falsely on "literal" + std::string (-Wrestrict, bug 105329).
std::string numbered(const char* prefix, int i, const char* suffix = "");

}  // namespace texstream::text
