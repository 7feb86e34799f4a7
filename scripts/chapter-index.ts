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

// ---- 练习的索引：根目录 README 一张表，每一章的 README 末尾列出它的练习。都从练习自己的 README（标题、格言）生成 ----

const EXERCISES = path.join(ROOT, "exercises");
const EX_BEGIN = "<!-- 练习索引：由 scripts/chapter-index.ts 从各练习的 README 生成 -->";
const EX_END = "<!-- /练习索引 -->";
const OWN_BEGIN = "<!-- 本章的练习：由 scripts/chapter-index.ts 从各练习的 README 生成 -->";
const OWN_END = "<!-- /本章的练习 -->";

interface Exercise {
  id: string; // 03-1
  dir: string; // 03-1-stall-timeout
  chapter: string; // 它做在哪一章上（目录名）
  title: string;
  motto: string;
}

export function exercises(): Exercise[] {
  const chapters = chapterDirs();
  return fs
    .readdirSync(EXERCISES)
    .filter((d) => /^\d\d-\d+-/.test(d) && fs.existsSync(path.join(EXERCISES, d, "README.md")))
    .sort()
    .map((dir) => {
      const text = fs.readFileSync(path.join(EXERCISES, dir, "README.md"), "utf8");
      const id = dir.split("-").slice(0, 2).join("-");
      const chapter = chapters.find((c) => c.slice(0, 2) === dir.slice(0, 2)) ?? chapters.at(-1)!;
      return { id, dir, chapter, title: text.match(/^# 练习 [\d-]+ · (.+)$/m)?.[1] ?? dir, motto: text.match(/^> (.+)$/m)?.[1] ?? "" };
    });
}

export function exerciseIndex(): string {
  const rows = exercises().map((e) => `| [${e.id}](exercises/${e.dir}/) | [${e.chapter.slice(0, 2)}](chapters/${e.chapter}/) | ${e.title.replaceAll("|", "\\|")} | ${e.motto.replaceAll("|", "\\|")} |`);
  return [EX_BEGIN, "| 练习 | 做在第几章 | 做什么 | 一句话 |", "|---|---|---|---|", ...rows, EX_END].join("\n");
}

// 一章 README 末尾的那一段；这一章没有练习就是 undefined
export function chapterExercises(chapter: string): string | undefined {
  const own = exercises().filter((e) => e.chapter === chapter);
  if (own.length === 0) return undefined;
  const lines = own.map((e) => `- [练习 ${e.id} · ${e.title}](../../exercises/${e.dir}/)：${e.motto}`);
  const check = `复制这一章（\`cp -r chapters/${chapter} play/my${chapter.slice(0, 2)}\`），在副本里做，\`npm run check -- ${own[0]!.id} play/my${chapter.slice(0, 2)}\` 检查。`;
  return [OWN_BEGIN, "## 加分练习", "", check, "", ...lines, OWN_END].join("\n");
}

export function between(text: string, begin: string, end: string): string | undefined {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  return start < 0 || stop < start ? undefined : text.slice(start, stop + end.length);
}

// 重写根目录 README 的练习表和各章 README 末尾的练习段；返回改了几个文件
export function updateExerciseIndexes(): string[] {
  const changed: string[] = [];
  const readme = fs.readFileSync(README, "utf8");
  const old = between(readme, EX_BEGIN, EX_END);
  if (old !== undefined && old !== exerciseIndex()) {
    fs.writeFileSync(README, readme.replace(old, () => exerciseIndex()));
    changed.push("README.md");
  }
  for (const chapter of chapterDirs()) {
    const file = path.join(CHAPTERS, chapter, "README.md");
    const text = fs.readFileSync(file, "utf8");
    const fresh = chapterExercises(chapter);
    const current = between(text, OWN_BEGIN, OWN_END);
    if (current === fresh) continue;
    const next = current === undefined ? `${text.trimEnd()}\n\n${fresh}\n` : fresh === undefined ? text.replace(`\n\n${current}`, "") : text.replace(current, () => fresh);
    fs.writeFileSync(file, next);
    changed.push(path.relative(ROOT, file));
  }
  return changed;
}

export const exerciseMarkers = { EX_BEGIN, EX_END, OWN_BEGIN, OWN_END };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { ok, message } = updateChapterIndex();
  (ok ? console.log : console.error)(message);
  const changed = updateExerciseIndexes();
  console.log(changed.length > 0 ? `重写了练习索引：${changed.join("、")}` : "练习索引已是最新");
  if (!ok) process.exit(1);
}
