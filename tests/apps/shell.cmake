# The demo shell as people use it (included from tests/apps/CMakeLists.txt): presets
# (a round trip, bad keys and values named while the rest loads, files that cannot be
# presets), recording through ffmpeg (the clip decodes and holds one frame per step), the
# panel at 1280x800 with nothing clipped (and a narrow window, where the check must fail),
# and files dropped onto the window (the drop callback fed the path, as GLFW feeds it).
if(NOT TARGET texstream-fluid OR NOT TARGET texstream-wave OR NOT TARGET texstream-smooth OR NOT TARGET texstream-param)
  return()
endif()
set(_shell_tests)
set(_sh ${CMAKE_CURRENT_BINARY_DIR}/out/shell)
file(MAKE_DIRECTORY ${_sh})
set(_run ${CMAKE_CURRENT_SOURCE_DIR}/RunApp.cmake)
set(_check $<TARGET_FILE:check_app_output>)

# ---- Presets ------------------------------------------------------------------------------
# Save, load, save again: the same file, the same settings and the same steps.
set(_rt_fluid "fluid|--preset|fluid-cavity-re1000|--size|33|--dye-colors|speed|--splats|2" "divergence_after")
set(_rt_wave "wave|--size|40x24|--scheme|explicit|--dt|0.005|--ripple-height|0.06" "energy")
set(_rt_smooth "smooth|--mesh|builtin:torus:600|--noise|0.2|--precond|jacobi|--wireframe" "area")
set(_rt_param "param|--mesh|builtin:patch:300|--route|cgls|--precond|jacobi|--pins|0,7|--tolerance|1e-5" "pin_uv")
foreach(_demo fluid wave smooth param)
  list(GET _rt_${_demo} 0 _args)
  list(GET _rt_${_demo} 1 _record)
  string(REPLACE "${_demo}|" "" _args "${_args}")
  add_test(NAME app_${_demo}_preset_roundtrip
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-${_demo}> "-DARGS=${_args}" -DOUT=${_sh}
      -DNAME=${_demo}_roundtrip -DRECORD=${_record} -P ${CMAKE_CURRENT_SOURCE_DIR}/PresetRoundTrip.cmake)
  list(APPEND _shell_tests app_${_demo}_preset_roundtrip)
endforeach()

# A preset with bad values and an unknown key: each named on stderr, the run goes on with
# the rest of the preset (the cavity at Re 400) and the defaults where a value was refused.
file(WRITE ${_sh}/bad_values.json
  "{\"app\": \"fluid\", \"scene\": \"cavity\", \"re\": 400, \"omega\": 2.5, \"omgea\": 1, \"cycles\": 0,\n"
  " \"dye-colors\": \"rainbow\", \"size\": [33, 33], \"arrows\": \"yes\"}\n")
add_test(NAME app_fluid_preset_bad_values
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid>
    "-DAPP_ARGS=--headless|--steps|2|--preset|${_sh}/bad_values.json|--json|${_sh}/bad_values_report.json"
    "-DOUTPUTS=${_sh}/bad_values_report.json"
    "-DEXPECT_STDERR=bad_values.json: omega: invalid value \"2.5\": must be in .0, 1.999.[^\n]*\n[^\n]*bad_values.json: dye-colors: invalid value \"rainbow\": expected one of splat.single.vorticity.speed"
    -DCHECKER=${_check}
    "-DCHECK_ARGS=--json|${_sh}/bad_values_report.json|--app|fluid|--steps|2|--equals|scene=cavity|--equals|settings/re=400|--equals|settings/omega=0.8|--equals|settings/cycles=2|--equals|settings/size=[33,33]|--equals|settings/arrows=false"
    -P ${_run})
# The other problems of the same preset, in one line each (the order is the table's).
add_test(NAME app_fluid_preset_bad_values_named
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid>
    "-DAPP_ARGS=--headless|--steps|0|--preset|${_sh}/bad_values.json"
    "-DEXPECT_STDERR=cycles: invalid value \"0\": must be in .1, 1000.*arrows: invalid value \"yes\": expected true or false.*unknown key \"omgea\" .did you mean \"omega\"..*texstream-fluid: headless"
    -P ${_run})
