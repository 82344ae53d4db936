# CPack post-build script: the portable trainer beside the packages cpack made.
if(NOT EXISTS "${CPACK_TRAINDESK_PORTABLE_TRAINER}")
  message(FATAL_ERROR "no portable trainer at ${CPACK_TRAINDESK_PORTABLE_TRAINER}: build the target trainer-portable first")
endif()
file(COPY "${CPACK_TRAINDESK_PORTABLE_TRAINER}" DESTINATION "${CPACK_PACKAGE_DIRECTORY}")
message(STATUS "portable trainer: ${CPACK_PACKAGE_DIRECTORY}/${CPACK_TRAINDESK_PORTABLE_TRAINER_NAME}")
