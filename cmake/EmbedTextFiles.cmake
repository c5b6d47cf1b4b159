# Embeds text files into a C++ source as an array of {name, text}: the shipped presets
# (assets/presets/*.json) that the demos list in their panel and accept by name (--preset
# NAME), natively and in the browser alike.
#   texstream_embed_text_files(OUT_CPP NAMESPACE FUNCTION STRUCT HEADER FILES...)
# defines `std::span<const STRUCT> NAMESPACE::FUNCTION()` (STRUCT {const char* name; const
# char* text;}, declared in HEADER), names being the file names without their extension.
function(texstream_embed_text_files out_cpp namespace function struct header)
  set(_files ${ARGN})
  list(SORT _files)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DNAMESPACE=${namespace} -DFUNCTION=${function} -DSTRUCT=${struct}
            -DHEADER=${header} "-DFILES=${_files}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedTextFilesScript.cmake
    DEPENDS ${_files} ${PROJECT_SOURCE_DIR}/cmake/EmbedTextFilesScript.cmake
    COMMENT "Embedding ${function}" VERBATIM)
endfunction()
