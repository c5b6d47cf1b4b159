# texstream-smooth end to end (included from tests/apps/CMakeLists.txt): headless runs on
# both backends with JSON, screenshot and OBJ checks, an exact OBJ round trip through the
# GPU, bad command lines and a malformed mesh file, and a windowed run under Xvfb.
if(NOT TARGET texstream-smooth)
  return()
endif()
set(_smooth_tests)
set(_smooth_out ${CMAKE_CURRENT_BINARY_DIR}/out)

# Headless: 5 steps on a noisy cube, JSON + screenshot + the smoothed OBJ.
foreach(backend fragment compute)
  set(_j ${_smooth_out}/smooth_${backend}.json)
  set(_p ${_smooth_out}/smooth_${backend}.png)
  set(_o ${_smooth_out}/smooth_${backend}.obj)
  add_test(NAME app_smooth_headless_${backend}
    COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:texstream-smooth>
      "-DAPP_ARGS=--headless|--backend|${backend}|--mesh|builtin:cube:3000|--steps|5|--json|${_j}|--screenshot|${_p}|--out|${_o}"
      "-DOUTPUTS=${_j}|${_p}|${_o}"
      -DCHECKER=$<TARGET_FILE:check_app_output>
      "-DCHECK_ARGS=--json|${_j}|--app|smooth|--steps|5|--array|cg_iterations=5|--array|residual=5|--array|ms=5|--array|area=5|--array|volume=5|--string|mesh|--equals|unconverged_steps=[]|--png|${_p}"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _smooth_tests app_smooth_headless_${backend})
endforeach()

# An open mesh with its boundary free and the area kept; then the OBJ round trip: a mesh
# written by texstream-smooth, read back and written again after 0 steps, is the same file,
# and 3 steps on it keep its vertex count and order (checked by SmoothRoundTrip.cmake).
add_test(NAME app_smooth_roundtrip
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-smooth> -DOUT=${_smooth_out}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/SmoothRoundTrip.cmake)
list(APPEND _smooth_tests app_smooth_roundtrip)

