#!/usr/bin/env bash
# Fetch the idna integration case into DEST:
#   DEST/repo/                 idna 3.10 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the idna/core.py part of Debian's patch 0001, which is
#                              upstream's commit 839cbaa (GHSA-65pc-fj4g-8rjx) as `git format-patch` wrote it
#   DEST/debian-patch.patch    that whole Debian patch, for reference
# How: integrations/lib/fetch-debian.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here). The mirror's pool has
# no .dsc for this version, so the .orig and .debian tarballs are checked against the signed source
# index's hashes and the pins below.
# Usage: bash integrations/idna-oversized-input/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="idna"
PACKAGE="python-idna"
VERSION="3.10-1+deb13u1"
SUITE="trixie"
ORIG="python-idna_3.10.orig.tar.xz"
DEBIAN="python-idna_3.10-1+deb13u1.debian.tar.xz"
PATCH="debian/patches/0001-Merge-commit-from-fork.patch"
FIXED_FILES="idna/core.py"
SHA_ORIG="03af80a86108713070c5b404a22864a5164d7f693c7f7504c2dc839533a184ad"
SHA_DEBIAN="90f8226b18d1c3bcb04f7a3001071c10c293f047146b87b3ce133d49848630f5"
SHA_PATCH="a6e7296659ef93b2ba7fa72e0a2bb1bb0f51b78772cc837583b8c2b5dd3dce49"
SHA_CANDIDATE="bb3ff513409a62df3e0601b482fce0b8de9fea0e1dd63c660e5b5cbae00c3462"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian.sh"
fetch_debian_case "$@"
