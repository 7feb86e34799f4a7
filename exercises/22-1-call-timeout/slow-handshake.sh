#!/usr/bin/env bash
# 练习 22-1 的 slow-handshake 场景里的服务器：握手慢，但不是不回。用法：slow-handshake.sh initialize|tools/list
# 参数说的那一步要 3 秒才回答，别的当场回答。bash 几毫秒就起来，慢的只有那 3 秒：
# mcp.json 里写了 "startupTimeout": 1000 的客户端 1 秒就放弃、跳过它；这个设置没生效（等默认的 30 秒）、
# 或者 tools/list 用了调用的超时（60 秒）的客户端，3 秒后就把它接进来了——几秒就看得出，不用等到谁的时限。
slow=$1
while IFS= read -r line; do
  id=$(printf '%s' "$line" | grep -o '"id": *[0-9]*' | head -1 | grep -o '[0-9]*$')
  [ -z "$id" ] && continue # 通知（比如 notifications/initialized、取消通知）没有 id，不回
  case "$line" in
    *'"method":"initialize"'*) result='{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"slow","version":"1"}}' ;;
    *'"method":"tools/list"'*) result='{"tools":[{"name":"echo","description":"原样返回 text 参数","inputSchema":{"type":"object","properties":{}}}]}' ;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"没有这个方法"}}\n' "$id"; continue ;;
  esac
  case "$line" in *"\"method\":\"$slow\""*) sleep 3 ;; esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$result"
done
