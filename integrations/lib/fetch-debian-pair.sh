# Shared by the integrations' fetch scripts whose fix is not one of Debian's patches but lies between
# two Debian releases of the same source package (source it, set the variables below, call
# fetch_debian_pair_case). The older release's .orig tarball is the project as released before the
# fix; the candidate is cut out of the newer release: the lines one upstream commit added, spliced
# into the older release, and `git diff` of the result. Every other change between the two releases
# is left out. Both tarballs come through apt-get with a private apt configuration on this machine's
# own Debian mirror (as in fetch-debian.sh: the archive's signature and the source index's hashes are
# checked by apt), then against the SHA-256 values pinned by the case. No host name is written here.
#
# A case's fetch.sh sets, then calls `fetch_debian_pair_case "$@"`:
#   CASE                    short name for messages
#   PACKAGE                 the Debian source package
#   OLD_VERSION OLD_SUITE   the release before the fix (apt-get source PACKAGE=OLD_VERSION from OLD_SUITE)
#   OLD_ORIG SHA_OLD_ORIG   its .orig tarball's file name, pinned
#   NEW_VERSION NEW_SUITE   a later release that carries the fix
#   NEW_ORIG SHA_NEW_ORIG   its .orig tarball's file name, pinned
#   SPLICE                  "FILE OLD_FROM OLD_TO NEW_FROM NEW_TO": lines OLD_FROM..OLD_TO of the older
#                           release's FILE are replaced by lines NEW_FROM..NEW_TO of the newer one's
#                           (the upstream commit's hunk, as the newer release carries it)
#                           (the upstream commit's hunk, as the newer release carries it); several
#                           splices, one commit's hunks in one or more files, are separated by ";"
#                           (each range is given in the unchanged releases' line numbers)
#   SHA_SPLICED             the newer release's lines NEW_FROM..NEW_TO (of every splice, in SPLICE's
#                           order), pinned (so a shifted range fails)
#   SHA_CANDIDATE           the derived candidate, pinned
# Optional, for a crate (Rust) fetched from Debian's binary -dev packages instead of .orig tarballs
# (the pool here lacks most rust-* .orig tarballs; a librust-*-dev package ships the crate as
# published, tests included, under /usr/share/cargo/registry/<crate>-<version>/):
#   ARCHIVE=deb             PACKAGE is then the binary package, OLD_VERSION/NEW_VERSION its binary
#                           versions (as `apt-get download PACKAGE=VERSION` takes them) and
#                           OLD_ORIG/NEW_ORIG the .deb file names; the amd64 package is fetched
#                           (the crate's files are the same on every architecture)
#   OLD_ROOT NEW_ROOT       the folder inside each .deb that is the release
#                           (usr/share/cargo/registry/semver-1.0.14)
# A case's fetch.sh may also define the function `fetch_debian_pair_prepare REPO`, called on the
# unpacked older release before the fix is spliced in (a crate's missing Cargo.lock); what it
# changes is then part of the release every candidate applies to, and its README says so.
# Writes DEST/repo/ (the older release, unpacked), DEST/upstream-fix.diff (the candidate) and
# DEST/newer-release/ (the newer release, unpacked, for reference). Any failure: one line on stderr,
# exit 1. PATCHPROOF_DEBIAN_MIRROR overrides the mirror.

# shellcheck source=integrations/lib/fetch-debian.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/fetch-debian.sh"

