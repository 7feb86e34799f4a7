// lib.ts：各个基准脚本共用的东西——钉 CPU、轮流测量、统计、打表、目标判定，
// 以及三个“参赛者”的连接方式：裸管道（物理极限）、第 22 章的 McpClient、官方 SDK 的 Client。
import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpClient } from "../chapters/22-mcp-client/mcp-client.ts";
import { connectMcpServers, type McpConnections } from "../chapters/22-mcp-client/mcp.ts";
import type { Registry } from "../chapters/22-mcp-client/registry.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BENCH = path.join(ROOT, "bench");
export const ECHO_SERVER = path.join(BENCH, "servers", "echo-server.mjs");
export const PINGPONG = path.join(BENCH, "servers", "pingpong.mjs");

// npm run bench 按这个顺序跑；test/bench.test.ts 也用这张表，保证每个脚本都被 quick 模式跑到
export const SCRIPTS = ["roundtrip", "throughput", "connect", "large", "tokens", "era", "http", "budget"] as const;

export const QUICK = process.argv.includes("--quick");

// ---- 钉 CPU ----

// 2 核的机器上不钉 CPU，客户端和服务器时而同核、时而异核，往返时间在两个水平之间跳。
// 在 Linux 上用 taskset -c 0 把自己重新执行一遍；子进程（服务器）继承这个亲和性。quick 模式只求跑通，不钉
export function pinToOneCpu(): void {
  if (QUICK || process.platform !== "linux" || process.env.BENCH_PINNED || process.argv.includes("--no-pin")) return;
  if (spawnSync("taskset", ["--version"]).status !== 0) return;
  const r = spawnSync("taskset", ["-c", "0", process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_PINNED: "1" },
  });
  process.exit(r.status ?? 1);
}

// 实际能用哪几个 CPU（从内核那里读，不信参数）
export function allowedCpus(): string {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1] ?? "?";
  } catch {
    return "?";
  }
}

export function pinNote(): string {
  const cpus = allowedCpus();
  if (process.env.BENCH_PINNED) return `已用 taskset -c 0 钉在 CPU ${cpus} 上（客户端和服务器子进程同一个核）`;
  if (QUICK) return "quick 模式：没有钉 CPU，数字只说明脚本能跑";
  return `没有钉 CPU（可用 CPU：${cpus}）——2 核机器上的数字会在两个水平之间跳`;
}

// ---- 测量 ----

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export interface Contender {
  name: string;
  sample(measured: boolean): Promise<number>; // 一轮的一个样本（耗时、吞吐……由脚本决定单位）；热身轮 measured 为 false
  server?: () => number | undefined; // 它的服务器进程号：给了就另记 CPU 时间（见 measure）
}

// 热身几轮（不记），再测 rounds 轮；每一轮里参赛者轮流上场，出场顺序见 order()
export async function interleave(contenders: Contender[], rounds: number, warmup: number): Promise<Map<string, number[]>> {
  return (await measure(contenders, rounds, warmup)).samples;
}

// 一个进程（连同它所有的线程）到现在为止在 CPU 上跑了多久、排在队里等 CPU 等了多久，纳秒。
// 读 Linux 的 /proc/<pid>/task/*/schedstat；读不到（别的系统、进程已经没了）就是 undefined
export function schedstat(pid: number | "self"): { run: number; wait: number } | undefined {
  try {
    let run = 0;
    let wait = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const [r, w] = fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ");
      run += Number(r);
      wait += Number(w);
    }
    return { run, wait };
  } catch {
    return undefined;
  }
}

export interface Measured {
  samples: Map<string, number[]>; // sample() 交回的值，一轮一个
  wall: Map<string, number[]>; // 每个样本的墙钟，毫秒
  cpu: Map<string, number[]>; // 每个样本里客户端（本进程）加它的服务器在 CPU 上跑的时间，毫秒；量不到是 NaN
  others: number; // 测量的这些轮里，钉住的那个核有多大一份给了别的进程（0–1）；没钉或者量不到是 NaN
}

// 钉住的那个核（只许一个 CPU 时）从开机到现在忙了多久、一共多久，毫秒（/proc/stat，单位是 1/100 秒）
function cpuTicks(): { busy: number; total: number } | undefined {
  const cpu = allowedCpus();
  if (!/^\d+$/.test(cpu)) return undefined;
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n").find((l) => l.startsWith(`cpu${cpu} `));
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line!.trim().split(/\s+/).slice(1).map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy: busy * 10, total: (busy + idle! + iowait!) * 10 };
  } catch {
    return undefined;
  }
}

