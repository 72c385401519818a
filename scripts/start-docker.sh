#!/usr/bin/env bash
# Make sure a Docker engine answers `docker info`. When none does: install Debian's docker.io if
# dockerd is missing, start dockerd in the background (log in $PATCHPROOF_DOCKERD_LOG, default
# /var/log/patchproof-dockerd.log) and wait up to 60 s. Idempotent; needs root to install or start.
set -euo pipefail

LOG="${PATCHPROOF_DOCKERD_LOG:-/var/log/patchproof-dockerd.log}"
WAIT_SECONDS=60

log() { printf 'start-docker: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

if docker info >/dev/null 2>&1; then
  log "docker engine already running"
  exit 0
fi

[[ "$(id -u)" == "0" ]] || die "docker info fails and starting dockerd needs root; run: sudo bash scripts/start-docker.sh"

if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  log "installing docker.io from the Debian packages"
  DEBIAN_FRONTEND=noninteractive apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io >&2
fi

if pgrep -x dockerd >/dev/null 2>&1; then
  log "dockerd is already running; waiting for it to answer"
else
  log "starting dockerd (log: $LOG)"
  mkdir -p "$(dirname "$LOG")"
  # Containers started outside PatchProof's runner (which always sets --log-driver=none) must not be
  # able to fill the disk through the daemon's log files either.
  nohup dockerd --log-opt max-size=10m --log-opt max-file=1 >>"$LOG" 2>&1 </dev/null &
  disown || true
fi

for ((i = 0; i < WAIT_SECONDS; i++)); do
  if docker info >/dev/null 2>&1; then
    log "docker engine ready after ${i} s"
    exit 0
  fi
  sleep 1
done
die "docker info still fails after ${WAIT_SECONDS} s; see $LOG (last lines below)
$(tail -n 20 "$LOG" 2>/dev/null || true)"
