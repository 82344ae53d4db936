# The trainer's optional CUDA backend: built whenever the CUDA Toolkit (with nvcc), cuDNN
# (>= 8, its convolution API) and NCCL (>= 2.10) are found, as a plugin,
# libtraindesk-trainer-cuda.so, that the trainer loads at run time (--device auto|cuda).
# The trainer itself never links CUDA, so it runs on machines without it.
#   -DTRAINDESK_TRAINER_CUDA=OFF                    never build it
#   -DTRAINDESK_CUDA_ARCHITECTURES="90-real;80-virtual"  (default: SASS for sm_90, H100/H200,
#                                                    plus compute_80 PTX that the driver
#                                                    compiles for any newer GPU)
#   -DCUDNN_ROOT=... / -DNCCL_ROOT=...              where to look besides the toolkit
# Sets TRAINDESK_HAVE_CUDA and the target traindesk_trainer_cuda (static, for tests).
option(TRAINDESK_TRAINER_CUDA "Build the trainer's CUDA backend when CUDA, cuDNN and NCCL are found" ON)
set(TRAINDESK_CUDA_ARCHITECTURES "90-real;80-virtual" CACHE STRING "CUDA architectures of the trainer's GPU backend")
set(TRAINDESK_HAVE_CUDA OFF)
set(_td_cuda_why "")

if(NOT TRAINDESK_TRAINER_CUDA)
  set(_td_cuda_why "disabled (TRAINDESK_TRAINER_CUDA=OFF)")
else()
  find_package(CUDAToolkit QUIET)
  if(NOT CUDAToolkit_FOUND)
    set(_td_cuda_why "CUDA Toolkit not found")
  else()
    include(CheckLanguage)
    check_language(CUDA)
    if(NOT CMAKE_CUDA_COMPILER)
      set(_td_cuda_why "CUDA Toolkit ${CUDAToolkit_VERSION} found but no usable nvcc")
    endif()
  endif()
  if(_td_cuda_why STREQUAL "")
    set(_td_hints ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}
                  ${CUDAToolkit_TARGET_DIR})
    find_path(CUDNN_INCLUDE_DIR cudnn.h
      HINTS ${CUDNN_ROOT} $ENV{CUDNN_ROOT} ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}
      PATH_SUFFIXES include include/x86_64-linux-gnu)
    # Versioned names too: the pip wheels (nvidia-cudnn-cu13, nvidia-nccl-cu13) ship no
    # unversioned symlink; point CUDNN_ROOT / NCCL_ROOT at site-packages/nvidia/{cudnn,nccl}.
    find_library(CUDNN_LIBRARY NAMES cudnn libcudnn.so.9 libcudnn.so.8
      HINTS ${CUDNN_ROOT} $ENV{CUDNN_ROOT} ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}
      PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu)
    find_path(NCCL_INCLUDE_DIR nccl.h
      HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}
      PATH_SUFFIXES include)
    find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2
      HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}
      PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu)
    mark_as_advanced(CUDNN_INCLUDE_DIR CUDNN_LIBRARY NCCL_INCLUDE_DIR NCCL_LIBRARY)
    # Versions from the headers.
    set(_td_cudnn_version "")
    foreach(_h cudnn_version.h cudnn.h)
      if(CUDNN_INCLUDE_DIR AND _td_cudnn_version STREQUAL "" AND EXISTS "${CUDNN_INCLUDE_DIR}/${_h}")
        file(STRINGS "${CUDNN_INCLUDE_DIR}/${_h}" _v REGEX "^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) +[0-9]+")
        string(REGEX MATCH "CUDNN_MAJOR +([0-9]+)" _m "${_v}")
        if(_m)
          set(_major ${CMAKE_MATCH_1})
          string(REGEX MATCH "CUDNN_MINOR +([0-9]+)" _m "${_v}")
          set(_minor ${CMAKE_MATCH_1})
          set(_td_cudnn_version "${_major}.${_minor}")
        endif()
      endif()
    endforeach()
    set(_td_nccl_version "")
    if(NCCL_INCLUDE_DIR)
      file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _v REGEX "^#define NCCL_(MAJOR|MINOR) +[0-9]+")
      string(REGEX MATCH "NCCL_MAJOR +([0-9]+)" _m "${_v}")
      set(_major ${CMAKE_MATCH_1})
      string(REGEX MATCH "NCCL_MINOR +([0-9]+)" _m "${_v}")
      set(_minor ${CMAKE_MATCH_1})
      if(NOT _major STREQUAL "")
        set(_td_nccl_version "${_major}.${_minor}")
      endif()
    endif()
    if(NOT CUDNN_INCLUDE_DIR OR NOT CUDNN_LIBRARY)
      set(_td_cuda_why "cuDNN not found (cudnn.h / libcudnn; set CUDNN_ROOT)")
    elseif(_td_cudnn_version VERSION_LESS 8.0)
      set(_td_cuda_why "cuDNN ${_td_cudnn_version} is older than 8.0")
    elseif(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
      set(_td_cuda_why "NCCL not found (nccl.h / libnccl; set NCCL_ROOT)")
    elseif(_td_nccl_version VERSION_LESS 2.10)
      set(_td_cuda_why "NCCL ${_td_nccl_version} is older than 2.10")
    endif()
  endif()
endif()

if(NOT _td_cuda_why STREQUAL "")
  message(STATUS "traindesk-trainer: CPU only, no CUDA backend: ${_td_cuda_why}")
  return()
endif()

set(TRAINDESK_HAVE_CUDA ON)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES ${TRAINDESK_CUDA_ARCHITECTURES})
endif()
enable_language(CUDA)
include(GNUInstallDirs)
message(STATUS "traindesk-trainer: CUDA backend built (CUDA ${CUDAToolkit_VERSION}, cuDNN ${_td_cudnn_version}, "
               "NCCL ${_td_nccl_version}; architectures ${TRAINDESK_CUDA_ARCHITECTURES}): ${CUDNN_LIBRARY}")

