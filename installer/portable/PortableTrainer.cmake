# The portable trainer (make_portable_trainer.sh): built with everything else into the
# build's bin/ folder beside traindesk-trainer, where the app's deployment looks for it
# (core/cluster/TrainerDeployment), installed with the app (it is what the app copies to
# the nodes), and put by `cpack` beside the other packages. Included by the top-level
# CMakeLists.txt before tests/ (e2e.cli_portable_trainer and trainer_portable_root use it).
set(TRAINDESK_PORTABLE_TRAINER_NAME "traindesk-trainer-${PROJECT_VERSION}-linux-x86_64.tar.gz")
set(TRAINDESK_PORTABLE_TRAINER "${CMAKE_BINARY_DIR}/bin/${TRAINDESK_PORTABLE_TRAINER_NAME}")
set(_td_portable_script ${PROJECT_SOURCE_DIR}/installer/portable/make_portable_trainer.sh)
file(GLOB _td_portable_inputs ${PROJECT_SOURCE_DIR}/installer/portable/*.sh ${PROJECT_SOURCE_DIR}/installer/portable/README.portable)
if(TARGET traindesk-trainer-cuda)
  set(_td_portable_plugin $<TARGET_FILE:traindesk-trainer-cuda>)
  # trainer_gpu_layers (tests/trainer) for bench/trainer/run_gpu_checks.sh.
  set(_td_portable_checks $<TARGET_FILE:trainer_gpu_layers>)
  set(_td_portable_deps traindesk-trainer traindesk-trainer-cuda trainer_gpu_layers)
else()
  set(_td_portable_plugin -)
  set(_td_portable_checks)
  set(_td_portable_deps traindesk-trainer)
endif()
add_custom_command(OUTPUT ${TRAINDESK_PORTABLE_TRAINER}
  COMMAND bash ${_td_portable_script} $<TARGET_FILE:traindesk-trainer> ${_td_portable_plugin} ${PROJECT_VERSION}
          ${TRAINDESK_PORTABLE_TRAINER} ${_td_portable_checks}
  DEPENDS ${_td_portable_deps} ${_td_portable_inputs}
  COMMENT "Packing the portable trainer ${TRAINDESK_PORTABLE_TRAINER_NAME}"
  VERBATIM)
add_custom_target(trainer-portable ALL DEPENDS ${TRAINDESK_PORTABLE_TRAINER})
install(FILES ${TRAINDESK_PORTABLE_TRAINER} DESTINATION ${CMAKE_INSTALL_LIBDIR}/traindesk COMPONENT app)
set(CPACK_TRAINDESK_PORTABLE_TRAINER ${TRAINDESK_PORTABLE_TRAINER})
list(APPEND CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/installer/portable/CopyPortableTrainer.cmake)
