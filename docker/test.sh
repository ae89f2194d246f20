#!/usr/bin/env bash
# docker/test.sh: fiasco's Docker image and compose setup, end to end, on
# this machine; prints the figures. From the repository root:
#
#   docker/test.sh          # with the images there are
#   docker/test.sh --cold   # first remove fiasco's images and the base
#                           # images: a machine with no images
#
# Steps: base images (pulled, or made by docker/make-base-images.sh);
# whether containers reach Debian's archive and the Go module proxy (if not
# the proxy, the binary is built on the host: docker/prebuilt/README.md),
# as docker/up.sh does (docker/lib.sh); `compose up --build --wait`
# (timed, image size); the service's answers against the local CLI on every
# CleanEval dev page (render=off byte-identical, render=on word agreement);
# bad requests; Chromium killed during requests; SIGTERM during a batch;
# load at 1, 4 and 16 clients (render off and on; bounded in time) and
# memory over 10,000 requests; two replicas behind the balancer; `compose
# down` leaves nothing running. The client side is serve/service_test.go.
#
# Environment: FIASCO_BINARY (a fiasco binary to use instead of building
# ./cmd/fiasco on the host), FIASCO_LOAD_SECONDS (per load level, default 8),
# FIASCO_MEMORY_REQUESTS (default 10000), FIASCO_SIGTERM_PAGES (pages of
# the batch that SIGTERM interrupts, default 20), FIASCO_PORT (default
# 127.0.0.1:8080). Needs docker, docker compose (or docker-compose), Go,
# and ../shared/data/cleaneval-en-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH=/usr/local/go/bin:$PATH

cold=false
for a in "$@"; do
  case $a in
    --cold) cold=true ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "docker/test.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

export FIASCO_PORT=${FIASCO_PORT:-127.0.0.1:8080}
export COMPOSE_PROJECT_NAME=fiasco-test
url=http://$FIASCO_PORT
file=docker/compose.yaml
tmp=$(mktemp -d /tmp/fiasco-docker-test.XXXXXX)
report=$tmp/report.txt
t_start=$(date +%s)

say() { echo "== $*" >&2; }
fig() { echo "$*" | tee -a "$report" >&2; }
die() { echo "docker/test.sh: $*" >&2; exit 1; }

. docker/lib.sh # compose, up, containers, now, since, prepare_images, revision
say "compose: $(compose version 2>/dev/null | head -n1)"
fig "machine: $(nproc) CPUs, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

cleanup() {
  local rc=$?
  if [ -n "$(containers)" ]; then
    compose logs --no-color --tail 40 >"$tmp/logs.txt" 2>&1 || true
    [ $rc -eq 0 ] || { echo "--- last logs:" >&2; tail -n 60 "$tmp/logs.txt" >&2; }
    compose down --remove-orphans >/dev/null 2>&1 || true
  fi
  echo "docker/test.sh: $( [ $rc -eq 0 ] && echo passed || echo FAILED ) in $(($(date +%s) - t_start)) s; report in $report" >&2
}
trap cleanup EXIT

[ -d ../shared/data/cleaneval-en-dev/html ] || die "../shared/data/cleaneval-en-dev is needed"
compose down --remove-orphans >/dev/null 2>&1 || true

# --- cold: no images
if $cold; then
  say "cold: removing fiasco's images and the base images"
  base_image=$(sed -n 's/^ARG BASE_IMAGE=//p' docker/Dockerfile | head -n1)
  go_image=$(sed -n 's/^ARG GO_IMAGE=//p' docker/Dockerfile | head -n1)
  docker rmi -f fiasco:latest fiasco-lb:latest "$base_image" "$go_image" >/dev/null 2>&1 || true
  docker image prune -f >/dev/null # the build stage's leftovers (dangling)
  fig "images before: $(docker images -q | wc -l)"
fi
t_cold=$(now)

say "base images, and what containers reach"
t0=$(now)
prepare_images "$tmp"
fig "base images and network checks: $(since "$t0") s"
export FIASCO_REVISION=$(revision)

# --- build and start
say "compose build and up"
mkdir -p docker/data
t0=$(now)
nocache=""
$cold && nocache=--no-cache
compose build $nocache >"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log" >&2; die "build failed"; }
fig "image build: $(since "$t0") s"
t1=$(now)
up --scale fiasco=1
fig "compose up --wait (healthy): $(since "$t1") s"
$cold && fig "cold start, from no images to healthy: $(since "$t_cold") s"
fig "image fiasco:latest: $(docker image inspect -f '{{.Size}}' fiasco:latest | awk '{printf "%.0f MB", $1/1e6}'); fiasco-lb:latest: $(docker image inspect -f '{{.Size}}' fiasco-lb:latest | awk '{printf "%.0f MB", $1/1e6}')"
curl -fsS "$url/healthz" >&2

