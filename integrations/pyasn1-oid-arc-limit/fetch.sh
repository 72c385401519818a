#!/usr/bin/env bash
# Fetch the pyasn1 integration case into DEST:
#   DEST/repo/                 pyasn1 0.6.1 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the pyasn1/codec/ber/decoder.py part of Debian's
#                              CVE-2026-23490 patch, which is upstream's commit 3908f14 as
#                              `git format-patch` wrote it (its test-file part left out)
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here). The mirror's pool has
# no .dsc for this version, so the .orig and .debian tarballs are checked against the signed source
# index's hashes and the pins below.
# Usage: bash integrations/pyasn1-oid-arc-limit/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="pyasn1"
PACKAGE="pyasn1"
VERSION="0.6.1-1+deb13u3"
SUITE="trixie"
ORIG="pyasn1_0.6.1.orig.tar.gz"
DEBIAN="pyasn1_0.6.1-1+deb13u3.debian.tar.xz"
PATCH="debian/patches/CVE-2026-23490.patch"
FIXED_FILES="pyasn1/codec/ber/decoder.py"
SHA_ORIG="6f580d2bdd84365380830acf45550f2511469f673cb4a5ae3857a3170128b034"
SHA_DEBIAN="dbcc3d55563558ba54b44b52c894dc0562717f6187fe4f2ebb028a75931c1ec7"
SHA_PATCH="e6f2e924ff19e1f96b2b8535e9a298646a9166078f489938f7cf02c2901b617c"
SHA_CANDIDATE="88b0280cbc0c97f4f514415a161ebaa9171f3fff0a0e909c624374dd0fb189c0"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
