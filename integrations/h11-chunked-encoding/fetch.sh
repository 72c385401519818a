#!/usr/bin/env bash
# Fetch the h11 integration case into DEST:
#   DEST/repo/                 h11 0.14.0 as released upstream (Debian's .orig tarball, unchanged)
#   DEST/upstream-fix.diff     the candidate: the h11/_readers.py part of Debian's patch, which is
#                              upstream's CVE-2025-43859 fix commit as `git format-patch` wrote it
#   DEST/debian-patch.patch    that whole Debian patch, for reference
#
# The source package comes from Debian's archive through apt-get (a private apt configuration in a
# temporary folder: a deb-src entry for bookworm on this machine's own Debian mirror), so apt checks
# the archive's signature and the .dsc's checksums; every downloaded file and the derived candidate
# are then checked against the SHA-256 values pinned below. Any mismatch or failure ends the script
# with one line on stderr and a non-zero exit.
#
# Usage: bash integrations/h11-chunked-encoding/fetch.sh DEST   (DEST must not exist, or be empty)
# The mirror comes from /etc/apt (sources.list.d/*.sources, then sources.list);
# PATCHPROOF_DEBIAN_MIRROR overrides it.
set -euo pipefail

PACKAGE="python-h11"
VERSION="0.14.0-1.1~deb12u1"
SUITE="bookworm"
ORIG="python-h11_0.14.0.orig.tar.gz"
DEBIAN="python-h11_0.14.0-1.1~deb12u1.debian.tar.xz"
DSC="python-h11_0.14.0-1.1~deb12u1.dsc"
PATCH="debian/patches/0001-Validate-Chunked-Encoding-chunk-footer.patch"
FIXED_FILE="h11/_readers.py"
KEYRING="/usr/share/keyrings/debian-archive-keyring.gpg"
# Pinned SHA-256 values of the downloaded files, of Debian's patch and of the derived candidate.
SHA_ORIG="d65a85d094b76846653fa7c3b45abdaf8b4f055c643bb6eec623f1311636a474"
SHA_DEBIAN="d622ebae0d0ec47dc5d467f63767d6769a4d0bf8220bee0ef0c1d387d9968c8f"
SHA_DSC="d3b1c585f2a42e3cc27fe20fcfced71fe4d57300c975dcfeeeb3259d2afbf4b0"
SHA_PATCH="6bb06667dd1ab1fbb7214aa37e9644f0e13f445e4f568f191ed6be5b535cc2c7"
SHA_CANDIDATE="623d0a52e07c14128935a46445d0d8a5b0bdcc36bb5da45da0e65f3ad2ac2515"

die() { printf 'fetch h11: %s\n' "$*" >&2; exit 1; }

[[ $# -eq 1 ]] || die "usage: fetch.sh DEST (a new or empty folder)"
dest="$1"
if [[ -e "$dest" ]]; then
  [[ -d "$dest" && -z "$(ls -A "$dest")" ]] || die "DEST '$dest' exists and is not an empty folder"
fi
for tool in apt-get tar sha256sum awk; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is not installed"
done

source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib/debian-mirror.sh"

mirror="${PATCHPROOF_DEBIAN_MIRROR:-$(find_mirror | awk 'NR == 1')}"
[[ -n "$mirror" ]] || die "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set PATCHPROOF_DEBIAN_MIRROR"
[[ "$mirror" =~ ^(https?|file):// ]] || die "mirror '$mirror' is not an http(s):// or file:// URI; set PATCHPROOF_DEBIAN_MIRROR"
[[ -f "$KEYRING" ]] || die "missing $KEYRING (apt-get install debian-archive-keyring): the archive's signature cannot be checked"

work="$(mktemp -d "${TMPDIR:-/tmp}/pp-h11-fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/preferences" "$work/lists/partial" "$work/cache/archives/partial" "$work/download" "$work/debian"
cat >"$work/parts/h11.sources" <<EOF
Types: deb-src
URIs: $mirror
Suites: $SUITE
Components: main
Signed-By: $KEYRING
EOF
: >"$work/empty.list"

# Only this private configuration: the host's lists, cache and preferences stay untouched.
apt_private() {
  apt-get -q \
    -o Dir::Etc::SourceList="$work/empty.list" -o Dir::Etc::SourceParts="$work/parts" \
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$work/preferences" \
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" \
    -o APT::Sandbox::User=root -o Acquire::Languages=none "$@"
}

started=$SECONDS
# apt-get update exits 0 when a download fails (it only warns): look for the index it should have written.
apt_private update >"$work/apt-update.log" 2>&1 || die "apt-get update of the $SUITE source index failed: $(grep -E '^(E|W):' "$work/apt-update.log" | head -n 1)"
compgen -G "$work/lists/*_${SUITE}_main_source_Sources*" >/dev/null \
  || die "apt-get update fetched no $SUITE source index from $mirror: $(grep -E '^(E|W):' "$work/apt-update.log" | head -n 1)"
(cd "$work/download" && apt_private source --download-only "$PACKAGE=$VERSION") >"$work/apt-source.log" 2>&1 \
  || die "apt-get source $PACKAGE=$VERSION failed: $(grep -E '^E:' "$work/apt-source.log" | head -n 1)"

check_sha() { # FILE EXPECTED
  local actual
  [[ -f "$1" ]] || die "$(basename "$1") was not downloaded"
  actual="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ "$actual" == "$2" ]] || die "$(basename "$1"): SHA-256 is $actual, pinned $2"
}
check_sha "$work/download/$ORIG" "$SHA_ORIG"
check_sha "$work/download/$DEBIAN" "$SHA_DEBIAN"
check_sha "$work/download/$DSC" "$SHA_DSC"

mkdir -p "$dest/repo"
tar -xzf "$work/download/$ORIG" -C "$dest/repo" --strip-components=1 --no-same-owner || die "could not unpack $ORIG"
tar -xJf "$work/download/$DEBIAN" -C "$work/debian" --no-same-owner || die "could not unpack $DEBIAN"
check_sha "$work/debian/$PATCH" "$SHA_PATCH"
cp "$work/debian/$PATCH" "$dest/debian-patch.patch"

# The candidate: the patch's section for the library's source file, up to the next file's header.
awk -v header="diff --git a/$FIXED_FILE b/$FIXED_FILE" '
  /^diff --git / { keep = ($0 == header) }
  keep { print }
' "$work/debian/$PATCH" >"$dest/upstream-fix.diff"
check_sha "$dest/upstream-fix.diff" "$SHA_CANDIDATE"

printf 'fetched %s %s into %s in %d s\n' "$PACKAGE" "$VERSION" "$dest" "$((SECONDS - started))"
