# Man pages written at build time from the programs' own --help texts
# (installer/make_manpages.py): traindesk(1), one page per command group, traindesk-trainer(1).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_man_dir ${CMAKE_CURRENT_BINARY_DIR}/man)
set(_man_stamp ${_man_dir}/.stamp)
add_custom_command(OUTPUT ${_man_stamp}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${_man_dir}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/make_manpages.py
          $<TARGET_FILE:traindesk> $<TARGET_FILE:traindesk-trainer> ${PROJECT_VERSION} ${_man_dir}
  COMMAND ${CMAKE_COMMAND} -E touch ${_man_stamp}
  DEPENDS traindesk traindesk-trainer ${CMAKE_CURRENT_SOURCE_DIR}/make_manpages.py
  COMMENT "Writing man pages from --help" VERBATIM)
add_custom_target(traindesk_manpages ALL DEPENDS ${_man_stamp})
install(DIRECTORY ${_man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT app
        FILES_MATCHING PATTERN "traindesk*.1.gz" PATTERN "traindesk-trainer.1.gz" EXCLUDE)
install(FILES ${_man_dir}/traindesk-trainer.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT trainer)
