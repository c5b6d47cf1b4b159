# Embeds every shaders/**/*.glsl into the library as a table {"shaders/x.glsl", source},
# so nothing is read from disk at run time. TEXSTREAM_SHADER_DIR may point a running
# program at the source folder instead (live reload while editing kernels).
function(texstream_embed_shaders out_cpp shader_root)
  file(GLOB_RECURSE _shaders CONFIGURE_DEPENDS RELATIVE ${shader_root} ${shader_root}/*.glsl)
  list(SORT _shaders)
  list(LENGTH _shaders _count)
  set(_abs)
  foreach(s IN LISTS _shaders)
    list(APPEND _abs ${shader_root}/${s})
  endforeach()
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DSHADER_ROOT=${shader_root} -DOUT=${out_cpp}
            "-DSHADERS=${_shaders}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedShadersScript.cmake
    DEPENDS ${_abs} ${PROJECT_SOURCE_DIR}/cmake/EmbedShadersScript.cmake
    COMMENT "Embedding ${_count} GLSL kernels" VERBATIM)
endfunction()
