// 维护者用：README 里从别处生成的两样东西，照着来源重写一遍。
// 一是各章 README 里 <!-- transcript: 场景 --> 下面的 ```text 代码块：换成那个场景在这一章生效的 expected.txt
// （UPDATE=1 重录以后跑它；测试 test/chapter-rules.test.ts 查的是同一件事）；二是根目录 README 的章节索引。
// 正文里引用的数字不会跟着变——跑完看一眼 git diff，手工改正文。npm run carry 合并完也会调它。
// 用法：npm run transcripts
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CHAPTERS, ROOT, chapterDirs, scenariosFor } from "../shared/scenario.ts";
import { updateChapterIndex, updateExerciseIndexes } from "./chapter-index.ts";

// 把一篇 README 里每个转录块的内容换成 expected(场景名)；找不到的（undefined）原样留着。
// 认法和 chapter-rules 测试一样：代码块外面的标记行，空行之后紧跟 ```text（围栏可以更长）
export function rewriteTranscriptBlocks(text: string, expected: (name: string) => string | undefined): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let fence = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    out.push(line);
    if (fence) {
      const t = line.trim();
      if (t.length >= fence.length && t === fence[0].repeat(t.length)) fence = "";
      continue;
    }
    const open = line.match(/^ {0,3}(`{3,}|~{3,})/);
    if (open) {
      fence = open[1];
      continue;
    }
    const name = line.trim().match(/^<!--\s*transcript:\s*(\S+?)\s*-->$/)?.[1];
    if (!name) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const head = lines[j]?.match(/^(`{3,})text\s*$/);
    let k = j + 1;
    while (head && k < lines.length && lines[k].trim() !== head[1]) k++;
    const body = name && head && k < lines.length ? expected(name) : undefined;
    if (body === undefined) continue; // 不是好好的一块，或者没有这个场景：测试会说，这里不猜
    out.push(...lines.slice(i + 1, j + 1));
    if (body !== "") out.push(...body.replace(/\n$/, "").split("\n"));
    out.push(lines[k]);
    i = k;
  }
  return out.join("\n");
}

// 场景在某一章生效的那份转录：本章的，或前面某章留下的（后面的章改写过就用改写）
function expectedIn(chapter: string, name: string): string | undefined {
  const applied = scenariosFor(chapter).find((a) => a.s.name === name);
  const file = applied && path.join(applied.expectedDir, "expected.txt");
  return file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}

// 重写各章 README 的转录块，返回改了的文件（相对仓库根）
export function syncTranscripts(): string[] {
  const changed: string[] = [];
  for (const chapter of chapterDirs()) {
    const file = path.join(CHAPTERS, chapter, "README.md");
    if (!fs.existsSync(file)) continue;
    const before = fs.readFileSync(file, "utf8");
    const after = rewriteTranscriptBlocks(before, (name) => expectedIn(chapter, name));
    if (after === before) continue;
    fs.writeFileSync(file, after);
    changed.push(path.relative(ROOT, file));
  }
  return changed;
}

// 转录块和章节索引一起重写；返回给人看的几行
export function regenerate(): string[] {
  const changed = syncTranscripts();
  const index = updateChapterIndex();
  const exercises = updateExerciseIndexes();
  return [changed.length ? `重写了转录块：${changed.join(" ")}` : "README 的转录块已是最新", index.message, exercises.length ? `重写了练习索引：${exercises.join(" ")}` : "练习索引已是最新"];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of regenerate()) console.log(line);
}
