#!/usr/bin/env bash
# Compiles every ```cpp block of README.md against an installed kiln and runs it on the host
# backend, so that the README's code cannot go stale.
#
#   ci/readme_snippets.sh <kiln's install prefix> [work directory, default build/readme-snippets]
#
# How a block becomes a program: the `#include` lines it starts with go to the top of the file
# (blank lines keep the line numbers), after <kiln/kiln.hpp> and a few standard headers (iostream, string, tuple,
# vector); the rest is the body of `void snippet(int& argc, char**& argv)`, which main calls, so a
# block is a sequence of statements (a bare `return;` ends it) and may use argc and argv. Errors
# point at README.md's own lines (#line). A block that includes <kiln/distributed/mpi.hpp> links
# kiln::mpi, runs under `mpirun -np 2`, and main calls MPI_Finalize once the block's objects are
# gone. Every block runs with KILN_BACKEND=host and two host devices (KILN_HOST_DEVICES=2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(realpath "${1:?usage: ci/readme_snippets.sh <kiln install prefix> [work directory]}")
work=${2:-$root/build/readme-snippets}
rm -rf "$work"
mkdir -p "$work"

python3 - "$root/README.md" "$work" <<'EOF'
import pathlib, sys

readme, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
lines = readme.read_text().splitlines()
blocks, start = [], None
for number, line in enumerate(lines, 1):
    if start is None and line.strip() == "```cpp":
        start = number
    elif start is not None and line.strip() == "```":
        blocks.append((start, lines[start:number - 1]))
        start = None
if start is not None:
    sys.exit(f"README.md:{start}: a ```cpp block is not closed")

names = []
for start, body in blocks:
    name = f"readme_line_{start + 1}"
    mpi = "#include <kiln/distributed/mpi.hpp>" in (line.split("//")[0].strip() for line in body)
    # The leading #include lines (later ones may be inside a kernel's source string).
    lead = 0
    while lead < len(body) and (body[lead].startswith("#include") or not body[lead].strip()):
        lead += 1
    includes = [line for line in body[:lead] if line.strip()]
    statements = [""] * lead + body[lead:]
    source = [
        f"// README.md, the C++ block that starts at line {start + 1}.",
        "#include <kiln/kiln.hpp>",
        *includes,
        "#include <iostream>",
        "#include <string>",
        "#include <tuple>",
        "#include <vector>",
        "namespace {",
        "void snippet([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {",
        f'#line {start + 1} "{readme}"',
        *statements,
        "}",
        "}  // namespace",
        "int main(int argc, char** argv) {",
        "    snippet(argc, argv);",
        *(["    MPI_Finalize();"] if mpi else []),
        "}",
    ]
    (work / f"{name}.cpp").write_text("\n".join(source) + "\n")
    names.append((name, mpi))

cmake = [
    "cmake_minimum_required(VERSION 3.25)",
    "project(kiln_readme_snippets LANGUAGES CXX)",
    "find_package(kiln CONFIG REQUIRED OPTIONAL_COMPONENTS mpi)",
    "enable_testing()",
    'set(environment "KILN_BACKEND=host;KILN_HOST_DEVICES=2")',
    'set(mpi_environment "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")',
]
for name, mpi in names:
    if mpi:
        cmake += [
            "if(NOT TARGET kiln::mpi)",
            f'  message(FATAL_ERROR "{name} needs kiln::mpi: install kiln built with MPI")',
            "endif()",
            f"add_executable({name} {name}.cpp)",
            f"target_link_libraries({name} PRIVATE kiln::mpi)",
            f"add_test(NAME {name} COMMAND ${{MPIEXEC_EXECUTABLE}} ${{MPIEXEC_NUMPROC_FLAG}} 2"
            f" ${{MPIEXEC_PREFLAGS}} $<TARGET_FILE:{name}> ${{MPIEXEC_POSTFLAGS}})",
            f'set_tests_properties({name} PROPERTIES ENVIRONMENT "${{environment}};${{mpi_environment}}")',
        ]
    else:
        cmake += [
            f"add_executable({name} {name}.cpp)",
            f"target_link_libraries({name} PRIVATE kiln::kiln)",
            f"add_test(NAME {name} COMMAND {name})",
            f'set_tests_properties({name} PROPERTIES ENVIRONMENT "${{environment}}")',
        ]
(work / "CMakeLists.txt").write_text("\n".join(cmake) + "\n")
print(f"readme snippets: {len(names)} C++ blocks of README.md in {work}")
EOF

cmake -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j "$(nproc)"
ctest --test-dir "$work/build" --output-on-failure -j "$(nproc)" --timeout 300
