# Script mode (cmake -P): runs a demo and checks what it did.
#   APP            the executable
#   APP_ARGS       its arguments, separated by "|"
#   XVFB_RUN       when set, run the app under `xvfb-run -a -s "-screen 0 1280x800x24"`
#   EXPECT_EXIT    expected exit code (default 0)
#   EXPECT_STDERR  regular expression the app's stderr must match
#   OUTPUTS        files (separated by "|") removed before the run, so stale ones never pass
#   CHECKER        when set, run it afterwards with CHECK_ARGS ("|"-separated); must exit 0
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
string(REPLACE "|" ";" _args "${APP_ARGS}")
string(REPLACE "|" ";" _check "${CHECK_ARGS}")
string(REPLACE "|" ";" _outputs "${OUTPUTS}")
foreach(f IN LISTS _outputs)
  file(REMOVE ${f})
  get_filename_component(_dir ${f} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
endforeach()

set(_cmd ${APP} ${_args})
if(XVFB_RUN)
  set(_cmd ${XVFB_RUN} -a -s "-screen 0 1280x800x24" ${_cmd})
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
if(CHECKER)
  execute_process(COMMAND ${CHECKER} ${_check} RESULT_VARIABLE _crc)
  if(NOT _crc EQUAL 0)
    message(FATAL_ERROR "${CHECKER} failed (${_crc})")
  endif()
endif()
