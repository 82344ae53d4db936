# The menu entry, the icons (SVG, and PNGs rendered from it at build time) and the
# AppStream metadata of the app package. Validated by tests/package.
find_program(RSVG_CONVERT rsvg-convert REQUIRED)
set(_icon_svg ${PROJECT_SOURCE_DIR}/resources/icons/traindesk.svg)
set(_icon_pngs)
foreach(size 16 22 24 32 48 64 128 256)
  set(_png ${CMAKE_CURRENT_BINARY_DIR}/icons/${size}x${size}/${TRAINDESK_APP_ID}.png)
  add_custom_command(OUTPUT ${_png}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/icons/${size}x${size}
    COMMAND ${RSVG_CONVERT} -w ${size} -h ${size} -o ${_png} ${_icon_svg}
    DEPENDS ${_icon_svg} VERBATIM)
  list(APPEND _icon_pngs ${_png})
  install(FILES ${_png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps COMPONENT app)
endforeach()
add_custom_target(traindesk_icons ALL DEPENDS ${_icon_pngs})
install(FILES ${_icon_svg} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${TRAINDESK_APP_ID}.svg COMPONENT app)

install(FILES ${PROJECT_SOURCE_DIR}/resources/${TRAINDESK_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT app)
configure_file(${PROJECT_SOURCE_DIR}/resources/${TRAINDESK_APP_ID}.metainfo.xml.in
               ${CMAKE_CURRENT_BINARY_DIR}/${TRAINDESK_APP_ID}.metainfo.xml @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${TRAINDESK_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT app)

# The agent's systemd user unit (the agent also starts on demand without it).
install(FILES ${PROJECT_SOURCE_DIR}/resources/traindesk-agent.service
        DESTINATION lib/systemd/user COMPONENT app)
# The bash completion, where the tree has it.
if(EXISTS ${PROJECT_SOURCE_DIR}/resources/traindesk.bash-completion)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/traindesk.bash-completion
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME traindesk COMPONENT app)
endif()
