# 练习 04-1 的检查场景在开跑之前建的仓库（setup 在工作目录里执行它，跑完删掉）：repo/ 是仓库，plain/ 不是。
# 分支 feature/snapshot；12 次提交，最新一次的说明里有 ESC 序列、长一千多字；改了两个已跟踪的文件（其中一个的名字里有 ESC），
# 新添了 31 个文件。敌意的两样：core.fsmonitor 和 clean 过滤器，一运行就在仓库里建一个文件（0-fsmonitor-ran、0-filter-ran）——
# 它们排在新文件的最前面，git status 一列，模型收到的 system prompt 里就看得见。
# 用户的 ~/.gitconfig 打开 git 自己的 trace2：每个 git 进程都在 repo/traces/ 里留一个文件（showUntrackedFiles=all 一个个列出来），
# 所以每算一次状态，“还有 N 行”就变一次——快照要是每轮重拍，第二轮的 system prompt 就和第一轮不同。
set -e
unset GIT_DIR # 场景给 harness 设了 GIT_DIR=/nonexistent（像在 git 钩子里启动那样），建仓库时不要它
mkdir repo plain
cd repo
g() { git -c user.name=checker -c user.email=checker@example.invalid -c core.hooksPath=/dev/null "$@"; }
bad=$(printf 'b\033[31mred.txt')
g init -q -b feature/snapshot
printf 'data\n' > 0-data.dat
printf '*.dat filter=ev=il\n' > .gitattributes # 过滤器的名字里有“=”：-c filter.ev=il.clean= 会从第一个 = 切开，盖不住它
printf 'a\n' > a.txt
printf 'red\n' > "$bad"
g add -A
g commit -q -m '第 1 次提交'
for i in $(seq 2 11); do g commit -q --allow-empty -m "第 $i 次提交"; done
g commit -q --allow-empty -m "$(printf '第 12 次提交：\033[31m红字\033[0m\a，后面很长')$(printf '长%.0s' $(seq 1 1200))"
printf 'a2\n' >> a.txt
printf 'red2\n' >> "$bad"
mkdir many
for i in $(seq -w 1 30); do printf 'new\n' > "many/f$i.txt"; done
printf 'new\n' > new.txt
printf '#!/bin/sh\necho ran > "%s/0-fsmonitor-ran"\nexit 1\n' "$PWD" > ../fsmonitor-hook
chmod +x ../fsmonitor-hook
git config core.fsmonitor "$PWD/../fsmonitor-hook"
git config filter.ev=il.clean "sh -c 'echo ran > \"$PWD/0-filter-ran\"; cat'"
touch -t 200101010000 0-data.dat # 大小不变、时间变了：git status 要重新算它的哈希，就要经过 clean 过滤器
git config status.showUntrackedFiles all
mkdir traces
printf '[trace2]\n\teventTarget = %s/traces\n' "$PWD" > "$HOME/.gitconfig"
