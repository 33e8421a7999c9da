#!/usr/bin/env bash
# Installs what a fresh Debian machine with only Swift lacks: GMP and MPFR headers.
set -euo pipefail
if ! dpkg -s libgmp-dev libmpfr-dev >/dev/null 2>&1; then
  echo "setup: installing libgmp-dev libmpfr-dev" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq libgmp-dev libmpfr-dev >/dev/null
fi
