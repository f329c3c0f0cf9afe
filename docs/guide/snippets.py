"""Writes one C++ program holding every ```cpp block of the user guide, each as a function that
main() runs in turn, so that ci/guide.sh can compile and run them all."""
import pathlib
import re
import sys

guide = pathlib.Path(__file__).parent
includes = {"#include <kiln/kiln.hpp>", "#include <cstdint>", "#include <iostream>",
            "#include <span>", "#include <tuple>", "#include <vector>"}
functions = []
for chapter in sorted(guide.glob("*.md")):
    text = chapter.read_text()
    for number, match in enumerate(re.finditer(r"```cpp\n(.*?)```", text, re.S), 1):
        name = f"{chapter.stem.replace('-', '_')}_{number}"
        line = text[:match.start()].count("\n") + 2
        body = []
        for code in match.group(1).splitlines():
            if code.startswith("#include"):
                includes.add(code.split("//")[0].strip())
            else:
                body.append(code)
        functions.append((name, f"{chapter.name}:{line}", body))

out = [*sorted(includes), ""]
for name, where, body in functions:
    out += [f"// {where}", f"static void {name}() {{", *("    " + b for b in body), "}", ""]
out += ["int main() {", "    int failed = 0;"]
for name, where, _ in functions:
    out += [f'    std::cout << "=== {where}" << std::endl;',
            f"    try {{ {name}(); }} catch (const std::exception& e) {{",
            f'        std::cout << "FAILED {where}: " << e.what() << std::endl;',
            "        ++failed;", "    }"]
out += ["    return failed == 0 ? 0 : 1;", "}", ""]
pathlib.Path(sys.argv[1]).write_text("\n".join(out))
print(f"{len(functions)} snippets")
