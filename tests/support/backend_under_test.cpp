// Names the backend of one stamped-out test binary: compiled once per backend, with
// KILN_TEST_BACKEND defined, and linked beside the suite's shared objects.
#include "tests/support/backend_under_test.hpp"

namespace kiln::test {

const std::string_view backend_name = KILN_TEST_BACKEND;

}  // namespace kiln::test
