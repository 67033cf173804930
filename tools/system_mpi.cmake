# What tools/advise and tools/nocomm build alike: programs and PMPI libraries
# for the system MPI (not Tucana's), and the mpiexec their tests run them
# with. Included by both (tools/nocomm also builds standalone).

if(MPIEXEC_EXECUTABLE)
  set(TUCANA_SYSTEM_MPIEXEC "${MPIEXEC_EXECUTABLE}")
else()
  set(TUCANA_SYSTEM_MPIEXEC mpirun)
endif()

# tucana_system_mpi_target(TARGET OPTION...): TARGET links the system MPI and
# is compiled with exactly OPTION... and linked with no extra option: no
# sanitizer even in a TUCANA_SANITIZE build, since a library preloaded into
# arbitrary programs (or a program it is preloaded into) cannot carry one.
function(tucana_system_mpi_target target)
  target_link_libraries(${target} PRIVATE MPI::MPI_C)
  set_property(TARGET ${target} PROPERTY COMPILE_OPTIONS ${ARGN})
  set_property(TARGET ${target} PROPERTY LINK_OPTIONS "")
endfunction()
