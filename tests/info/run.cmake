# Runs kiln-info (KILN_INFO) on the host backend with two devices and a cache directory of its own,
# and checks that it exits 0 and reports each of them.
set(ENV{KILN_BACKEND} host)
set(ENV{KILN_HOST_DEVICES} 2)
set(ENV{KILN_CACHE_DIR} ${WORK_DIR}/cache)
execute_process(COMMAND ${KILN_INFO} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kiln-info exited with ${status}:\n${out}${err}")
endif()
foreach(expected
    "\nactive backend: host\n"
    "\n  host \\(active\\): usable, 2 device\\(s\\)\n"
    "\n    device 1: [^\n]+, arch native, "
    "\ncompile cache: ${WORK_DIR}/cache\n"
    "\n  KILN_HOST_DEVICES=2\n")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "kiln-info's report lacks '${expected}':\n${out}${err}")
  endif()
endforeach()
message(STATUS "${out}")