add_library(traindesk_trainer_cuda STATIC
  src/cuda/augment.cu
  src/cuda/bias_act.cu
  src/cuda/pool.cu
  src/cuda/loss.cu
  src/cuda/rmsprop.cu
  src/cuda/fused.cu
  src/cuda/first_layer.cu
  src/cuda/layer_forward.cu
  src/cuda/layer_backward.cu
  src/cuda/burn_in.cu
  src/cuda/device.cpp
  src/cuda/context.cpp
  src/cuda/conv.cpp
  src/cuda/dense.cpp
  src/cuda/gpu_net.cpp
  src/cuda/layout.cpp
  src/cuda/nccl_comm.cpp
  src/cuda/step_graph.cpp
  src/cuda/cuda_backend.cpp
)
set_target_properties(traindesk_trainer_cuda PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_EXTENSIONS OFF
  CUDA_STANDARD 17
  CUDA_STANDARD_REQUIRED ON
  CUDA_EXTENSIONS OFF
  CUDA_ARCHITECTURES "${TRAINDESK_CUDA_ARCHITECTURES}")
target_include_directories(traindesk_trainer_cuda SYSTEM PUBLIC
  ${CUDNN_INCLUDE_DIR} ${NCCL_INCLUDE_DIR} ${CUDAToolkit_INCLUDE_DIRS})
target_link_libraries(traindesk_trainer_cuda PUBLIC
  traindesk_trainer_base CUDA::cudart CUDA::cublas ${CUDNN_LIBRARY} ${NCCL_LIBRARY})
# The driver stub, for the test that loads the plugin on machines without a driver.
find_file(TRAINDESK_CUDA_DRIVER_STUB libcuda.so
  HINTS ${CUDAToolkit_LIBRARY_DIR}/stubs ${CUDAToolkit_LIBRARY_ROOT}/lib64/stubs ${CUDAToolkit_LIBRARY_ROOT}/lib/stubs
        ${CUDAToolkit_TARGET_DIR}/lib/stubs ${CUDAToolkit_TARGET_DIR}/lib64/stubs
  NO_DEFAULT_PATH)
mark_as_advanced(TRAINDESK_CUDA_DRIVER_STUB)
target_compile_options(traindesk_trainer_cuda PRIVATE
  $<$<COMPILE_LANGUAGE:CXX>:$<$<CONFIG:Release,RelWithDebInfo>:-O3> ${TRAINER_ARCH_FLAGS} -Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-O3 -Xcompiler=-Wall --Werror=cross-execution-space-call>)

# The plugin. Symbols of the static libraries stay inside it; only td_cuda_* are exported.
add_library(traindesk-trainer-cuda MODULE src/cuda/plugin.cpp)
target_link_libraries(traindesk-trainer-cuda PRIVATE traindesk_trainer_cuda)
if(CMAKE_RUNTIME_OUTPUT_DIRECTORY)
  set(_td_plugin_dir ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
else()
  set(_td_plugin_dir ${CMAKE_CURRENT_BINARY_DIR})
endif()
set_target_properties(traindesk-trainer-cuda PROPERTIES
  PREFIX "lib"
  LIBRARY_OUTPUT_DIRECTORY ${_td_plugin_dir}
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON
  CXX_EXTENSIONS OFF
  INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
get_filename_component(_td_cudnn_dir "${CUDNN_LIBRARY}" DIRECTORY)
get_filename_component(_td_nccl_dir "${NCCL_LIBRARY}" DIRECTORY)
set_property(TARGET traindesk-trainer-cuda APPEND PROPERTY INSTALL_RPATH "${_td_cudnn_dir}" "${_td_nccl_dir}")
target_link_options(traindesk-trainer-cuda PRIVATE -Wl,--no-undefined -Wl,--exclude-libs,ALL)
target_compile_options(traindesk-trainer-cuda PRIVATE -Wall -Wextra)
install(TARGETS traindesk-trainer-cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/traindesk COMPONENT trainer)

target_compile_definitions(traindesk_trainer_lib PUBLIC TRAINDESK_HAVE_CUDA=1)
math(EXPR _td_cuda_runtime_version "${CUDAToolkit_VERSION_MAJOR} * 1000 + ${CUDAToolkit_VERSION_MINOR} * 10")
target_compile_definitions(traindesk_trainer_lib PRIVATE
  TRAINDESK_CUDA_PLUGIN_RELDIR="../${CMAKE_INSTALL_LIBDIR}/traindesk"
  TRAINDESK_CUDA_RUNTIME_VERSION=${_td_cuda_runtime_version})
