# OpenCL sources are embedded in the binary at build time, so `ladder` runs
# from anywhere; LADDER_KERNEL_DIR at run time points at edited copies.
set(LADDER_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_kernels_script.cmake)

function(ladder_embed_kernels output kernel_root)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS RELATIVE ${kernel_root} ${kernel_root}/*.cl)
  set(absolute "")
  foreach(source IN LISTS sources)
    list(APPEND absolute ${kernel_root}/${source})
  endforeach()
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DROOT=${kernel_root} "-DSOURCES=${sources}" -DOUTPUT=${output}
            -P ${LADDER_EMBED_SCRIPT}
    DEPENDS ${absolute} ${LADDER_EMBED_SCRIPT}
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()
