# Each backend option is AUTO (use it when the machine has it), ON (fail
# when it is missing) or OFF. The configure output says what was found and
# what was skipped, and why.
set(LADDER_BACKEND_VALUES AUTO ON OFF)
foreach(backend OPENMP OPENMP_TARGET OPENCL CUDA MPI NCCL)
  set(LADDER_${backend} AUTO CACHE STRING "Build the ${backend} rungs: AUTO, ON or OFF")
  set_property(CACHE LADDER_${backend} PROPERTY STRINGS ${LADDER_BACKEND_VALUES})
  string(TOUPPER "${LADDER_${backend}}" LADDER_${backend})
  if(NOT LADDER_${backend} IN_LIST LADDER_BACKEND_VALUES)
    message(FATAL_ERROR "LADDER_${backend}=${LADDER_${backend}}: use AUTO, ON or OFF")
  endif()
  set(LADDER_HAVE_${backend} OFF)
endforeach()

function(ladder_backend_result backend found why_not)
  if(found)
    set(LADDER_HAVE_${backend} ON PARENT_SCOPE)
    message(STATUS "hpc-ladder: ${backend} rungs enabled")
  elseif(LADDER_${backend} STREQUAL "ON")
    message(FATAL_ERROR "hpc-ladder: LADDER_${backend}=ON but ${why_not}")
  else()
    message(STATUS "hpc-ladder: ${backend} rungs skipped: ${why_not}")
    set(LADDER_NO_${backend}_REASON "${why_not}" PARENT_SCOPE)  # what each of its rungs says
  endif()
endfunction()

# A backend the user turned off: said at configure time, and as the reason
# each of its rungs gives (LADDER_NO_<backend>_REASON, where a build uses it).
function(ladder_backend_off backend)
  message(STATUS "hpc-ladder: ${backend} rungs skipped: LADDER_${backend}=OFF")
  set(LADDER_NO_${backend}_REASON "LADDER_${backend}=OFF" PARENT_SCOPE)
endfunction()

# OpenMP from the compiler.
if(NOT LADDER_OPENMP STREQUAL "OFF")
  find_package(OpenMP COMPONENTS CXX)
  ladder_backend_result(OPENMP "${OpenMP_CXX_FOUND}" "the compiler has no OpenMP support")
else()
  ladder_backend_off(OPENMP)
endif()

# OpenMP target offload (the openmp_target rungs) needs a second compiler:
# clang++ with libomp and libomptarget (Debian: clang-16 libomp-16-dev
# clang-tools-16) and the CUDA toolkit's ptxas and nvlink. The project's
# compiler cannot offload fast enough to teach with (GCC's nvptx offload),
# so these rungs are compiled and linked by clang++ into a shared library of
# their own (cmake/LadderOpenMpTarget.cmake, docs/design.md). Found by
# building a target region here, as the rungs are built.
set(LADDER_OPENMP_TARGET_ARCH sm_90 CACHE STRING "The GPU the openmp_target rungs are compiled for (sm_90: H100, H200)")
set(LADDER_OPENMP_TARGET_BUNDLE "" CACHE PATH
    "A folder of openmp_target rung libraries built on another machine, with lib/ holding their OpenMP runtime (scripts/openmp_target_bundle.sh)")
if(NOT LADDER_OPENMP_TARGET STREQUAL "OFF")
  find_program(LADDER_OPENMP_TARGET_COMPILER NAMES clang++-16 clang++
               DOC "clang++ with OpenMP offload, for the openmp_target rungs")
  set(LADDER_OPENMP_TARGET_FLAGS -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda
      -Xopenmp-target=nvptx64-nvidia-cuda -march=${LADDER_OPENMP_TARGET_ARCH}
      -Wno-unknown-cuda-version)  # clang 16 knows CUDA up to 11.8, and builds with newer toolkits all the same
  set(why_not "")
  if(LADDER_OPENMP_TARGET_BUNDLE)
    # Built elsewhere (scripts/openmp_target_bundle.sh): the GPU machines have no clang.
    message(STATUS "hpc-ladder: openmp_target rungs prebuilt, from ${LADDER_OPENMP_TARGET_BUNDLE}")
  elseif(NOT LADDER_OPENMP_TARGET_COMPILER)
    set(why_not "no clang++ found (Debian: clang-16 libomp-16-dev clang-tools-16)")
  else()
    set(probe ${CMAKE_BINARY_DIR}/openmp_target_probe)
    file(WRITE ${probe}/probe.cpp "int on_device() {
  int x = 0;
#pragma omp target map(tofrom: x)
  x = 1;
  return x;
}
")
    execute_process(COMMAND ${LADDER_OPENMP_TARGET_COMPILER} ${LADDER_OPENMP_TARGET_FLAGS} -fPIC -shared
                            probe.cpp -o probe.so
                    WORKING_DIRECTORY ${probe} RESULT_VARIABLE failed OUTPUT_QUIET ERROR_VARIABLE errors)
    if(failed)
      string(REGEX MATCH "[^\n]*error[^\n]*" first_error "${errors}")
      string(CONCAT why_not "${LADDER_OPENMP_TARGET_COMPILER} cannot build an OpenMP target region for nvptx64 "
             "${LADDER_OPENMP_TARGET_ARCH}: ${first_error} (Debian: clang-16 libomp-16-dev clang-tools-16, "
             "and the CUDA toolkit)")
    endif()
  endif()
  string(COMPARE EQUAL "${why_not}" "" found)  # found: no reason why not
  ladder_backend_result(OPENMP_TARGET "${found}" "${why_not}")
