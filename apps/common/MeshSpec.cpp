#include "MeshSpec.h"

#include "AppOptions.h"

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <filesystem>

namespace texstream::app {

MeshSpec parseMeshSpec(const std::string& option, const std::string& text) {
  MeshSpec spec;
  const std::string prefix = "builtin:";
  if (text.rfind(prefix, 0) != 0) {
    if (text.empty()) throw UsageError(option + ": invalid value \"\": expected a mesh file or builtin:NAME");
    spec.name = text;
    return spec;
  }
  spec.builtin = true;
  std::string rest = text.substr(prefix.size());
  const std::size_t colon = rest.find(':');
  if (colon != std::string::npos) {
    spec.vertices = std::size_t(parseInteger(option, rest.substr(colon + 1), 4, 16'000'000));
    rest = rest.substr(0, colon);
  }
  const auto& names = geometry::builtinMeshNames();
  if (std::find(names.begin(), names.end(), rest) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw UsageError(option + ": invalid value \"" + text + "\": unknown built-in mesh \"" + rest + "\" (known: " + list +
                     ")");
  }
  spec.name = rest;
  return spec;
}

MeshSpec checkMeshSpec(const std::string& option, const std::string& text) {
  const MeshSpec spec = parseMeshSpec(option, text);
  if (spec.builtin) return spec;
  try {
    geometry::meshFormatFromPath(spec.name);
  } catch (const geometry::MeshError&) {
    const std::string ext = std::filesystem::path(spec.name).extension().string();
    throw UsageError(option + ": invalid value " + text::quoted(text) + ": unknown mesh format " +
                     (ext.empty() ? std::string("(no extension)") : text::quoted(ext)) +
                     "; accepted: .obj, .off, .ply (any case) or builtin:NAME");
  }
  std::error_code ec;
  if (!std::filesystem::exists(spec.name, ec)) throw UsageError(option + ": invalid value " + text::quoted(text) + ": no such file");
  return spec;
}

}  // namespace texstream::app
