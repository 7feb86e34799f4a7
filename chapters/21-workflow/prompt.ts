// prompt.ts：拼 system prompt。模型对“这台机器、这个目录、今天几号”一无所知，得我们告诉它。
// 第 17 章改动：skill 只放清单（L1：名字 + 一句话），正文（L2）由 load_skill 按需读取。
import path from "node:path";
import type { Skill } from "./skills.ts";
import { readTextFile } from "./text-file.ts";

export function buildSystemPrompt(cwd: string, now: Date, skills: Skill[]): string {
  const lines = [
    "你是一个在终端里工作的编程助手，回答简洁、准确，用中文。",
    `工作目录：${cwd}`,
    `操作系统：${process.platform}`,
    `今天的日期：${localDate(now)}`,
  ];
  const agents = readAgentsFile(cwd);
  if (agents) lines.push("", "以下是这个项目的说明（来自 AGENTS.md），请遵守：", agents);
  if (skills.length > 0) lines.push("", skillList(skills));
  return lines.join("\n");
}

// skill 清单（L1）：每个 skill 一行。它跟着 system prompt 每轮都发，所以只放够模型判断“用不用”的那一句
export function skillList(skills: Skill[]): string {
  const items = skills.map((s) => `- ${s.name}：${firstLine(s.description)}`);
  return ["你有以下 skill（做事的方法）。任务对得上某个 skill 时，先用 load_skill 读它的正文，再照着做：", ...items].join("\n");
}

function firstLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 120 ? line.slice(0, 120) + "…" : line;
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