fiasco_ctr() { compose ps -q fiasco | head -n1; }
ctr=$(fiasco_ctr)
docker exec "$ctr" id | grep -q 'uid=10001(fiasco)' || die "the service does not run as the fiasco user"
lbuid=$(docker exec "$(compose ps -q lb)" awk '/^Uid:/ { print $2 }' /proc/1/status)
[ -n "$lbuid" ] && [ "$lbuid" != 0 ] || die "the balancer's nginx runs as root (uid ${lbuid:-unknown})"
curl -fsS -o "$tmp/metrics.txt" "$url/metrics"
[ "${FIASCO_MAX_CONNS:-64}" = -1 ] || grep -qx "fiasco_connections_max ${FIASCO_MAX_CONNS:-64}" "$tmp/metrics.txt" || die "the service does not serve FIASCO_MAX_CONNS (${FIASCO_MAX_CONNS:-64}) connections at most"
fig "in the container: $(docker exec "$ctr" fiasco --version | head -n2 | tr '\n' ' ')user $(docker exec "$ctr" id -un), $(docker exec "$ctr" chromium --version 2>/dev/null | head -n1)"
version=$(docker exec "$ctr" fiasco --version)
if [ -n "$FIASCO_REVISION" ] && [ -z "${FIASCO_BINARY:-}" ] && [[ $version != *"revision ${FIASCO_REVISION%-dirty}"* ]]; then
  die "fiasco --version in the image does not name the commit $FIASCO_REVISION: $version"
fi

# --- the local CLI to compare with
cli=${FIASCO_BINARY:-$tmp/fiasco}
[ -n "${FIASCO_BINARY:-}" ] || go build -o "$cli" ./cmd/fiasco

# --- the CLI in the container on a mounted folder
say "compose run: fiasco clean on docker/data"
rm -rf docker/data/in docker/data/out && mkdir -p docker/data/in docker/data/out && chmod 0777 docker/data/out
cp testdata/article.html docker/data/in/
compose run --rm -T fiasco clean -q -o /data/out /data/in >&2
[ -s docker/data/out/article.txt ] || die "compose run fiasco clean wrote no docker/data/out/article.txt"
if cmp -s <("$cli" clean testdata/article.html 2>/dev/null) docker/data/out/article.txt; then
  fig "compose run --rm fiasco clean -o /data/out /data/in: output identical to the host's fiasco clean"
else
  fig "compose run --rm fiasco clean -o /data/out /data/in: output differs from the host's fiasco clean (rendering)"
fi

gotest() { # gotest NAME: serve/service_test.go against the service
  FIASCO_SERVICE_URL=$url FIASCO_CLI=$cli go test ./serve -count=1 -timeout 30m -v -run "^$1\$" 2>&1 |
    tee -a "$tmp/gotest.log" | grep -E '^\s+service_test|^(--- |ok|FAIL|panic)' | tee -a "$report" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ]
}

say "same answers as the local CLI"
gotest TestServiceSameAnswers
say "bad requests"
gotest TestServiceBadRequests

say "Chromium killed during requests"
# The Chromium that fiasco started (its child), killed by its pid.
cat >"$tmp/kill-chromium.sh" <<'EOS'
f=""
for p in /proc/[0-9]*; do
  read -r pid comm _ <"$p/stat" 2>/dev/null || continue
  [ "$comm" = "(fiasco)" ] && f=$pid
done
for p in /proc/[0-9]*; do
  read -r pid comm _ ppid _ <"$p/stat" 2>/dev/null || continue
  if [ "$comm" = "(chromium)" ] && [ "$ppid" = "$f" ]; then
    kill -9 "$pid" && echo "killed Chromium $pid (child of fiasco $f)"
  fi
done
EOS
export FIASCO_KILL_CHROMIUM_CMD="docker exec -i $ctr bash <$tmp/kill-chromium.sh"
gotest TestServiceChromiumKilled
zombies=$(docker exec "$ctr" bash -c 'n=0; for p in /proc/[0-9]*; do read -r _ _ s _ <$p/stat 2>/dev/null && [ "$s" = Z ] && n=$((n+1)); done; echo $n')
fig "zombie processes in the container after the kill: $zombies"

say "load"
gotest TestServiceLoad
say "memory over ${FIASCO_MEMORY_REQUESTS:-10000} requests"
mem() { docker stats --no-stream --format '{{.MemUsage}}' "$ctr" | cut -d/ -f1 | tr -d ' '; }
m0=$(mem)
gotest TestServiceMemory
fig "container memory (fiasco + Chromium), docker stats: $m0 before, $(mem) after"

say "SIGTERM during a batch"
export FIASCO_SIGTERM_CMD="docker kill -s TERM $ctr >/dev/null && echo sent SIGTERM to $ctr"
gotest TestServiceBatchSIGTERM
docker wait "$ctr" >/dev/null
fig "after SIGTERM: container $(docker inspect -f '{{.State.Status}}, exit code {{.State.ExitCode}}' "$ctr"); its log ends: $(docker logs --tail 3 "$ctr" 2>&1 | tr '\n' ' ')"

say "two replicas behind the balancer"
up --scale fiasco=2
for i in $(seq 1 40); do curl -fsS -o /dev/null --data-binary @testdata/article.html "$url/clean?render=off"; done
served=""
for c in $(compose ps -q fiasco); do
  n=$(docker exec "$c" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080; printf "GET /metrics HTTP/1.0\r\n\r\n" >&3; cat <&3' |
    awk -F' ' '/^fiasco_pages_total\{render="off",outcome="ok"\}/ { print $2 }')
  served="$served ${n:-0}"
done
fig "2 replicas: render=off pages served per replica after 40 requests:$served"
for n in $served; do [ "$n" -gt 0 ] || die "a replica got no request: the balancer does not spread"; done

say "compose down"
compose down --remove-orphans >&2
left=$(containers)
nets=$(docker network ls -q --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME")
[ -z "$left$nets" ] || die "left after compose down: containers [$left] networks [$nets]"
fig "after compose down: no container, no network of the project left"
fig "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo >&2
echo "== figures" >&2
cat "$report" >&2
