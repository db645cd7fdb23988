#!/usr/bin/env bash
# The C++ sources as clang-format writes them (.clang-format: Google style, 100 columns); run
# `git ls-files '*.cpp' '*.h' | xargs clang-format -i` to format them.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
echo "C++ sources formatted"
