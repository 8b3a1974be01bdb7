# fwb_version: the version line both binaries print ("filter-bench 0.2.0 (commit 1a2b3c4)"). The commit
# is read with git at configure time (re-run cmake to refresh it); outside a git checkout, "unknown".
set(FWB_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --abbrev=7 --match=NeVeRmAtCh
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE _fwb_commit OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _fwb_git_result ERROR_QUIET)
    if(_fwb_git_result EQUAL 0 AND _fwb_commit)
        set(FWB_GIT_COMMIT "${_fwb_commit}")
    endif()
endif()
# -DFWB_COMMIT=... names the commit where there is no git checkout (source tarballs, distribution builds).
if(FWB_COMMIT)
    set(FWB_GIT_COMMIT "${FWB_COMMIT}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/BuildVersion.h.in ${PROJECT_BINARY_DIR}/generated/BuildVersion.h @ONLY)
add_library(fwb_version INTERFACE)
target_include_directories(fwb_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
message(STATUS "Version: ${PROJECT_VERSION} (commit ${FWB_GIT_COMMIT})")
