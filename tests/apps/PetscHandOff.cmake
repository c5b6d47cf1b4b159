# Script mode (cmake -P): a system texstream built and solved, handed to PETSc
# (apps/solve/petsc_solve.py on 2 MPI ranks), whose solution must match texstream's.
#   APP, APP_ARGS  the texstream program writing DIR/system.petsc and texstream's solution X
#   PYTHON, SCRIPT, MPIRUN, DIR, X, PETSC_ARGS ("|"-separated), TOLERANCE
# Skipped (SKIPPED: ...) when petsc4py or mpirun is missing.
execute_process(COMMAND ${PYTHON} ${SCRIPT} --available RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(_rc EQUAL 77)
  message(STATUS "SKIPPED: ${_err}")
  return()
elseif(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} --available failed (${_rc}): ${_err}")
endif()
if(NOT MPIRUN)
  message(STATUS "SKIPPED: mpirun not found (Debian package openmpi-bin, installed with python3-petsc4py-real)")
  return()
endif()
file(REMOVE_RECURSE ${DIR})
string(REPLACE "|" ";" _args "${APP_ARGS}")
execute_process(COMMAND ${APP} ${_args} RESULT_VARIABLE _rc ERROR_VARIABLE _err TIMEOUT 600)
message(STATUS "texstream: exit ${_rc}\n${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${APP} failed")
endif()
string(REPLACE "|" ";" _petsc "${PETSC_ARGS}")
# OpenMPI refuses root unless told (CI containers run as root).
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
execute_process(COMMAND ${MPIRUN} -n 2 --oversubscribe ${PYTHON} ${SCRIPT} ${DIR}/system.petsc ${_petsc}
                        --compare ${X} --compare-tol ${TOLERANCE} --json ${DIR}/petsc.json
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 600)
message(STATUS "PETSc: exit ${_rc}\n${_out}${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "PETSc's solution does not match texstream's within ${TOLERANCE} (or PETSc failed)")
endif()
if(NOT _out MATCHES "within")
  message(FATAL_ERROR "no comparison reported")
endif()
