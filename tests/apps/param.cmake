# texstream-param (LSCM) end to end, included from tests/apps/CMakeLists.txt: headless runs
# on both backends and both least-squares routes (JSON, screenshot, OBJ with vt checked),
# a closed mesh refused, bad command lines, and the PETSc hand-off.
if(NOT TARGET texstream-param)
  return()
endif()
set(_param_tests)
set(_param_out ${CMAKE_CURRENT_BINARY_DIR}/out)
foreach(variant normal_fragment normal_compute cgls_compute)
  string(REPLACE "_" ";" _parts ${variant})
  list(GET _parts 0 _route)
  list(GET _parts 1 _backend)
  set(_j ${_param_out}/param_${variant}.json)
  set(_p ${_param_out}/param_${variant}.png)
  set(_o ${_param_out}/param_${variant}.obj)
  add_test(NAME app_param_headless_${variant}
    COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:texstream-param>
      "-DAPP_ARGS=--headless|--backend|${_backend}|--route|${_route}|--mesh|builtin:patch:500|--tolerance|1e-5|--json|${_j}|--screenshot|${_p}|--out|${_o}"
      "-DOUTPUTS=${_j}|${_p}|${_o}"
      -DCHECKER=$<TARGET_FILE:check_app_output>
      "-DCHECK_ARGS=--json|${_j}|--app|param|--steps|1|--array|residual_history|--string|route|--equals|outcome=converged|--png|${_p}"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  add_test(NAME app_param_output_${variant}
    COMMAND ${CMAKE_COMMAND} -DOBJ=${_o} -DJSON=${_j} -DMAX_ANGLE=5 -DBOUNDARY_LOOPS=5
      -P ${CMAKE_CURRENT_SOURCE_DIR}/ParamOutput.cmake)
  set_tests_properties(app_param_output_${variant} PROPERTIES DEPENDS app_param_headless_${variant})
  list(APPEND _param_tests app_param_headless_${variant} app_param_output_${variant})
endforeach()

# Windowed under Xvfb: the panel (route, distortion, residual plot) drawn for a few frames.
texstream_add_window_test(app_param_window_xvfb texstream-param ${_param_out}/param_window
  "--steps|3|--mesh|builtin:patch:300|--tolerance|1e-5" "--app|param|--steps|3|--equals|outcome=converged")
list(APPEND _param_tests app_param_window_xvfb)

# A closed mesh: exit 1 and the reason with what to do; bad values: exit 2.
set(_pbad_closed "--mesh|builtin:icosphere:300" "closed [(]no boundary edge[)]: LSCM maps a surface with a boundary.*cut it open" 1)
set(_pbad_route "--route|qr" "--route: invalid value \"qr\"" 2)
set(_pbad_pins "--pins|3" "--pins: invalid value \"3\": expected two vertex indices" 2)
set(_pbad_pin_range "--mesh|builtin:patch:100|--pins|0,999999" "pin vertex 999999 does not exist" 1)
set(_pbad_builtin "--mesh|builtin:bunny" "--mesh: invalid value \"builtin:bunny\": unknown built-in mesh" 2)
set(_pbad_export "--export-format|hdf5" "--export-format: invalid value \"hdf5\"" 2)
set(_pbad_out "--out|/nonexistent/dir/m.obj" "--out: invalid value \"/nonexistent/dir/m.obj\": no such directory" 2)
# Issue 35's bow-tie (two triangles sharing only vertex 0, and vertex 5 that no triangle
# uses): named as the mesh's problem with what to do, not as the solver's failure.
file(WRITE ${_param_out}/bowtie.obj "v 0 0 0\nv 1 0 0\nv 1 1 0\nv -1 0 0\nv -1 -1 0\nv 5 5 5\nf 1 2 3\nf 1 4 5\n")
set(_pbad_bowtie "--mesh|${_param_out}/bowtie.obj" "bowtie.obj: vertex 0 [(]2 fans[)] is non-manifold .*split it into one vertex per fan" 1)
foreach(case closed route pins pin_range builtin export out bowtie)
  list(GET _pbad_${case} 0 _args)
  list(GET _pbad_${case} 1 _expect)
  list(GET _pbad_${case} 2 _exit)
  add_test(NAME app_param_bad_${case}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-param> "-DAPP_ARGS=--headless|${_args}"
      -DEXPECT_EXIT=${_exit} "-DEXPECT_STDERR=${_expect}" -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _param_tests app_param_bad_${case})
endforeach()

# The PETSc hand-off (README "When a system outgrows one GPU"): systems texstream built
# (the LSCM normal equations, refined in double to 1e-9) and read (texstream-solve
# --export-petsc), solved by PETSc's CG on 2 MPI ranks with hypre's BoomerAMG and GAMG,
# compared with texstream's solutions. Skipped when petsc4py is not installed.
find_program(TEXSTREAM_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(TEXSTREAM_SYSTEM_PYTHON python3)
find_program(TEXSTREAM_MPIRUN mpirun)
set(_petsc_script ${PROJECT_SOURCE_DIR}/apps/solve/petsc_solve.py)
add_test(NAME app_param_petsc_handoff
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-param>
    "-DAPP_ARGS=--headless|--mesh|builtin:patch:400|--tolerance|1e-9|--export-system|${_param_out}/petsc_lscm|--export-format|petsc"
    -DPYTHON=${TEXSTREAM_SYSTEM_PYTHON} -DSCRIPT=${_petsc_script} -DMPIRUN=${TEXSTREAM_MPIRUN}
    -DDIR=${_param_out}/petsc_lscm -DX=${_param_out}/petsc_lscm/x_texstream.mtx "-DPETSC_ARGS=--pc|hypre|--rtol|1e-12"
    -DTOLERANCE=1e-5 -P ${CMAKE_CURRENT_SOURCE_DIR}/PetscHandOff.cmake)
list(APPEND _param_tests app_param_petsc_handoff)
if(TARGET texstream-solve)
  add_test(NAME app_solve_petsc_handoff
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-solve>
      "-DAPP_ARGS=${PROJECT_SOURCE_DIR}/tests/assets/sparse/mesh_spd.mtx|--tolerance|1e-7|--export-petsc|${_param_out}/petsc_solve|--out|${_param_out}/petsc_solve_x.mtx"
      -DPYTHON=${TEXSTREAM_SYSTEM_PYTHON} -DSCRIPT=${_petsc_script} -DMPIRUN=${TEXSTREAM_MPIRUN}
      -DDIR=${_param_out}/petsc_solve -DX=${_param_out}/petsc_solve_x.mtx "-DPETSC_ARGS=--pc|gamg|--rtol|1e-10"
      -DTOLERANCE=1e-4 -P ${CMAKE_CURRENT_SOURCE_DIR}/PetscHandOff.cmake)
  list(APPEND _param_tests app_solve_petsc_handoff)
endif()
set_tests_properties(app_param_petsc_handoff ${_param_tests} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
set_tests_properties(${_param_tests} PROPERTIES TIMEOUT 600 LABELS apps)
