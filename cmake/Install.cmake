# Installation (cmake --install) and the Debian package (cpack -G DEB): the two binaries, the desktop
# entry, the hicolor scalable icon and the docs, in the GNUInstallDirs places.
include(GNUInstallDirs)
# The package's name, not the CMake project's (GNUInstallDirs may already be in from Qt's packages).
set(FWB_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/opencl-filter-workbench" CACHE PATH "Documentation folder")

install(TARGETS filter-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET filter-worker) # user kernels run in it; filter-bench looks beside itself
    install(TARGETS filter-worker RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET filter-workbench)
    install(TARGETS filter-workbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES ${PROJECT_SOURCE_DIR}/resources/filter-workbench.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/filter-workbench.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
# Recorded results of real devices (the lesson shows them where no GPU is present): MeasurementRecord
# looks in <prefix>/share/opencl-filter-workbench/measurements, beside the installed executables.
if(EXISTS ${PROJECT_SOURCE_DIR}/data/measurements)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/measurements
            DESTINATION ${CMAKE_INSTALL_DATADIR}/opencl-filter-workbench FILES_MATCHING PATTERN "*.json")
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/ARCHITECTURE.md
              ${PROJECT_SOURCE_DIR}/docs/MEASUREMENTS.md
        DESTINATION ${FWB_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME "opencl-filter-workbench")
set(CPACK_PACKAGE_VENDOR "OpenCL Filter Workbench")
set(CPACK_PACKAGE_CONTACT "OpenCL Filter Workbench maintainers <fwb@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Compare OpenCL image-filter kernel variants, checked against a CPU reference")
set(CPACK_PACKAGE_DESCRIPTION "A Qt 6 desktop workbench (filter-workbench) and a command-line bench \
(filter-bench) for OpenCL image filters: kernel variants timed on any OpenCL device and checked \
against a CPU reference.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # opencl-filter-workbench_0.2.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "graphics")
# Library dependencies (Qt, the OpenCL ICD loader, OpenCV when built with it) come from
# dpkg-shlibdeps over the installed binaries; an OpenCL driver and Qt's plugins are what the
# libraries do not name: the window needs a platform plugin, and without a driver there is no device.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, qt6-qpa-plugins, qt6-image-formats-plugins")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clinfo")
include(CPack)
