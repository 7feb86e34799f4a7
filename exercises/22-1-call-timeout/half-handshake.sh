#!/usr/bin/env bash
# 练习 22-1 的 hung-handshake 场景里的 half：一个只答一半握手的 MCP 服务器。
# initialize 当场就答（bash 几毫秒就起来，赶得上 1 秒的 startupTimeout），之后什么也不读、什么也不答：
# 客户端的 tools/list 永远等不到回答。握手是 initialize 加 tools/list，两样都归 startupTimeout 管——
# 只给 initialize 计 startupTimeout、tools/list 用调用的超时（默认 60 秒）的客户端，会卡在启动上。
IFS= read -r line
id=$(printf '%s' "$line" | grep -o '"id": *[0-9]*' | head -1 | grep -o '[0-9]*$')
printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"half","version":"1"}}}\n' "${id:-1}"
exec -a "half：只答 initialize 的 MCP 服务器" sleep 600
