#!/usr/bin/env bash
# Installs the Debian packages paisai needs beyond Python: Chromium (browser tests),
# a CJK font (Chinese in PDFs), Pango (WeasyPrint), poppler-utils (looking at PDFs).
# Idempotent; installs only what is missing; needs root (or sudo) when something is missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || missing+=(fonts-noto-cjk)
ldconfig -p 2>/dev/null | grep -q libpangoft2-1.0 || missing+=(libpango-1.0-0 libpangoft2-1.0-0)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)

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
