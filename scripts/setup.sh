#!/usr/bin/env bash
# Set up isalens on a Debian machine: the compilers it checks itself against (clang/LLVM 19 with
# libclc), a virtual environment in .venv, and isalens installed into it (with test tools: --dev).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    *) echo "usage: scripts/setup.sh [--dev]" >&2; exit 2 ;;
  esac
done

need_apt=()
command -v clang-19 >/dev/null 2>&1 || need_apt+=(clang-19)
command -v llc-19 >/dev/null 2>&1 || need_apt+=(llvm-19)
[ -f /usr/lib/clc/amdgcn--amdhsa.bc ] || need_apt+=(libclc-19)
python3 -m venv --help >/dev/null 2>&1 || need_apt+=(python3-venv)
# shaders: glslang -> SPIR-V -> Mesa RADV (ACO) on its null device through the Vulkan loader
command -v glslangValidator >/dev/null 2>&1 || need_apt+=(glslang-tools)
compgen -G '/usr/share/vulkan/icd.d/radeon_icd.*.json' >/dev/null || need_apt+=(mesa-vulkan-drivers)
ldconfig -p | grep -q 'libvulkan\.so\.1 ' || need_apt+=(libvulkan1)
# binaries: llvm-objdump-19 (in llvm-19) disassembles code objects; lld-19 links HIP fat binaries in the tests
command -v ld.lld-19 >/dev/null 2>&1 || need_apt+=(lld-19)
# HIP device code: the HIP headers and ROCm device libraries, compiled by clang-19 itself
[ -d /usr/lib/x86_64-linux-gnu/amdgcn/bitcode ] || need_apt+=(libamdhip64-dev rocm-device-libs)
# the compiled core (src/isalens/_core, Cython, built by pip install below): a C compiler and the Python headers;
# without them pip still installs isalens and the pure-Python core runs
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
[ -f "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] || need_apt+=(python3-dev)
# the browser tests drive Debian's Chromium (Playwright's own browser download is not used)
if [ "$dev" -eq 1 ]; then
  command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
fi
# isalens serve's code editor: Debian's CodeMirror 5, served from /usr/share/javascript at run time
[ -f /usr/share/javascript/codemirror/lib/codemirror.js ] || need_apt+=(libjs-codemirror)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${need_apt[*]} (apt-get)" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup: warning: missing ${need_apt[*]}; compiler-oracle tests will be skipped" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
if [ "$dev" -eq 1 ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
  # ROCm LLVM's disassembler, an optional test oracle (62 MB; x86_64 Linux wheels only): its tests skip without it
  if [ "$(uname -sm)" = "Linux x86_64" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[rocm-oracle]' \
      || echo "setup: warning: rocm-llvm-python not installed; the ROCm LLVM oracle tests will be skipped" >&2
  fi
else
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[plot,binary,scan,serve]'
fi
# An editable install leaves isalens's own modules without bytecode; where PYTHONDONTWRITEBYTECODE is set
# (many containers and CI images) every command would then compile ~75 modules again, ~0.1 s a run.
# Python checks each cached file against its source, so an edited module is still compiled afresh.
.venv/bin/python -m compileall -q -j 0 src/isalens >/dev/null
# the README's examples call bare `isalens`: say how to get it on PATH in this shell
echo "setup: to call isalens as the README does: export PATH=\"$PWD/.venv/bin:\$PATH\"" >&2
echo "setup: done (.venv/bin/isalens)" >&2
