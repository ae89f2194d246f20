#!/usr/bin/env bash
# docker/up.sh: build fiasco's images and start the service, fiasco serve
# with Chromium behind nginx on $FIASCO_PORT (default 127.0.0.1:8080), on
# any machine with Docker Engine and Compose (v2 or v1), whether an image
# registry answers or not. From the repository root:
#
#   docker/up.sh                       # build, start, wait until healthy
#   docker/up.sh --scale fiasco=3      # arguments go to `compose up`
#
# Steps (docker/lib.sh): the base images are pulled, or where no registry
# answers made locally by docker/make-base-images.sh (debootstrap, which
# is installed with apt when missing; needs root); where containers
# cannot reach the Go module proxy, fiasco is built on the host into
# docker/prebuilt/ (docker/prebuilt/README.md); then `compose build` and
# `compose up`, waiting for the health checks. Stop it with
# `docker compose -f docker/compose.yaml down` (v1: docker-compose).
#
# Environment (or docker/.env, under the environment): FIASCO_PORT (the
# balancer's address, default 127.0.0.1:8080), FIASCO_DATA (the folder
# mounted at /data, default docker/data), FIASCO_WORKERS, FIASCO_QUEUE,
# FIASCO_MAX_CONNS, FIASCO_MEMORY (see docker/compose.yaml), COMPOSE_PROJECT_NAME,
# FIASCO_BINARY (a static fiasco binary to put in the image instead of
# building one).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
file=docker/compose.yaml
# dotenv NAME: NAME's value in docker/.env, which compose reads itself
# (under the environment); here only for the checks and messages, so that
# compose's own reading of the file is the one that counts. A leading
# export, quotes, a comment after white space and a CR are dropped.
dotenv() {
  [ -f docker/.env ] || return 0
  sed -n "s/^[[:space:]]*\(export[[:space:]][[:space:]]*\)\{0,1\}$1=//p" docker/.env | tail -n1 |
    sed "s/\r\$//; s/[[:space:]][[:space:]]*#.*//; s/^\"\(.*\)\"\$/\1/; s/^'\(.*\)'\$/\1/"
}
project=${COMPOSE_PROJECT_NAME:-$(dotenv COMPOSE_PROJECT_NAME)}
export COMPOSE_PROJECT_NAME=${project:-docker} # compose's default for docker/compose.yaml
addr=${FIASCO_PORT:-$(dotenv FIASCO_PORT)}
addr=${addr:-127.0.0.1:8080} # compose.yaml's default
data=${FIASCO_DATA:-$(dotenv FIASCO_DATA)}
data=${data:-./data} # compose.yaml's default, relative to docker/

say() { echo "docker/up.sh: $*" >&2; }
fig() { say "$*"; }
die() { say "$*"; exit 1; }
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
. docker/lib.sh

# The balancer's address must be free, unless this project's balancer
# holds it already (a second run, to scale): else compose would stop
# half-way, one container started.
port=${addr##*:}
host=127.0.0.1
case $addr in *:*) host=${addr%:*} ;; esac
case $host in '' | 0.0.0.0 | '[::]') host=127.0.0.1 ;; esac
running_lb=$(docker ps -q --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" --filter "label=com.docker.compose.service=lb")
if [ -z "$running_lb" ] && timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$host" "$port" 2>/dev/null; then
  die "$host:$port is taken by another program or project: give another address, e.g. FIASCO_PORT=127.0.0.1:8081 docker/up.sh (and COMPOSE_PROJECT_NAME for a second project)"
fi

t0=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prepare_images "$tmp"
export FIASCO_REVISION=$(revision)
case $data in /*) ;; *) data=docker/$data ;; esac # compose resolves it from docker/
mkdir -p "$data"
say "building the images"
compose build >&2
say "starting the service"
up "$@"
say "healthy after $(($(date +%s) - t0)) s: http://$addr ($(compose ps -q fiasco | wc -l) fiasco container(s))"
say "try: curl --data-binary @testdata/article.html 'http://$addr/clean?format=text'"
