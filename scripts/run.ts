// 读者命令（ch、demo、start、diff、verify）共用的几件事：认章号、把一章当真程序跑起来、播放一章的演示场景。
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHAPTERS, ROOT, chapterDirs, findChapter, listScenarios, runScenario, type Scenario } from "../shared/scenario.ts";

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
async function whileChildRuns<T>(work: Promise<T>): Promise<T> {
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    return await work;
  } finally {
    process.off("SIGINT", ignore);
  }
}

function exitCodeOf(child: ChildProcess): Promise<number> {
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

// 读者的环境加上 .env：先看读者所在的目录，再看仓库根目录；已经 export 的变量不被 .env 覆盖
export function envWithDotenv(cwd: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const dir of new Set([cwd, ROOT])) {
    const file = path.join(dir, ".env");
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
    env: envWithDotenv(cwd),
    stdio: "inherit",
  });
  // 父进程被 kill 时把信号转给子进程，别留下孤儿
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  return whileChildRuns(exitCodeOf(child)).finally(() => {
    process.off("SIGTERM", forward);
    process.off("SIGHUP", forward);
  });
}

// 演示场景：scenario.json 里标了 "demo": true 的那个，没有就取第一个
export function demoScenario(chapter: string): Scenario | undefined {
  const all = listScenarios(chapter);
  return all.find((s) => s.spec.demo) ?? all[0];
}

// 在脚本模型上把演示场景直接播到终端，返回退出码
export async function playDemo(chapter: string, options: { realClock?: boolean } = {}): Promise<number> {
  const s = demoScenario(chapter);
  if (!s) usageError(`第 ${chapterNumber(chapter)} 章还没有场景（shared/fixtures/${chapter}/ 是空的），没有可演示的`);
  const about = s.spec.description ? `：${s.spec.description}` : "";
  console.error(dim(`[演示] 第 ${chapterNumber(chapter)} 章 · ${s.name}${about}（脚本模型，离线）`, process.stderr));
  const result = await whileChildRuns(runScenario(s, path.join(CHAPTERS, chapter), { live: true, ...options }));
  return result.exitCode ?? 1;
}
