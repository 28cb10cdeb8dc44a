#!/usr/bin/env bash
# The Explorer's browser tests drive Chromium: CHROMIUM_PATH names it, by default Debian's
# package at /usr/bin/chromium, which is installed when it is missing.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$CHROMIUM" != /usr/bin/chromium ]; then
  echo "CHROMIUM_PATH names $CHROMIUM, which is not an executable file." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "Chromium is missing at /usr/bin/chromium and apt-get is not available to install it; install it, or set CHROMIUM_PATH to a Chromium." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "Installing Chromium for the Explorer's browser tests…" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
