# Shared by the integrations' fetch scripts (source it, set the variables below, call fetch_debian_case):
# fetches one Debian source package through apt-get with a private apt configuration (one deb-src
# entry on this machine's own Debian mirror, read from /etc/apt at run time, signed by
# debian-archive-keyring), so apt checks the archive's signature and the .dsc's checksums; then
# checks every file against SHA-256 values pinned by the case, unpacks the .orig tarball as the
# release before the fix and cuts the candidate (the library files' sections of one of Debian's
# patches, upstream's fix) out of the package's patch. The host's apt lists, cache and preferences
# are not touched; no host name is written in the repository.
#
# A case's fetch.sh sets, then calls `fetch_debian_case "$@"`:
#   CASE              short name for messages
#   PACKAGE VERSION   the source package and its exact version (apt-get source PACKAGE=VERSION)
#   SUITE             the Debian suite whose source index holds that version (bookworm, trixie)
#   ORIG DEBIAN       the file names downloaded, with SHA_ORIG SHA_DEBIAN pinned
#   DSC SHA_DSC       optional: the .dsc too (some partial pools here lack it; the signed source
#                     index's hashes of the other two files are checked either way)
#   PATCH SHA_PATCH   the fix's patch inside the .debian.tar.xz (debian/patches/...), pinned
#   FIXED_FILES       space-separated repository paths whose sections of PATCH make the candidate
#   SHA_CANDIDATE     the derived candidate, pinned
#   ORIG_STRIP        optional, path components to strip when unpacking ORIG (default 1)
#   REBASE            optional, "1": the patch was made on Debian's tree with earlier patches
#                     applied, so its hunks sit at other lines of the release: the cut is applied
#                     to a scratch copy of the release with `git apply` (whole context, no fuzz,
#                     only the line offset may differ) and the candidate is that copy's `git diff`:
#                     the same lines changed, with the release's line numbers. The raw cut is kept
#                     as DEST/upstream-fix.upstream.diff; SHA_CANDIDATE pins the rebased one.
# Writes DEST/repo/ (the release, unpacked), DEST/upstream-fix.diff (the candidate) and
# DEST/debian-patch.patch (the whole patch, for reference). Any failure: one line on stderr, exit 1.
# PATCHPROOF_DEBIAN_MIRROR overrides the mirror.

fetch_debian_die() { printf 'fetch %s: %s\n' "${CASE:-debian}" "$*" >&2; exit 1; }

