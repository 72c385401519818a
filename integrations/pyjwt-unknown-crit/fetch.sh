#!/usr/bin/env bash
# Fetch the pyjwt integration case into DEST:
#   DEST/repo/                 PyJWT 2.10.1 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the jwt/api_jws.py part of Debian's patch
#                              Merge-commit-from-fork.patch, Debian's backport of upstream's commit
#                              051ea34 (its test-file parts left out)
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here). The mirror's pool has
# no .dsc for this version, so the .orig and .debian tarballs are checked against the signed source
# index's hashes and the pins below.
# Usage: bash integrations/pyjwt-unknown-crit/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="pyjwt"
PACKAGE="pyjwt"
VERSION="2.10.1-2+deb13u1"
SUITE="trixie"
ORIG="pyjwt_2.10.1.orig.tar.gz"
DEBIAN="pyjwt_2.10.1-2+deb13u1.debian.tar.xz"
PATCH="debian/patches/Merge-commit-from-fork.patch"
FIXED_FILES="jwt/api_jws.py"
SHA_ORIG="f1f537d12a83da1bb194f19474be5cb48ba772ffa46e21025928964ea504da52"
SHA_DEBIAN="d23fe4cf1f22d5b23bf7460cb0060e03126e9de10d1238e6214a63eafa3c8785"
SHA_PATCH="7448c3812faa21395928aa528063d932588717ff3720f96846178ea0d4d986be"
SHA_CANDIDATE="24abd3a73cdd38a71498967a716c57479322eb94b5803df91095c1faaf87585e"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
