#include <texstream/text/FloatChars.h>

#include <string>

#ifndef __cpp_lib_to_chars
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#endif

namespace texstream::text {

#ifdef __cpp_lib_to_chars

std::to_chars_result toChars(char* first, char* last, double value) { return std::to_chars(first, last, value); }
std::to_chars_result toChars(char* first, char* last, float value) { return std::to_chars(first, last, value); }
std::from_chars_result fromChars(const char* first, const char* last, double& value) {
  return std::from_chars(first, last, value);
}

#else

namespace {

// The fewest significant digits (up to max_digits10) whose %g text reads back to `value`.
template <typename T>
std::to_chars_result shortest(char* first, char* last, T value, int maxDigits) {
  char buffer[64];
  int length = 0;
  for (int digits = 1; digits <= maxDigits; ++digits) {
    length = std::snprintf(buffer, sizeof buffer, "%.*g", digits, double(value));
    const T back = sizeof(T) == sizeof(float) ? T(std::strtof(buffer, nullptr)) : T(std::strtod(buffer, nullptr));
    if (back == value || value != value) break;
  }
  if (length < 0 || length > last - first) return {last, std::errc::value_too_large};
  std::memcpy(first, buffer, std::size_t(length));
  return {first + length, std::errc()};
}

}  // namespace

std::to_chars_result toChars(char* first, char* last, double value) { return shortest(first, last, value, 17); }
std::to_chars_result toChars(char* first, char* last, float value) { return shortest(first, last, value, 9); }

std::from_chars_result fromChars(const char* first, const char* last, double& value) {
  // from_chars takes no sign but '-', no leading space and no hexadecimal without a format.
  const std::string text(first, last);
  if (text.empty() || text[0] == '+' || text.find_first_of(" \t\n\r\f\vxX") != std::string::npos)
    return {first, std::errc::invalid_argument};
  errno = 0;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  const char* stop = first + (end - text.c_str());
  if (errno == ERANGE && (parsed == HUGE_VAL || parsed == -HUGE_VAL)) return {stop, std::errc::result_out_of_range};
  value = parsed;
  return {stop, std::errc()};
}

#endif

namespace {
template <typename T>
void appendShortest(std::string& out, T value) {
  char buffer[64];  // the longest double, "-2.2250738585072014e-308", is 24 characters
  out.append(buffer, toChars(buffer, buffer + sizeof buffer, value).ptr);
}
}  // namespace

void appendShortestText(std::string& out, double value) { appendShortest(out, value); }
void appendShortestText(std::string& out, float value) { appendShortest(out, value); }

std::string shortestText(double value) {
  std::string out;
  appendShortest(out, value);
  return out;
}

std::string shortestText(float value) {
  std::string out;
  appendShortest(out, value);
  return out;
}

}  // namespace texstream::text
