# Script mode (cmake -P): every program's --help spells the shared solver knobs one way
# (README.md, "one spelling for each shared knob"): --tolerance, --max-iterations, --precond,
# --precision; former spellings (--tol, --cg-tol, --max-iter, --cg-max-iter) still work but
# are never listed.
#   APPS             executables, "|"-separated
#   TOLERANCE_APPS   those among them that have a tolerance: their --help lists --tolerance
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST)
string(REPLACE "|" ";" _apps "${APPS}")
string(REPLACE "|" ";" _tolerance "${TOLERANCE_APPS}")
foreach(app IN LISTS _apps)
  execute_process(COMMAND ${app} --help RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 60)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${app} --help: exit code ${_rc}\n${_err}")
  endif()
  if(_out MATCHES "--(cg-)?tol[ =,]|--cg-tol|--(cg-)?max-iter[ =,]|--cg-max-iter|--preconditioner[ =,]|--tolerance-")
    message(FATAL_ERROR "${app} --help lists a former or second spelling (\"${CMAKE_MATCH_0}\"):\n${_out}")
  endif()
  if(app IN_LIST _tolerance AND NOT _out MATCHES "--tolerance ")
    message(FATAL_ERROR "${app} --help does not list --tolerance:\n${_out}")
  endif()
  message(STATUS "${app}: one spelling")
endforeach()
