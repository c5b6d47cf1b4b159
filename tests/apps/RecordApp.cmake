# Script mode (cmake -P): runs a demo with --record (RunApp.cmake's variables), then checks
# the clip with ffprobe: it decodes, and has FRAMES frames of WIDTH x HEIGHT.
#   FFPROBE  the ffprobe executable
#   CLIP     the recorded file
#   FRAMES, WIDTH, HEIGHT  what it must hold
include(${CMAKE_CURRENT_LIST_DIR}/RunApp.cmake)
if(NOT EXISTS ${CLIP})
  message(FATAL_ERROR "${CLIP} was not written")
endif()
# -count_frames decodes every frame: a clip that does not decode fails here.
execute_process(
  COMMAND ${FFPROBE} -v error -count_frames -select_streams v:0
          -show_entries stream=nb_read_frames,width,height -of default=noprint_wrappers=1 ${CLIP}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _probe ERROR_VARIABLE _probe_err)
message(STATUS "ffprobe ${CLIP}:\n${_probe}${_probe_err}")
if(NOT _rc EQUAL 0 OR NOT _probe_err STREQUAL "")
  message(FATAL_ERROR "ffprobe could not decode ${CLIP} (exit ${_rc}): ${_probe_err}")
endif()
foreach(_field nb_read_frames=${FRAMES} width=${WIDTH} height=${HEIGHT})
  if(NOT _probe MATCHES "(^|\n)${_field}(\n|$)")
    message(FATAL_ERROR "${CLIP}: expected ${_field}")
  endif()
endforeach()
