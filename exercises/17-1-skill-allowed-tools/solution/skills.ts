// skills.ts：发现 skill。一个 skill 是一个目录，里面的 SKILL.md 开头是一段 frontmatter（name、description），
// 后面是正文——Claude Code 的格式，别人写好的 skill 拷过来就能用。
// 第 16 章新增：项目里的 .claude/skills/*/ 和用户目录的 ~/.claude/skills/*/；写坏的文件警告一行，发现照常进行。
// 练习 17-1：记下 frontmatter 的 allowed-tools（原文，load_skill 时才当规则读）和 skill 是不是来自项目。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { safeLine } from "./terminal.ts";
import { readTextFile } from "./text-file.ts";

export interface Skill {
  name: string;
  description: string;
  body: string;
  file: string;
  allowedTools: string; // frontmatter 的 allowed-tools 原文，没写是 ""
  project: boolean; // 来自工作目录的 .claude/skills/（跟着仓库来的）
}

// 用户目录的先读，项目的后读：同名时项目的覆盖用户的，并说一声
export function discoverSkills(cwd: string): Skill[] {
  const found = new Map<string, Skill>();
  for (const [where, root] of [
    ["用户", path.join(os.homedir(), ".claude", "skills")],
    ["项目", path.join(cwd, ".claude", "skills")],
  ] as const) {
    for (const skill of readSkillDir(root, where === "项目" ? cwd : undefined)) {
      const earlier = found.get(skill.name);
      if (earlier) console.error(safeLine(`[skill "${skill.name}"：${where}的 ${shortPath(skill.file)} 覆盖了 ${shortPath(earlier.file)}]`));
      found.set(skill.name, skill);
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

// within：项目里的 skill 解开链接后还得在工作目录里——它的正文会送给模型，指向 ~/.ssh 的 SKILL.md 不能读
function readSkillDir(root: string, within?: string): Skill[] {
  let dirs: string[];
  try {
    dirs = fs.readdirSync(root).sort();
  } catch {
    return []; // 没有这个目录是常态
  }
  const skills: Skill[] = [];
  for (const dir of dirs) {
    const file = path.join(root, dir, "SKILL.md");
    if (!fs.existsSync(file)) continue;
    try {
      skills.push(parseSkill(readTextFile(file, { within }), file, within !== undefined)); // 指向 /dev/zero 的 SKILL.md 不读（text-file.ts）
    } catch (e) {
      // 一个写坏的 skill 不能拖垮其他的：说清楚是哪个文件、坏在哪，接着找下一个
      // 读文件的失败只报错误码（EISDIR、EACCES）：那句原话出自运行时；坏在格式上的，是 parseSkill 自己的话
      const code = (e as NodeJS.ErrnoException).code;
      const why = code ? `读不了（${code}）` : (e as Error).message;
      console.error(safeLine(`警告: 跳过 ${shortPath(file)}：${why}`)); // 名字、路径来自仓库：只显形
    }
  }
  return skills;
}

function parseSkill(text: string, file: string, project: boolean): Skill {
  const { fields, body } = parseFrontmatter(text);
  if (!fields.name) throw new Error("frontmatter 里没有 name");
  // 没写 description 就用正文的第一段（Claude Code 也是这么做的）
  const description = fields.description || body.split(/\n\s*\n/)[0].replace(/\s+/g, " ").trim();
  return { name: fields.name, description, body, file, allowedTools: fields["allowed-tools"] ?? "", project };
}

// 手写的 frontmatter 读取器，只认 SKILL.md 用得到的那一小块 YAML：
// `key: value`、带引号的值、以及 `>`（折叠成一行）和 `|`（保留换行）开头的多行值。
// 认不出的行（比如 metadata 下面缩进的子项）直接跳过
export function parseFrontmatter(text: string): { fields: Record<string, string>; body: string } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0].trim() !== "---") throw new Error("开头没有 frontmatter（第一行应该是 ---）");
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) throw new Error("frontmatter 没有结束的 --- 行");
  const fields: Record<string, string> = {};
  for (let i = 1; i < end; i++) {
    const m = lines[i].match(/^([A-Za-z0-9_-]+):\s*(.*)$/);
    if (!m) continue;
    const [, key, raw] = m;
    if (raw === ">" || raw === ">-" || raw === "|" || raw === "|-") {
      const block: string[] = [];
      while (i + 1 < end && (lines[i + 1].startsWith(" ") || lines[i + 1].trim() === "")) block.push(lines[++i].trim());
      fields[key] = raw.startsWith(">") ? fold(block) : block.join("\n").trim();
    } else {
      fields[key] = unquote(raw.trim());
    }
  }
  return { fields, body: lines.slice(end + 1).join("\n").trim() };
}

// 折叠：相邻的非空行用空格连成一行，空行变成一个换行
function fold(lines: string[]): string {
  let out = "";
  for (const line of lines) {
    if (line === "") out += "\n";
    else out += (out === "" || out.endsWith("\n") ? "" : " ") + line;
  }
  return out.trim();
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v); // 双引号的转义规则（\"、\n）和 JSON 一样
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replaceAll("''", "'");
  return v;
}

// 项目里的写成相对路径，用户目录里的写成 ~/...：警告里的路径要一眼认得出是哪个文件
function shortPath(p: string): string {
  const home = os.homedir();
  if (p.startsWith(process.cwd() + path.sep)) return path.relative(process.cwd(), p);
  return p.startsWith(home + path.sep) ? "~" + p.slice(home.length) : p;
}
