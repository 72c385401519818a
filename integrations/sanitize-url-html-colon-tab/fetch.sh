#!/usr/bin/env bash
# Fetch the sanitize-url colon and tab entity case into DEST:
#   DEST/repo/               @braintree/sanitize-url 6.0.0 as published on the npm registry (its
#                            tarball ships src/ with upstream's jest suite, src/__tests__/test.ts, run
#                            by ts-jest), plus deps/package-lock.json: the release's own package.json
#                            (jest 27, ts-jest 27, typescript 4 among its devDependencies) locked with
#                            `npm install --package-lock-only`, without resolved URLs
#   DEST/fixed/              @braintree/sanitize-url 6.0.1, the first release with the fix
#   DEST/upstream-fix.diff   candidates/upstream-fix.diff: the src/index.ts part of upstream's commit
#                            d4bdc89 (fix html entity tab, #45), as git shows it
# How: integrations/lib/fetch-npm.sh (`npm pack` of both releases, each pinned by SHA-256; the
# candidate must apply to 6.0.0 and every line it adds must be in 6.0.1's src/index.ts).
# Usage: bash integrations/sanitize-url-html-colon-tab/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="sanitize-url"
PACKAGE="@braintree/sanitize-url"
BEFORE="6.0.0"
SHA_BEFORE="62cf5c6f33656d91d397049914cf155cd5b13b2e92e496172ba61b8450494475"
FIXED="6.0.1"
SHA_FIXED="2d9408d1f33486954442bd16b121f07cec7e0fb602de6db615b9875cfa97c96b"
CANDIDATE="candidates/upstream-fix.diff"
SHA_CANDIDATE="deaa5d2cb33bffda86ef5191512a8b29a01b93183162948c32c00521c4b75ea0"
LOCK="deps/package-lock.json"
SHA_LOCK="89e0e0a1c3ad1d06805ab036cd34042f939a207a4a3d8e3dcc7f95266e009643"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-npm.sh"
fetch_npm_case "$@"
