# The libraries the harness and its tests build on: Google Benchmark,
# nlohmann/json and GoogleTest. Each is found first (the system's packages,
# an environment module, a Spack view, CMAKE_PREFIX_PATH) and otherwise
# built from its pinned upstream release, checked by hash (FetchContent with
# FIND_PACKAGE_ARGS), so that a user without root builds the suite too.
#
# A node without internet takes the sources from local folders, by CMake's
# own variables for the names declared here (benchmark, nlohmann_json,
# googletest):
#   -DFETCHCONTENT_SOURCE_DIR_BENCHMARK=DIR -DFETCHCONTENT_SOURCE_DIR_NLOHMANN_JSON=DIR
#   -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=DIR -DFETCHCONTENT_FULLY_DISCONNECTED=ON
# and -DCMAKE_DISABLE_FIND_PACKAGE_<name>=ON (benchmark, nlohmann_json,
# googletest) skips the search and builds that one from source.
include(FetchContent)

# Built from source: the library alone, none of its own tests, docs or install rules.
set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "Google Benchmark's own tests (hpc-ladder: off)")
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "Google Benchmark's own GoogleTest tests (hpc-ladder: off)")
set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "install Google Benchmark (hpc-ladder: off)")
set(BENCHMARK_INSTALL_DOCS OFF CACHE BOOL "install Google Benchmark's docs (hpc-ladder: off)")
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "Google Benchmark with -Werror (hpc-ladder: off)")
set(JSON_BuildTests OFF CACHE BOOL "nlohmann/json's own tests (hpc-ladder: off)")
set(INSTALL_GTEST OFF CACHE BOOL "install GoogleTest (hpc-ladder: off)")
set(BUILD_GMOCK OFF CACHE BOOL "GoogleMock (hpc-ladder: not used)")

FetchContent_Declare(benchmark
  URL https://github.com/google/benchmark/archive/refs/tags/v1.8.3.tar.gz
  URL_HASH SHA256=6bc180a57d23d4d9515519f92b0c83d61b05b5bab188961f36ac7b06b0d9e9ce
  DOWNLOAD_EXTRACT_TIMESTAMP TRUE
  FIND_PACKAGE_ARGS)
FetchContent_Declare(nlohmann_json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
  URL_HASH SHA256=d6c65aca6b1ed68e7a182f4757257b107ae403032760ed6ef121c9d55e81757d
  DOWNLOAD_EXTRACT_TIMESTAMP TRUE
  FIND_PACKAGE_ARGS 3.10)
# Found as the package GTest (GTest::gtest, GTest::gtest_main); built, the same targets.
FetchContent_Declare(googletest
  URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz
  URL_HASH SHA256=8ad598c73ad796e0d8280b082cebd82a630d73e73cd3c70057938a6501bba5d7
  DOWNLOAD_EXTRACT_TIMESTAMP TRUE
  FIND_PACKAGE_ARGS NAMES GTest)

FetchContent_MakeAvailable(benchmark nlohmann_json)

# Where each came from, in the configure output.
foreach(name benchmark nlohmann_json)
  if(${name}_FOUND)
    message(STATUS "hpc-ladder: ${name} found (${${name}_DIR})")
  else()
    message(STATUS "hpc-ladder: ${name} built from source (not found, or CMAKE_DISABLE_FIND_PACKAGE_${name}): "
                   "${${name}_SOURCE_DIR}")
  endif()
endforeach()
