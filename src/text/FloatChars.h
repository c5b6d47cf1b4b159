#pragma once
// Floating-point numbers to and from text, exactly: std::to_chars / std::from_chars where
// the standard library has them for floating point (libstdc++ 11+), else (the libc++ of
// emscripten 3.1, which declares them deleted) the C library's printf and strtod with the
// same contract:
//  - toChars writes the shortest text that reads back to the same value ("0.1", "1e+20");
//  - fromChars reads the whole of [first, last) or reports where it stopped, refuses a
//    leading '+' or whitespace as from_chars does, and reports result_out_of_range.
//  - appendShortestText / shortestText: toChars's text appended to a string / as one.
#include <charconv>
#include <string>

namespace texstream::text {

std::to_chars_result toChars(char* first, char* last, double value);
std::to_chars_result toChars(char* first, char* last, float value);
std::from_chars_result fromChars(const char* first, const char* last, double& value);

/// The shortest text that reads back to `value` (as a double, or as a float), appended to
/// `out` (no allocation beyond out's growth: for writers of large files) or returned.
void appendShortestText(std::string& out, double value);
void appendShortestText(std::string& out, float value);
std::string shortestText(double value);
std::string shortestText(float value);

}  // namespace texstream::text
