#!/usr/bin/env bash
# Builds the API reference from the public headers with Doxygen (docs/Doxyfile) into build/docs
# (open build/docs/html/index.html). Fails, listing each warning, when a public name has no ///
# comment or a comment does not parse.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

if ! command -v doxygen >/dev/null; then
    echo "docs: doxygen not found (bash ci/deps.sh installs it)"
    exit 1
fi
export KILN_DOCS_DIR=build/docs
rm -rf "$KILN_DOCS_DIR"
mkdir -p "$KILN_DOCS_DIR"
# Doxygen writes warnings to stderr; with WARN_AS_ERROR=FAIL_ON_WARNINGS it reports them all,
# then exits non-zero.
if ! doxygen docs/Doxyfile >"$KILN_DOCS_DIR/doxygen.log" 2>"$KILN_DOCS_DIR/warnings.txt" ||
    [ -s "$KILN_DOCS_DIR/warnings.txt" ]; then
    # A name is reported once per page it appears on: show each warning once.
    awk '!seen[$0]++' "$KILN_DOCS_DIR/warnings.txt" | tee "$KILN_DOCS_DIR/warnings-unique.txt"
    echo "docs: FAILED ($(wc -l <"$KILN_DOCS_DIR/warnings-unique.txt") warnings above; document" \
         "each public name with a /// comment)"
    exit 1
fi
echo "docs: ok (build/docs/html/index.html)"