# Download one file of a source package through apt into DIR, checked against the signed index.
fetch_debian_pair_download() { # WORK SUITE PACKAGE VERSION NAME DIR
  local work="$1" suite="$2" package="$3" version="$4" name="$5" dir="$6" mirror="$7" keyring="$8"
  local state="$work/apt-$suite" uri hash type=deb-src index=source_Sources
  [[ "${ARCHIVE:-}" == "deb" ]] && type=deb index=binary-amd64_Packages
  fetch_debian_private_apt "$state" "$type" "$suite" "$mirror" "$keyring"
  local apt=("${FETCH_DEBIAN_APT[@]}")
  "${apt[@]}" update >"$state/update.log" 2>&1 || fetch_debian_die "apt-get update of the $suite $type index failed: $(grep -E '^(E|W):' "$state/update.log" | head -n 1)"
  compgen -G "$state/lists/*_${suite}_main_${index}*" >/dev/null \
    || fetch_debian_die "apt-get update fetched no $suite $type index from $mirror: $(grep -E '^(E|W):' "$state/update.log" | head -n 1)"
  if [[ "$type" == "deb" ]]; then
    # The binary index apt just fetched and checked against the signed InRelease gives the .deb's
    # URI and SHA-256 (no dependency resolution: one package, downloaded as it is).
    (cd "$dir" && "${apt[@]}" download --print-uris "$package=$version") >"$state/source.log" 2>&1 \
      || fetch_debian_die "apt-get download $package=$version failed: $(grep -E '^E:' "$state/source.log" | head -n 1)"
  else
    (cd "$dir" && "${apt[@]}" source --print-uris "$package=$version") >"$state/source.log" 2>&1 \
      || fetch_debian_die "apt-get source $package=$version failed: $(grep -E '^E:' "$state/source.log" | head -n 1)"
  fi
  uri="$(awk -v f="$name" '$2 == f { gsub(/\047/, "", $1); print $1 }' "$state/source.log")"
  hash="$(awk -v f="$name" '$2 == f && $4 ~ /^SHA256:/ { print $4 }' "$state/source.log")"
  [[ -n "$uri" && -n "$hash" ]] || fetch_debian_die "$package=$version in the $suite $type index has no $name with a SHA-256"
  /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$uri" "$dir/$name" "$hash" >"$state/helper.log" 2>&1 \
    || fetch_debian_die "could not download $name: $(grep -E '^E:|^Err' "$state/helper.log" | head -n 1)"
}