// interleave 的完整版：另记墙钟和 CPU 时间。钉在一个核上时，一问一答的墙钟 ≈ 两个进程的 CPU 时间之和，
// 再加上等别的进程让出这个核的时间；CPU 时间之比不含后者，是墙钟之比的一个对照
// 第 r 轮的出场顺序：Williams 拉丁方。每个参赛者排在每个位置上的次数一样，紧跟在每个别人后面的次数也一样——
// 谁跑在谁后面也可能有影响（比如缓存被上一个冲冷了）。只是每轮轮换的话，4 个参赛者时管道极限 4 轮里有 3 轮
// 紧跟在官方 SDK 后面，第 22 章只有 1 轮——这台机器上量不出它偏了多少，可也没有理由让它偏。轮数是 n（奇数个时 2n）的倍数时完全平衡
export function order(n: number, r: number): number[] {
  const first: number[] = [];
  for (let i = 0, lo = 1, hi = n - 1; i < n; i++) first.push(i === 0 ? 0 : i % 2 === 1 ? lo++ : hi--);
  const row = first.map((x) => (x + r) % n);
  return n % 2 === 1 && Math.floor(r / n) % 2 === 1 ? row.reverse() : row;
}

export async function measure(contenders: Contender[], rounds: number, warmup: number): Promise<Measured> {
  const series = () => new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const m: Measured = { samples: series(), wall: series(), cpu: series(), others: NaN };
  // 我们自己的进程：本进程和各参赛者的服务器。这个核忙的时间减去它们跑的时间，就是别的进程拿走的
  const ours = () => {
    const pids = new Set(contenders.map((c) => c.server?.()).filter((p) => p !== undefined));
    let run = schedstat("self")?.run ?? NaN;
    for (const pid of pids) run += schedstat(pid)?.run ?? NaN;
    return run / 1e6;
  };
  let start: { ticks?: { busy: number; total: number }; ours: number } | undefined;
  for (let r = 0; r < warmup + rounds; r++) {
    if (r === warmup) start = { ticks: cpuTicks(), ours: ours() };
    for (const k of order(contenders.length, r - warmup + contenders.length * 2)) {
      const c = contenders[k]!;
      gc();
      const pid = c.server?.();
      const before = [schedstat("self"), pid ? schedstat(pid) : undefined];
      const t0 = now();
      const value = await c.sample(r >= warmup);
      const wall = now() - t0;
      const after = [schedstat("self"), pid ? schedstat(pid) : undefined];
      if (r < warmup) continue;
      m.samples.get(c.name)!.push(value);
      m.wall.get(c.name)!.push(wall);
      const ok = before.every((b) => b) && after.every((a) => a);
      m.cpu.get(c.name)!.push(ok ? (after[0]!.run - before[0]!.run + after[1]!.run - before[1]!.run) / 1e6 : NaN);
    }
  }
  const end = cpuTicks();
  if (start?.ticks && end) {
    const busy = end.busy - start.ticks.busy;
    const total = end.total - start.ticks.total;
    m.others = total > 0 ? Math.max(0, busy - (ours() - start.ours)) / total : NaN;
  }
  return m;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: number[]) => {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// 同一轮里的两个样本配对求比，再取中位数：机器负载在几轮之间起伏时，配对的比值比“中位数之比”稳
export function pairedRatio(a: number[], b: number[]): number {
  return median(pairedRatios(a, b));
}

// 逐轮的比值（第 i 轮的 a 比第 i 轮的 b）
export function pairedRatios(a: number[], b: number[]): number[] {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push(a[i]! / b[i]!);
  return ratios;
}

// ---- 输出 ----

export function fmtTime(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  if (ms < 10_000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function fmtRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return "—";
  return perSecond >= 10_000 ? `${(perSecond / 1000).toFixed(1)} k/s` : `${perSecond.toFixed(0)} /s`;
}

// 最小–最大：单位相同时只写一次
export function fmtRange(values: number[], fmt: (v: number) => string = fmtTime): string {
  const lo = fmt(Math.min(...values));
  const hi = fmt(Math.max(...values));
  const unit = / (\S+)$/.exec(lo)?.[1];
  return unit && hi.endsWith(` ${unit}`) ? `${lo.slice(0, -unit.length - 1)}–${hi}` : `${lo}–${hi}`;
}

export const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : "—");

// 逐轮比值的离散程度：四分位（中间一半的轮落在这里）
export const fmtQuartiles = (ratios: number[]) => (ratios.length > 0 ? `${percentile(ratios, 25).toFixed(2)}–${percentile(ratios, 75).toFixed(2)}` : "—");

// 汉字在终端里占两格：对齐要按显示宽度算
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/.test(ch) ? 2 : 1;
  return w;
}

