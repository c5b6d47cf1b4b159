#include <texstream/text/Format.h>

#include <sstream>

namespace texstream::text {

std::string quoted(std::string_view text) {
  std::string out = "\"";
  out += text;
  out += '"';
  return out;
}

std::string quotedToken(std::string_view token) {
  std::string text(token.substr(0, kTokenChars));
  if (token.size() > kTokenChars) text += "...";
  return quoted(text);
}

std::string numbered(const char* prefix, int i, const char* suffix) {
  std::string s(prefix);
  s += std::to_string(i);
  s += suffix;
  return s;
}

std::string formatNumber(double value) {
  std::ostringstream s;
  s.precision(3);
  s << value;
  return s.str();
}

}  // namespace texstream::text