# Unpack one downloaded release into DIR: a tarball without its top folder, or ROOT of a .deb.
fetch_debian_pair_unpack() { # FILE DIR ROOT WORK
  local file="$1" dir="$2" root="$3" work="$4"
  if [[ "${ARCHIVE:-}" == "deb" ]]; then
    [[ -n "$root" && "$root" != /* && "$root" != *..* ]] || fetch_debian_die "OLD_ROOT and NEW_ROOT must be relative folders inside the .deb"
    rm -rf "$work/deb" && mkdir -p "$work/deb"
    dpkg-deb -x "$file" "$work/deb" || fetch_debian_die "could not unpack $(basename "$file")"
    [[ -d "$work/deb/$root" && ! -L "$work/deb/$root" ]] || fetch_debian_die "$(basename "$file") has no folder $root"
    cp -a "$work/deb/$root/." "$dir/"
  else
    tar -xf "$file" -C "$dir" --strip-components=1 --no-same-owner || fetch_debian_die "could not unpack $(basename "$file")"
  fi
}

fetch_debian_pair_case() {
  local var
  for var in CASE PACKAGE OLD_VERSION OLD_SUITE OLD_ORIG SHA_OLD_ORIG NEW_VERSION NEW_SUITE NEW_ORIG SHA_NEW_ORIG SPLICE SHA_SPLICED SHA_CANDIDATE; do
    [[ -n "${!var:-}" ]] || fetch_debian_die "the case's fetch.sh does not set $var"
  done
  [[ $# -eq 1 ]] || fetch_debian_die "usage: fetch.sh DEST (a new or empty folder)"
  local dest="$1" keyring mirror work started tools=(apt-get tar sha256sum awk git)
  local splice file old_from old_to new_from new_to extra
  local -a splices
  IFS=';' read -r -a splices <<<"$SPLICE"
  for splice in "${splices[@]}"; do
    read -r file old_from old_to new_from new_to extra <<<"$splice"
    [[ -n "$new_to" && -z "$extra" && "$old_from$old_to$new_from$new_to" =~ ^[0-9]+$ ]] || fetch_debian_die "SPLICE must be 'FILE OLD_FROM OLD_TO NEW_FROM NEW_TO' (several separated by ';'), not '$splice'"
  done
  [[ "${ARCHIVE:-}" == "deb" ]] && tools+=(dpkg-deb)
  fetch_debian_preflight "$dest" "${tools[@]}"
  mirror="$FETCH_DEBIAN_MIRROR" keyring="$FETCH_DEBIAN_KEYRING"

  work="$(mktemp -d "${TMPDIR:-/tmp}/pp-$CASE-fetch.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'" EXIT
  mkdir -p "$work/download"
  started=$SECONDS
  fetch_debian_pair_download "$work" "$OLD_SUITE" "$PACKAGE" "$OLD_VERSION" "$OLD_ORIG" "$work/download" "$mirror" "$keyring"
  fetch_debian_pair_download "$work" "$NEW_SUITE" "$PACKAGE" "$NEW_VERSION" "$NEW_ORIG" "$work/download" "$mirror" "$keyring"
  fetch_debian_check_sha "$work/download/$OLD_ORIG" "$SHA_OLD_ORIG"
  fetch_debian_check_sha "$work/download/$NEW_ORIG" "$SHA_NEW_ORIG"

  mkdir -p "$dest/repo" "$dest/newer-release"
  fetch_debian_pair_unpack "$work/download/$OLD_ORIG" "$dest/repo" "${OLD_ROOT:-}" "$work"
  fetch_debian_pair_unpack "$work/download/$NEW_ORIG" "$dest/newer-release" "${NEW_ROOT:-}" "$work"
  if declare -F fetch_debian_pair_prepare >/dev/null; then
    fetch_debian_pair_prepare "$dest/repo" || fetch_debian_die "the case's fetch_debian_pair_prepare failed"
  fi
  : >"$work/spliced"
  for splice in "${splices[@]}"; do
    read -r file old_from old_to new_from new_to <<<"$splice"
    [[ -f "$dest/repo/$file" && -f "$dest/newer-release/$file" ]] || fetch_debian_die "$file is not in both releases"
    sed -n "${new_from},${new_to}p" "$dest/newer-release/$file" >>"$work/spliced"
  done
  fetch_debian_check_sha "$work/spliced" "$SHA_SPLICED"
  cp -a "$dest/repo" "$work/splice"
  (
    cd "$work/splice" && git init -q && git add -A \
      && git -c user.name=corpus -c user.email=corpus@invalid -c commit.gpgsign=false commit -qm release
  ) >"$work/splice.log" 2>&1 || fetch_debian_die "could not prepare the splice: $(head -n 1 "$work/splice.log")"
  # Bottom up within each file, so every range keeps the unchanged release's line numbers.
  while read -r file old_from old_to new_from new_to; do
    { head -n "$((old_from - 1))" "$work/splice/$file"; sed -n "${new_from},${new_to}p" "$dest/newer-release/$file"; tail -n "+$((old_to + 1))" "$work/splice/$file"; } >"$work/splice.next" \
      && cat "$work/splice.next" >"$work/splice/$file" || fetch_debian_die "could not splice the fix into $file"
  done < <(printf '%s\n' "${splices[@]}" | awk '{ $1 = $1; print }' | sort -k1,1 -k2,2nr)
  (cd "$work/splice" && git diff) >"$dest/upstream-fix.diff" 2>"$work/splice.log" || fetch_debian_die "could not diff the spliced fix: $(head -n 1 "$work/splice.log")"
  fetch_debian_check_sha "$dest/upstream-fix.diff" "$SHA_CANDIDATE"

  printf 'fetched %s %s (with the fix from %s) into %s in %d s\n' "$PACKAGE" "$OLD_VERSION" "$NEW_VERSION" "$dest" "$((SECONDS - started))"
}
