#!/usr/bin/env bash
# Fetch the zod integration case into DEST:
#   DEST/repo/               zod 3.25.75 as published on the npm registry (its tarball ships src/ with
#                            upstream's vitest suite beside the compiled v4/ the tests import), plus
#                            vitest 3.2.7 pinned as a devDependency with deps/package-lock.json
#   DEST/fixed/              zod 3.25.76, the release with the fix (for the check below and reference)
#   DEST/upstream-fix.diff   candidates/upstream-fix.diff: upstream's commit 91c9ca6 (remove() forgets
#                            the schema's id), its src/v4/core/registries.ts hunk byte for byte, and
#                            the same hunk of the compiled v4/core/registries.{js,cjs} as 3.25.76 ships
# How: integrations/lib/fetch-npm.sh (`npm pack` of both releases, each pinned by SHA-256; the
# candidate must apply to 3.25.75 and every line it adds must be in 3.25.76's same file).
# Usage: bash integrations/zod-registry-remove-id/fetch.sh DEST   (DEST must not exist, or be empty)
set -euo pipefail

CASE="zod"
PACKAGE="zod"
BEFORE="3.25.75"
SHA_BEFORE="3cad79486c4ee9a8a97c4a5ac927f56d9803b73ba8b0f32be40461ac936f1077"
FIXED="3.25.76"
SHA_FIXED="9e1f1a05f0dd0c1dab64ee91ceb9bf55cd44d35368c70edda80a2fdc70a88377"
CANDIDATE="candidates/upstream-fix.diff"
SHA_CANDIDATE="afba18db5ef9da83db4294710914d9cd8b9a64bd0b33a639183770ee362262ee"
RUNNER="vitest@3.2.7"
LOCK="deps/package-lock.json"
SHA_LOCK="ecb677ba4fe4734d2f912257d2bb34265c4784bb252886b195b51b6cf00fedd3"

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/fetch-npm.sh"
fetch_npm_case "$@"