export function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: string[]) =>
    "  " + cells.map((c, i) => (i === 0 ? c + " ".repeat(widths[i]! - width(c)) : " ".repeat(widths[i]! - width(c)) + c)).join("   ");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

export function section(title: string, detail: string): void {
  console.log(`\n== ${title} ==`);
  console.log(`  ${detail}`);
  console.log(`  ${pinNote()}`);
}

export interface TargetResult {
  script: string;
  name: string;
  ratio: number;
  op: "<=" | ">=";
  limit: number;
  met: boolean;
  note?: string;
  rounds?: number[]; // 逐轮的比值：run.ts 把同一项目标几次运行的轮合在一起，取中位数
}

// 打印一条目标，并记进 BENCH_REPORT（npm run bench 最后汇总用）
export function target(script: string, name: string, ratio: number, op: "<=" | ">=", limit: number, note?: string, rounds?: number[]): TargetResult {
  const met = Number.isFinite(ratio) && (op === "<=" ? ratio <= limit : ratio >= limit);
  const result: TargetResult = { script, name, ratio, op, limit, met, note, rounds };
  console.log(`  目标：${name} ${op === "<=" ? "≤" : "≥"} ${limit}× —— 实测 ${fmtRatio(ratio)} ${met ? "✓" : "✗"}${note ? `（${note}）` : ""}`);
  report(result);
  return result;
}

// 第 22 章对极限的判定。目标看的是逐轮配对比值的中位数；另外照实列出它的离散（四分位、达标的轮数），
// 同样这些轮的“中位数之比”（两列各取中位数再相除：快的一轮可能和慢的一轮配上），
// 和 CPU 时间之比（不含排队）。higherIsBetter：样本是吞吐，比值越大越好
export function verdict(script: string, name: string, m: Measured, subject: string, limitName: string, op: "<=" | ">=", limit: number, higherIsBetter = false): TargetResult {
  const s = m.samples.get(subject)!;
  const l = m.samples.get(limitName)!;
  const ratios = pairedRatios(s, l);
  const ratio = median(ratios);
  const met = ratios.filter((r) => (op === "<=" ? r <= limit : r >= limit)).length;
  const cpuRatios = higherIsBetter ? pairedRatios(m.cpu.get(limitName)!, m.cpu.get(subject)!) : pairedRatios(m.cpu.get(subject)!, m.cpu.get(limitName)!);
  console.log(`  ${subject} 对极限：逐轮配对的中位数 ${fmtRatio(ratio)}（四分位 ${fmtQuartiles(ratios)}，${ratios.length} 轮里 ${met} 轮 ${op === "<=" ? "≤" : "≥"} ${limit}×）；同样这些轮，中位数之比 ${fmtRatio(median(s) / median(l))}`);
  if (cpuRatios.every(Number.isFinite)) {
    console.log(`  对照：CPU 时间（客户端 + 它的服务器）之比 ${fmtRatio(median(cpuRatios))}（四分位 ${fmtQuartiles(cpuRatios)}）`);
  }
  if (Number.isFinite(m.others)) {
    console.log(`  测量的这些轮里，CPU ${allowedCpus()} 有 ${(m.others * 100).toFixed(0)}% 的时间给了别的进程`);
    if (m.others > 0.2) console.log("    别的进程也在用这个核：一轮一轮的比值会散得很开（看四分位），单看一次运行靠不住");
  }
  return target(script, name, ratio, op, limit, undefined, ratios);
}

// 不是比值的目标（完整性、百分比）
export function check(script: string, name: string, met: boolean, shown: string): void {
  console.log(`  目标：${name} —— ${shown} ${met ? "✓" : "✗"}`);
  report({ script, name: `${name}（${shown}）`, ratio: NaN, op: ">=", limit: NaN, met });
}

function report(result: TargetResult): void {
  if (process.env.BENCH_REPORT) fs.appendFileSync(process.env.BENCH_REPORT, JSON.stringify(result) + "\n");
}

// 完整性检查失败是 bug，不是慢：脚本以非零退出，测试会抓到
let integrityFailed = false;
export function integrity(label: string, ok: boolean, detail = ""): void {
  if (!ok) {
    integrityFailed = true;
    console.log(`  ✗ 完整性检查失败：${label}${detail ? `：${detail}` : ""}`);
  }
}

export function finish(): void {
  if (integrityFailed) {
    console.log("  有完整性检查没通过（见上）");
    process.exitCode = 1;
  }
}

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

// ---- 参赛者：连接 ----

// 三个参赛者给子进程的环境一样：第 22 章的那组安全变量（SDK 的默认组是它的子集）
const SAFE_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of SAFE_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  return { ...env, ...extra };
}

