// timeserver：第 22 章的陪练 MCP 服务器。两个工具——current_time、days_between——
// 都是模型自己做不好的事：它不知道今天是几号，也数不准两个日期隔几天。
// 协议全部手写（只用 Node 标准库），好让你看清线上到底流过什么：
// 默认走 stdio（一行一个 JSON-RPC 消息，stdout 只许出现协议消息，日志一律走 stderr）；--http 走 Streamable HTTP。
// 运行：node --import tsx timeserver/main.ts [--http [--port N]]（Node 20）；Node ≥ 22.18 可以去掉 --import tsx
import { parseNow, pinClock } from "./protocol.ts";
import { serveHttp } from "./http.ts";
import { serveStdio } from "./stdio.ts";

const DEFAULT_PORT = 3000;

function usage(problem: string): never {
  process.stderr.write(`timeserver: ${problem}\n用法: timeserver [--http [--port N]]（N 是 0–65535，0 让系统挑一个空闲端口）\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let http = false;
let port: number | undefined;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--http") http = true;
  else if (args[i] === "--port") {
    const text = args[++i] ?? "";
    if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) usage(`--port 后面要一个端口号，收到的是 ${JSON.stringify(text)}`);
    port = Number(text);
  } else usage(`不认识的参数 ${JSON.stringify(args[i])}`);
}
if (port !== undefined && !http) usage("--port 只和 --http 一起用");

// TIMESERVER_NOW 把时钟钉死，测试和演示才能每次得到同一个答案
const now = process.env.TIMESERVER_NOW;
if (now) {
  const at = parseNow(now);
  if (!at) {
    process.stderr.write(`timeserver: TIMESERVER_NOW 不是合法的 ISO 8601 时间: ${now}（要像 2026-08-07T14:03:09+08:00 或 2026-08-07T14:03:09）\n`);
    process.exit(1);
  }
  pinClock(at);
}

// 一行的上限（字节），默认 64 MiB；测试把它调小
const maxLine = process.env.TIMESERVER_MAX_LINE;
if (maxLine !== undefined && !/^[1-9]\d*$/.test(maxLine)) {
  process.stderr.write(`timeserver: TIMESERVER_MAX_LINE 要是正整数（字节），现在是 ${maxLine}\n`);
  process.exit(1);
}

if (http) serveHttp(port ?? DEFAULT_PORT);
else serveStdio(maxLine === undefined ? undefined : Number(maxLine));
