# The browser build: the same sources compiled by Debian's emscripten (em++) for WebGL2.
# Configure with `emcmake cmake -DTEXSTREAM_WEB=ON -DTEXSTREAM_IMGUI_SOURCE_DIR=...` (./run web
# does it). What differs from the native build lives here:
#  - header-only libraries (CLI11, nlohmann-json, glm, stb, tinyobjloader, Catch2) come from
#    the host's /usr/include through a folder of links to just them: the host's libc
#    headers must never reach em++;
#  - Dear ImGui 1.86 (Debian's source package, the version the native build links) is built
#    here as a static library with its GLFW and OpenGL ES 3 backends;
#  - every target compiles with exceptions (texstream reports errors by throwing) and
#    programs link with emscripten's GLFW and a WebGL2 context.
if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "TEXSTREAM_WEB=ON needs emscripten's toolchain: configure with "
                      "`emcmake cmake -S . -B build-web -DTEXSTREAM_WEB=ON` (or use ./run web)")
endif()

set(TEXSTREAM_IMGUI_SOURCE_DIR "" CACHE PATH
    "Dear ImGui 1.86 sources (apt-get source imgui; ./run web unpacks them into build-web/imgui-src)")
if(NOT EXISTS "${TEXSTREAM_IMGUI_SOURCE_DIR}/imgui.cpp")
  message(FATAL_ERROR "TEXSTREAM_IMGUI_SOURCE_DIR (\"${TEXSTREAM_IMGUI_SOURCE_DIR}\") holds no imgui.cpp: "
                      "unpack Debian's sources with `apt-get source imgui` (./run web does it)")
endif()

# JavaScript-based exception handling: the prebuilt sysroot of Debian's emscripten has the
# libc++abi variant for it and none for wasm exceptions.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)

set(TEXSTREAM_HOST_INCLUDE_DIR ${CMAKE_BINARY_DIR}/host-include)
file(MAKE_DIRECTORY ${TEXSTREAM_HOST_INCLUDE_DIR})
foreach(_entry "CLI:CLI/CLI.hpp" "nlohmann:nlohmann/json.hpp" "glm:glm/glm.hpp" "stb:stb/stb_image_write.h"
               "catch2:catch2/catch.hpp" "tiny_obj_loader.h:tiny_obj_loader.h" "Eigen:eigen3/Eigen/Core")
  string(REPLACE ":" ";" _parts "${_entry}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _probe)
  if(EXISTS /usr/include/${_probe})
    string(REGEX REPLACE "/[^/]*$" "" _dir "${_probe}")
    if(_probe STREQUAL _name)
      set(_target /usr/include/${_name})
    else()
      set(_target /usr/include/${_dir})
    endif()
    if(NOT EXISTS ${TEXSTREAM_HOST_INCLUDE_DIR}/${_name})
      file(CREATE_LINK ${_target} ${TEXSTREAM_HOST_INCLUDE_DIR}/${_name} SYMBOLIC)
    endif()
  else()
    message(FATAL_ERROR "/usr/include/${_probe} is missing: ./run web installs the header-only libraries")
  endif()
endforeach()

# Dear ImGui with the GLFW backend (emscripten's built-in GLFW 3.2 API) and the OpenGL 3
# backend on OpenGL ES 3 (WebGL2); the shell initialises it with "#version 300 es".
set(_imgui ${TEXSTREAM_IMGUI_SOURCE_DIR})
add_library(texstream_web_imgui STATIC
  ${_imgui}/imgui.cpp ${_imgui}/imgui_draw.cpp ${_imgui}/imgui_tables.cpp ${_imgui}/imgui_widgets.cpp
  ${_imgui}/imgui_demo.cpp ${_imgui}/backends/imgui_impl_glfw.cpp ${_imgui}/backends/imgui_impl_opengl3.cpp)
target_include_directories(texstream_web_imgui PUBLIC ${_imgui})
target_compile_definitions(texstream_web_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_options(texstream_web_imgui INTERFACE -sUSE_GLFW=3)

# What every program of the browser build links: GLFW, a WebGL2 context (with the ES 3.0
# entry points WebGL2 lacks emulated, FULL_ES3), a heap that grows with the grid, an exit
# that reaches the page (Module.onExit), whose verdict is the exit code, and what the page
# shell (web/texstream-page.js) uses: ccall for the exported texstream_* functions, the
# file system for files in and out, ENV for the environment a page parameter sets.
add_library(texstream_web_runtime INTERFACE)
target_link_options(texstream_web_runtime INTERFACE
  -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2 -sFULL_ES3=1 -sALLOW_MEMORY_GROWTH=1
  -sEXIT_RUNTIME=1 "-sEXPORTED_RUNTIME_METHODS=['ccall','FS','ENV']")
