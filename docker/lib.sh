# docker/lib.sh: what docker/up.sh and docker/test.sh share; sourced, from
# the repository root, with $file set to the compose file.
#
#   compose ARGS...   docker compose (v2), else docker-compose (v1)
#   up ARGS...        compose up -d, waiting until every container of the
#                     project is healthy (v2: --wait; v1: polled)
#   prepare_images D  the base images: there, pulled, or made by
#                     docker/make-base-images.sh (debootstrap installed
#                     with apt when missing); and where containers cannot
#                     reach the Go module proxy, fiasco built on the host
#                     into docker/prebuilt (probe logs in D)
#   now, since T      the time, and seconds since T (for figures)
#   revision          the commit checked out (+ "-dirty" with changes),
#                     for FIASCO_REVISION: `fiasco --version` in the image

# Needs: say, fig and die (functions), $file, COMPOSE_PROJECT_NAME.

if docker compose version >/dev/null 2>&1; then
  compose() { docker compose -f "$file" "$@"; }
  v2=true
elif command -v docker-compose >/dev/null; then
  compose() { docker-compose -f "$file" "$@"; }
  v2=false
else
  die "neither docker compose nor docker-compose is installed"
fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; } # seconds since $1 (now's)

containers() { docker ps -aq --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME"; }

up() {
  if $v2; then
    compose up -d --wait --wait-timeout 300 "$@"
    return
  fi
  compose up -d "$@"
  local deadline=$(($(date +%s) + 300)) states
  while :; do
    states=$(docker inspect -f '{{.State.Status}}/{{if .State.Health}}{{.State.Health.Status}}{{end}}' $(containers))
    grep -qv '^running/healthy$' <<<"$states" || return 0
    [ "$(date +%s)" -lt "$deadline" ] || { docker ps -a >&2; die "not healthy after 300 s: $(echo $states)"; }
    sleep 1
  done
}

revision() {
  local rev
  rev=$(git rev-parse HEAD 2>/dev/null) || return 0
  git diff --quiet HEAD -- 2>/dev/null || rev="$rev-dirty"
  echo "$rev"
}

# prepare_images LOG_DIR: base images, then what containers reach; the
# logs of the probes go to LOG_DIR.
prepare_images() {
  local logs=$1 base_image go_image xtext
  base_image=$(sed -n 's/^ARG BASE_IMAGE=//p' docker/Dockerfile | head -n1)
  go_image=$(sed -n 's/^ARG GO_IMAGE=//p' docker/Dockerfile | head -n1)
  if ! { docker image inspect "$base_image" && docker image inspect "$go_image"; } >/dev/null 2>&1 &&
    ! { docker pull -q "$base_image" && docker pull -q "$go_image"; } >"$logs/pull.log" 2>&1; then
    say "no registry answers ($(grep -m1 -o 'lookup [^:]*: [^"]*\|connection refused\|no such host' "$logs/pull.log" || echo "pull failed")): making the base images locally"
    if ! PATH=$PATH:/usr/sbin:/sbin command -v debootstrap >/dev/null && command -v apt-get >/dev/null; then
      say "installing debootstrap"
      local sudo=""
      [ "$(id -u)" -eq 0 ] || sudo=sudo
      $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    fi
    local t0
    t0=$(now)
    docker/make-base-images.sh
    fig "base images made: $(since "$t0") s"
  fi
  if ! docker run --rm "$base_image" sh -c 'timeout 60 apt-get update -qq' >"$logs/apt.log" 2>&1; then
    cat "$logs/apt.log" >&2
    die "containers do not reach Debian's archive: the image cannot install Chromium"
  fi
  fig "container -> Debian archive (http://deb.debian.org): reachable"
  xtext=$(sed -n 's#^[[:space:]]*golang.org/x/text \(v[^ ]*\).*#\1#p' go.mod | head -n1)
  if docker run --rm "$go_image" sh -c "cd /tmp && go mod init probe >/dev/null 2>&1 && timeout 60 go mod download golang.org/x/text@$xtext" >"$logs/goproxy.log" 2>&1; then
    fig "container -> Go module proxy (https://proxy.golang.org): reachable; fiasco is built in the image"
    rm -f docker/prebuilt/fiasco
    return
  fi
  fig "container -> Go module proxy: NOT reachable: $(grep -m1 -o 'proxy.golang.org.*' "$logs/goproxy.log" || tail -n1 "$logs/goproxy.log")"
  fig "  so fiasco is built on the host into docker/prebuilt/fiasco and copied in (docker/prebuilt/README.md)"
  local t0
  t0=$(now)
  if [ -n "${FIASCO_BINARY:-}" ]; then
    cp "$FIASCO_BINARY" docker/prebuilt/fiasco
  else
    command -v go >/dev/null || die "containers cannot reach the Go module proxy, and this machine has no Go to build fiasco on (install Go, or give FIASCO_BINARY=path of a static fiasco binary)"
    CGO_ENABLED=0 go build -buildvcs=auto -trimpath -ldflags='-s -w' -o docker/prebuilt/fiasco ./cmd/fiasco
  fi
  fig "  host build: $(since "$t0") s"
}
