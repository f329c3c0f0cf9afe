# Provides kiln_kokkos, the Kokkos used for CPU references (tests/reference, bench/).
# Any Kokkos 3.4+ found by find_package works. Debian's Trilinos Kokkos ships a config whose
# include directory (/usr/lib/include) does not exist; then the headers in /usr/include/trilinos
# and libtrilinos_kokkoscore are used directly.
find_package(Kokkos 3.4 QUIET)

set(_kiln_kokkos_usable OFF)
if(TARGET Kokkos::kokkos)
  get_target_property(_kiln_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  set(_kiln_kokkos_usable ON)
  foreach(_dir IN LISTS _kiln_kokkos_inc)
    if(NOT _dir MATCHES "^\\$<" AND NOT EXISTS "${_dir}")
      set(_kiln_kokkos_usable OFF)
    endif()
  endforeach()
endif()

add_library(kiln_kokkos INTERFACE)
if(_kiln_kokkos_usable)
  target_link_libraries(kiln_kokkos INTERFACE Kokkos::kokkos)
  message(STATUS "kiln: Kokkos ${Kokkos_VERSION} from its CMake package")
else()
  find_path(KILN_KOKKOS_INCLUDE_DIR Kokkos_Core.hpp PATH_SUFFIXES trilinos)
  find_library(KILN_KOKKOS_LIBRARY NAMES kokkoscore trilinos_kokkoscore)
  if(NOT KILN_KOKKOS_INCLUDE_DIR OR NOT KILN_KOKKOS_LIBRARY)
    message(FATAL_ERROR "kiln: Kokkos not found. Install it (ci/deps.sh does) or configure with "
                        "-DKILN_ENABLE_KOKKOS=OFF.")
  endif()
  target_include_directories(kiln_kokkos SYSTEM INTERFACE ${KILN_KOKKOS_INCLUDE_DIR})
  target_link_libraries(kiln_kokkos INTERFACE ${KILN_KOKKOS_LIBRARY})
  message(STATUS "kiln: Kokkos from ${KILN_KOKKOS_INCLUDE_DIR} and ${KILN_KOKKOS_LIBRARY} "
                 "(its CMake package is unusable)")
endif()
