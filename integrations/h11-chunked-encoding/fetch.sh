#!/usr/bin/env bash
# Fetch the h11 integration case into DEST:
#   DEST/repo/                 h11 0.14.0 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the h11/_readers.py part of Debian's patch, which is
#                              upstream's CVE-2025-43859 fix commit as `git format-patch` wrote it
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here).
# Usage: bash integrations/h11-chunked-encoding/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="h11"
PACKAGE="python-h11"
VERSION="0.14.0-1.1~deb12u1"
SUITE="bookworm"
ORIG="python-h11_0.14.0.orig.tar.gz"
DEBIAN="python-h11_0.14.0-1.1~deb12u1.debian.tar.xz"
DSC="python-h11_0.14.0-1.1~deb12u1.dsc"
PATCH="debian/patches/0001-Validate-Chunked-Encoding-chunk-footer.patch"
FIXED_FILES="h11/_readers.py"
SHA_ORIG="d65a85d094b76846653fa7c3b45abdaf8b4f055c643bb6eec623f1311636a474"
SHA_DEBIAN="d622ebae0d0ec47dc5d467f63767d6769a4d0bf8220bee0ef0c1d387d9968c8f"
SHA_DSC="d3b1c585f2a42e3cc27fe20fcfced71fe4d57300c975dcfeeeb3259d2afbf4b0"
SHA_PATCH="6bb06667dd1ab1fbb7214aa37e9644f0e13f445e4f568f191ed6be5b535cc2c7"
SHA_CANDIDATE="623d0a52e07c14128935a46445d0d8a5b0bdcc36bb5da45da0e65f3ad2ac2515"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
