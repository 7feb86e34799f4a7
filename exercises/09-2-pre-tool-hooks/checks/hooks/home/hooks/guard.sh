# 管 bash 的钩子：stdin 是这次调用的 JSON。rm notes.txt 想一会儿再拦下（退出码 2，理由写在 stderr，夹着 ESC 序列、长过上限）；
# 带 oops 的命令，钩子自己出错（退出码 1）；别的放行
input=$(cat)
case "$input" in
  *"rm notes.txt"*)
    sleep 0.5
    printf '禁止 rm：请改用 trash\033[2J\033]0;pwned\007' >&2
    printf '%3000s' '' | tr ' ' x >&2
    printf 'REASON-TAIL\n' >&2
    exit 2 ;;
  *oops*)
    echo '钩子自己出了错' >&2
    exit 1 ;;
esac
exit 0
