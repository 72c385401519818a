#!/usr/bin/env bash
# Fetch the xmltodict integration case into DEST:
#   DEST/repo/                 xmltodict 0.13.0 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the xmltodict.py part of Debian's patch 0001, which is
#                              upstream's commit 6592b0e (CVE-2025-9375) as `git format-patch` wrote it
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here).
# Usage: bash integrations/xmltodict-xml-injection/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="xmltodict"
PACKAGE="python-xmltodict"
VERSION="0.13.0-1.1~deb12u1"
SUITE="bookworm"
ORIG="python-xmltodict_0.13.0.orig.tar.gz"
DEBIAN="python-xmltodict_0.13.0-1.1~deb12u1.debian.tar.xz"
DSC="python-xmltodict_0.13.0-1.1~deb12u1.dsc"
PATCH="debian/patches/0001-Prevent-XML-injection-reject-in-element-attr-names-i.patch"
FIXED_FILES="xmltodict.py"
SHA_ORIG="d74f4099d42bcca273ffd3bc9766abaa8765960eabc4399f2a6ad48cb4f58ce0"
SHA_DEBIAN="ae6c8f1cf593fea4f7693bf3be3ac64ea659e29bd124618e215b4e27ba7207c2"
SHA_DSC="ffac82c35328c4ad0bc524ec4af488b34c7b01f195e3b1e4a416fd302349e971"
SHA_PATCH="4409381c247794c0a112b13738ffb9404fea121991e513b662e4d47af7e5f9a5"
SHA_CANDIDATE="40a16b53e2b5c85e5d035954018f6055a2a4e65cd7b4afb3bb892357aeb7011e"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