else()
  ladder_backend_off(OPENMP_TARGET)
endif()

# OpenCL through the ICD loader; the platform (PoCL, a GPU driver) is found at run time.
if(NOT LADDER_OPENCL STREQUAL "OFF")
  find_package(OpenCL)
  ladder_backend_result(OPENCL "${OpenCL_FOUND}"
    "no OpenCL ICD loader and headers (Debian: ocl-icd-opencl-dev opencl-headers)")
else()
  ladder_backend_off(OPENCL)
endif()

# CUDA when nvcc is found. Kernels compile without a GPU; they run where one is.
if(NOT LADDER_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)   # the toolkit's usual home, off PATH
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Turing (T4, Colab) to Hopper (H100), plus PTX for newer GPUs.
    # Override: -DCMAKE_CUDA_ARCHITECTURES=90 (or "native" on a GPU machine).
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90")
    endif()
    enable_language(CUDA)
    if(CMAKE_VERSION VERSION_LESS 3.26 AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
      # CMake before 3.26 does not know nvcc's C++20 flag (Debian 12 has 3.25).
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    message(STATUS "hpc-ladder: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  ladder_backend_result(CUDA "${CMAKE_CUDA_COMPILER}" "nvcc was not found (set CUDACXX or put nvcc on PATH)")
else()
  ladder_backend_off(CUDA)
endif()

# MPI for the distributed rungs (Open MPI from Debian: openmpi-bin, libopenmpi-dev).
if(NOT LADDER_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  ladder_backend_result(MPI "${MPI_CXX_FOUND}" "no MPI found (Debian: openmpi-bin libopenmpi-dev)")
  find_program(LADDER_MPIEXEC NAMES mpirun mpiexec HINTS ${MPIEXEC_EXECUTABLE})
else()
  ladder_backend_off(MPI)
endif()

# NCCL for GPU-to-GPU traffic between the ranks of the MPI rungs with a GPU
# each: the library and header, found like any library (the CUDA toolkit's
# folders first).
if(NOT LADDER_NCCL STREQUAL "OFF")
  if(LADDER_HAVE_CUDA AND LADDER_HAVE_MPI)
    find_path(LADDER_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    # libnccl.so.2 where only the runtime package is there (no libnccl.so link).
    find_library(LADDER_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${CUDAToolkit_LIBRARY_DIR})
    if(LADDER_NCCL_INCLUDE_DIR AND LADDER_NCCL_LIBRARY)
      add_library(ladder_nccl INTERFACE)
      target_include_directories(ladder_nccl INTERFACE ${LADDER_NCCL_INCLUDE_DIR})
      target_link_libraries(ladder_nccl INTERFACE ${LADDER_NCCL_LIBRARY})
    endif()
    ladder_backend_result(NCCL "${LADDER_NCCL_LIBRARY}" "no nccl.h and libnccl.so found (NVIDIA's libnccl-dev)")
  else()
    ladder_backend_result(NCCL "" "its rungs need both CUDA and MPI")
  endif()
else()
  ladder_backend_off(NCCL)
endif()

# Warnings for every target of the project.
add_library(ladder_warnings INTERFACE)
target_compile_options(ladder_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  # Source lines in the kernels' debug information, so that compute-sanitizer
  # reports and Nsight Compute profiles name them (no effect on the code).
  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
if(LADDER_WERROR)
  target_compile_options(ladder_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
