#!/usr/bin/env bash
# Fetch the tornado integration case into DEST:
#   DEST/repo/                 tornado 6.4.2 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the tornado/web.py part of Debian's CVE-2025-67724
#                              patch, which is upstream's commit f3b99cd as `git format-patch` wrote it
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here). The mirror's pool has
# no .dsc for this version, so the .orig and .debian tarballs are checked against the signed source
# index's hashes and the pins below.
# Usage: bash integrations/tornado-reason-phrase/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="tornado"
PACKAGE="python-tornado"
VERSION="6.4.2-3+deb13u2"
SUITE="trixie"
ORIG="python-tornado_6.4.2.orig.tar.gz"
DEBIAN="python-tornado_6.4.2-3+deb13u2.debian.tar.xz"
PATCH="debian/patches/CVE-2025-67724.patch"
FIXED_FILES="tornado/web.py"
SHA_ORIG="a45eec6f5fc01ed78b01a9dafceb81bf0d0440309bd478a9daadfa7c87bdd893"
SHA_DEBIAN="3c35a713f8d245d99821a0001979ecc851109562bedd0cb1f51ff833e67681cf"
SHA_PATCH="26b7b36865b41821e65b742c40887f01bd4878473fb9f9fc6612f424ba70b8d7"
SHA_CANDIDATE="df91451136c10c523eabdbb46d3b094a90ebae9b30e21a7db4319358b8bd9733"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
