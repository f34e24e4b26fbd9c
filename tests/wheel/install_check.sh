#!/usr/bin/env bash
# The wheel `make wheel` built, installed as a user would: plain `pip install`
# of the file into a fresh venv, nothing fetched or compiled, no Rust on PATH;
# then both faces of the package, run from a directory outside the checkout.
#
# Usage: tests/wheel/install_check.sh [PYTHON]   (PYTHON makes the venv; python3)
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
python="${1:-python3}"
fail() { echo "wheel check: $*" >&2; exit 1; }

shopt -s nullglob
wheels=("$repo"/dist/guardscope-*.whl)
[ ${#wheels[@]} -eq 1 ] || fail "expected one wheel in dist/ (make wheel), found ${#wheels[@]}"
wheel="${wheels[0]}"
name="$(basename "$wheel")"
# abi3: one wheel for every CPython >= 3.9; manylinux2014: glibc 2.17 or newer.
[[ "$name" == guardscope-*-cp39-abi3-*manylinux_2_17_*.whl && "$name" == *manylinux2014_* ]] || fail "not a manylinux2014 abi3 wheel: $name"
size="$(stat -c %s "$wheel")"
echo "wheel: $name, $size bytes ($((size / 1024)) KiB)"
[ "$size" -lt 10000000 ] || fail "$name is $size bytes, over 10 MB"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Stripped: no symbol table and no debug sections left in the extension.
"$python" -m zipfile -e "$wheel" "$work/unpacked"
extension="$(find "$work/unpacked" -name '_native*.so')"
[ -n "$extension" ] || fail "no _native extension in $name"
if readelf -S --wide "$extension" | grep -E '\.symtab|\.debug_'; then
    fail "the extension in $name is not stripped"
fi

# PATH without any directory holding cargo or rustc, so pip could not build
# from source even if it tried.
path=""
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
    [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ] || path="${path:+$path:}$dir"
done

"$python" -m venv "$work/venv"
export PATH="$work/venv/bin:$path"
unset PYTHONPATH VIRTUAL_ENV
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "Rust is still on PATH"
python -m pip install --quiet --disable-pip-version-check --no-index --only-binary :all: "$wheel"

mkdir "$work/elsewhere"
cd "$work/elsewhere"

version="$(guardscope --version)"
expected="guardscope $(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -1)"
[ "$version" = "$expected" ] || fail "guardscope --version printed '$version', expected '$expected'"
echo "$version"

summary="$(guardscope summary "$repo/samples/traces/collision")"
grep -q "3 compiles · 2 recompiles" <<< "$summary" || fail "guardscope summary printed no recompile: $summary"
echo "guardscope summary samples/traces/collision: $(wc -l <<< "$summary") lines"

imported="$(python -c 'import guardscope, importlib.util; print(guardscope.__version__, guardscope.__file__, importlib.util.find_spec("torch"))')"
[[ "$imported" == "${version#guardscope } $work/venv/"*"/site-packages/guardscope/__init__.py None" ]] \
    || fail "import guardscope: $imported"
echo "import guardscope: $imported"
echo "wheel check: ok"
