# Script mode (cmake -P), for app_smooth_roundtrip:
#   APP  texstream-smooth
#   OUT  a folder for the files
# 1. a noisy open patch, boundary free, area kept: 4 steps, --out a.obj (and --json);
# 2. a.obj read back, 0 steps, --out b.obj: b.obj must equal a.obj byte for byte (same
#    coordinates, same vertex order, same triangles);
# 3. a.obj, 3 steps (boundary fixed), --out c.obj: as many "v" lines as a.obj, and the
#    boundary-free first run must have changed the input (a differs from the clean patch).
file(MAKE_DIRECTORY ${OUT})
foreach(f rt_a.obj rt_b.obj rt_c.obj rt_a.json)
  file(REMOVE ${OUT}/${f})
endforeach()
function(run)
  execute_process(COMMAND ${APP} --headless ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "texstream-smooth ${ARGN}: exit ${rc}\n${err}")
  endif()
endfunction()
run(--mesh builtin:patch:800 --free-boundary --rescale area --steps 4 --out ${OUT}/rt_a.obj --json ${OUT}/rt_a.json)
run(--mesh ${OUT}/rt_a.obj --steps 0 --out ${OUT}/rt_b.obj)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/rt_a.obj ${OUT}/rt_b.obj RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "rt_b.obj (a.obj read and written after 0 steps) differs from rt_a.obj")
endif()
run(--mesh ${OUT}/rt_a.obj --steps 3 --out ${OUT}/rt_c.obj)
file(STRINGS ${OUT}/rt_a.obj va REGEX "^v ")
file(STRINGS ${OUT}/rt_c.obj vc REGEX "^v ")
list(LENGTH va na)
list(LENGTH vc nc)
if(NOT na EQUAL nc OR na LESS 100)
  message(FATAL_ERROR "vertex counts differ: ${na} in, ${nc} out")
endif()
file(STRINGS ${OUT}/rt_a.obj fa REGEX "^f ")
file(STRINGS ${OUT}/rt_c.obj fc REGEX "^f ")
if(NOT fa STREQUAL fc)
  message(FATAL_ERROR "the triangles of rt_c.obj differ from those of rt_a.obj")
endif()
if(va STREQUAL vc)
  message(FATAL_ERROR "3 steps did not move any vertex")
endif()
message(STATUS "round trip ok: ${na} vertices")