# The candidate: each FIXED_FILES section of a patch, in the patch's order. A section runs from its
# `diff --git a/F b/F` header (git format-patch), or else from its `--- a/F` line (quilt, diff -u),
# up to the next file's header.
fetch_debian_cut() { # PATCH FILES...
  local patch="$1"; shift
  awk -v files="$*" '
    BEGIN { n = split(files, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
    /^diff --git / { git = 1; path = $3; sub(/^a\//, "", path); keep = (path in want); if (keep) seen[path] = 1 }
    !git && /^--- / { path = $2; sub(/^[^\/]*\//, "", path); keep = (path in want); if (keep) seen[path] = 1 }
    /^-- *$/ && git { keep = 0 }
    keep { print }
    END { for (p in want) if (!(p in seen)) { print "missing section " p > "/dev/stderr"; exit 1 } }
  ' "$patch"
}

fetch_debian_check_sha() { # FILE EXPECTED
  local actual
  [[ -f "$1" ]] || fetch_debian_die "$(basename "$1") was not downloaded"
  actual="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ "$actual" == "$2" ]] || fetch_debian_die "$(basename "$1"): SHA-256 is $actual, pinned $2"
}

# Checks shared by every Debian fetch (fetch-debian-pair.sh too): DEST is new or an empty folder,
# the TOOLS are installed, and there is a mirror (PATCHPROOF_DEBIAN_MIRROR, else the first one in
# this machine's apt sources) and the archive keyring apt checks the signature with. Sets
# FETCH_DEBIAN_MIRROR and FETCH_DEBIAN_KEYRING.
# A private apt configuration in STATE: one source (TYPE deb-src or deb) of SUITE on MIRROR, signed by
# KEYRING, nothing of the machine's own lists, preferences or cache. Sets FETCH_DEBIAN_APT to the
# apt-get command line that uses it.
fetch_debian_private_apt() { # STATE TYPE SUITE MIRROR KEYRING
  local state="$1" type="$2" suite="$3" mirror="$4" keyring="$5"
  mkdir -p "$state/parts" "$state/preferences" "$state/lists/partial" "$state/cache/archives/partial"
  cat >"$state/parts/case.sources" <<SOURCES
Types: $type
URIs: $mirror
Suites: $suite
Components: main
Signed-By: $keyring
SOURCES
  : >"$state/empty.list"
  FETCH_DEBIAN_APT=(apt-get -q
    -o Dir::Etc::SourceList="$state/empty.list" -o Dir::Etc::SourceParts="$state/parts"
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$state/preferences"
    -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache"
    -o APT::Sandbox::User=root -o Acquire::Languages=none)
  if [[ "$type" == "deb" ]]; then FETCH_DEBIAN_APT+=(-o APT::Architecture=amd64 -o APT::Architectures=amd64); fi
}

fetch_debian_preflight() { # DEST TOOL...
  local dest="$1" tool
  shift
  if [[ -e "$dest" ]]; then
    [[ -d "$dest" && -z "$(ls -A "$dest")" ]] || fetch_debian_die "DEST '$dest' exists and is not an empty folder"
  fi
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || fetch_debian_die "'$tool' is not installed"
  done
  FETCH_DEBIAN_KEYRING="/usr/share/keyrings/debian-archive-keyring.gpg"
  source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib/debian-mirror.sh"
  FETCH_DEBIAN_MIRROR="${PATCHPROOF_DEBIAN_MIRROR:-$(find_mirror | awk 'NR == 1')}"
  [[ -n "$FETCH_DEBIAN_MIRROR" ]] || fetch_debian_die "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set PATCHPROOF_DEBIAN_MIRROR"
  [[ "$FETCH_DEBIAN_MIRROR" =~ ^(https?|file):// ]] || fetch_debian_die "mirror '$FETCH_DEBIAN_MIRROR' is not an http(s):// or file:// URI; set PATCHPROOF_DEBIAN_MIRROR"
  [[ -f "$FETCH_DEBIAN_KEYRING" ]] || fetch_debian_die "missing $FETCH_DEBIAN_KEYRING (apt-get install debian-archive-keyring): the archive's signature cannot be checked"
}

fetch_debian_case() {
  local var
  for var in CASE PACKAGE VERSION SUITE ORIG DEBIAN SHA_ORIG SHA_DEBIAN PATCH SHA_PATCH FIXED_FILES SHA_CANDIDATE; do
    [[ -n "${!var:-}" ]] || fetch_debian_die "the case's fetch.sh does not set $var"
  done
  [[ $# -eq 1 ]] || fetch_debian_die "usage: fetch.sh DEST (a new or empty folder)"
  local dest="$1" keyring mirror work started
  fetch_debian_preflight "$dest" apt-get tar sha256sum awk
  mirror="$FETCH_DEBIAN_MIRROR" keyring="$FETCH_DEBIAN_KEYRING"

  work="$(mktemp -d "${TMPDIR:-/tmp}/pp-$CASE-fetch.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'" EXIT
  mkdir -p "$work/download" "$work/debian"
  fetch_debian_private_apt "$work" deb-src "$SUITE" "$mirror" "$keyring"
  apt_private() { "${FETCH_DEBIAN_APT[@]}" "$@"; }

  started=$SECONDS
  # apt-get update exits 0 when a download fails (it only warns): look for the index it should have written.
  apt_private update >"$work/apt-update.log" 2>&1 || fetch_debian_die "apt-get update of the $SUITE source index failed: $(grep -E '^(E|W):' "$work/apt-update.log" | head -n 1)"
  compgen -G "$work/lists/*_${SUITE}_main_source_Sources*" >/dev/null \
    || fetch_debian_die "apt-get update fetched no $SUITE source index from $mirror: $(grep -E '^(E|W):' "$work/apt-update.log" | head -n 1)"
  # The URIs and SHA-256 values come from the source index apt just fetched and checked against the
  # archive's signed InRelease. Each file is downloaded by apt's own helper, which checks that hash
  # (so a mirror missing only the .dsc, as some partial pools here are, still serves a case).
  (cd "$work/download" && apt_private source --print-uris "$PACKAGE=$VERSION") >"$work/apt-source.log" 2>&1 \
    || fetch_debian_die "apt-get source $PACKAGE=$VERSION failed: $(grep -E '^E:' "$work/apt-source.log" | head -n 1)"
  local name uri hash wanted
  wanted=("$ORIG" "$DEBIAN")
  [[ -n "${DSC:-}" ]] && wanted+=("$DSC")
  for name in "${wanted[@]}"; do
    uri="$(awk -v f="$name" '$2 == f { gsub(/\047/, "", $1); print $1 }' "$work/apt-source.log")"
    hash="$(awk -v f="$name" '$2 == f && $4 ~ /^SHA256:/ { print $4 }' "$work/apt-source.log")"
    [[ -n "$uri" && -n "$hash" ]] || fetch_debian_die "$PACKAGE=$VERSION in the $SUITE source index has no $name with a SHA-256"
    /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$uri" "$work/download/$name" "$hash" >"$work/apt-helper.log" 2>&1 \
      || fetch_debian_die "could not download $name: $(grep -E '^E:|^Err' "$work/apt-helper.log" | head -n 1)"
  done

  fetch_debian_check_sha "$work/download/$ORIG" "$SHA_ORIG"
  fetch_debian_check_sha "$work/download/$DEBIAN" "$SHA_DEBIAN"
  [[ -z "${DSC:-}" ]] || fetch_debian_check_sha "$work/download/$DSC" "$SHA_DSC"

  mkdir -p "$dest/repo"
  tar -xf "$work/download/$ORIG" -C "$dest/repo" --strip-components="${ORIG_STRIP:-1}" --no-same-owner || fetch_debian_die "could not unpack $ORIG"
  tar -xJf "$work/download/$DEBIAN" -C "$work/debian" --no-same-owner || fetch_debian_die "could not unpack $DEBIAN"
  fetch_debian_check_sha "$work/debian/$PATCH" "$SHA_PATCH"
  cp "$work/debian/$PATCH" "$dest/debian-patch.patch"
  # shellcheck disable=SC2086 # FIXED_FILES is a space-separated list
  fetch_debian_cut "$work/debian/$PATCH" $FIXED_FILES >"$dest/upstream-fix.diff" || fetch_debian_die "could not cut $FIXED_FILES out of $PATCH"
  if [[ "${REBASE:-}" == "1" ]]; then
    command -v git >/dev/null 2>&1 || fetch_debian_die "'git' is not installed (needed to rebase the fix on the release)"
    mv "$dest/upstream-fix.diff" "$dest/upstream-fix.upstream.diff"
    cp -a "$dest/repo" "$work/rebase"
    (
      cd "$work/rebase" && git init -q && git add -A \
        && git -c user.name=corpus -c user.email=corpus@invalid -c commit.gpgsign=false commit -qm release \
        && git apply "$dest/upstream-fix.upstream.diff" && git diff
    ) >"$dest/upstream-fix.diff" 2>"$work/rebase.log" || fetch_debian_die "the fix does not apply to the release: $(head -n 1 "$work/rebase.log")"
  fi
  fetch_debian_check_sha "$dest/upstream-fix.diff" "$SHA_CANDIDATE"

  printf 'fetched %s %s into %s in %d s\n' "$PACKAGE" "$VERSION" "$dest" "$((SECONDS - started))"
}
