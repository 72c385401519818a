#!/usr/bin/env bash
# Fetch the sanitize-url newline-entity case into DEST:
#   DEST/repo/               @braintree/sanitize-url 6.0.1 as published on the npm registry (its
#                            tarball ships src/ with upstream's jest suite, src/__tests__/test.ts, run
#                            by ts-jest), plus deps/package-lock.json: the release's own package.json
#                            (jest 27, ts-jest 27, typescript 4 among its devDependencies) locked with
#                            `npm install --package-lock-only`, without resolved URLs
#   DEST/fixed/              @braintree/sanitize-url 6.0.2, the first release with the fix
#   DEST/upstream-fix.diff   candidates/upstream-fix.diff: the src/index.ts part of upstream's commit
#                            a39ca11 (remove newline entities, #46), as git shows it
# How: integrations/lib/fetch-npm.sh (`npm pack` of both releases, each pinned by SHA-256; the
# candidate must apply to 6.0.1 and every line it adds must be in 6.0.2's src/index.ts).
# Usage: bash integrations/sanitize-url-newline-entity/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="sanitize-url"
PACKAGE="@braintree/sanitize-url"
BEFORE="6.0.1"
SHA_BEFORE="2d9408d1f33486954442bd16b121f07cec7e0fb602de6db615b9875cfa97c96b"
FIXED="6.0.2"
SHA_FIXED="09d495b928eec8c42343249c6ef81a595ecd2ee9b77bc85f486619033bd90ded"
CANDIDATE="candidates/upstream-fix.diff"
SHA_CANDIDATE="483461a5b245827d33732c3eb2ba0fb2e9babee211f927b66b863eff3ac98204"
LOCK="deps/package-lock.json"
SHA_LOCK="de958e7e2155ed297d6132ed138fe1a19706eb5d7883964e0a516431fdaeb253"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-npm.sh"
fetch_npm_case "$@"
