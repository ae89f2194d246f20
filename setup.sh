#!/usr/bin/env bash
# setup.sh: install fiasco's system dependencies on Debian (Chromium for
# rendering, LIBSVM's tools as the test oracle, fonts for reproducible
# rendering) and build the fiasco binary into ./fiasco.
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v svm-train >/dev/null 2>&1 || need+=(libsvm-tools)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -e /usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf ] || need+=(fonts-liberation)
# Chinese, Japanese and Korean glyphs (else Chromium draws empty boxes);
# it leaves the fonts Latin text gets as they were (fc-match).
[ -e /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
export PATH=/usr/local/go/bin:$PATH
go build -buildvcs=auto -o fiasco ./cmd/fiasco
echo "setup.sh: built ./fiasco ($(go version | cut -d' ' -f3)); chromium: $(command -v chromium)"
