#!/usr/bin/env bash
# Installs the Debian packages paisai needs beyond Python: Chromium (browser tests),
# a CJK font (Chinese in PDFs), Pango (WeasyPrint), poppler-utils (looking at PDFs).
# Idempotent; installs only what is missing; needs root (or sudo) when something is missing.
# `system-deps.sh runtime` checks only what serving pages needs (fonts, Pango, npm): `make run`;
# `system-deps.sh node` only node and npm (Pyodide for the table page offline: `make install`).
set -euo pipefail

missing=()
# node and npm install Pyodide (package.json) for the table page's offline rules engine
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ "${1:-all}" != "runtime" ] && [ "${1:-all}" != "node" ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
  command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
fi
# (read whole lists first: `cmd | grep -q` under pipefail fails when grep stops reading early)
if [ "${1:-all}" != "node" ]; then
  fonts=$(fc-list 2>/dev/null || true)
  libs=$(ldconfig -p 2>/dev/null || true)
  grep -qi "Noto Sans CJK" <<<"$fonts" || missing+=(fonts-noto-cjk)
  grep -q libpangoft2-1.0 <<<"$libs" || missing+=(libpango-1.0-0 libpangoft2-1.0-0)
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "system-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "system-deps: please install as root: apt-get install ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