# Bad values: exit 2 and a message naming the option and the value; a malformed file:
# exit 1 and the file and line.
file(WRITE ${_smooth_out}/smooth_bad_index.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n")
file(WRITE ${_smooth_out}/smooth_nan.off "OFF\n3 1 0\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n")
set(_bad_builtin "--mesh|builtin:bunny" "--mesh: invalid value \"builtin:bunny\": unknown built-in mesh" 2)
set(_bad_missing "--mesh|/nonexistent/m.obj" "--mesh: invalid value \"/nonexistent/m.obj\": no such file" 2)
set(_bad_count "--mesh|builtin:cube:ten" "--mesh: invalid value \"ten\"" 2)
set(_bad_dt "--dt=-1" "--dt: invalid value \"-1\"" 2)
set(_bad_tol "--tolerance|0" "--tolerance: invalid value \"0\"" 2)
# The cap's former name still works, and an error names it as given.
set(_bad_iter "--cg-max-iter|0" "--cg-max-iter: invalid value \"0\"" 2)
set(_bad_rescale "--rescale|mass" "--rescale: invalid value \"mass\"" 2)
set(_bad_index "--mesh|${_smooth_out}/smooth_bad_index.obj" "smooth_bad_index.obj:5: face uses vertex 9 but the file has 3 vertices" 1)
set(_bad_nan "--mesh|${_smooth_out}/smooth_nan.off" "smooth_nan.off:4: vertex 1 coordinate y is not finite" 1)
set(_bad_rescale_fixed "--mesh|builtin:patch:500|--rescale|volume" "rescaling to keep the volume moves every vertex" 1)
# An unknown extension, or none, is a usage error naming the value and the accepted ones
# (whether or not the file exists).
file(WRITE ${_smooth_out}/smooth_mesh.stl "solid empty\nendsolid empty\n")
file(WRITE ${_smooth_out}/smooth_mesh_no_extension "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
# (A ";" would split these CMake lists: "." matches it in the expected messages.)
set(_bad_stl "--mesh|x.stl" "--mesh: invalid value \"x.stl\": unknown mesh format \".stl\". accepted: .obj, .off, .ply" 2)
set(_bad_stl_file "--mesh|${_smooth_out}/smooth_mesh.stl" "--mesh: invalid value \".*smooth_mesh.stl\": unknown mesh format \".stl\"" 2)
set(_bad_no_extension "--mesh|${_smooth_out}/smooth_mesh_no_extension"
    "--mesh: invalid value \".*smooth_mesh_no_extension\": unknown mesh format [(]no extension[)]. accepted: .obj" 2)
# Output paths, checked before the run.
set(_bad_out_dir "--out|/nonexistent/dir/m.obj" "--out: invalid value \"/nonexistent/dir/m.obj\": no such directory /nonexistent/dir" 2)
set(_bad_out_is_dir "--out|${_smooth_out}" "--out: invalid value \".*\": it is a directory" 2)
set(_bad_json_dir "--json|/nonexistent/s.json" "--json: invalid value \"/nonexistent/s.json\": no such directory" 2)
foreach(case builtin missing count dt tol iter rescale index nan rescale_fixed stl stl_file no_extension out_dir out_is_dir
        json_dir)
  list(GET _bad_${case} 0 _args)
  list(GET _bad_${case} 1 _expect)
  list(GET _bad_${case} 2 _code)
  add_test(NAME app_smooth_bad_${case}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-smooth> "-DAPP_ARGS=--headless|--steps|1|${_args}"
      -DEXPECT_EXIT=${_code} "-DEXPECT_STDERR=${_expect}" -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _smooth_tests app_smooth_bad_${case})
endforeach()

# --dt 1 (about 1000 x the cube's squared edge length) collapses the cube to a point
# within a few steps, after which CG breaks down on degenerate triangles: the run stops
# there, names the step, reports "blew_up" in the JSON, writes no OBJ and exits 1.
foreach(backend fragment compute)
  set(_j ${_smooth_out}/smooth_blowup_${backend}.json)
  add_test(NAME app_smooth_blowup_${backend}
    COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:texstream-smooth>
      "-DAPP_ARGS=--headless|--backend|${backend}|--mesh|builtin:cube:3000|--dt|1|--steps|20|--json|${_j}|--out|${_smooth_out}/smooth_blowup_${backend}.obj"
      "-DOUTPUTS=${_j}" "-DEXPECT_ABSENT=${_smooth_out}/smooth_blowup_${backend}.obj" -DEXPECT_EXIT=1
      "-DEXPECT_STDERR=texstream-smooth: error: blew up at step [0-9]+: the mesh area (fell to|grew to|is NaN|is Inf)"
      -DCHECKER=$<TARGET_FILE:check_app_output>
      "-DCHECK_ARGS=--json|${_j}|--app|smooth|--blew-up"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _smooth_tests app_smooth_blowup_${backend})
endforeach()

# A step that does not converge is named, with what the mesh now shows and the remedies
# that apply (issue 14): on stderr with command-line options, in the JSON's
# unconverged_steps. A cap CG was still converging at comes first; settings already in
# effect are not suggested (the second run: cMCF and mixed precision, no preconditioner).
set(_j ${_smooth_out}/smooth_advice.json)
add_test(NAME app_smooth_unconverged_advice
  COMMAND ${CMAKE_COMMAND}
    -DAPP=$<TARGET_FILE:texstream-smooth>
    "-DAPP_ARGS=--headless|--mesh|builtin:torus:3000|--steps|2|--max-iterations|4|--precision|single|--json|${_j}"
    "-DOUTPUTS=${_j}"
    "-DEXPECT_STDERR=step 1 did not converge [(]max-iterations, [^)]* after 4 iterations, tolerance 1e-05[)]. the mesh shows where CG stopped.* Try: --max-iterations 16 [(]CG was still converging at the cap. now 4[)], --flow cmcf .*--precision mixed .*, or --dt "
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_j}|--app|smooth|--steps|2|--equals|unconverged_steps/0/step=1|--equals|unconverged_steps/1/step=2|--equals|unconverged_steps/0/outcome=max-iterations|--equals|unconverged_steps/0/iterations=4|--string|unconverged_steps/1/advice"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
set(_j ${_smooth_out}/smooth_advice_cmcf.json)
add_test(NAME app_smooth_unconverged_advice_cmcf
  COMMAND ${CMAKE_COMMAND}
    -DAPP=$<TARGET_FILE:texstream-smooth>
    "-DAPP_ARGS=--headless|--mesh|builtin:torus:3000|--steps|1|--max-iterations|1|--flow|cmcf|--precision|mixed|--precond|none|--json|${_j}"
    "-DOUTPUTS=${_j}"
    "-DEXPECT_STDERR=step 1 did not converge .* Try: .*--precond jacobi"
    "-DREJECT_STDERR=--flow cmcf|--precision mixed"
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_j}|--app|smooth|--steps|1|--equals|unconverged_steps/0/step=1"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
# The default precision, auto: a step float CG cannot bring to the tolerance (here the cap
# of 4 iterations) is solved again in mixed precision, said on stderr and in the JSON.
set(_j ${_smooth_out}/smooth_auto.json)
add_test(NAME app_smooth_precision_auto
  COMMAND ${CMAKE_COMMAND}
    -DAPP=$<TARGET_FILE:texstream-smooth>
    "-DAPP_ARGS=--headless|--mesh|builtin:torus:3000|--steps|2|--max-iterations|4|--json|${_j}"
    "-DOUTPUTS=${_j}"
    "-DEXPECT_STDERR=solved again in mixed precision [(]float CG: cg[(][^\n]*not converged after 4 iterations"
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_j}|--app|smooth|--steps|2|--equals|precision=auto|--equals|mixed_precision_steps=[1,2]|--array|true_residual=2"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
list(APPEND _smooth_tests app_smooth_unconverged_advice app_smooth_unconverged_advice_cmcf app_smooth_precision_auto)

# DSI smoothing (Mallet 1992, the CNC's smoothing) as the method: a noisy patch with its
# boundary held and a closed noisy cube; the roughness after each step in the JSON.
foreach(mesh patch cube)
  set(_j ${_smooth_out}/smooth_dsi_${mesh}.json)
  set(_p ${_smooth_out}/smooth_dsi_${mesh}.png)
  add_test(NAME app_smooth_dsi_${mesh}
    COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:texstream-smooth>
      "-DAPP_ARGS=--headless|--method|dsi|--dsi-weight|0.2|--mesh|builtin:${mesh}:1500|--steps|4|--json|${_j}|--screenshot|${_p}"
      "-DOUTPUTS=${_j}|${_p}"
      -DCHECKER=$<TARGET_FILE:check_app_output>
      "-DCHECK_ARGS=--json|${_j}|--app|smooth|--steps|4|--array|cg_iterations=4|--array|dsi_roughness=5|--equals|method=dsi|--png|${_p}"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _smooth_tests app_smooth_dsi_${mesh})
endforeach()
foreach(case "--method|laplace@--method: invalid value \"laplace\"" "--method|dsi|--dsi-weight|0@--dsi-weight: invalid value \"0\"")
  string(REPLACE "@" ";" case "${case}")
  list(GET case 0 _args)
  list(GET case 1 _expect)
  string(MAKE_C_IDENTIFIER "${_args}" _id)
  add_test(NAME app_smooth_bad_dsi_${_id}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-smooth> "-DAPP_ARGS=--headless|--steps|1|${_args}"
      -DEXPECT_EXIT=2 "-DEXPECT_STDERR=${_expect}" -P ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
  list(APPEND _smooth_tests app_smooth_bad_dsi_${_id})
endforeach()

texstream_add_window_test(app_smooth_window_xvfb texstream-smooth ${_smooth_out}/smooth_window
  "--steps|3|--mesh|builtin:patch:2000" "--app|smooth|--steps|3|--array|cg_iterations=3|--array|area=3")
list(APPEND _smooth_tests app_smooth_window_xvfb)
set_tests_properties(${_smooth_tests} PROPERTIES TIMEOUT 300 LABELS apps)
