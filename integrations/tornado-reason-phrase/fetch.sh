#!/usr/bin/env bash
# Fetch the tornado integration case into DEST:
#   DEST/repo/                 tornado 6.4.2 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the tornado/web.py part of Debian's CVE-2025-67724
#                              patch (upstream's commit f3b99cd), rebased on the release: Debian's
#                              earlier CVE-2025-47287 patch moves its last hunk by 9 lines, so the
#                              same lines change, with the release's line numbers (REBASE below)
#   DEST/upstream-fix.upstream.diff  that cut as Debian's patch has it
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
REBASE="1"
SHA_CANDIDATE="bd14da6766e5a8e985f4b4db09fd99995bba6ff572b74af6f0292d4bc3717ee8"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
