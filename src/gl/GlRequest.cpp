#include <texstream/gl/GlRequest.h>

#include <texstream/gl/Error.h>

#include <cctype>
#include <string>

namespace texstream::gl {

const char* GlRequest::accepted() { return "3.3, 4.1, 4.3, 4.5, 4.6, max, es3.0, es3.1, es3.2, es"; }

GlRequest GlRequest::parse(std::string_view text) {
  std::string s(text);
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  static const struct {
    const char* text;
    GlRequest request;
  } table[] = {{"3.3", {false, 3, 3}}, {"4.1", {false, 4, 1}}, {"4.3", {false, 4, 3}}, {"4.5", {false, 4, 5}},
               {"4.6", {false, 4, 6}}, {"max", {false, 0, 0}}, {"es3.0", {true, 3, 0}}, {"es3.1", {true, 3, 1}},
               {"es3.2", {true, 3, 2}}, {"es", {true, 0, 0}}};
  for (const auto& e : table) {
    if (s == e.text) return e.request;
  }
  throw Error("unknown OpenGL context request \"" + std::string(text) + "\" (expected one of " + accepted() + ")");
}

std::string GlRequest::name() const {
  if (highest()) return es ? "the highest OpenGL ES" : "the highest OpenGL core";
  return std::string(es ? "OpenGL ES " : "OpenGL ") + std::to_string(major) + "." + std::to_string(minor) +
         (es ? "" : " core");
}

}  // namespace texstream::gl
