// budget.ts：大结果的内存——一个 40 MiB 的 MCP 工具结果，从管道里读进来、变成交给模型的文字、过第 14 章的预算，
// 整个进程的内存峰值（RSS）是结果的几倍。原来的预算把整段拆成一个个字符的数组（Array.from），
// 40 MiB 的结果峰值过了 1 GB（issue 28）；现在只在原文上数字符、找位置。两种各在一个新进程里量，互不拖累。
// 运行：node --import tsx bench/budget.ts [--quick]
import { spawn } from "node:child_process";
import { fitBudget } from "../chapters/22-mcp-client/budget.ts";
import { McpTool } from "../chapters/22-mcp-client/mcp-tools.ts";
import { makeText } from "./servers/payload.mjs";
import { check, finish, fmtTime, integrity, QUICK, section, sha256, startOurs, table, target } from "./lib.ts";

const MiB = 1024 * 1024;
const BYTES = QUICK ? 4 * MiB : 40 * MiB;
const BUDGET = 20_000; // 第 14 章起 HARNESS_TOOL_BUDGET 的默认值
const LIMIT = 10; // 目标：峰值 RSS ≤ 结果的 10 倍

// 原来的写法（第 14 章到 issue 28 为止）：整段先拆成字符数组，再切头尾
function arrayBudget(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  return `${chars.slice(0, head).join("")}\n...省略 ${chars.length - head - tail} 字符...\n${chars.slice(chars.length - tail).join("")}`;
}

interface Sample {
  before: number; // 连上服务器、还没调用时的 RSS 峰值，字节
  received: number; // 拿到完整的文字以后
  peak: number; // 过完预算以后（整个进程到此为止的峰值）
  ms: number; // 预算这一步花了多久
  kept: string; // 预算留下的文字的 sha256
}

const rssPeak = () => process.resourceUsage().maxRSS * 1024;

// 子进程：真的走一遍第 22 章的 McpTool（管道、分行、JSON.parse、拼文字），再过预算
async function child(variant: string): Promise<void> {
  const { client, tools } = await startOurs();
  const tool = new McpTool(client, tools.find((t) => t.name === "blob"), "mcp__bench__blob");
  const before = rssPeak();
  const text = await tool.execute(JSON.stringify({ bytes: BYTES }));
  const received = rssPeak();
  const started = performance.now();
  const kept = (variant === "array" ? arrayBudget : fitBudget)(text, BUDGET);
  const ms = performance.now() - started;
  const sample: Sample = { before, received, peak: rssPeak(), ms, kept: sha256(kept) };
  integrity(`${variant} 收到的结果`, sha256(text) === sha256(makeText(BYTES)));
  await client.close();
  process.stdout.write(JSON.stringify(sample) + "\n");
}

function run(variant: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const args = [...process.execArgv, import.meta.filename, `--child=${variant}`, ...(QUICK ? ["--quick"] : [])];
    const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.on("close", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last));
      else reject(new Error(`子进程 ${variant} 退出码 ${code}：${out}`));
    });
  });
}

const variant = process.argv.find((a) => a.startsWith("--child="))?.slice(8);
if (variant) await child(variant);
else {
  section(
    `8. 大结果的内存：${BYTES / MiB} MiB 的 MCP 工具结果过预算（留 ${BUDGET} 字符）`,
    "每种写法一个新进程：第 22 章的 McpTool 读进结果、拼成文字，再过预算；RSS 是整个进程到那一步为止的峰值",
  );
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
  const rows: string[][] = [];
  const samples = new Map<string, Sample>();
  for (const [name, v] of [["原来：Array.from 拆成字符数组", "array"], ["现在：第 22 章的 fitBudget", "ours"]]) {
    const s = await run(v);
    samples.set(v, s);
    rows.push([name, mib(s.before), mib(s.received), mib(s.peak), `${(s.peak / BYTES).toFixed(1)}×`, fmtTime(s.ms)]);
  }
  table(["预算的写法", "调用前", "收到结果后", "预算后（峰值）", "峰值 / 结果", "预算这一步"], rows);
  const [array, ours] = [samples.get("array")!, samples.get("ours")!];
  integrity("两种写法留下的文字一样", array.kept === ours.kept);
  if (QUICK) check("budget", "quick 模式：结果太小，峰值主要是 Node 自己，不判目标", true, `${(ours.peak / BYTES).toFixed(1)}×`);
  else target("budget", `${BYTES / MiB} MiB 结果的峰值 RSS / 结果大小（第 22 章）`, ours.peak / BYTES, "<=", LIMIT);
  finish();
}
