# texstream-fluid3d end to end (included from tests/apps/CMakeLists.txt), at small grids:
# headless runs with the per-step JSON arrays and a screenshot (smoke on the default
# backend, a liquid on the fragment one, the initial state), a preset round trip, a clip,
# bad values named, a grid beyond the texture limit and a half-float-only context refused,
# and a window under Xvfb whose panel fits 1280x800 with nothing clipped.
if(NOT TARGET texstream-fluid3d)
  return()
endif()
set(_f3_tests)
set(_f3 ${CMAKE_CURRENT_BINARY_DIR}/out/fluid3d)
file(MAKE_DIRECTORY ${_f3})
set(_f3_run ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
set(_f3_arrays "--array|divergence_before=8|--array|divergence_after=8|--array|residual=8|--array|solver_iterations=8|--array|max_speed=8")

# Smoke around the spheres; then a dam break (its volume per step) on the fragment backend.
add_test(NAME app_fluid3d_headless_smoke
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DAPP_ARGS=--headless|--scene|smoke-sphere|--size|16|--steps|8|--json|${_f3}/smoke.json|--screenshot|${_f3}/smoke.png"
    "-DOUTPUTS=${_f3}/smoke.json|${_f3}/smoke.png"
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_f3}/smoke.json|--app|fluid3d|--steps|8|${_f3_arrays}|--equals|scene=smoke-sphere|--equals|size=[16,16,16]|--equals|liquid=false|--equals|precond=multigrid|--png|${_f3}/smoke.png"
    -P ${_f3_run})
add_test(NAME app_fluid3d_headless_liquid_fragment
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DAPP_ARGS=--headless|--backend|fragment|--scene|dam-break|--size|20x12x12|--steps|8|--json|${_f3}/dam.json|--screenshot|${_f3}/dam.png"
    "-DOUTPUTS=${_f3}/dam.json|${_f3}/dam.png"
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_f3}/dam.json|--app|fluid3d|--steps|8|${_f3_arrays}|--array|volume=8|--equals|backend=fragment|--equals|size=[20,12,12]|--equals|liquid=true|--png|${_f3}/dam.png"
    -P ${_f3_run})
# --steps 0: the initial state drawn and reported.
add_test(NAME app_fluid3d_steps0
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DAPP_ARGS=--headless|--scene|drop|--size|16|--steps|0|--json|${_f3}/steps0.json|--screenshot|${_f3}/steps0.png"
    "-DOUTPUTS=${_f3}/steps0.json|${_f3}/steps0.png"
    -DCHECKER=$<TARGET_FILE:check_app_output>
    "-DCHECK_ARGS=--json|${_f3}/steps0.json|--app|fluid3d|--steps|0|--array|divergence_after=0|--array|volume=0|--png|${_f3}/steps0.png"
    -P ${_f3_run})
list(APPEND _f3_tests app_fluid3d_headless_smoke app_fluid3d_headless_liquid_fragment app_fluid3d_steps0)

# Save, load, save again: the same preset, settings and per-step volumes.
add_test(NAME app_fluid3d_preset_roundtrip
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DARGS=--scene|drop|--size|16x12x12|--precond|mic0|--tolerance|1e-3|--liquid-color|#2080c0|--no-box"
    -DOUT=${_f3} -DNAME=fluid3d_roundtrip -DRECORD=volume -P ${CMAKE_CURRENT_SOURCE_DIR}/PresetRoundTrip.cmake)
list(APPEND _f3_tests app_fluid3d_preset_roundtrip)

