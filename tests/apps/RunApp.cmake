# Script mode (cmake -P): runs a demo and checks what it did.
#   APP            the executable
#   APP_ARGS       its arguments, separated by "|"
#   XVFB_RUN       when set, run the app on a private virtual X server (with_xvfb.sh: Xvfb,
#                  1280x800x24, a display number Xvfb picks itself)
#   EXPECT_EXIT    expected exit code (default 0)
#   EXPECT_STDERR  regular expression the app's stderr must match
#   REJECT_STDERR  regular expression the app's stderr must not match
#   OUTPUTS        files (separated by "|") removed before the run, so stale ones never pass
#   EXPECT_ABSENT  files (separated by "|") that must not exist after the run (also removed before)
#   CHECKER        when set, run it afterwards with CHECK_ARGS ("|"-separated); must exit 0
# Windowed demos remember their panel's sections in ./panel-state (TEXSTREAM_PANEL_DIR), not
# in the user's configuration.
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
string(REPLACE "|" ";" _args "${APP_ARGS}")
string(REPLACE "|" ";" _check "${CHECK_ARGS}")
string(REPLACE "|" ";" _outputs "${OUTPUTS}")
string(REPLACE "|" ";" _absent "${EXPECT_ABSENT}")
foreach(f IN LISTS _outputs _absent)
  file(REMOVE ${f})
  get_filename_component(_dir ${f} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
endforeach()

set(ENV{TEXSTREAM_PANEL_DIR} ${CMAKE_CURRENT_BINARY_DIR}/panel-state)
set(_cmd ${APP} ${_args})
if(XVFB_RUN)
  set(_cmd sh ${CMAKE_CURRENT_LIST_DIR}/with_xvfb.sh ${_cmd})
endif()
string(REPLACE ";" " " _shown "${_cmd}")
message(STATUS "running: ${_shown}")
execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 600)
message(STATUS "exit code ${_rc}\n--- stdout ---\n${_out}--- stderr ---\n${_err}")
if(NOT "${_rc}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}, got ${_rc}")
endif()
if(DEFINED EXPECT_STDERR AND NOT _err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match \"${EXPECT_STDERR}\"")
endif()
if(DEFINED REJECT_STDERR AND _err MATCHES "${REJECT_STDERR}")
  message(FATAL_ERROR "stderr matches \"${REJECT_STDERR}\"")
endif()
foreach(f IN LISTS _absent)
  if(EXISTS ${f})
    message(FATAL_ERROR "${f} was written, but must not be")
  endif()
endforeach()
if(CHECKER)
  execute_process(COMMAND ${CHECKER} ${_check} RESULT_VARIABLE _crc)
  if(NOT _crc EQUAL 0)
    message(FATAL_ERROR "${CHECKER} failed (${_crc})")
  endif()
endif()
