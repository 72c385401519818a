#!/usr/bin/env bash
# Fetch the find-my-way integration case into DEST:
#   DEST/repo/               find-my-way 9.7.0 as published on the npm registry (its tarball ships
#                            upstream's node:test suite in test/), plus deps/package-lock.json: the
#                            release's own package.json locked with `npm install --package-lock-only`
#   DEST/fixed/              find-my-way 9.8.0, the first release with the fix
#   DEST/upstream-fix.diff   candidates/upstream-fix.diff: the index.js part of upstream's commit
#                            b0c8047 (keep static parts between parameters in the route pattern)
# How: integrations/lib/fetch-npm.sh (`npm pack` of both releases, each pinned by SHA-256; the
# candidate must apply to 9.7.0 and every line it adds must be in 9.8.0's index.js).
# Usage: bash integrations/find-my-way-interior-static/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="find-my-way"
PACKAGE="find-my-way"
BEFORE="9.7.0"
SHA_BEFORE="81fb30a1e2fa43ab7d315f92679a222d03bec5fa3f5d1c399456b8fde77defdb"
FIXED="9.8.0"
SHA_FIXED="06532c3701c70d7ba087b2c1d7fc068f934e59fcc4875cc6279e447f4ea98f52"
CANDIDATE="candidates/upstream-fix.diff"
SHA_CANDIDATE="6f85c19686228f591249ecb77145a6e5be9c594b97b1b22ca461d872b44947a1"
LOCK="deps/package-lock.json"
SHA_LOCK="2c1ffa90924e72441183d4d9af4e2ab508946bf85b1662202ce9921ffae44df2"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-npm.sh"
fetch_npm_case "$@"
