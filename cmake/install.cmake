# install.cmake - what `cmake --install` puts under the prefix, the CMake
# package (find_package(lied)), the pkg-config files and the Debian package
# (cpack -G DEB). Included from the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

install(TARGETS lied RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS lied_engine lied_libs lied_lua lied_embed EXPORT liedTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS lied_core_module LIBRARY DESTINATION ${LIED_INSTALL_LUACDIR}/lied)
install(TARGETS lied_tf_media_module LIBRARY DESTINATION ${LIED_INSTALL_LUACDIR}/lied)

# Lua modules and the stdlib (lied/stdlib: require "cranecrab")
install(DIRECTORY lua/lied DESTINATION ${LIED_INSTALL_LUADIR} FILES_MATCHING PATTERN "*.lua")
install(DIRECTORY stdlib/ DESTINATION ${LIED_INSTALL_LUADIR}/lied/stdlib
  FILES_MATCHING PATTERN "*.lua")

# The public headers: components (component.h, luaopen.h), return codes,
# the embedding API, the version, tables, and the connectors (with the media
# of thermofluid) of the built-in domains, for a plugin's components (the
# rotational flange's header is self-contained: installed from its library).
install(FILES src/include/lied/component.h src/include/lied/table.h src/include/lied/status.h
  src/include/lied/luaopen.h src/include/lied/lied.h ${PROJECT_BINARY_DIR}/include/lied/version.h
  src/include/lied/thermal.h src/include/lied/mechanics.h src/include/lied/mechanics_trig.h
  src/include/lied/signals.h src/include/lied/thermofluid.h src/lib/rotational/rotational.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lied)

# Manual page, documentation, examples (with the out-of-tree library example)
install(FILES docs/lied.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
  PATTERN "build*" EXCLUDE)

# CMake package: lied::engine, lied::libs, lied::lua (what a component
# library links: lied::plugin), lied::lied (the embedding API), and the
# function lied_add_library (cmake/liedConfig.cmake.in).
install(EXPORT liedTargets NAMESPACE lied:: DESTINATION ${LIED_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/liedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/liedConfig.cmake INSTALL_DESTINATION ${LIED_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR LIED_INSTALL_LUADIR LIED_INSTALL_LUACDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/liedConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ExactVersion)
install(FILES ${PROJECT_BINARY_DIR}/liedConfig.cmake ${PROJECT_BINARY_DIR}/liedConfigVersion.cmake
  DESTINATION ${LIED_INSTALL_CMAKEDIR})

# pkg-config: lied (the embedding API, lied/lied.h) and lied-plugin (a
# component library: no Lua library linked, lied.core's process has one).
# Paths relative to the .pc file's prefix, so a moved install still works
# with PKG_CONFIG_PATH (and pkg-config --define-prefix).
string(REPLACE ";" " " LIED_PC_LUA_CFLAGS "${LUA_CFLAGS}")
string(REPLACE ";" " " LIED_PC_FP_FLAGS "${LIED_FP_FLAGS}") # as lied itself is built
file(RELATIVE_PATH LIED_PC_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
foreach(pc lied lied-plugin)
  configure_file(cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# ---- Debian package: cpack -G DEB in the build tree -----------------------
set(CPACK_PACKAGE_NAME lied)
set(CPACK_PACKAGE_VENDOR "lied")
set(CPACK_PACKAGE_CONTACT "lied maintainers <lied@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "simulator for physical systems in Linear Implicit Equilibrium Dynamics form")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/lied")
# Dependencies: the Debian packages holding the shared libraries lied was
# linked with, found at configure time (dpkg -S on each library's real file).
set(LIED_DEB_DEPENDS)
find_program(DPKG_QUERY dpkg-query)
if(DPKG_QUERY)
  set(libs ${LUA_LINK_LIBRARIES} ${LAPACK_LIBRARIES} ${READLINE_LIB})
  if(LIED_HAVE_KLU)
    list(APPEND libs ${KLU_LIBRARY})
  endif()
  if(LIED_HAVE_CVODE)
    list(APPEND libs ${CVODE_LIBRARY} ${SUNDIALS_SUNLINSOLKLU_LIBRARY}
      ${SUNDIALS_SUNMATSPARSE_LIBRARY} ${SUNDIALS_NVECSERIAL_LIBRARY})
  endif()
  foreach(lib ${libs})
    if(NOT IS_ABSOLUTE "${lib}" OR NOT EXISTS "${lib}")
      continue()
    endif()
    get_filename_component(real "${lib}" REALPATH)
    execute_process(COMMAND ${DPKG_QUERY} -S "${real}" OUTPUT_VARIABLE owner
      RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      string(REGEX REPLACE "[:,].*" "" owner "${owner}")
      list(APPEND LIED_DEB_DEPENDS ${owner})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES LIED_DEB_DEPENDS)
endif()
list(APPEND LIED_DEB_DEPENDS libc6)
list(JOIN LIED_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "lua5.4, gnuplot-nox")
set(CPACK_GENERATOR DEB)
include(CPack)
