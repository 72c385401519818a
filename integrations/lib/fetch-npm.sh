# Shared by the integrations' fetch scripts for JavaScript projects (source it, set the variables
# below, call fetch_npm_case): fetches two releases of one package from the npm registry with the
# ordinary client (`npm pack NAME@VERSION`: the registry this machine's npm is configured for, and
# npm's own integrity check against the registry's metadata), checks each tarball against a SHA-256
# pinned by the case, unpacks the release before the fix as the repository, and checks the case's
# committed candidate (upstream's fix hunk, cut by hand to the fix out of the two releases' diff)
# against both: it applies to the release before the fix with `git apply` (whole context, no fuzz),
# and every line it adds is a line of the fixed release's same file. No registry host is written
# in the repository; the npm registry is the only network this uses.
#
# npm tarballs carry no lockfile, and often no devDependencies: a case with dependencies pins them.
# LOCK (a package-lock.json committed in the case folder, made with `npm install
# --package-lock-only` and without `resolved` URLs, as fixtures/jest-money's) is copied into the
# release, so the witness pack's setup stage installs exactly that closure with `npm ci`; RUNNER
# NAME@VERSION, when the release's package.json does not name the test runner, is first written
# into its devDependencies — what the version matrix does for the fixtures (__tests__/matrix).
#
# A case's fetch.sh sets, then calls `fetch_npm_case "$@"`:
#   CASE               short name for messages
#   PACKAGE            the npm package name
#   BEFORE SHA_BEFORE  the release before the fix, and its tarball's SHA-256
#   FIXED SHA_FIXED    the release with the fix, and its tarball's SHA-256
#   CANDIDATE          the committed upstream-fix candidate, relative to the case folder
#   SHA_CANDIDATE      that candidate, pinned
#   LOCK SHA_LOCK      optional: the lockfile (case-relative), pinned
#   RUNNER             optional, with LOCK: NAME@VERSION added to devDependencies
# Writes DEST/repo/ (the release before the fix, plus the lockfile and runner when set), DEST/fixed/
# (the fixed release, for reference) and DEST/upstream-fix.diff (the candidate, checked).
# Any failure: one line on stderr, exit 1.

fetch_npm_die() { printf 'fetch %s: %s\n' "${CASE:-npm}" "$*" >&2; exit 1; }

fetch_npm_check_sha() { # FILE EXPECTED
  local actual
  [[ -f "$1" ]] || fetch_npm_die "$(basename "$1") is missing"
  actual="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ "$actual" == "$2" ]] || fetch_npm_die "$(basename "$1"): SHA-256 is $actual, pinned $2"
}

# npm pack NAME@VERSION into DIR; prints the tarball's path.
fetch_npm_pack() { # NAME@VERSION DIR
  local file
  file="$(cd "$2" && npm pack --silent --ignore-scripts "$1" 2>"$2/npm-pack.log" | tail -n 1)" \
    || fetch_npm_die "npm pack $1 failed: $(grep -m 1 -E 'npm (error|ERR)' "$2/npm-pack.log")"
  [[ -n "$file" && -f "$2/$file" ]] || fetch_npm_die "npm pack $1 wrote no tarball: $(head -n 1 "$2/npm-pack.log")"
  printf '%s\n' "$2/$file"
}