// 物理极限：一个父进程和一个子进程在子进程的管道上一行一行地 ping-pong。
// 父进程这边只做任何客户端都省不掉的事：拼一行 JSON 写出去，攒字节到换行，解码、JSON.parse，交给回调
export class RawPipe {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  onMessage: (message: any) => void = () => {};
  private pending: Buffer[] = [];

  private constructor(child: ChildProcessByStdio<Writable, Readable, Readable>) {
    this.child = child;
    child.stdout.on("data", (chunk: Buffer) => {
      let start = 0;
      let end: number;
      while ((end = chunk.indexOf(10, start)) >= 0) {
        this.pending.push(chunk.subarray(start, end));
        const line = (this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending)).toString("utf8");
        this.pending = [];
        start = end + 1;
        this.onMessage(JSON.parse(line));
      }
      if (start < chunk.length) this.pending.push(chunk.subarray(start));
    });
  }

  // 子进程和第 22 章起服务器的方式一样：stderr 也是管道（读到的转给我们的 stderr）、自成一个进程组（detached）。
  // 看着和往返无关，可钉在一个核上，调度的细节都会进数字：极限得和被比的一方起在同样的条件下
  static start(env: Record<string, string> = {}): Promise<RawPipe> {
    const child = spawn(process.execPath, [PINGPONG], { env: childEnv(env), stdio: ["pipe", "pipe", "pipe"], detached: true });
    child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => resolve(new RawPipe(child)));
    });
  }

  send(message: object): void {
    this.child.stdin.write(JSON.stringify(message) + "\n");
  }

  // 一问一答（连接测试和大结果测试用）
  call(message: object): Promise<any> {
    return new Promise((resolve) => {
      this.onMessage = resolve;
      this.send(message);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((r) => this.child.once("exit", () => r()));
    this.child.stdin.end();
    return gone;
  }
}

export const echoRequest = (id: number, text = "ping") => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { text } },
});

export const blobRequest = (id: number, bytes: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "blob", arguments: { bytes } },
});

// 第 22 章：和 connectMcpServers 里的 connect() 一样的三步——起进程、握手（initialize + initialized）、列工具
export async function startOurs(env: Record<string, string> = {}, name = "bench"): Promise<{ client: McpClient; tools: any[] }> {
  const client = await McpClient.start(name, { command: process.execPath, args: [ECHO_SERVER], env });
  await client.request("initialize", { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "learnharness", version: "0.1" } });
  client.notify("notifications/initialized");
  const list = await client.request("tools/list", {});
  return { client, tools: list.tools };
}

// 官方 SDK：Client.connect() 做握手，listTools() 列工具。maxBufferSize 不给就是默认的 10 MiB
export async function startSdk(options: { env?: Record<string, string>; maxBufferSize?: number } = {}): Promise<{ client: Client; tools: any[]; pid: () => number | undefined }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ECHO_SERVER],
    env: options.env ?? {},
    stderr: "inherit",
    ...(options.maxBufferSize ? { maxBufferSize: options.maxBufferSize } : {}),
  });
  const client = new Client({ name: "learnharness-bench", version: "0.1" });
  await client.connect(transport);
  const list = await client.listTools();
  return { client, tools: list.tools, pid: () => transport.pid ?? undefined };
}

// 走第 22 章的原路接 mcp.json 里的服务器：读配置、同时启动、按名字顺序交出工具，这里登记进注册表。
// 它打印的日志行经 log 收下来不打印（返回给调用者核对）；它不挂进程钩子，收尾由调用者 close()。
// ms 只量 connectMcpServers 本身
export async function connectViaChapter(registry: Registry, dir: string): Promise<{ connections: McpConnections; logged: string[]; ms: number }> {
  const logged: string[] = [];
  const t0 = now();
  const connections = await connectMcpServers(dir, registry.names(), { log: (line) => void logged.push(line) });
  const ms = now() - t0;
  for (const tool of connections.tools) registry.register(tool);
  return { connections, logged, ms };
}

// 第 22 章的客户端不对外交出进程号（它用不着）；基准要量服务器的 CPU 时间，从私有字段里取
export function serverPid(client: McpClient): number | undefined {
  return (client as unknown as { child: { pid?: number } }).child.pid;
}

export function textOf(result: any): string {
  return result?.content?.[0]?.text;
}

// ---- 机器 ----

export function machine(): { cpus: number; model: string; node: string; load: string } {
  let model = os.cpus()[0]?.model ?? "?";
  try {
    model = /model name\s*:\s*(.+)/.exec(fs.readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? model;
  } catch {
    // 不是 Linux
  }
  return {
    cpus: os.cpus().length,
    model,
    node: process.version,
    load: os.loadavg().map((l) => l.toFixed(2)).join(" "),
  };
}
