#!/usr/bin/env bash
# 维护者用：第 22 章改了以后，把同样的改动带进每个练习的 solution/。
# 用法：scripts/sync-solutions.sh <第 22 章改动之前的提交>
# 练习没动过的文件直接换成新版；练习改过的文件用 git merge-file 做三方合并（冲突会留下标记，要手工解决）。
# README.md 不带：参考答案的 README 讲的是这个答案改了什么、为什么，不是第 22 章的副本。
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?用法: scripts/sync-solutions.sh <第 22 章改动之前的提交>}
for solution in exercises/*/solution; do
  (cd chapters/22-mcp-client && git ls-files) | grep -vx README.md | while read -r file; do
    new=chapters/22-mcp-client/$file
    mine=$solution/$file
    old=$(mktemp)
    git show "$base:$new" > "$old" 2>/dev/null || : > "$old"
    if [ ! -f "$mine" ] || cmp -s "$mine" "$old"; then
      mkdir -p "$(dirname "$mine")" && cp "$new" "$mine"
    elif ! cmp -s "$old" "$new"; then
      git merge-file "$mine" "$old" "$new" && echo "合并了 $mine" || echo "冲突：$mine（手工解决）"
    fi
    rm -f "$old"
  done
done
