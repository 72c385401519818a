#!/usr/bin/env bash
# Regenerates the JUnit XML files of this folder with node's own test runner (node 20):
#   bash __tests__/adapters/data/junit-generic/generate.sh
# Each run happens in a copy at /tmp/pp-junit-generic/<name> (the workdir the tests parse with).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
base=/tmp/pp-junit-generic
rm -rf "$base" && mkdir -p "$base"
junit() { # name copy files...
  local name="$1" copy="$2"; shift 2
  (cd "$copy" && node --test --test-reporter=junit --test-reporter-destination="$here/$name.xml" "$@"; echo "$name: exit $?" >&2)
}
# The pack is sealed: the data are runs of the author's unsealed originals (in-process results).
semver() { # name candidate-or-empty
  local copy="$base/$1"
  cp -r "$root/fixtures/junit-semver/repo" "$copy"
  mkdir -p "$copy/.patchproof/harness"
  cp -r "$root/witness-packs/junit-semver/oracle/original/reproduction" "$copy/.patchproof/reproduction"
  cp -r "$root/witness-packs/junit-semver/oracle/original/hidden" "$copy/.patchproof/hidden"
  cp -r "$root/witness-packs/junit-semver/canary" "$copy/.patchproof/harness/canary"
  if [[ -n "$2" ]]; then (cd "$copy" && git apply "$root/fixtures/junit-semver/candidates/$2.diff"); fi
}
semver base ''
junit base-reproduction "$base/base" .patchproof/reproduction/compare-multidigit.test.js .patchproof/harness/canary/grader.test.js
junit base-suite "$base/base" test/semver.test.js .patchproof/harness/canary/grader.test.js
semver fix fix
junit fix-hidden "$base/fix" .patchproof/hidden/numeric-parts.test.js .patchproof/harness/canary/grader.test.js
semver wrong-fix wrong-fix
junit wrong-fix-hidden "$base/wrong-fix" .patchproof/hidden/numeric-parts.test.js .patchproof/harness/canary/grader.test.js
semver sabotage sabotage-assert
junit sabotage-reproduction "$base/sabotage" .patchproof/reproduction/compare-multidigit.test.js .patchproof/harness/canary/grader.test.js
cp -r "$here/project" "$base/project"
junit mixed "$base/project" test/mixed.test.js test/broken-import.test.js
junit same-name "$base/project" test/mixed.test.js test/same-name.test.js
