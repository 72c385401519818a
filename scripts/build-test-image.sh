#!/usr/bin/env bash
# Build the local PatchProof test image (Debian trixie minbase with the toolchains the adapters
# drive: python3 + pytest, nodejs + npm, golang-go, cargo) without pulling
# from any image registry: debootstrap from this machine's own Debian mirror, then `docker import`.
#
# Prints the image ID (sha256:...) as the last line of stdout; everything else goes to stderr.
# Idempotent: an image tagged patchproof-test:local built from the same recipe is reused.
# The tag is only for lookup: pass the printed ID to `--image`.
#
# Needs root (debootstrap). The mirror comes from /etc/apt (sources.list.d/*.sources, then
# sources.list); PATCHPROOF_DEBIAN_MIRROR overrides it.
set -euo pipefail

TAG="patchproof-test:local"
SUITE="trixie"            # node 20 and python 3.13; bookworm's node 18 lacks what adapters use
VARIANT="minbase"
PACKAGES="python3,python3-pytest,nodejs,ca-certificates"
# Installed afterwards with apt inside the tree (apt resolves and configures them faster and more
# reliably than debootstrap's own resolver).
APT_PACKAGES="golang-go cargo"
TOOLS="usr/bin/python3 usr/bin/node usr/local/bin/npm usr/bin/go usr/bin/cargo"
TOOL_VERSIONS='python3 --version && node --version && npm --version && go version && cargo --version'
# PATCHPROOF_IMAGE_SUITE=bookworm builds a second, Python-only image (bookworm's python3-pytest,
# pytest 7.2) for the version matrix (npm run matrix, row pytest-7.2), tagged patchproof-test:bookworm.
# The default image's recipe is untouched by this.
IMAGE_SUITE="${PATCHPROOF_IMAGE_SUITE:-trixie}"
case "$IMAGE_SUITE" in
  trixie) ;;
  bookworm)
    TAG="patchproof-test:bookworm"
    SUITE="bookworm"
    PACKAGES="python3,python3-pytest,ca-certificates"
    APT_PACKAGES=""
    TOOLS="usr/bin/python3"
    TOOL_VERSIONS='python3 --version && python3 -m pytest --version'
    ;;
  *) printf 'build-test-image: error: PATCHPROOF_IMAGE_SUITE=%s is not trixie or bookworm\n' "$IMAGE_SUITE" >&2; exit 1 ;;
