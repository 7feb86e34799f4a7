// pingpong.mjs：物理极限的那个子进程。不懂 MCP，不分派方法：读一行 JSON，原样按 id 回一行 JSON。
// 回的字节和 echo-server.mjs 的 tools/call 结果一模一样，所以两边比的只是“协议客户端”多花了多少。
import { onLines, respond, whenReady } from "./lines.mjs";

process.stdout.on("error", () => process.exit(0));
whenReady(() =>
  onLines(process.stdin, (line) => {
    const msg = JSON.parse(line);
    process.stdout.write(respond(msg.id, msg.params?.arguments));
  }),
);
