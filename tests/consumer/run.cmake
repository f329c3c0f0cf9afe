# Installs the kiln build in KILN_BUILD_DIR into a scratch prefix, then configures, builds and
# runs the consumer project against that prefix.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run_step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer test: step failed (${rc}): ${ARGV}")
  endif()
endfunction()

run_step(${CMAKE_COMMAND} --install "${KILN_BUILD_DIR}" --prefix "${prefix}")
run_step(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
         "-DCMAKE_PREFIX_PATH=${prefix}")
run_step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_step("${WORK_DIR}/build/consumer")
run_step("${WORK_DIR}/build/consumer_pkgconfig")
