# What Debian policy asks of every package's doc folder: the copyright file and a
# gzipped changelog; plus lintian overrides, each with the reason in the file.
foreach(pkg_comp "traindesk;app" "traindesk-trainer;trainer")
  list(GET pkg_comp 0 pkg)
  list(GET pkg_comp 1 comp)
  set(_changelog ${CMAKE_CURRENT_BINARY_DIR}/doc/${pkg}/changelog.gz)
  add_custom_command(OUTPUT ${_changelog}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/doc/${pkg}
    COMMAND sh -c "gzip -9n < \"$0\" > \"$1\"" ${CMAKE_CURRENT_SOURCE_DIR}/changelog ${_changelog}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/changelog VERBATIM)
  add_custom_target(traindesk_changelog_${comp} ALL DEPENDS ${_changelog})
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/copyright ${_changelog}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg} COMPONENT ${comp})
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/lintian/${pkg} DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          COMPONENT ${comp})
endforeach()
