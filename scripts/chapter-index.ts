// 根目录 README 的章节索引，从各章 README 生成：标题、格言、“改了哪些文件”里的（新增）和其余改动。
// 改了哪章的 README，就跑 npm run transcripts（或 node --import tsx scripts/chapter-index.ts）重写索引；测试会检查两者一致。
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CHAPTERS, ROOT, chapterDirs } from "../shared/scenario.ts";

export const README = path.join(ROOT, "README.md");
const BEGIN = "<!-- 章节索引：由 scripts/chapter-index.ts 从各章 README 生成 -->";
const END = "<!-- /章节索引 -->";

export function chapterIndex(): string {
  const rows = chapterDirs().map((chapter) => {
    const text = fs.readFileSync(path.join(CHAPTERS, chapter, "README.md"), "utf8");
    const title = text.match(/^# 第 \d+ 章 · (.+)$/m)?.[1] ?? chapter;
    const motto = text.match(/^> (.+)$/m)?.[1] ?? "";
    const section = text.match(/^## 改了哪些文件\n([\s\S]*?)(?=^## )/m)?.[1] ?? "";
    const files = [...section.matchAll(/^- `([^`]+)`(（新增）)?/gm)];
    const added = files.filter((m) => m[2]).map((m) => `\`${m[1]}\``);
    const changed = files.filter((m) => !m[2]).map((m) => `\`${m[1]}\``);
    const cell = [added.length ? `加 ${added.join(" ")}` : "", changed.length ? `改 ${changed.join(" ")}` : ""].filter(Boolean).join("；");
    return `| [${chapter.slice(0, 2)}](chapters/${chapter}/) | ${title} | ${motto.replaceAll("|", "\\|")} | ${cell} |`;
  });
  return [BEGIN, "| 章 | 讲什么 | 一句话 | 文件 |", "|---|---|---|---|", ...rows, END].join("\n");
}

// README 里两行标记之间的那一段
export function indexInReadme(readme: string): string | undefined {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + END.length);
}

// 重写根目录 README 的索引；返回给人看的一行
export function updateChapterIndex(): { ok: boolean; message: string } {
  const readme = fs.readFileSync(README, "utf8");
  const old = indexInReadme(readme);
  if (old === undefined) return { ok: false, message: `README.md 里没有索引的标记：先放上 ${BEGIN} 和 ${END} 两行` };
  const fresh = chapterIndex();
  if (fresh === old) return { ok: true, message: "章节索引已是最新" };
  fs.writeFileSync(README, readme.replace(old, () => fresh));
  return { ok: true, message: "重写了 README.md 的章节索引" };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { ok, message } = updateChapterIndex();
  (ok ? console.log : console.error)(message);
  if (!ok) process.exit(1);
}
