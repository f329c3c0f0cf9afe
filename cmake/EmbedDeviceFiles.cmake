# kiln_embed_device_files: device headers kept as real files in the source tree, compiled into
# libkiln as text. At build time (and again whenever one of them changes) a script writes one
# source file that defines, for each file, a function returning its text and its SHA-256, so
# compile keys can name the headers by hashes computed once, at build time.
#
#   kiln_embed_device_files(TARGET target OUTPUT generated.cpp DECLARATIONS header.hpp
#                           NAMESPACE name::space FILES function file [function file ...])
#
# DECLARATIONS is the header declaring each `DeviceFile function() noexcept` in NAMESPACE, where
# the DeviceFile type ({std::string_view text; std::string_view sha256;}) must be visible; file
# paths are relative to the calling CMakeLists.txt's folder. It may be called from any folder, so
# that each dialect embeds its own files (dialects/<name>/CMakeLists.txt).
set(KILN_EMBED_DEVICE_FILES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_device_files.cmake)

function(kiln_embed_device_files)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;OUTPUT;DECLARATIONS;NAMESPACE" "FILES")
  list(LENGTH ARG_FILES count)
  math(EXPR odd "${count} % 2")
  if(count EQUAL 0 OR odd)
    message(FATAL_ERROR "kiln_embed_device_files: FILES must be pairs of function and file, "
                        "got '${ARG_FILES}'")
  endif()
  set(pairs "")
  set(paths "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ARG_FILES ${i} function)
    list(GET ARG_FILES ${j} file)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE path)
    # '|' separates the pairs: a ';' would split the script's argument on the command line.
    string(APPEND pairs "${function}=${path}|")
    list(APPEND paths ${path})
  endforeach()
  cmake_path(ABSOLUTE_PATH ARG_DECLARATIONS BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DDECLARATIONS=${ARG_DECLARATIONS}
            -DNAMESPACE=${ARG_NAMESPACE} -DFILES=${pairs} -P ${KILN_EMBED_DEVICE_FILES_SCRIPT}
    DEPENDS ${paths} ${KILN_EMBED_DEVICE_FILES_SCRIPT}
    COMMENT "Embedding device files into ${ARG_OUTPUT}"
    VERBATIM)
  get_target_property(target_folder ${ARG_TARGET} SOURCE_DIR)
  if(target_folder STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    target_sources(${ARG_TARGET} PRIVATE ${ARG_OUTPUT})
  else()
    # A custom command's output reaches only targets of its own folder: an object library here
    # compiles it, and the target takes its object.
    file(RELATIVE_PATH relative ${PROJECT_BINARY_DIR} ${ARG_OUTPUT})
    string(MAKE_C_IDENTIFIER "${ARG_TARGET}_${relative}" objects)
    add_library(${objects} OBJECT ${ARG_OUTPUT})
    set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_features(${objects} PRIVATE cxx_std_20)
    target_sources(${ARG_TARGET} PRIVATE $<TARGET_OBJECTS:${objects}>)
  endif()
endfunction()
