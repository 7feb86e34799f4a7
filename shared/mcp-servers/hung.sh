#!/usr/bin/env bash
# 一个永远不回 initialize 的 MCP 服务器（练习 22-1 的 hung-handshake 场景），外加一个“见证人”。
#
# 客户端握手超时以后杀掉服务器的进程组；杀之前它写来的东西——比如一条不该发的取消通知——随进程一起没了，
# 谁也读不到。所以 stdin 交给一个 setsid 出去、不在这个组里的见证人来读：它活过那一刀，一直读到 harness
# 退出（EOF）。这个服务器只收到过 initialize 一个请求，收到的任何 notifications/cancelled 都是在取消
# initialize，规范不许。见证人把那一行原样写到 stderr（进转录），并且故意不退出：harness 退出以后它还在，
# 场景“不留进程”的那一条当场判不过，不靠谁先谁后。没有 setsid（macOS）就没有见证人，别的照常。
#
# 用 bash 而不是 TypeScript：见证人要在客户端的超时（检查器里是 1 秒）之前就接住 stdin，
# bash 几毫秒就起来，tsx 冷启动在忙的机器上要一秒多。
if command -v setsid >/dev/null; then
  setsid -f bash -c 'if grep --line-buffered "notifications/cancelled" >&2; then exec -a "hung 的见证人：收到了取消 initialize 的通知" sleep 600; fi' >/dev/null
fi
# 自己不读 stdin，也不会自己退出：只有客户端杀掉它，它才走
exec -a "hung：不回 initialize 的 MCP 服务器" sleep 600
