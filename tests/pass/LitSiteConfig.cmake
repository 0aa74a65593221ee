# Writes lit.site.cfg.py for the pass tests into OUT_DIR, for the LLVM found
# by the including project (LLVM_TOOLS_BINARY_DIR, LLVM_VERSION_MAJOR) and
# the plugin in NUMAPERF_PLUGIN_DIR. Shared by tests/pass/CMakeLists.txt and
# the standalone build of pass/ (which runs the same suite on another LLVM).
set(NUMAPERF_PASS_TEST_SRC ${CMAKE_CURRENT_LIST_DIR})

function(numaperf_pass_lit_site_config OUT_DIR)
  set(NUMAPERF_PASS_TEST_EXEC_ROOT ${OUT_DIR})
  set(NUMAPERF_PASS_PLUGIN
    ${NUMAPERF_PLUGIN_DIR}/NumaPerfPass${CMAKE_SHARED_MODULE_SUFFIX})
  configure_file(${NUMAPERF_PASS_TEST_SRC}/lit.site.cfg.py.in
    ${OUT_DIR}/lit.site.cfg.py @ONLY)
endfunction()

# lit.py that ships with this LLVM (Debian: llvm-N-tools), else `lit` on
# PATH. Sets NUMAPERF_LIT to a command list, or fails the configure.
function(numaperf_find_lit)
  set(candidate ${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit/lit.py)
  if(EXISTS ${candidate})
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    get_filename_component(candidate ${candidate} REALPATH)
    set(NUMAPERF_LIT ${Python3_EXECUTABLE} ${candidate} PARENT_SCOPE)
    return()
  endif()
  find_program(NUMAPERF_LIT_PROGRAM lit)
  if(NUMAPERF_LIT_PROGRAM)
    set(NUMAPERF_LIT ${NUMAPERF_LIT_PROGRAM} PARENT_SCOPE)
    return()
  endif()
  message(FATAL_ERROR
    "numaperf pass tests need LLVM's lit: neither ${candidate} "
    "(Debian package llvm-${LLVM_VERSION_MAJOR}-tools) nor `lit` on PATH "
    "was found. Install one, or configure with -DNUMAPERF_BUILD_TESTS=OFF.")
endfunction()
