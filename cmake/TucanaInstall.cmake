# Installation (cmake --install BUILD [--prefix DIR]):
#   bin/        tucanacc, tucanacxx, tucana-run, tucana-translate
#   include/    tucana/ (the TMPI and superblock interfaces), tucana/mpi/ (the
#               <mpi.h> that programs built for Tucana see)
#   lib/        libtucana*.a (the runtime), libtucana_nocomm.so,
#               cmake/Tucana/ (the CMake package: find_package(Tucana))
#   share/      man/man1/ (man pages), doc/tucana/ (the user guide)
# Every installed file finds the others relative to itself, so a prefix can
# be moved or copied elsewhere as a whole. The layout is fixed (lib, not
# lib64): the wrappers rely on it.

include(CMakePackageConfigHelpers)

set(TUCANA_INSTALL_CMAKEDIR lib/cmake/Tucana)

install(TARGETS tucana_fiber tucana_sched tucana tucana_main tucana_module
        EXPORT TucanaTargets
        ARCHIVE DESTINATION lib)
install(EXPORT TucanaTargets NAMESPACE Tucana:: DESTINATION ${TUCANA_INSTALL_CMAKEDIR})
if(TARGET tucana-translate)
  install(TARGETS tucana-translate RUNTIME DESTINATION bin)
endif()
install(TARGETS tucana_nocomm LIBRARY DESTINATION lib)

install(PROGRAMS "${TUCANA_INSTALL_TOOLS_DIR}/tucanacc" "${TUCANA_INSTALL_TOOLS_DIR}/tucanacxx"
                 "${TUCANA_INSTALL_TOOLS_DIR}/tucana-run"
        DESTINATION bin)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/tucana" DESTINATION include)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/mpi-include/" DESTINATION include/tucana/mpi)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/man/" DESTINATION share/man/man1
        FILES_MATCHING PATTERN "*.1")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
              "${PROJECT_SOURCE_DIR}/LICENSE"
        DESTINATION share/doc/tucana)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION share/doc/tucana/docs
        PATTERN "man" EXCLUDE)

# The package: TucanaConfig.cmake (imported targets, tucana_add_executable),
# its version file (same major version and not older), and the compile
# launcher that tucana_add_executable puts in front of the compiler.
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/TucanaConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/TucanaConfig.cmake"
  INSTALL_DESTINATION ${TUCANA_INSTALL_CMAKEDIR}
  PATH_VARS TUCANA_INSTALL_CMAKEDIR)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/TucanaConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/TucanaConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/TucanaConfigVersion.cmake"
        DESTINATION ${TUCANA_INSTALL_CMAKEDIR})
install(PROGRAMS "${PROJECT_SOURCE_DIR}/cmake/tucana-compile-launcher"
        DESTINATION ${TUCANA_INSTALL_CMAKEDIR})
