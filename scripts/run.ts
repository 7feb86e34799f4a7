// 读者命令（ch、demo、start、diff、verify）共用的几件事：认章号、把一章当真程序跑起来、播放一章的演示场景。
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHAPTERS, ROOT, chapterDirs, findChapter, hasTerminalTool, listScenarios, runScenario, type Scenario, type Step } from "../shared/scenario.ts";

const TSX = import.meta.resolve("tsx");

// 用法错误：一行中文，退出码 2，不打堆栈
export function usageError(message: string): never {
  console.error(message);
  process.exit(2);
}

export function chapterNumber(chapter: string): string {
  return chapter.slice(0, 2);
}

// 认出章号（"6"、"06"、"06-tool-registry"），认不出就打印用法退出
export function chapterFromArg(arg: string | undefined, usage: string): string {
  const chapter = arg === undefined ? undefined : findChapter(arg);
  if (chapter) return chapter;
  const list = chapterDirs().map(chapterNumber).join(" ");
  const why = arg === undefined ? "" : `没有第 ${arg} 章。`;
  usageError(`${why}用法: ${usage}（现有的章：${list}）`);
}

const color = (code: string) => (s: string, stream: NodeJS.WriteStream) =>
  stream.isTTY && !process.env.NO_COLOR ? `\x1b[${code}m${s}\x1b[0m` : s;
export const dim = color("2");
export const green = color("32");
export const red = color("31");

// 子进程结束才结束：Ctrl-C 由终端发给整个进程组，子进程自己处理；父进程忽略它，等子进程收尾
// kill、关掉终端（SIGTERM、SIGHUP）：不当场死掉——那样子进程成了孤儿、演示的临时目录也留下了——而是转给子进程，
// 等它收完尾、这里的 finally 删掉临时目录，再带着这个信号的退出码走
export async function whileChildRuns<T>(work: Promise<T>): Promise<T> {
  const ignore = () => {};
  let caught: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => {
    caught = signal;
    for (const pid of childrenOf(process.pid)) {
      try {
        process.kill(pid, signal);
      } catch {} // 它刚好自己退出了
    }
  };
  process.on("SIGINT", ignore);
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  try {
    return await work;
  } finally {
    process.off("SIGINT", ignore);
    process.off("SIGTERM", forward);
    process.off("SIGHUP", forward);
    if (caught) process.exitCode = 128 + os.constants.signals[caught];
  }
}

// 直接的子进程（/proc 里父进程号是 pid 的）
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ")[1] === String(pid)) children.push(Number(entry));
    } catch {} // 读的时候它已经退出了
  }
  return children;
}

