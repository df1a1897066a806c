# servebench_warnings(TARGET) — the project's warnings, set per target so that third-party code and
# generated tables are not held to them. SERVEBENCH_WERROR (the release preset, which CI builds)
# makes them errors.
function(servebench_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O2 warns inside libstdc++'s own std::string, std::variant and std::expected code
    # (GCC bugs 105329, 105651, 107138) and about the tests' counting operator new; all false positives.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-array-bounds -Wno-stringop-overflow
                           -Wno-stringop-overread -Wno-maybe-uninitialized -Wno-mismatched-new-delete)
  endif()
  if(SERVEBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# servebench_unity(TARGET) — with SERVEBENCH_UNITY, compile TARGET's sources in batches of
# SERVEBENCH_UNITY_BATCH files per translation unit. Applied to every module and test binary: most
# of a unit's compile time is the same headers parsed again (the standard library, Boost.JSON, fmt,
# gtest, CLI11, Beast), which made up most of a fresh build (docs/build.md, "Build time"). File-local names must then be unique within a target: two files of
# one batch share a translation unit and so share their anonymous namespaces.
function(servebench_unity target)
  if(NOT SERVEBENCH_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${SERVEBENCH_UNITY_BATCH})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # A unity source includes the .cpp files, so GCC takes each file's anonymous-namespace types for
    # an included file's and warns about every class deriving from one (each test fixture's tests).
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# servebench_module(NAME [OWN_PCH] SOURCES... DEPS ...) — one static library per module, compiled in
# unity batches (servebench_unity) with the library's shared precompiled header (CMakeLists.txt), or
# with OWN_PCH the one the module's CMakeLists.txt sets (a target has at most one).
function(servebench_module name)
  cmake_parse_arguments(M "OWN_PCH" "" "SOURCES;DEPS" ${ARGN})
  add_library(servebench_${name} STATIC ${M_SOURCES})
  target_include_directories(servebench_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(servebench_${name} PUBLIC ${M_DEPS})
  servebench_warnings(servebench_${name})
  if(NOT M_OWN_PCH)
    target_precompile_headers(servebench_${name} REUSE_FROM servebench_library_pch)
  endif()
  servebench_unity(servebench_${name})
endfunction()

# The definitions and options every test binary (unit and e2e, and the shared test PCH) is compiled
# with; they must be the same in all of them, or GCC rejects the shared precompiled header
# (-Winvalid-pch, an error in ci). Test code is compiled at -O1 in the optimized builds: it runs
# fixtures and assertions around the library, which keeps -O3 (the tests measure the library and
# the servebench binary, never their own code), and -O1 compiles a test unit 20-40 % faster.
function(servebench_test_compile_settings target)
  target_compile_definitions(${target} PRIVATE
    SERVEBENCH_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    SERVEBENCH_SHARED_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()

# servebench_unit_test(MODULE SOURCES...) — one gtest binary per module, label `unit`.
function(servebench_unit_test module)
  cmake_parse_arguments(T "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  set(exe unit_${module})
  add_executable(${exe} ${T_SOURCES})
  target_link_libraries(${exe} PRIVATE servebench_${module} ${T_DEPS} GTest::gtest GTest::gtest_main GTest::gmock
                        Boost::json fmt::fmt)
  # tests/support/ holds the helpers every suite shares ("support/fixture.hpp").
  target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  servebench_warnings(${exe})
  servebench_test_compile_settings(${exe})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  # One precompiled header (tests/CMakeLists.txt) serves every unit-test binary: compiled once per
  # build, and an unchanged header keeps the test objects' ccache entries valid.
  target_precompile_headers(${exe} REUSE_FROM servebench_test_pch)
  servebench_unity(${exe})
  gtest_discover_tests(${exe} DISCOVERY_MODE PRE_TEST)
  # The labels: T_LABELS and the module's name, so a run can pick suites by module (scripts/sanitize
  # tsan). Set after discovery, from the list of tests it leaves: gtest_discover_tests' PROPERTIES
  # cannot carry a list value (it flattens "unit;http" into two properties).
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${exe}_labels.cmake)
  file(WRITE ${labels_file}
       "if(DEFINED ${exe}_TESTS)\n  set_tests_properties(\${${exe}_TESTS} PROPERTIES LABELS \"${T_LABELS};${module}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()

# servebench_e2e_binary(NAME LABELS SOURCES... [PROPERTIES ...]) — a gtest binary that spawns the real
# CLI (SERVEBENCH_BIN) on loopback; skipped tests are reported as skipped, not passed.
function(servebench_e2e_binary name label)
  cmake_parse_arguments(E "" "" "SOURCES;PROPERTIES" ${ARGN})
  add_executable(${name} ${E_SOURCES})
  target_link_libraries(${name} PRIVATE servebench_cli GTest::gtest GTest::gtest_main GTest::gmock)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE SERVEBENCH_BIN="$<TARGET_FILE:servebench>")
  add_dependencies(${name} servebench)
  servebench_warnings(${name})
  servebench_test_compile_settings(${name})
  target_precompile_headers(${name} REUSE_FROM servebench_test_pch)
  servebench_unity(${name})
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
    PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" ${E_PROPERTIES})
  # LABEL may be a list ("e2e;timing"): set after discovery, as servebench_unit_test does.
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  file(WRITE ${labels_file}
       "if(DEFINED ${name}_TESTS)\n  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${label}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()
