# What every fuzzer's own project shares (included by tests/fuzz/<name>/CMakeLists.txt):
# C++20, Qt, and traindesk_fuzz_target(NAME SOURCES...), a libFuzzer program built with
# AddressSanitizer (its leak checker runs at the end) and UndefinedBehaviorSanitizer from
# core sources (paths relative to core/).
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT TRAINDESK_SOURCE_DIR)
  message(FATAL_ERROR "TRAINDESK_SOURCE_DIR is not set")
endif()
set(core ${TRAINDESK_SOURCE_DIR}/core)

function(traindesk_fuzz_target name)
  set(sources ${ARGN})
  list(TRANSFORM sources PREPEND ${core}/)
  add_executable(${name} ${name}.cpp ${sources})
  target_include_directories(${name} PRIVATE ${core})
  set(sanitizers -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  # Line tables are all a sanitizer report needs to name file and line.
  target_compile_options(${name} PRIVATE ${sanitizers} -gline-tables-only -O1)
  target_link_options(${name} PRIVATE ${sanitizers})
endfunction()
