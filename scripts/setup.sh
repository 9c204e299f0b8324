#!/usr/bin/env bash
# Installs what the workbench needs on a fresh Debian machine, then sets WB_PYTHON.
# Sourced by scripts/verify-all and scripts/test.
#  - TeX from Debian's packages (for the PDF report), when latexmk/pdflatex are missing;
#  - a virtual environment (default .venv in the checkout; WB_VENV to put it elsewhere) with the
#    project and its test extras, reinstalled whenever pyproject.toml changes.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WB_VENV=${WB_VENV:-$WB_ROOT/.venv}
TEX_PACKAGES="texlive-latex-recommended texlive-pictures texlive-science lmodern latexmk poppler-utils"

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "workbench needs Python >= 3.11 as python3 (found $(python3 --version 2>&1))" >&2; exit 2; }

if ! command -v latexmk >/dev/null || ! command -v pdflatex >/dev/null || ! command -v pdftoppm >/dev/null; then
  if [ "${WB_NO_TEX:-0}" = 1 ]; then
    echo "WB_NO_TEX=1: skipping TeX; the report is written as .tex without a PDF" >&2
  else
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "installing TeX from Debian's packages: $TEX_PACKAGES" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $TEX_PACKAGES >/dev/null
  fi
fi

stamp="$WB_VENV/.deps-$(sha256sum "$WB_ROOT/pyproject.toml" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  if compgen -G "$WB_VENV/.deps-*" >/dev/null; then
    echo "rebuilding the virtual environment $WB_VENV (pyproject.toml changed)" >&2
    rm -rf "$WB_VENV"   # one of ours, for an older pyproject.toml; an environment of yours is kept
  fi
  echo "installing into the virtual environment $WB_VENV" >&2
  [ -x "$WB_VENV/bin/python" ] || python3 -m venv "$WB_VENV"
  "$WB_VENV/bin/python" -m pip install -q --upgrade pip
  "$WB_VENV/bin/python" -m pip install -q -e "$WB_ROOT[test,dask,lint]"
  touch "$stamp"
elif ! (cd / && "$WB_VENV/bin/python" -c "import os, sys, workbench as w
sys.exit(os.path.realpath(w.__file__) != os.path.realpath(sys.argv[1]))" "$WB_ROOT/workbench/__init__.py") 2>/dev/null; then
  # The dependencies are there; point the editable install at this checkout.
  "$WB_VENV/bin/python" -m pip install -q --no-deps -e "$WB_ROOT"
fi
export WB_PYTHON="$WB_VENV/bin/python"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
