#!/usr/bin/env bash
# Bring up a local Docker Engine for container targets. Idempotent: safe to run again.
#  1. installs docker.io + debootstrap from Debian when missing (apt-get update first);
#  2. starts dockerd in the background when `docker info` does not answer;
#  3. waits (bounded by MM_DOCKER_WAIT_S, default 60 s) until it answers;
#  4. prints the engine version.
# There is no image registry here: images are built offline (packages/targets/src/images).
# Exit status: 0 engine answers; 1 install failed or the engine did not answer in time.
set -euo pipefail

log() { echo "[docker-up] $*" >&2; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need_install=0
command -v dockerd >/dev/null 2>&1 || need_install=1
command -v debootstrap >/dev/null 2>&1 || need_install=1
if [ "$need_install" -eq 1 ]; then
  log "installing docker.io and debootstrap"
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io debootstrap
fi

if docker info >/dev/null 2>&1; then
  log "engine already answers"
else
  LOG_FILE="${MM_DOCKERD_LOG:-/var/log/dockerd.log}"
  log "starting dockerd (log: $LOG_FILE)"
  # setsid detaches dockerd from this shell's process group, so a Ctrl-C of a later job
  # does not take the engine down with it.
  $SUDO setsid dockerd >"$LOG_FILE" 2>&1 < /dev/null &
  deadline=$(( $(date +%s) + ${MM_DOCKER_WAIT_S:-60} ))
  until docker info >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "dockerd did not answer within ${MM_DOCKER_WAIT_S:-60} s; last log lines:"
      tail -n 20 "$LOG_FILE" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
fi

echo "docker engine $(docker version --format '{{.Server.Version}}') (API $(docker version --format '{{.Server.APIVersion}}'))"
