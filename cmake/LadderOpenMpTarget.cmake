# The openmp_target rungs: OpenMP target offload, compiled by a second
# compiler. The project's compiler (GCC) builds everything else; clang++
# compiles and links each openmp_target rung file into a shared library of
# its own, because only clang's own link step embeds the GPU code and
# registers it with libomptarget. `ladder` links that library like any
# other; the rung registers itself when it is loaded, as every rung does.
# The two OpenMP runtimes meet in one process: GCC's code calls libgomp and
# the rung's calls libomp, each through its own versioned symbols
# (docs/design.md, "The openmp_target rungs: two compilers").

# ladder_add_openmp_target_rung(TARGET FILE): FILE (an <exercise>/openmp_target*.cpp)
# built by clang++ into lib<TARGET>_<exercise>_<rung>.so, linked by whatever links TARGET.
function(ladder_add_openmp_target_rung target file)
  get_filename_component(rung ${file} NAME_WE)
  get_filename_component(folder ${file} DIRECTORY)
  get_filename_component(exercise ${folder} NAME)
  set(name ${target}_${exercise}_${rung})
  set(library ${CMAKE_BINARY_DIR}/openmp_target/lib${name}.so)
  set(warnings -Wall -Wextra -Wpedantic)
  if(LADDER_WERROR)
    list(APPEND warnings -Werror)
  endif()
  if(LADDER_OPENMP_TARGET_BUNDLE)
    # Prebuilt by scripts/openmp_target_bundle.sh from this same source tree.
    set(library ${LADDER_OPENMP_TARGET_BUNDLE}/lib${name}.so)
    if(NOT EXISTS ${library})
      message(FATAL_ERROR "LADDER_OPENMP_TARGET_BUNDLE has no lib${name}.so: "
                          "make the bundle again (scripts/openmp_target_bundle.sh) from this source tree")
    endif()
    # ld looks for the library's libomp and libomptarget when it links ladder.
    target_link_libraries(${target} PUBLIC "-Wl,--push-state,--no-as-needed,${library},--pop-state"
                                           "-Wl,-rpath-link,${LADDER_OPENMP_TARGET_BUNDLE}/lib")
    return()
  endif()
  set(definitions $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)  # LADDER_TRACK for exercises/
  get_target_property(json_includes nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT json_includes)
    set(json_includes "")
  endif()
  add_custom_command(
    OUTPUT ${library}
    COMMAND ${LADDER_OPENMP_TARGET_COMPILER} ${LADDER_OPENMP_TARGET_FLAGS} -std=c++20 -O3 -fPIC -shared
            ${warnings} "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
            -DLADDER_OPENMP_TARGET_ARCH="${LADDER_OPENMP_TARGET_ARCH}"
            -I${PROJECT_SOURCE_DIR}/bench/include -I${PROJECT_SOURCE_DIR} "$<$<BOOL:${json_includes}>:-I$<JOIN:${json_includes},;-I>>"
            -MD -MT ${library} -MF ${library}.d
            ${file} -o ${library}
    DEPFILE ${library}.d
    DEPENDS ${file}
    COMMENT "clang++ with OpenMP offload (nvptx64 ${LADDER_OPENMP_TARGET_ARCH}): ${exercise}/${rung}.cpp"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name} DEPENDS ${library})
  add_dependencies(${target} ${name})
  # Linked even where the linker drops libraries nothing calls (--as-needed,
  # Ubuntu's default): nothing calls this one; it registers its rung when loaded.
  # One flag holding the path, because CMake drops a repeated flag from a
  # link line: a second library's own "--no-as-needed" would vanish.
  target_link_libraries(${target} PUBLIC "-Wl,--push-state,--no-as-needed,${library},--pop-state")
endfunction()
