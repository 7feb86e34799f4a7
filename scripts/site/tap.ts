// 线路窃听器：npm run site 把它插在 harness 和一个 MCP 服务器之间。字节原样转发（分帧不归它管），
// 每凑满一行就记一条到日志文件，供线路视图按时间排出 JSON-RPC 的来回。
// 用法：node --import tsx tap.ts <日志文件> <服务名> <命令> [参数...]
import { spawn } from "node:child_process";
import fs from "node:fs";
import { performance } from "node:perf_hooks";

export interface TapLine {
  t: number; // 毫秒，各个窃听器进程共用的墙上时钟（带小数），只用来排序和算间隔
  server: string;
  dir: "out" | "in"; // out：harness → 服务器；in：服务器 → harness
  line: string;
  bytes: number; // 整行的字节数（line 可能被截短）
  http?: string; // 远程服务器（http-tap.ts）：这一条是什么——“POST /mcp · 要紧的头”“HTTP 200 · …”“SSE 事件”；line 是正文
}

const CLIP = 4000; // 5 MB 的一行只记开头：网页上看的是形状，不是内容

const [logFile, server, command, ...args] = process.argv.slice(2);
if (!logFile || !server || !command) {
  process.stderr.write("用法: tap.ts <日志文件> <服务名> <命令> [参数...]\n");
  process.exit(2);
}
const log = fs.openSync(logFile, "a"); // O_APPEND：几个服务器的窃听器写同一个文件，一条一次 write，不会交错

// 一行只留开头 CLIP*4 个字节、其余只计数：一个永不换行的服务器（mcp-line-too-long）不会把窃听器的内存撑爆
function tap(dir: "out" | "in") {
  let head = Buffer.alloc(0);
  let bytes = 0;
  const keep = (part: Buffer) => {
    if (head.length < CLIP * 4) head = Buffer.concat([head, part.subarray(0, CLIP * 4 - head.length)]);
    bytes += part.length;
  };
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      keep(chunk.subarray(start, nl));
      start = nl + 1;
      const text = head.toString("utf8").replace(/\r$/, "");
      const entry: TapLine = { t: performance.timeOrigin + performance.now(), server, dir, line: text.length > CLIP ? text.slice(0, CLIP) : text, bytes };
      fs.writeSync(log, JSON.stringify(entry) + "\n");
      head = Buffer.alloc(0);
      bytes = 0;
    }
    if (start < chunk.length) keep(chunk.subarray(start));
  };
}

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.on("error", (e) => {
  process.stderr.write(`tap: 启动 ${command} 失败: ${e.message}\n`);
  process.exit(127);
});
child.stdin.on("error", () => {}); // 服务器先走了，失败由它的退出码交代
// 转发时守着背压：下游不读，上游就停，和两边直接接在一起时一样，窃听器自己不囤数据
function forward(from: NodeJS.ReadableStream, to: NodeJS.WritableStream, seen: (chunk: Buffer) => void) {
  from.on("data", (chunk: Buffer) => {
    seen(chunk);
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => from.resume());
    }
  });
}
forward(process.stdin, child.stdin, tap("out"));
process.stdin.on("end", () => child.stdin.end());
forward(child.stdout, process.stdout, tap("in"));
// harness 不要这个服务器了（比如一行超过 64 MiB 就断开）：把服务器那头的管道也断掉，它和不窃听时一样在写的时候出错
process.stdout.on("error", () => child.stdout.destroy());
// 服务器怎么结束，窃听器就怎么结束：退出码和信号原样交给 harness，转录才和不窃听时一样
child.on("close", (code, signal) => {
  fs.closeSync(log);
  if (signal) process.kill(process.pid, signal);
  else process.stdout.write("", () => process.exit(code ?? 0));
});
