// HTTP 的窃听器：npm run site 把它插在 harness 和一个远程（Streamable HTTP）MCP 服务器之间。
// 它先起真的服务器，等它在 stderr 上报出地址，自己在另一个端口上听，报出自己的地址（那一行的其余部分原样照抄，
// 场景的运行器照旧从这一行取地址）；之后每个请求原样转发，记下要紧的请求头、响应头、JSON 正文和 SSE 的每个事件。
// 用法：node --import tsx http-tap.ts <日志文件> <服务名> <命令> [参数...]
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { TapLine } from "./tap.ts";

const CLIP = 4000; // 正文只记开头：80 MiB 的响应体网页上看的是形状
// 线路视图上值得看的头：会话、协议版本、新时代的方法名、内容类型；令牌遮住
const SHOWN = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "authorization", "origin", "last-event-id"];

const [logFile, server, command, ...args] = process.argv.slice(2);
if (!logFile || !server || !command) {
  process.stderr.write("用法: http-tap.ts <日志文件> <服务名> <命令> [参数...]\n");
  process.exit(2);
}
const log = fs.openSync(logFile, "a"); // O_APPEND：一条一次 write，几个窃听器写同一个文件也不交错

function record(dir: "out" | "in", head: string, body = "", bytes = Buffer.byteLength(body)) {
  const text = body.length > CLIP ? body.slice(0, CLIP) : body;
  const entry: TapLine = { t: performance.timeOrigin + performance.now(), server, dir, line: text, bytes, http: head };
  fs.writeSync(log, JSON.stringify(entry) + "\n");
}

function headers(h: http.IncomingHttpHeaders): string {
  return SHOWN.filter((k) => h[k] !== undefined)
    .map((k) => `${k}: ${k === "authorization" ? String(h[k]).replace(/^(\S+\s+).*/, "$1…（遮住）") : h[k]}`)
    .join(" · ");
}

const upstream = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
upstream.on("error", (e) => {
  process.stderr.write(`http-tap: 启动 ${command} 失败: ${e.message}\n`);
  process.exit(127);
});
upstream.on("close", (code, signal) => {
  fs.closeSync(log);
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 0);
});
// 场景跑完，运行器杀的是窃听器：把服务器也带走
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => upstream.kill(sig));

let target: URL | undefined;
let pending = "";
upstream.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
  if (target) return void process.stderr.write(chunk);
  pending += chunk;
  const found = pending.match(/(http|tcp):\/\/127\.0\.0\.1:\d+/);
  if (!found || !pending.slice(found.index!).includes("\n")) return;
  target = new URL(found[0]);
  // 不是 HTTP 的（era.ts listen，mcp.json 里经 relay.ts 接过去的 stdio 服务器）：线路由 stdio 的窃听器录，这里只把地址转告出去
  if (found[1] === "tcp") return void process.stderr.write(pending);
  const proxy = http.createServer(forward);
  proxy.listen(0, "127.0.0.1", () => {
    const { port } = proxy.address() as { port: number };
    process.stderr.write(pending.replace(found[0], `http://127.0.0.1:${port}`));
  });
});

// 原样转发一个请求；请求体、响应体边走边记。SSE 按空行切成事件，一个事件一条
function forward(req: http.IncomingMessage, res: http.ServerResponse) {
  const parts: Buffer[] = [];
  req.on("data", (c: Buffer) => parts.push(c));
  req.on("end", () => {
    const body = Buffer.concat(parts);
    record("out", `${req.method} ${req.url}${headers(req.headers) ? ` · ${headers(req.headers)}` : ""}`, body.toString("utf8"), body.length);
    const out = http.request({ host: target!.hostname, port: target!.port, method: req.method, path: req.url, headers: { ...req.headers, host: target!.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const sse = String(answer.headers["content-type"] ?? "").startsWith("text/event-stream");
      const head = `HTTP ${answer.statusCode}${headers(answer.headers) ? ` · ${headers(answer.headers)}` : ""}`;
      let text = "";
      let bytes = 0;
      let said = false;
      answer.on("data", (c: Buffer) => {
        bytes += c.length;
        if (text.length < CLIP * 4) text += c.toString("utf8");
        if (!sse) return;
        if (!said) (record("in", head), (said = true));
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          record("in", "SSE 事件", text.slice(0, end));
          text = text.slice(end + 2);
        }
      });
      answer.on("end", () => {
        if (!sse) record("in", head, text, bytes);
        else if (!said) record("in", head);
      });
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    res.on("close", () => out.destroy()); // harness 不等了（超时、关闭）：上游的连接也断掉
    out.end(body);
  });
}
