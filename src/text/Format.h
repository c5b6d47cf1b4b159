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

}  // namespace texstream::text
