#!/usr/bin/env bash
# Fetch the gorilla/mux integration case into DEST:
#   DEST/repo/                 gorilla/mux 1.8.0 as released upstream (bookworm's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: upstream's commit 395ad81 ("[BUG] Inconsistent HTTP status
#                              code on query mismatch (#712)", fixes #704), its route.go part only: the
#                              10 lines it adds to Route.Match, taken from trixie's 1.8.1 .orig tarball
#                              (lines 69-79 of route.go there) and spliced into 1.8.0's route.go in place
#                              of line 69; every other change between 1.8.0 and 1.8.1 is left out
#   DEST/newer-release/        gorilla/mux 1.8.1 (trixie's .orig tarball), for reference
# Debian carries no patch for this fix (it came in the 1.8.1 release), hence two releases and a splice.
# How: integrations/lib/fetch-debian-pair.sh (apt with a private configuration on this machine's own
# Debian mirror; every file checked against the SHA-256 values pinned here).
# Usage: bash integrations/gorilla-mux-method-mismatch/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="gorilla-mux"
PACKAGE="golang-github-gorilla-mux"
OLD_VERSION="1.8.0-1"
OLD_SUITE="bookworm"
OLD_ORIG="golang-github-gorilla-mux_1.8.0.orig.tar.gz"
SHA_OLD_ORIG="ea2639259d2ce6f402636655e91eb93ba69c139e3cbf80b044ee393ada53757b"
NEW_VERSION="1.8.1-1"
NEW_SUITE="trixie"
NEW_ORIG="golang-github-gorilla-mux_1.8.1.orig.tar.gz"
SHA_NEW_ORIG="c2a09e78d1886abb2d291b472eba3ac9185acb35234c1f5616669664ba893d6d"
SPLICE="route.go 69 69 69 79"
SHA_SPLICED="c6388e3386c970eecdd732fd96e3ede79bcd065e6228d15754ae555dc487a5ef"
SHA_CANDIDATE="16036996df4749eb58caef5f82f4ae36f8fe0c0876a27dd25cf1d65bbce4de05"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-debian-pair.sh"
fetch_debian_pair_case "$@"