# Files that cannot be presets: usage errors naming the file and why.
file(WRITE ${_sh}/not_json.json "{\"scene\": \"cavity\",\n \"re\": }\n")
file(WRITE ${_sh}/wave_preset.json "{\"app\": \"wave\", \"scheme\": \"explicit\"}\n")
set(_pbad_not_json "fluid|${_sh}/not_json.json" "--preset: invalid value \"[^\"]*not_json.json\": not JSON: parse error at line 2")
set(_pbad_wrong_app "fluid|${_sh}/wave_preset.json" "this preset is for texstream-wave, not texstream-fluid")
set(_pbad_missing "wave|/nonexistent/p.json" "--preset: invalid value \"/nonexistent/p.json\": no such file, nor a shipped preset .shipped for wave: wave-")
set(_pbad_save_ext "smooth|--save-preset|${_sh}/p.txt" "--save-preset: invalid value \"[^\"]*p.txt\": the path must end in .json")
# Issue 35's hostile presets: 100,000 nested arrays (a stack overflow once) are refused by
# line; a number beyond double drops its key alone, named, and the rest loads.
string(REPEAT "[" 100000 _open)
string(REPEAT "]" 100000 _close)
file(WRITE ${_sh}/deep.json "{\"app\": \"fluid\", \"cycles\": ${_open}${_close}}\n")
set(_pbad_deep "fluid|${_sh}/deep.json" "--preset: invalid value \"[^\"]*deep.json\": nested deeper than 32 levels at line 1")
foreach(_case not_json wrong_app missing save_ext deep)
  list(GET _pbad_${_case} 0 _args)
  list(GET _pbad_${_case} 1 _expect)
  string(REGEX MATCH "^[a-z]+" _demo "${_args}")
  string(REPLACE "${_demo}|" "" _args "${_args}")
  if(NOT _args MATCHES "^--")
    set(_args "--preset|${_args}")
  endif()
  add_test(NAME app_preset_bad_${_case}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-${_demo}> "-DAPP_ARGS=--headless|--steps|1|${_args}"
      -DEXPECT_EXIT=2 "-DEXPECT_STDERR=${_expect}" -P ${_run})
  list(APPEND _shell_tests app_preset_bad_${_case})
endforeach()
file(WRITE ${_sh}/beyond_double.json "{\"app\": \"fluid\", \"dt\": 1e309, \"scene\": \"cavity\", \"re\": 400, \"size\": [33, 33]}\n")
add_test(NAME app_fluid_preset_beyond_double
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid>
    "-DAPP_ARGS=--headless|--steps|1|--preset|${_sh}/beyond_double.json|--json|${_sh}/beyond_double_report.json"
    "-DOUTPUTS=${_sh}/beyond_double_report.json"
    "-DEXPECT_STDERR=warning: [^\n]*beyond_double.json: dt: 1e309 is not a finite number [(]beyond double's range[)] [(]the rest of the preset loads[)]"
    -DCHECKER=${_check}
    "-DCHECK_ARGS=--json|${_sh}/beyond_double_report.json|--app|fluid|--steps|1|--equals|scene=cavity|--equals|settings/re=400"
    -P ${_run})
list(APPEND _shell_tests app_fluid_preset_bad_values app_fluid_preset_bad_values_named app_fluid_preset_beyond_double)

