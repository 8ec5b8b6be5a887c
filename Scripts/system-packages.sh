#!/usr/bin/env bash
# Installs the Debian packages Sift's build links, when they are missing, so that the
# README's commands work on a machine that has only the Swift toolchain:
#
#   Scripts/system-packages.sh && swift test
#
# Quiet and quick when everything is there (one dpkg query). Uses sudo when not root.
set -euo pipefail

# What each is for: PCRE2 and RE2 (MATCHES), simdjson (sift filter), SQLite (SiftFocus's
# multi-user state), pkg-config (SwiftPM finds the system-library targets through it),
# gcc (`cc` for the Python package's cffi extension and the C test program), libnats-dev
# (sift serve's NATS client) and nats-server (the server its tests start).
packages=(libpcre2-dev libre2-dev libsimdjson-dev libsqlite3-dev pkg-config gcc libnats-dev nats-server)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-packages.sh: missing ${missing[*]}, and apt-get is not here to install them" >&2
  exit 1
fi
as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "system-packages.sh: installing ${missing[*]} needs root or sudo" >&2; exit 1; }
  as_root=(sudo)
fi
echo "system-packages.sh: installing ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >&2
