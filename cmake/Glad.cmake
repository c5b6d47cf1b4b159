# glad 2 (Debian python3-glad) generates one loader for desktop GL 4.5 core and OpenGL ES 3.2
# (--merge: one set of entry points, loaded by gladLoadGL or gladLoadGLES2, whichever API the
# current context has; see src/gl/Capabilities.cpp), plus EGL 1.5, at configure time.
# --reproducible makes it use the Khronos XML bundled with the package (no network).
# The generated files live in the build tree and are never committed.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(TEXSTREAM_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
set(_glad_extensions
  GL_KHR_debug GL_ARB_texture_barrier GL_NVX_gpu_memory_info GL_ARB_texture_storage
  GL_EXT_disjoint_timer_query GL_EXT_color_buffer_float GL_EXT_color_buffer_half_float
  GL_EXT_float_blend GL_OES_texture_float_linear
  EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_device_drm
  EGL_EXT_platform_base EGL_EXT_platform_device EGL_MESA_platform_surfaceless
  EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_create_context)
list(JOIN _glad_extensions "," _glad_extension_list)
set(_glad_apis "gl:core=4.5,gles2=3.2,egl=1.5")
set(_glad_stamp "${_glad_extension_list};${_glad_apis};merge")
if(NOT EXISTS ${TEXSTREAM_GLAD_DIR}/src/gl.c OR NOT "${TEXSTREAM_GLAD_STAMP}" STREQUAL "${_glad_stamp}")
  message(STATUS "Generating glad (${_glad_apis}) in ${TEXSTREAM_GLAD_DIR}")
  file(REMOVE_RECURSE ${TEXSTREAM_GLAD_DIR})
  execute_process(
    COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --merge --api ${_glad_apis}
            --extensions ${_glad_extension_list} --out-path ${TEXSTREAM_GLAD_DIR} c --loader
    RESULT_VARIABLE _glad_result OUTPUT_VARIABLE _glad_out ERROR_VARIABLE _glad_out)
  if(NOT _glad_result EQUAL 0)
    message(FATAL_ERROR "glad failed (${_glad_result}):\n${_glad_out}")
  endif()
  set(TEXSTREAM_GLAD_STAMP "${_glad_stamp}" CACHE INTERNAL "")
endif()