# A clip of the view, a frame a step.
find_program(FFPROBE_EXECUTABLE ffprobe)
find_program(FFMPEG_EXECUTABLE ffmpeg)
if(FFPROBE_EXECUTABLE AND FFMPEG_EXECUTABLE)
  add_test(NAME app_fluid3d_record
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
      "-DAPP_ARGS=--headless|--steps|4|--size|12|--record-size|96x64|--record|${_f3}/fluid3d.webm"
      "-DOUTPUTS=${_f3}/fluid3d.webm" "-DEXPECT_STDERR=wrote [^\n]*fluid3d.webm .4 frames, 96x64 at"
      -DFFPROBE=${FFPROBE_EXECUTABLE} -DCLIP=${_f3}/fluid3d.webm -DFRAMES=4 -DWIDTH=96 -DHEIGHT=64
      -P ${CMAKE_CURRENT_SOURCE_DIR}/RecordApp.cmake)
else()
  add_test(NAME app_fluid3d_record
    COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: ffmpeg or ffprobe (Debian package ffmpeg) not found; recording is untested")
  set_tests_properties(app_fluid3d_record PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
endif()
list(APPEND _f3_tests app_fluid3d_record)

# Bad values: exit 2 and a message naming the option and the value.
set(_f3bad_scene "--scene|lake" "--scene: invalid value \"lake\": expected one of smoke.smoke-sphere.dam-break.drop.pool")
set(_f3bad_size "--size|2" "--size: invalid value \"2\": size must be in .4, 2048.")
set(_f3bad_size_2d "--size|32x32" "--size: invalid value \"32x32\": expected N or NXxNYxNZ")
set(_f3bad_size_side "--size|32x1x32" "--size: invalid value \"32x1x32\": NY must be in .4, 2048.")
set(_f3bad_precond "--precond|ilu" "--precond: invalid value \"ilu\": expected one of multigrid.mic0.jacobi")
set(_f3bad_tolerance "--tolerance=-1" "--tolerance: invalid value \"-1\"")
set(_f3bad_ray_step "--ray-step|9" "--ray-step: invalid value \"9\": must be in .0.05, 4.")
set(_f3bad_color "--liquid-color|blue" "--liquid-color: invalid value \"blue\"")
foreach(_case scene size size_2d size_side precond tolerance ray_step color)
  list(GET _f3bad_${_case} 0 _args)
  list(GET _f3bad_${_case} 1 _expect)
  add_test(NAME app_fluid3d_bad_${_case}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d> "-DAPP_ARGS=--headless|--steps|1|${_args}"
      -DEXPECT_EXIT=2 "-DEXPECT_STDERR=${_expect}" -P ${_f3_run})
  list(APPEND _f3_tests app_fluid3d_bad_${_case})
endforeach()
# A grid whose flat textures exceed the texture limit (lowered to 64 texels here): a usage
# error naming --size, the grid and the limit.
add_test(NAME app_fluid3d_bad_size_texture_limit
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d> "-DAPP_ARGS=--headless|--steps|1|--size|32"
    -DEXPECT_EXIT=2
    "-DEXPECT_STDERR=--size: invalid value \"32x32x32\": fluid3d .the velocity: a texel a face.: the 33x33x33 grid does not fit a texture: [^\n]*maximum texture size .GL_MAX_TEXTURE_SIZE. of 64 texels"
    -P ${_f3_run})
set_tests_properties(app_fluid3d_bad_size_texture_limit PROPERTIES ENVIRONMENT "TEXSTREAM_MAX_TEXTURE_SIZE=64")
# Half-float render targets only (iOS Safari): every scene is refused by name (exit 3).
add_test(NAME app_fluid3d_half_float_refused
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d> "-DAPP_ARGS=--headless|--steps|1|--scene|pool|--size|12"
    -DEXPECT_EXIT=3
    "-DEXPECT_STDERR=cannot run texstream-fluid3d: RGBA32F render targets .EXT_color_buffer_float on OpenGL ES and WebGL2. are missing.*every scene .smoke, smoke-sphere, dam-break, drop, pool. projects its pressure by CG on 32-bit float fields"
    -P ${_f3_run})
set_tests_properties(app_fluid3d_half_float_refused PROPERTIES ENVIRONMENT "TEXSTREAM_DISABLE_FEATURES=floatRenderTargets")
list(APPEND _f3_tests app_fluid3d_bad_size_texture_limit app_fluid3d_half_float_refused)

# The PETSc hand-off at 32^3: the dam break's pressure system after two steps (ghost-fluid
# free surface, walls, the liquid's cells the unknowns), written by --export-system in
# PETSc's binary format, solved by PETSc's CG with GAMG on 2 MPI ranks and compared with
# texstream's MGPCG solution. Skipped when petsc4py is not installed (param.cmake's tools).
add_test(NAME app_fluid3d_petsc_handoff
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DAPP_ARGS=--headless|--scene|dam-break|--size|32|--steps|2|--tolerance|1e-5|--export-system|${_f3}/petsc|--export-format|petsc"
    -DPYTHON=${TEXSTREAM_SYSTEM_PYTHON} -DSCRIPT=${PROJECT_SOURCE_DIR}/apps/solve/petsc_solve.py -DMPIRUN=${TEXSTREAM_MPIRUN}
    -DDIR=${_f3}/petsc -DX=${_f3}/petsc/x_texstream.mtx "-DPETSC_ARGS=--pc|gamg|--rtol|1e-10"
    -DTOLERANCE=1e-4 -P ${CMAKE_CURRENT_SOURCE_DIR}/PetscHandOff.cmake)
set_tests_properties(app_fluid3d_petsc_handoff PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
# --export-system into a file: named before the run.
add_test(NAME app_fluid3d_bad_export_system
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d>
    "-DAPP_ARGS=--headless|--steps|1|--size|8|--export-system|${CMAKE_CURRENT_SOURCE_DIR}/fluid3d.cmake"
    -DEXPECT_EXIT=2 "-DEXPECT_STDERR=--export-system: invalid value [^\n]*fluid3d.cmake\": exists and is not a directory"
    -P ${_f3_run})
list(APPEND _f3_tests app_fluid3d_petsc_handoff app_fluid3d_bad_export_system)

# --help lists the keys and the shipped presets.
add_test(NAME app_fluid3d_help_keys COMMAND texstream-fluid3d --help)
set_tests_properties(app_fluid3d_help_keys PROPERTIES
  PASS_REGULAR_EXPRESSION "--size N.NXxNYxNZ.*left or right drag +orbit.*Shipped presets.*fluid3d-")
list(APPEND _f3_tests app_fluid3d_help_keys)

# A window under Xvfb: every panel section open at 1280x800 with nothing clipped (smoke's
# knobs; a liquid's), GPU timers on, the screenshot and JSON checked.
if(XVFB_EXECUTABLE)
  add_test(NAME app_fluid3d_window_panel_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--scene|smoke-sphere|--size|16|--steps|4|--profile|--check-panel|--window|1280x800|--json|${_f3}/window.json|--screenshot|${_f3}/window.png"
      "-DOUTPUTS=${_f3}/window.json|${_f3}/window.png" "-DEXPECT_STDERR=through GLFW" "-DREJECT_STDERR=panel layout"
      -DCHECKER=$<TARGET_FILE:check_app_output>
      "-DCHECK_ARGS=--json|${_f3}/window.json|--app|fluid3d|--steps|4|--array|divergence_after=4|--equals|headless=false|--png|${_f3}/window.png"
      -P ${_f3_run})
  add_test(NAME app_fluid3d_liquid_panel_1280x800_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid3d> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--scene|drop|--size|12|--steps|3|--tolerance|0|--check-panel|--window|1280x800"
      "-DREJECT_STDERR=panel layout" -P ${_f3_run})
  list(APPEND _f3_tests app_fluid3d_window_panel_xvfb app_fluid3d_liquid_panel_1280x800_xvfb)
endif()

set_tests_properties(${_f3_tests} PROPERTIES TIMEOUT 300 LABELS apps)
