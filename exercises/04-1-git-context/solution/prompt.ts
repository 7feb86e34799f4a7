// prompt.ts：拼 system prompt。模型对“这台机器、这个目录、今天几号”一无所知，得我们告诉它。
// 第 04 章新增：工作目录、操作系统、日期；工作目录下有 AGENTS.md 就附在后面。
// 练习 04-1：在 git 仓库里，再附上启动时的 git 快照（git-context.ts）。
import path from "node:path";
import { gitContext } from "./git-context.ts";
import { readTextFile } from "./text-file.ts";

export function buildSystemPrompt(cwd: string, now: Date): string {
  const lines = [
    "你是一个在终端里工作的编程助手，回答简洁、准确，用中文。",
    `工作目录：${cwd}`,
    `操作系统：${process.platform}`,
    `今天的日期：${localDate(now)}`,
  ];
  const agents = readAgentsFile(cwd);
  if (agents) lines.push("", "以下是这个项目的说明（来自 AGENTS.md），请遵守：", agents);
  // 在 git 仓库里：分支、改动、最近的提交。和日期一样只在启动时取一次，每一轮的前缀才一字不差
  const git = gitContext(cwd);
  if (git) lines.push("", git);
  return lines.join("\n");
}

// AGENTS.md 是项目写给编程助手的说明书；没有这个文件是常态，不必提
function readAgentsFile(cwd: string): string | undefined {
  try {
    return readTextFile(path.join(cwd, "AGENTS.md"), { within: cwd }).trim(); // 指向工作目录外面的链接不读
  } catch (e) {
    // 只报错误码（EISDIR、EACCES）或 text-file.ts 自己的一句话：异常的原话出自运行时，随 Node 版本而变
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") console.error(`警告: 读不了 AGENTS.md（${code ?? (e as Error).name}），忽略`);
    return undefined;
  }
}

// 用本地时区的日期：toISOString() 给的是 UTC，北京时间早上八点前会差一天
function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