export function exitCodeOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on("error", (e) => {
      console.error(`错误: 启动失败：${e.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(signal ? 128 + (os.constants.signals[signal] ?? 0) : code ?? 1));
  });
}

// .env 的 KEY=VALUE 行（可带 export 前缀、引号、# 注释）。Node 20.12 起有 util.parseEnv，可我们答应的是 20.6
export function parseDotenv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/);
    if (!m) continue;
    const quoted = m[2].match(/^(["'])(.*)\1$/);
    vars[m[1]] = quoted ? quoted[2] : m[2].replace(/\s+#.*$/, "");
  }
  return vars;
}

// 读者的环境加上 .env：先看 ~/.harness/.env，再看仓库根目录的；已经 export 的变量不被 .env 覆盖。
// 读者所在的目录（常常是刚 clone 下来的别人的仓库）的 .env 不读：它能把密钥连同请求送到别人的服务器（HARNESS_BASE_URL），
// 或者用 NODE_OPTIONS=--require 让 node 一启动就执行仓库里的代码
export function envWithDotenv(home = os.homedir()): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const file of [path.join(home, ".harness", ".env"), path.join(ROOT, ".env")]) {
    if (!fs.existsSync(file)) continue;
    for (const [key, value] of Object.entries(parseDotenv(fs.readFileSync(file, "utf8")))) env[key] ??= value;
  }
  return env;
}

// 在读者敲命令的目录里（npm 把它放在 INIT_CWD）运行某一章，返回退出码
export function runChapter(chapter: string, args: string[]): Promise<number> {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const child = spawn(process.execPath, ["--import", TSX, path.join(CHAPTERS, chapter, "main.ts"), ...args], {
    cwd,
    env: envWithDotenv(),
    stdio: "inherit",
  });
  return whileChildRuns(exitCodeOf(child)); // 父进程被 kill 时把信号转给子进程，别留下孤儿
}

// 演示场景：scenario.json 里标了 "demo": true 的那个，没有就取第一个
export function demoScenario(chapter: string): Scenario | undefined {
  const all = listScenarios(chapter);
  return all.find((s) => s.spec.demo) ?? all[0];
}

// 演示里要做的事，照场景自己的 interact 步骤说：看到什么、做什么；连着几步一样就合成一句
export function demoSteps(steps: Step[]): string {
  const act = (st: Step) =>
    st.send !== undefined ? `输入 ${st.send || "（什么也不输）"} 回车` : st.signal === "SIGINT" ? "按 Ctrl-C" : `给它发 ${st.signal}`;
  const said = steps.map((st) => `看到“${st.after.trim()}”时${act(st)}`);
  const groups: { text: string; times: number }[] = [];
  for (const text of said) {
    if (groups.at(-1)?.text === text) groups.at(-1)!.times++;
    else groups.push({ text, times: 1 });
  }
  return groups.map((g) => (g.times > 1 ? `${g.text}（${g.times} 次）` : g.text)).join("；然后");
}

// 在脚本模型上把演示场景直接播到终端，返回退出码。要问读者 y/N 的演示，有终端就请读者自己答，
// 没有终端（npm run demo -- 9 | cat）就在伪终端里照剧本替他答；按 Ctrl-C 这类步骤总是由演示替他做，时机才准
// ask：在读者自己的目录里真跑这一章的命令（npm start 是 npm start --）
export async function playDemo(chapter: string, options: { realClock?: boolean; impl?: string; ask?: string } = {}): Promise<number> {
  const nn = chapterNumber(chapter);
  const s = demoScenario(chapter);
  if (!s) usageError(`第 ${nn} 章还没有场景（shared/fixtures/${chapter}/ 是空的），没有可演示的`);
  const about = s.spec.description ? `：${s.spec.description}` : "";
  console.error(dim(`[演示] 第 ${nn} 章 · ${s.name}${about}（脚本模型，离线）`, process.stderr));
  const steps = s.spec.interact ?? [];
  const byHand = Boolean(s.spec.tty && process.stdin.isTTY && process.stdout.isTTY);
  if (s.spec.tty && !byHand && !hasTerminalTool()) {
    usageError(`第 ${nn} 章的演示要在终端里跑：它会问你 y/N（没有终端时要用 util-linux 的 script 命令代答，这台机器上没有）`);
  }
  if (byHand) console.error(`[演示] 这个演示要你来答：${demoSteps(steps)}。剧本只认这样答，答别的，脚本模型会拒绝下一次请求`);
  else if (s.spec.tty) console.error(`[演示] 没有终端，演示在伪终端里跑，照剧本替你答：${demoSteps(steps)}`);
  else if (steps.length > 0) console.error(`[演示] 演示会替你操作：${demoSteps(steps)}`);

  const impl = options.impl ?? path.join(CHAPTERS, chapter); // 也可以是读者自己的目录
  const ask = options.ask ?? `npm run ch -- ${Number(nn)}`;
  const lastStderr = (text: string) => text.replace(SESSION_SAVED, honestResume(ask));
  const result = await whileChildRuns(runScenario(s, impl, { live: true, byHand, realClock: options.realClock, lastStderr }));
  const problems = result.records.flatMap((r, i) => (r.rejected ? [`脚本模型拒绝了第 ${i + 1} 次请求：${r.rejected}`] : []));
  if (result.unusedTurns.length > 0) problems.push(`剧本里的第 ${result.unusedTurns.join("、")} 轮没有用上`);
  if (problems.length > 0) {
    console.error(red(`[演示] 没有照剧本走完：${problems.join("；")}`, process.stderr));
    if (byHand) console.error(dim(`[提示] 再来一次，照剧本答：${demoSteps(steps)}`, process.stderr));
    return result.exitCode || 1;
  }
  return result.exitCode ?? 1;
}

// 演示在临时目录里跑，结束就删了：最后那句“用 --resume … 接着聊”接不上。换成一句真能照做的
const SESSION_SAVED = /^\[会话已保存：用 --resume \S+ 接着聊\]$/gm;
export function honestResume(ask: string): string {
  return `[演示的会话随临时目录删掉了，接不上。在你自己的目录里 ${ask} "问题" 开一个会话，${ask} --resume 接着聊]`;
}