fetch_npm_case() {
  local var
  for var in CASE PACKAGE BEFORE SHA_BEFORE FIXED SHA_FIXED CANDIDATE SHA_CANDIDATE; do
    [[ -n "${!var:-}" ]] || fetch_npm_die "the case's fetch.sh does not set $var"
  done
  if [[ -n "${LOCK:-}${SHA_LOCK:-}${RUNNER:-}" ]]; then
    [[ -n "${LOCK:-}" && -n "${SHA_LOCK:-}" ]] || fetch_npm_die "set LOCK and SHA_LOCK together (RUNNER needs them too)"
  fi
  [[ $# -eq 1 ]] || fetch_npm_die "usage: fetch.sh DEST (a new or empty folder)"
  local dest="$1" tool work started case_dir before fixed
  if [[ -e "$dest" ]]; then
    [[ -d "$dest" && -z "$(ls -A "$dest")" ]] || fetch_npm_die "DEST '$dest' exists and is not an empty folder"
  fi
  for tool in npm node tar sha256sum git awk; do
    command -v "$tool" >/dev/null 2>&1 || fetch_npm_die "'$tool' is not installed"
  done
  case_dir="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
  fetch_npm_check_sha "$case_dir/$CANDIDATE" "$SHA_CANDIDATE"
  [[ -z "${LOCK:-}" ]] || fetch_npm_check_sha "$case_dir/$LOCK" "$SHA_LOCK"

  work="$(mktemp -d "${TMPDIR:-/tmp}/pp-$CASE-fetch.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'" EXIT
  started=$SECONDS
  # Its own cache, so a poisoned host cache cannot serve other bytes (the pins would catch them anyway).
  export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
  before="$(fetch_npm_pack "$PACKAGE@$BEFORE" "$work")"
  fetch_npm_check_sha "$before" "$SHA_BEFORE"
  mkdir -p "$work/fixed-pack" && fixed="$(fetch_npm_pack "$PACKAGE@$FIXED" "$work/fixed-pack")"
  fetch_npm_check_sha "$fixed" "$SHA_FIXED"

  mkdir -p "$dest/repo" "$dest/fixed"
  tar -xzf "$before" -C "$dest/repo" --strip-components=1 --no-same-owner || fetch_npm_die "could not unpack $(basename "$before")"
  tar -xzf "$fixed" -C "$dest/fixed" --strip-components=1 --no-same-owner || fetch_npm_die "could not unpack $(basename "$fixed")"

  # The candidate applies to the release before the fix, exactly (a scratch git copy; no fuzz).
  cp -a "$dest/repo" "$work/check"
  (
    cd "$work/check" && git init -q && git apply --check "$case_dir/$CANDIDATE"
  ) 2>"$work/apply.log" || fetch_npm_die "$CANDIDATE does not apply to $PACKAGE@$BEFORE: $(head -n 1 "$work/apply.log")"
  # Every line it adds is in the fixed release's same file: the candidate is upstream's code.
  awk '
    /^\+\+\+ b\// { file = substr($0, 7); next }
    /^\+\+\+ / { file = ""; next }
    /^\+/ && file != "" { print file "\t" substr($0, 2) }
  ' "$case_dir/$CANDIDATE" >"$work/added.tsv"
  [[ -s "$work/added.tsv" ]] || fetch_npm_die "$CANDIDATE adds no lines"
  local file line
  while IFS=$'\t' read -r file line; do
    [[ -f "$dest/fixed/$file" ]] || fetch_npm_die "$CANDIDATE changes $file, which $PACKAGE@$FIXED does not have"
    grep -qxF -- "$line" "$dest/fixed/$file" || fetch_npm_die "$CANDIDATE adds a line that $PACKAGE@$FIXED's $file lacks: $line"
  done <"$work/added.tsv"
  cp "$case_dir/$CANDIDATE" "$dest/upstream-fix.diff"

  [[ -z "${LOCK:-}" ]] || cp "$case_dir/$LOCK" "$dest/repo/package-lock.json"
  if [[ -n "${RUNNER:-}" ]]; then
    RUNNER_SPEC="$RUNNER" node -e '
      const fs = require("fs");
      const path = process.argv[1];
      const spec = process.env.RUNNER_SPEC;
      const at = spec.lastIndexOf("@");
      const manifest = JSON.parse(fs.readFileSync(path, "utf8"));
      manifest.devDependencies = { ...(manifest.devDependencies ?? {}), [spec.slice(0, at)]: spec.slice(at + 1) };
      fs.writeFileSync(path, JSON.stringify(manifest, null, 2) + "\n");
    ' "$dest/repo/package.json" || fetch_npm_die "could not add $RUNNER to package.json"
  fi

  printf 'fetched %s %s (and %s) into %s in %d s\n' "$PACKAGE" "$BEFORE" "$FIXED" "$dest" "$((SECONDS - started))"
}
