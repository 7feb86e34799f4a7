// npm run watch -- 06 play/06：你一保存，就重跑一遍 verify（练习用 npm run watch -- 22-1 ~/ex22-1，重跑 check）。
// verify / check 在子进程里跑：每次都是全新的进程，读到的是你刚存下的文件。
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fullTree } from "../shared/overlay.ts";
import { ROOT, tempRoot } from "../shared/scenario.ts";
import { chapterFromArg, chapterNumber, dim, green, red, usageError } from "./run.ts";

const TSX = import.meta.resolve("tsx");
const usage = "npm run watch -- <章号或练习> <你的目录> [--own]（例如 npm run watch -- 06 play/06，npm run watch -- 22-1 ~/ex22-1）";
const flags: string[] = process.argv.slice(2).filter((a) => a === "--own"); // 原样交给 verify
const [target, dirArg, extra] = process.argv.slice(2).filter((a) => !flags.includes(a));
if (target === undefined || dirArg === undefined) usageError(`用法: ${usage}`);
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);

// 22-1 这样的是练习（交给 check），别的当章号（交给 verify）
const exercise = /^\d+-\d+$/.test(target) ? fs.readdirSync(path.join(ROOT, "exercises")).find((d) => d.startsWith(target + "-")) : undefined;
if (/^\d+-\d+$/.test(target) && !exercise) usageError(`没有练习 ${target}。用法: ${usage}`);
if (exercise && flags.length > 0) usageError(`--own 只对章节有用（verify）。用法: ${usage}`);
const command = exercise ? ["check", target] : ["verify", chapterNumber(chapterFromArg(target, usage))];

const cwd = process.env.INIT_CWD ?? process.cwd();
const dir = path.resolve(cwd, dirArg);
// 练习的答案只放改了的文件：叠在它那一章上看
if (!fs.existsSync(path.join(fullTree(dir), "main.ts"))) usageError(`${dirArg} 里没有 main.ts：请给出你那一章实现所在的目录（main.ts 就在它下面）`);

// 子进程的临时目录都放在这里：Ctrl-C 打断一次运行时，场景来不及删的临时目录随 watch 一起清掉
const scratch = fs.mkdtempSync(path.join(tempRoot(), "lh-watch-")); // 不在 /tmp 下：第 23 章的沙箱有私有的 /tmp
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

const tty = process.stdout.isTTY;
let runs = 0;
let child: ChildProcess | undefined;
let again: string | undefined; // 跑的时候又存了文件：停下这一次，从头再来
let stopping = false;

function start(reason: string) {
  if (stopping) return;
  if (child) {
    // 正在跑的那一次查的是旧文件，它的结论已经没用了：整组停下（verify 收拾它的 harness 和服务器），停完马上重跑
    again = reason;
    killGroup(child, "SIGTERM");
    return;
  }
  runs++;
  if (tty) process.stdout.write("\x1b[2J\x1b[H"); // 清屏：只留这一次的结果
  console.log(dim(`[watch] npm run ${command.join(" ")} ${dirArg}（第 ${runs} 次，${reason}）`, process.stdout));
  // 单独的进程组：终端的 Ctrl-C 只到 watch，由它收拾子进程，免得场景里的 harness 把它当成一次中断
  const running = spawn(process.execPath, ["--import", TSX, path.join(ROOT, "scripts", `${command[0]}.ts`), command[1], dirArg, ...flags], {
    cwd: ROOT,
    env: { ...process.env, INIT_CWD: cwd, TMPDIR: scratch },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  child = running;
  let last = "";
  running.stdout!.on("data", (d: Buffer) => {
    process.stdout.write(d);
    const lines = d.toString().split("\n").filter((l) => l.trim());
    if (lines.length > 0) last = lines.at(-1)!;
  });
  running.on("close", (code) => {
    child = undefined;
    if (stopping) return;
    if (again !== undefined) {
      const reason = again;
      again = undefined;
      return start(reason);
    }
    const time = new Date().toTimeString().slice(0, 8);
    const summary = `[watch ${time}] ${code === 0 ? "✓" : "✗"} ${last || `退出码 ${code}`}`;
    console.log((code === 0 ? green : red)(summary, process.stdout) + dim("  保存文件就重跑，Ctrl-C 退出", process.stdout));
  });
}

// 编辑器存一次文件会触发好几个事件（写临时文件、改名、改属性）：安静 200 毫秒再跑
let timer: NodeJS.Timeout | undefined;
function changed(file: string | null) {
  if (file && /(^|[/\\])(\.|node_modules([/\\]|$))|~$|\.sw.$|^\d+$/.test(file)) return; // 隐藏文件、编辑器的交换文件
  clearTimeout(timer);
  timer = setTimeout(() => start(`${file ?? "文件"} 改了`), 200);
}

const watchers: fs.FSWatcher[] = [];
try {
  watchers.push(fs.watch(dir, { recursive: true }, (_event, file) => changed(file)));
} catch {
  // 不支持 recursive 的平台：顶层和每个子目录各盯一个
  const dirs = (d: string): string[] => [d, ...fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules").flatMap((e) => dirs(path.join(d, e.name)))];
  for (const d of dirs(dir)) watchers.push(fs.watch(d, (_event, file) => changed(file && path.relative(dir, path.join(d, file)))));
}

function stop() {
  if (stopping) return;
  stopping = true;
  clearTimeout(timer);
  console.log(dim("[watch] 停了", process.stdout));
  for (const w of watchers) w.close();
  if (child) killGroup(child, "SIGTERM");
}

// 结束整个进程组：verify 和它正在跑的 harness 一起。verify 收到 SIGTERM 会先让 harness 收尾、再扫尾；
// 5 秒还没走完（只防卡死）就硬杀
function killGroup(running: ChildProcess, signal: NodeJS.Signals) {
  const kill = (s: NodeJS.Signals) => {
    try {
      process.kill(-running.pid!, s);
    } catch {
      // 已经没了
    }
  };
  kill(signal);
  // clock-ok: 只是防卡死的时限
  const hard = setTimeout(() => kill("SIGKILL"), 5000);
  running.once("close", () => clearTimeout(hard));
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

start("开始");
