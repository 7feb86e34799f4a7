// 模型看得见的每一句话都在书里：每章的演示场景真的跑一遍（test/all-transcripts.test.ts 里那一次），从脚本模型收到的请求里取出
// system prompt 的每一行、每个工具的描述和参数描述（shared/wording.ts）。前面各章的演示里没出现过的，就是这一章新加或改过的措辞，
// 这一章的 README 要一字不差地给出来——读者照 README 敲，token 数才和书上一样。
// 不算的：harness 拼进去的值（工作目录、日期、操作系统：固定的那部分照样要有），场景自带的文件（AGENTS.md、skill）里的内容，场景接上的 MCP 服务器写的工具描述和它在 mcp.json 里的名字。
import fs from "node:fs";
import path from "node:path";
import { CHAPTERS, ROOT, tempRoot, type Scenario } from "../shared/scenario.ts";
import { wordingOf } from "../shared/wording.ts";

const VARIABLE = "\u0000"; // 拼进去的值在哪里
const WINDOW = 8; // 连着 8 个字都出自场景自带的文件，这一段就是场景的内容，不是代码的措辞

// 一段措辞拆成必须在 README 里出现的固定部分
function pieces(text: string): string[] {
  return text.split(VARIABLE).map((p) => p.trim()).filter((p) => p.length > 0);
}

// 一章的演示场景发出的措辞：原文（system prompt 按行拆开，拼进去的值换成 VARIABLE）→ 哪一处、README 里必须有的那几段
// （场景自带的内容去掉）。比“前面出现过没有”用原文：同一句话在不同的场景里去掉的内容可能不同
export interface Shown {
  label: string;
  shown: string[];
}
export function chapterWording(s: Scenario, bodies: any[]): Map<string, Shown> {
  const data = fixtureText(s);
  // mcp.json 里服务器的名字（time）也是场景给的：README 可以写成 <服务名>
  const names = [...Object.keys((s.spec.mcp as { mcpServers?: object } | undefined)?.mcpServers ?? {}), ...Object.keys(s.spec.servers ?? {})];
  const named = names.length > 0 ? new RegExp(`(?<![\\w-])(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\w-])`, "g") : undefined;
  const withoutData = (text: string) => withoutFixture(text, data).replace(named ?? /$^/, VARIABLE);
  const tmp = new RegExp(tempRoot().replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "/lh-[^/\\s]+(/[\\w.-]+)?", "g");
  const out = new Map<string, Shown>();
  for (const [label, text] of wordingOf(bodies)) {
    if (!label.endsWith("system prompt")) {
      out.set(text, { label, shown: pieces(withoutData(text)) });
      continue;
    }
    for (const line of text.split("\n")) {
      const general = (t: string) => t.replace(tmp, VARIABLE).replace(/\d{4}-\d\d-\d\d/g, VARIABLE).replace(new RegExp(`(?<=：)${process.platform}$`), VARIABLE);
      out.set(general(line), { label, shown: pieces(general(withoutData(line))) });
    }
  }
  return out;
}

// 出自场景自带的文件的那些段（连着至少 WINDOW 个字都在文件里，或者整行都在）换成 VARIABLE：
// skill 清单里的“- 名字：描述”只剩“- ”和“：”，MCP 工具的描述只剩 harness 加的 [来自 MCP 服务 …] 前缀
function withoutFixture(line: string, data: string): string {
  const chars = [...line];
  if (chars.length < WINDOW) return data.includes(line.trim()) && line.trim() !== "" ? VARIABLE : line;
  const covered = chars.map(() => false);
  for (let i = 0; i + WINDOW <= chars.length; i++) {
    if (data.includes(chars.slice(i, i + WINDOW).join(""))) covered.fill(true, i, i + WINDOW);
  }
  return chars.map((c, i) => (covered[i] ? (covered[i - 1] ? "" : VARIABLE) : c)).join("");
}

// 场景目录里的文件（工作目录、用户目录里放好的东西），不算 scenario.json 和期望的转录
function fixtureText(s: Scenario): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (dir !== s.dir) texts.push(fs.readFileSync(file, "utf8"));
    }
  };
  walk(s.dir);
  // 场景接上的 MCP 服务器：工具的描述是它们写的
  const strings = JSON.stringify([s.spec.mcp ?? {}, s.spec.servers ?? {}]).match(/\$ROOT\/[^"\s]+\.ts/g) ?? [];
  for (const file of strings.map((f) => path.join(ROOT, f.slice("$ROOT/".length)))) if (fs.existsSync(file)) texts.push(sourceWithImports(file));
  return texts.join("\n");
}

// 服务器的源文件连同它 import 的本地文件（描述常写在另一个文件里）
function sourceWithImports(file: string, seen = new Set<string>()): string {
  if (seen.has(file) || !fs.existsSync(file)) return "";
  seen.add(file);
  const text = fs.readFileSync(file, "utf8");
  const imports = [...text.matchAll(/from "(\.{1,2}\/[^"]+\.ts)"/g)].map((m) => path.resolve(path.dirname(file), m[1]));
  return [text, ...imports.map((f) => sourceWithImports(f, seen))].join("\n");
}

// 一章的 README 缺了哪些这一章新加、改过的措辞（earlier：前面各章的演示发过的原文）
export function missingWording(chapter: string, wording: Map<string, Shown>, earlier: Set<string>): string[] {
  const readme = fs.readFileSync(path.join(CHAPTERS, chapter, "README.md"), "utf8");
  const missing = new Set<string>();
  for (const [text, { label, shown }] of wording) {
    if (earlier.has(text)) continue;
    const absent = shown.filter((p) => !readme.includes(p));
    if (absent.length > 0) missing.add(`${label}：${absent.map((p) => `“${p}”`).join("、")}`);
  }
  return [...missing];
}
