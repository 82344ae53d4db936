# The fuzzers' own project, built with clang (libFuzzer needs it; the main build may use GCC)
# as one external project of tests/fuzz/CMakeLists.txt: one configure and one ninja for all
# the fuzzers (each was a project of its own, configured and built one after the other).
# Each fuzzer's folder (tests/fuzz/<name>) says what it
# is built from with traindesk_fuzz_target(NAME SOURCES...): a libFuzzer program built with
# AddressSanitizer (its leak checker runs at the end) and UndefinedBehaviorSanitizer from
# core sources (paths relative to core/).
cmake_minimum_required(VERSION 3.25)
project(TrainDeskFuzzers LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT TRAINDESK_SOURCE_DIR)
  message(FATAL_ERROR "TRAINDESK_SOURCE_DIR is not set")
endif()
set(core ${TRAINDESK_SOURCE_DIR}/core)
# tests/fuzz/CMakeLists.txt runs them from here.
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

find_package(Qt6 6.4 REQUIRED COMPONENTS Core Network)  # Network: JobNetwork reads addresses
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBCRYPTO REQUIRED IMPORTED_TARGET libcrypto)
find_package(ZLIB REQUIRED)

# The sources are built in unity batches (most are batched in the core library too): one
# sanitized translation unit per batch instead of per source; the fuzz driver stays alone.
function(traindesk_fuzz_target name)
  set(sources ${ARGN})
  list(TRANSFORM sources PREPEND ${core}/)
  add_executable(${name} ${name}.cpp ${sources})
  target_include_directories(${name} PRIVATE ${core})
  set(sanitizers -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  # Line tables are all a sanitizer report needs to name file and line.
  target_compile_options(${name} PRIVATE ${sanitizers} -gline-tables-only -O1)
  target_link_options(${name} PRIVATE ${sanitizers})
  set_source_files_properties(${name}.cpp PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
endfunction()

add_subdirectory(../jobspec jobspec)
add_subdirectory(../metrics metrics)
add_subdirectory(../sweeps sweeps)
add_subdirectory(../checkpoint checkpoint)
