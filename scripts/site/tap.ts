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
}

const CLIP = 4000; // 5 MB 的一行只记开头：网页上看的是形状，不是内容

const [logFile, server, command, ...args] = process.argv.slice(2);
if (!logFile || !server || !command) {
  process.stderr.write("用法: tap.ts <日志文件> <服务名> <命令> [参数...]\n");
  process.exit(2);
}
const log = fs.openSync(logFile, "a"); // O_APPEND：几个服务器的窃听器写同一个文件，一条一次 write，不会交错

function tap(dir: "out" | "in") {
  let pending: Buffer[] = [];
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const whole = Buffer.concat([...pending, chunk.subarray(start, nl)]);
      pending = [];
      start = nl + 1;
      const text = whole.subarray(0, CLIP * 4).toString("utf8").replace(/\r$/, "");
      const entry: TapLine = { t: performance.timeOrigin + performance.now(), server, dir, line: text.length > CLIP ? text.slice(0, CLIP) : text, bytes: whole.length };
      fs.writeSync(log, JSON.stringify(entry) + "\n");
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  };
}

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.on("error", (e) => {
  process.stderr.write(`tap: 启动 ${command} 失败: ${e.message}\n`);
  process.exit(127);
});
child.stdin.on("error", () => {}); // 服务器先走了，失败由它的退出码交代
const toServer = tap("out");
const toClient = tap("in");
process.stdin.on("data", (chunk: Buffer) => {
  toServer(chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdout.on("data", (chunk: Buffer) => {
  toClient(chunk);
  process.stdout.write(chunk);
});
// 服务器怎么结束，窃听器就怎么结束：退出码和信号原样交给 harness，转录才和不窃听时一样
child.on("close", (code, signal) => {
  fs.closeSync(log);
  if (signal) process.kill(process.pid, signal);
  else process.stdout.write("", () => process.exit(code ?? 0));
});