esac
# npm from its own published package (self-contained: it bundles its dependencies), pinned by
# SHA-256: Debian's npm package pulls in ~400 node-* packages and took minutes to configure.
NPM_VERSION="10.9.2"
NPM_SHA256="5cd1e5ab971ea6333f910bc2d50700167c5ef4e66da279b2a3efc874c6b116e4"
IMAGE_PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
KEYRING="/usr/share/keyrings/debian-archive-keyring.gpg"
# Bump when the cleanup or image config below changes in a way that changes the image.
RECIPE_VERSION="2"
# Certificate authorities this machine trusts beyond Debian's (e.g. an egress proxy that inspects
# TLS): the dependency stage's downloads go through the same network, so the image trusts them too.
LOCAL_CA_DIR="/usr/local/share/ca-certificates"
shopt -s nullglob
local_cas=("$LOCAL_CA_DIR"/*.crt)
shopt -u nullglob
LOCAL_CA_HASH="$(if ((${#local_cas[@]})); then cat "${local_cas[@]}" | sha256sum | cut -d' ' -f1; else echo none; fi)"
RECIPE="version=${RECIPE_VERSION} suite=${SUITE} variant=${VARIANT} packages=${PACKAGES} apt=${APT_PACKAGES} npm=${NPM_VERSION}:${NPM_SHA256} local-cas=${LOCAL_CA_HASH} path=${IMAGE_PATH} user=65534:65534 lang=C.UTF-8"
[[ "$IMAGE_SUITE" == "trixie" ]] || RECIPE="$RECIPE variant-image=$IMAGE_SUITE npm=none"
RECIPE_HASH="$(printf '%s' "$RECIPE" | sha256sum | cut -d' ' -f1)"

log() { printf 'build-test-image: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! docker info >/dev/null 2>&1; then
  log "docker engine not answering; starting it with scripts/start-docker.sh"
  bash "$here/start-docker.sh" >&2
fi

existing_recipe="$(docker image inspect --format '{{index .Config.Labels "patchproof.recipe"}}' "$TAG" 2>/dev/null || true)"
if [[ "$existing_recipe" == "$RECIPE_HASH" ]]; then
  log "reusing $TAG (recipe $RECIPE_HASH)"
  docker image inspect --format '{{.Id}}' "$TAG"
  exit 0
fi
old_id="$(docker image inspect --format '{{.Id}}' "$TAG" 2>/dev/null || true)"

[[ "$(id -u)" == "0" ]] || die "debootstrap needs root; run: sudo bash scripts/build-test-image.sh"

apt_install() {
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2
}
command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap
# Without the keyring debootstrap only warns and skips signature checks: insist on it.
[[ -f "$KEYRING" ]] || apt_install debian-archive-keyring
[[ -f "$KEYRING" ]] || die "missing $KEYRING: cannot verify the archive's signatures"

source "$here/lib/debian-mirror.sh"

# awk reads to the end (unlike head), so no SIGPIPE can trip pipefail.
mirror="${PATCHPROOF_DEBIAN_MIRROR:-$(find_mirror | awk 'NR == 1')}"
[[ -n "$mirror" ]] || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set PATCHPROOF_DEBIAN_MIRROR"
[[ "$mirror" =~ ^(https?|file):// ]] || die "mirror '$mirror' is not an http(s):// or file:// URI debootstrap can use; set PATCHPROOF_DEBIAN_MIRROR"
log "mirror from apt configuration: $mirror"

workdir="$(mktemp -d "${TMPDIR:-/var/tmp}/patchproof-image.XXXXXX")"
rootfs="$workdir/rootfs"
cleanup() {
  # debootstrap mounts /proc and /sys inside the tree; never rm -rf through a live mount.
  local mount
  if [[ -d "$rootfs" ]]; then
    while read -r mount; do umount -l "$mount" 2>/dev/null || true; done \
      < <(awk -v root="$rootfs" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r)
  fi
  rm -rf --one-file-system "$workdir"
}
trap cleanup EXIT

start=$SECONDS
log "debootstrap --variant=$VARIANT --include=$PACKAGES $SUITE (this takes a minute)"
debootstrap --variant="$VARIANT" --include="$PACKAGES" --keyring="$KEYRING" "$SUITE" "$rootfs" "$mirror" >&2
log "debootstrap done in $((SECONDS - start)) s"

if [[ -n "$APT_PACKAGES" ]]; then
log "apt-get install $APT_PACKAGES inside the tree"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
mount -t proc proc "$rootfs/proc"
# The tree is thrown away if the build fails: dpkg need not fsync every file.
echo force-unsafe-io > "$rootfs/etc/dpkg/dpkg.cfg.d/patchproof-unsafe-io"
chroot "$rootfs" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
chroot "$rootfs" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $APT_PACKAGES >&2
if ((${#local_cas[@]})); then
  log "adding ${#local_cas[@]} local certificate authorities from $LOCAL_CA_DIR"
  mkdir -p "$rootfs$LOCAL_CA_DIR"
  cp "${local_cas[@]}" "$rootfs$LOCAL_CA_DIR/"
  chroot "$rootfs" update-ca-certificates >&2
fi
umount "$rootfs/proc"
: > "$rootfs/etc/resolv.conf"
rm -f "$rootfs/etc/dpkg/dpkg.cfg.d/patchproof-unsafe-io"
log "apt-get done in $((SECONDS - start)) s"
fi

if [[ "$IMAGE_SUITE" == "trixie" ]]; then
log "npm $NPM_VERSION from its published package"
npm_dir="$workdir/npm"
mkdir -p "$npm_dir"
(cd "$npm_dir" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
echo "$NPM_SHA256  $npm_dir/npm-$NPM_VERSION.tgz" | sha256sum -c --quiet - || die "npm-$NPM_VERSION.tgz does not match its pinned SHA-256"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$npm_dir/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
printf '#!/bin/sh\nexec node /usr/local/lib/node_modules/npm/bin/npm-cli.js "$@"\n' > "$rootfs/usr/local/bin/npm"
chmod 755 "$rootfs/usr/local/bin/npm"
fi

# Shrink: package caches, lists, docs, locales and logs are not needed to run tests.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
  "$rootfs"/var/log/* "$rootfs"/debootstrap
for tool in $TOOLS; do
  [[ -x "$rootfs/$tool" ]] || die "/$tool missing from the tree"
done

log "importing into docker as $TAG"
image_id="$(
  tar -C "$rootfs" --numeric-owner --one-file-system \
    --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' --exclude='./tmp/*' -c . |
    docker import \
      --change "ENV PATH=$IMAGE_PATH" \
      --change 'ENV LANG=C.UTF-8' \
      --change 'USER 65534:65534' \
      --change "LABEL patchproof.recipe=$RECIPE_HASH" \
      --message "patchproof test image: $RECIPE" \
      - "$TAG"
)"
image_id="$(docker image inspect --format '{{.Id}}' "$image_id")"

if [[ -n "$old_id" && "$old_id" != "$image_id" ]]; then
  # The previous build lost its tag; drop it unless a container still uses it.
  docker image rm "$old_id" >/dev/null 2>&1 || true
fi

log "built $TAG in $((SECONDS - start)) s"
docker run --rm --pull=never --network=none --read-only --log-driver=none --tmpfs /tmp -e HOME=/tmp --user=65534:65534 "$image_id" \
  sh -c "$TOOL_VERSIONS" >&2
echo "$image_id"
