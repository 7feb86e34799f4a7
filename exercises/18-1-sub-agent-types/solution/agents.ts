// agents.ts：发现子 agent 的类型。一个类型是一个 .md 文件：frontmatter 写 name、description、tools（逗号隔开），
// 正文是这种子 agent 的 system prompt——Claude Code 的 .claude/agents/ 也是这个样子。
// 练习 18-1 新增：用户的 ~/.harness/agents/ 总是算数；工作目录的 .harness/agents/ 跟着仓库来，文件夹被信任了才读。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { folderTrusted } from "./permissions.ts";
import { parseFrontmatter } from "./skills.ts";
import { safeLine } from "./terminal.ts";
import { readTextFile } from "./text-file.ts";

export interface AgentType {
  name: string;
  description: string;
  tools?: string[]; // 没写 = 父 agent 有的全部
  prompt: string; // 正文：子 agent 的 system prompt
}

// 用户的先读，项目的后读：同名时项目的覆盖用户的
export function discoverAgents(cwd: string, home = os.homedir()): AgentType[] {
  const found = new Map<string, AgentType>();
  for (const type of readAgentDir(path.join(home, ".harness", "agents"), "~/.harness/agents")) found.set(type.name, type);
  const project = path.join(cwd, ".harness", "agents");
  if (mdFiles(project).length > 0 && !folderTrusted(cwd, home)) {
    // 仓库里的定义能给子 agent 换掉 system prompt、挑工具：和项目的 allow 规则一样，信任之前不算数
    console.error(`[子 agent] 这个文件夹没有被信任：.harness/agents/ 里的定义不加载`);
  } else {
    for (const type of readAgentDir(project, ".harness/agents", cwd)) found.set(type.name, type);
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function mdFiles(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
  } catch {
    return []; // 没有这个目录是常态
  }
}

// label：警告里怎么称呼这个目录；within：项目里的定义解开链接后还得在工作目录里（text-file.ts）
function readAgentDir(dir: string, label: string, within?: string): AgentType[] {
  const types: AgentType[] = [];
  for (const file of mdFiles(dir)) {
    try {
      types.push(parseAgent(readTextFile(path.join(dir, file), { within })));
    } catch (e) {
      // 一个写坏的定义不拖垮其他的；读文件的失败只报错误码
      const code = (e as NodeJS.ErrnoException).code;
      console.error(safeLine(`警告: 跳过子 agent 定义 ${label}/${file}：${code ? `读不了（${code}）` : (e as Error).message}`));
    }
  }
  return types;
}

function parseAgent(text: string): AgentType {
  const { fields, body } = parseFrontmatter(text);
  if (!fields.name) throw new Error("frontmatter 里没有 name");
  if (!fields.description) throw new Error("frontmatter 里没有 description");
  // 逗号隔开，空白不算；一个也没写（或者空着）就是沿用父 agent 的全部工具
  const tools = (fields.tools ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  return { name: fields.name, description: fields.description, tools: tools.length > 0 ? tools : undefined, prompt: body };
}
