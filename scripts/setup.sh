#!/usr/bin/env bash
# Installs what the workbench needs on a fresh Debian machine, then sets WB_PYTHON.
# Sourced by scripts/verify-all and scripts/test.
#  - TeX from Debian's packages (for the PDF report), when latexmk/pdflatex are missing;
#  - a virtual environment (default .venv in the checkout; WB_VENV to put it elsewhere) with the
#    project and its test extras, reinstalled whenever pyproject.toml changes. The packages are
#    installed by uv (from PyPI: a resolver and installer that downloads in parallel), or by pip
#    when uv cannot be had or WB_INSTALLER=pip.
# Every step says what it does; while a step runs it says every 10 s how long it has taken and
# what it is doing (the last line of its log); a step that fails shows the end of its log.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WB_VENV=${WB_VENV:-$WB_ROOT/.venv}
TEX_PACKAGES="texlive-latex-recommended texlive-pictures texlive-science lmodern latexmk poppler-utils"

source "$WB_ROOT/scripts/setup-lib.sh"

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "workbench needs Python >= 3.11 as python3 (found $(python3 --version 2>&1))" >&2; exit 2; }
logs=$(mktemp -d "${TMPDIR:-/tmp}/workbench-setup.XXXXXX")

if ! command -v latexmk >/dev/null || ! command -v pdflatex >/dev/null || ! command -v pdftoppm >/dev/null; then
  if [ "${WB_NO_TEX:-0}" = 1 ]; then
    wb_say "WB_NO_TEX=1: skipping TeX; the report is written as .tex without a PDF"
  else
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    wb_say "installing TeX from Debian's packages (about 160 MB to download, 400 MB on disk, a minute or two): $TEX_PACKAGES"
    wb_step "apt-get update" "$logs/apt-update.log" $sudo apt-get update
    # shellcheck disable=SC2086
    wb_step "apt-get install (TeX)" "$logs/apt-install.log" $sudo env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends -o Dpkg::Use-Pty=0 $TEX_PACKAGES
  fi
fi

stamp="$WB_VENV/.deps-$(sha256sum "$WB_ROOT/pyproject.toml" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  if compgen -G "$WB_VENV/.deps-*" >/dev/null; then
    wb_say "rebuilding the virtual environment $WB_VENV (pyproject.toml changed)"
    rm -rf "$WB_VENV"   # one of ours, for an older pyproject.toml; an environment of yours is kept
  fi
  wb_say "installing the workbench and its test extras into $WB_VENV (about 1 GB from PyPI)"
  [ -x "$WB_VENV/bin/python" ] || wb_step "creating the virtual environment" "$logs/venv.log" python3 -m venv "$WB_VENV"
  uv=""
  if [ "${WB_INSTALLER:-uv}" != pip ]; then
    if command -v uv >/dev/null; then
      uv=$(command -v uv)
    elif wb_step "installing uv from PyPI" "$logs/uv.log" "$WB_VENV/bin/python" -m pip install \
        --disable-pip-version-check --progress-bar off uv; then
      uv="$WB_VENV/bin/uv"
    else
      wb_say "uv could not be installed; installing with pip instead (slower)"
    fi
  fi
  if [ -n "$uv" ]; then
    wb_step "installing the packages with uv" "$logs/install.log" \
      "$uv" pip install --python "$WB_VENV/bin/python" -e "$WB_ROOT[test,dask,lint]"
  else
    wb_step "installing the packages with pip" "$logs/install.log" "$WB_VENV/bin/python" -m pip install \
      --disable-pip-version-check --progress-bar off -e "$WB_ROOT[test,dask,lint]"
  fi
  grep -E "^(Resolved|Prepared|Installed|Successfully installed)" "$logs/install.log" | cut -c1-200 \
    | sed 's/^/workbench setup:   /' >&2 || true
  touch "$stamp"
elif ! (cd / && "$WB_VENV/bin/python" -c "import os, sys, workbench as w
sys.exit(os.path.realpath(w.__file__) != os.path.realpath(sys.argv[1]))" "$WB_ROOT/workbench/__init__.py") 2>/dev/null; then
  # The dependencies are there; point the editable install at this checkout.
  wb_step "pointing the environment at this checkout" "$logs/editable.log" \
    "$WB_VENV/bin/python" -m pip install --no-deps -e "$WB_ROOT"
fi
rm -rf "$logs"
export WB_PYTHON="$WB_VENV/bin/python"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
