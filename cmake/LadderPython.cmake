# The python3 that `ladder report` and the Python tests use: the first on
# PATH or /usr/bin that has NumPy, jsonschema and matplotlib (Debian:
# python3-numpy python3-jsonschema python3-matplotlib), else the first
# with fewer of them. Override with -DLADDER_PYTHON=/path/to/python3.
set(LADDER_PYTHON "" CACHE FILEPATH "python3 for `ladder report` and the Python tests")
if(NOT LADDER_PYTHON)
  find_program(path_python3 NAMES python3)
  foreach(modules IN ITEMS "numpy, jsonschema, matplotlib" "numpy, matplotlib" "numpy")
    foreach(candidate IN ITEMS ${path_python3} /usr/bin/python3)
      if(NOT LADDER_PYTHON AND EXISTS ${candidate})
        execute_process(COMMAND ${candidate} -c "import ${modules}" RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
        if(missing EQUAL 0)
          set(LADDER_PYTHON ${candidate} CACHE FILEPATH "python3 for `ladder report` and the Python tests" FORCE)
        endif()
      endif()
    endforeach()
  endforeach()
  if(NOT LADDER_PYTHON AND path_python3)
    set(LADDER_PYTHON ${path_python3} CACHE FILEPATH "python3 for `ladder report` and the Python tests" FORCE)
  endif()
endif()
message(STATUS "hpc-ladder: Python for reports and tests: ${LADDER_PYTHON}")
