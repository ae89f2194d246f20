#!/usr/bin/env bash
# make-base-images.sh: make the base images that docker/Dockerfile builds
# FROM, locally, on a machine where no image registry answers.
#
#   debian:bookworm-slim   debootstrap --variant=minbase bookworm from
#                          Debian's archive, trimmed like Docker's official
#                          slim image (no docs, man pages or apt lists),
#                          then `docker import`.
#   golang:1.26-bookworm   the same Debian root plus ca-certificates and git,
#                          with this machine's Go tree (/usr/local/go, or
#                          GOROOT_SRC=...) at /usr/local/go, GOPATH=/go and
#                          PATH as in Docker's official golang image.
#
# The tags are read from the ARG defaults in docker/Dockerfile, so that the
# same Dockerfile builds unchanged where the official images can be pulled.
# An image that exists already is left alone: run it as often as you like.
# Needs root (debootstrap, chroot), debootstrap and Debian's archive keyring.
#
# Environment: MIRROR (default http://deb.debian.org/debian), GOROOT_SRC
# (default: the Go tree of `go env GOROOT`, else /usr/local/go), WORKDIR
# (scratch space, default a temporary directory under /var/tmp).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dockerfile=$here/Dockerfile
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm

say() { echo "make-base-images: $*" >&2; }
die() { say "$*"; exit 1; }

# The image names the Dockerfile uses: ARG BASE_IMAGE=... and ARG GO_IMAGE=...
arg_default() {
  sed -n "s/^ARG $1=\(.*\)$/\1/p" "$dockerfile" | head -n1
}
base_image=$(arg_default BASE_IMAGE)
go_image=$(arg_default GO_IMAGE)
[ -n "$base_image" ] && [ -n "$go_image" ] || die "cannot read ARG BASE_IMAGE / GO_IMAGE from $dockerfile"

have() { docker image inspect "$1" >/dev/null 2>&1; }

if have "$base_image" && have "$go_image"; then
  say "$base_image and $go_image exist; nothing to do"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "needs root (debootstrap, chroot)"
  SUDO=sudo
fi
PATH=$PATH:/usr/sbin:/sbin command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install -y debootstrap"

# Go tree for the build image: the host's, whose version must match the tag.
goroot=${GOROOT_SRC:-}
if [ -z "$goroot" ]; then
  if command -v go >/dev/null; then goroot=$(go env GOROOT); else goroot=/usr/local/go; fi
fi

work=${WORKDIR:-}
if [ -z "$work" ]; then
  work=$(mktemp -d /var/tmp/fiasco-base.XXXXXX)
  trap '$SUDO rm -rf "$work"' EXIT
fi
root=$work/rootfs

# One debootstrap serves both images.
say "debootstrap $SUITE (minbase) from $MIRROR into $root"
t0=$(date +%s)
$SUDO debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
  "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 30 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
say "debootstrap took $(($(date +%s) - t0)) s"

# Trim as the official slim image does: no docs, man pages or locales in
# this image or in what is installed on top of it; apt's deb822 sources.
$SUDO tee "$root/etc/dpkg/dpkg.cfg.d/docker" >/dev/null <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
$SUDO tee "$root/etc/apt/apt.conf.d/docker-clean" >/dev/null <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
$SUDO tee "$root/etc/apt/apt.conf.d/docker-no-languages" >/dev/null <<'EOF'
Acquire::Languages "none";
EOF
$SUDO rm -f "$root/etc/apt/sources.list"
$SUDO tee "$root/etc/apt/sources.list.d/debian.sources" >/dev/null <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# The host's name and resolver are Docker's business at run time.
: | $SUDO tee "$root/etc/hostname" "$root/etc/resolv.conf" >/dev/null

strip_root() { # what the official image leaves out
  $SUDO rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/cache/apt/*.bin "$1"/var/lib/apt/lists/* \
    "$1"/var/log/*.log "$1"/var/log/apt/* "$1"/tmp/* "$1"/var/tmp/* \
    "$1"/usr/share/doc/*/[!c]* "$1"/usr/share/man/* "$1"/usr/share/info/* "$1"/usr/share/locale/[!l]*
}

import() { # import ROOT TAG CHANGE...
  local dir=$1 tag=$2
  shift 2
  local changes=()
  for c in "$@"; do changes+=(--change "$c"); done
  $SUDO tar --numeric-owner --xattrs -C "$dir" -c . | docker import "${changes[@]}" - "$tag" >/dev/null
  say "imported $tag ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1/1e6}'))"
}

if ! have "$base_image"; then
  strip_root "$root"
  import "$root" "$base_image" 'CMD ["bash"]' 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
fi

if ! have "$go_image"; then
  want=$(sed -n 's/^golang:\([0-9.]*\).*/\1/p' <<<"$go_image")
  [ -x "$goroot/bin/go" ] || die "no Go tree at $goroot (set GOROOT_SRC)"
  have_v=$("$goroot/bin/go" env GOVERSION)
  case "${have_v#go}" in
    "$want" | "$want".*) ;;
    *) die "$go_image needs Go $want; $goroot has $have_v (set GOROOT_SRC)" ;;
  esac
  say "adding ca-certificates, git and $have_v from $goroot"
  # The build image installs packages in a chroot of the same root, with
  # the host's resolver for the time of it.
  $SUDO cp /etc/resolv.conf "$root/etc/resolv.conf"
  $SUDO chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
    'apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates git >/dev/null' \
    >"$work/chroot.log" 2>&1 || { tail -n 30 "$work/chroot.log" >&2; die "apt-get in the chroot failed"; }
  : | $SUDO tee "$root/etc/resolv.conf" >/dev/null
  $SUDO mkdir -p "$root/usr/local/go" "$root/go/bin" "$root/go/src"
  $SUDO chmod -R 1777 "$root/go"
  $SUDO tar -C "$goroot" --exclude=./pkg/obj --exclude=./.git -c . | $SUDO tar -C "$root/usr/local/go" -x
  strip_root "$root"
  import "$root" "$go_image" 'CMD ["bash"]' \
    'ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'ENV GOLANG_VERSION='"${have_v#go}" 'ENV GOPATH=/go' 'ENV GOTOOLCHAIN=local' 'WORKDIR /go'
fi
say "done: $base_image, $go_image"