# ---- Recording ----------------------------------------------------------------------------
find_program(FFPROBE_EXECUTABLE ffprobe)
find_program(FFMPEG_EXECUTABLE ffmpeg)
# demo | arguments | clip | frames | width | height | under Xvfb
set(_rec_fluid_mp4 "fluid|--headless|--steps|12|--size|40|--splats|4|--record-size|160x100" "fluid.mp4" 12 160 100 0)
set(_rec_wave_webm "wave|--headless|--steps|8|--size|32|--record-size|96x64|--record-fps|24" "wave.webm" 8 96 64 0)
set(_rec_smooth_gif "smooth|--headless|--steps|5|--mesh|builtin:cube:300|--record-size|64x64" "smooth.gif" 5 64 64 0)
# Windowed: the view beside the panel at the view's size, and the whole window with the panel.
set(_rec_fluid_window "fluid|--steps|6|--size|32|--record-size|200x120" "fluid_window.mp4" 6 200 120 1)
set(_rec_wave_panel "wave|--steps|4|--size|32|--record-panel" "wave_panel.mp4" 4 1280 800 1)
foreach(_case fluid_mp4 wave_webm smooth_gif fluid_window wave_panel)
  list(GET _rec_${_case} 0 _args)
  list(GET _rec_${_case} 1 _clip)
  list(GET _rec_${_case} 2 _frames)
  list(GET _rec_${_case} 3 _w)
  list(GET _rec_${_case} 4 _h)
  list(GET _rec_${_case} 5 _window)
  string(REGEX MATCH "^[a-z]+" _demo "${_args}")
  string(REPLACE "${_demo}|" "" _args "${_args}")
  if(NOT FFPROBE_EXECUTABLE OR NOT FFMPEG_EXECUTABLE OR (_window AND NOT XVFB_EXECUTABLE))
    add_test(NAME app_record_${_case}
      COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: ffmpeg, ffprobe (Debian package ffmpeg) or Xvfb (Debian package xvfb) not found; recording is untested")
    set_tests_properties(app_record_${_case} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
  else()
    set(_xvfb)
    if(_window)
      set(_xvfb -DXVFB_RUN=${XVFB_EXECUTABLE})
    endif()
    add_test(NAME app_record_${_case}
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-${_demo}> ${_xvfb}
        "-DAPP_ARGS=${_args}|--record|${_sh}/${_clip}" "-DOUTPUTS=${_sh}/${_clip}"
        "-DEXPECT_STDERR=wrote [^\n]*${_clip} .${_frames} frames, ${_w}x${_h} at"
        -DFFPROBE=${FFPROBE_EXECUTABLE} -DCLIP=${_sh}/${_clip} -DFRAMES=${_frames} -DWIDTH=${_w} -DHEIGHT=${_h}
        -P ${CMAKE_CURRENT_SOURCE_DIR}/RecordApp.cmake)
  endif()
  list(APPEND _shell_tests app_record_${_case})
endforeach()
# Without ffmpeg on PATH, --record is refused before the run with how to install it; an
# unknown extension too.
add_test(NAME app_record_no_ffmpeg
  COMMAND ${CMAKE_COMMAND} -E env PATH=/nonexistent ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid>
    "-DAPP_ARGS=--headless|--steps|1|--record|${_sh}/never.mp4" "-DEXPECT_ABSENT=${_sh}/never.mp4" -DEXPECT_EXIT=2
    "-DEXPECT_STDERR=--record: invalid value \"[^\"]*never.mp4\": ffmpeg not found on PATH: [^\n]*apt-get install ffmpeg"
    -P ${_run})
add_test(NAME app_record_bad_extension
  COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-wave> "-DAPP_ARGS=--headless|--steps|1|--record|${_sh}/w.avi"
    -DEXPECT_EXIT=2 "-DEXPECT_STDERR=--record: invalid value \"[^\"]*w.avi\": the file name must end in .mp4, .webm or .gif"
    -P ${_run})
list(APPEND _shell_tests app_record_no_ffmpeg app_record_bad_extension)

# ---- The panel at 1280x800, and files dropped onto the window (under Xvfb) ------------------
if(XVFB_EXECUTABLE)
  # Every section open, GPU timers on (their table drawn): no clipped label, line or value.
  set(_panel_fluid "fluid|--size|33|--arrows|--dye-colors|single")
  set(_panel_fluid_cg "fluid|--scene|cavity|--size|33|--solver|cg|--display|pressure")
  set(_panel_wave "wave|--size|32|--scheme|explicit")
  set(_panel_smooth "smooth|--mesh|builtin:patch:400|--free-boundary|--precision|mixed|--flow|cmcf")
  # Steps that do not converge: the panel's advice (wrapped text) and count.
  set(_panel_smooth_unconverged "smooth|--mesh|builtin:torus:3000|--max-iterations|3")
  foreach(_case fluid fluid_cg wave smooth smooth_unconverged)
    string(REGEX MATCH "^[a-z]+" _demo "${_panel_${_case}}")
    string(REPLACE "${_demo}|" "" _args "${_panel_${_case}}")
    add_test(NAME app_${_case}_panel_1280x800_xvfb
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-${_demo}> -DXVFB_RUN=${XVFB_EXECUTABLE}
        "-DAPP_ARGS=${_args}|--steps|6|--profile|--check-panel|--window|1280x800" "-DREJECT_STDERR=panel layout"
        -P ${_run})
    list(APPEND _shell_tests app_${_case}_panel_1280x800_xvfb)
  endforeach()
  if(TARGET texstream-param)
    add_test(NAME app_param_panel_1280x800_xvfb
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-param> -DXVFB_RUN=${XVFB_EXECUTABLE}
        "-DAPP_ARGS=--mesh|builtin:patch:300|--steps|2|--profile|--check-panel|--window|1280x800" "-DREJECT_STDERR=panel layout"
        -P ${_run})
    list(APPEND _shell_tests app_param_panel_1280x800_xvfb)
  endif()
  # The check can fail: a window too narrow for the panel clips its labels.
  add_test(NAME app_fluid_panel_narrow_fails_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--size|32|--steps|3|--check-panel|--window|320x600" -DEXPECT_EXIT=1
      "-DEXPECT_STDERR=panel layout: texstream-fluid: section \"scene\": the value \"semi-lagrangian\" of \"advection\" needs [0-9]+ px, its box has [0-9]+.*error: --check-panel: [0-9]+ clipped item"
      -P ${_run})
  list(APPEND _shell_tests app_fluid_panel_narrow_fails_xvfb)

  # Dropped files: a mesh into the smooth demo, a preset into the fluid demo (the window's
  # drop callback gets the paths, as from GLFW); a file the demo cannot open fails the run.
  file(WRITE ${_sh}/octahedron.obj
    "v 1 0 0\nv -1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nv 0 0 -1\n"
    "f 1 3 5\nf 3 2 5\nf 2 4 5\nf 4 1 5\nf 3 1 6\nf 2 3 6\nf 4 2 6\nf 1 4 6\n")
  add_test(NAME app_smooth_drop_mesh_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-smooth> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--mesh|builtin:cube:300|--steps|3|--drop|${_sh}/octahedron.obj|--json|${_sh}/drop_mesh.json"
      "-DOUTPUTS=${_sh}/drop_mesh.json" "-DEXPECT_STDERR=texstream-smooth: loaded octahedron.obj: 6 vertices, 8 triangles"
      -DCHECKER=${_check}
      "-DCHECK_ARGS=--json|${_sh}/drop_mesh.json|--app|smooth|--steps|3|--equals|mesh=${_sh}/octahedron.obj|--equals|vertices=6|--equals|settings/mesh=${_sh}/octahedron.obj"
      -P ${_run})
  add_test(NAME app_fluid_drop_preset_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-fluid> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--size|32|--steps|3|--drop|${_sh}/fluid_roundtrip-a.json|--json|${_sh}/drop_preset.json"
      "-DOUTPUTS=${_sh}/drop_preset.json" "-DEXPECT_STDERR=texstream-fluid: loaded preset [^\n]*fluid_roundtrip-a.json"
      -DCHECKER=${_check}
      "-DCHECK_ARGS=--json|${_sh}/drop_preset.json|--app|fluid|--steps|3|--equals|scene=cavity|--equals|settings/re=1000|--equals|settings/dye-colors=speed"
      -P ${_run})
  set_tests_properties(app_fluid_drop_preset_xvfb PROPERTIES DEPENDS app_fluid_preset_roundtrip)
  file(WRITE ${_sh}/mesh.stl "solid empty\nendsolid empty\n")
  add_test(NAME app_smooth_drop_unknown_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-smooth> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--mesh|builtin:cube:300|--steps|2|--drop|${_sh}/mesh.stl" -DEXPECT_EXIT=1
      "-DEXPECT_STDERR=error: mesh.stl: unknown mesh format \".stl\" [^\n]*.the mesh stays builtin:cube.*--drop: a file could not be opened"
      -P ${_run})
  add_test(NAME app_wave_drop_mesh_refused_xvfb
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:texstream-wave> -DXVFB_RUN=${XVFB_EXECUTABLE}
      "-DAPP_ARGS=--size|32|--steps|2|--drop|${_sh}/octahedron.obj" -DEXPECT_EXIT=1
      "-DEXPECT_STDERR=error: [^\n]*octahedron.obj: this demo opens no files.*--drop: a file could not be opened"
      -P ${_run})
  list(APPEND _shell_tests app_smooth_drop_mesh_xvfb app_fluid_drop_preset_xvfb app_smooth_drop_unknown_xvfb
    app_wave_drop_mesh_refused_xvfb)
endif()

# --help lists the keys and mouse bindings (and the fluid's shipped presets).
foreach(_demo fluid wave smooth)
  add_test(NAME app_${_demo}_help_keys COMMAND texstream-${_demo} --help)
  set_tests_properties(app_${_demo}_help_keys PROPERTIES
    PASS_REGULAR_EXPRESSION "Keys and mouse[^\n]*\n.*space +pause / run.*F1 +this list")
  list(APPEND _shell_tests app_${_demo}_help_keys)
endforeach()
set_tests_properties(app_fluid_help_keys PROPERTIES
  PASS_REGULAR_EXPRESSION "left drag +push the fluid.*Shipped presets.*fluid-cavity-re1000: ")

set_tests_properties(${_shell_tests} PROPERTIES TIMEOUT 300 LABELS apps)
