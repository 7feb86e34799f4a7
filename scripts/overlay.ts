// 维护者用：npm run overlay [-- 22-1 …]：把练习答案里和底那一章一字不差的文件删掉，答案只剩它改了的文件和 README。
// 新写的练习可以先复制整章、改好，再跑它；合并、carry 之后再跑一遍也无妨（已经是覆盖的，什么也不删）。
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { baseChapter, trimToOverlay } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";

// 每个练习答案削一遍，返回报告的行
export function trimAll(root: string, only: string[] = []): string[] {
  const exercises = fs.readdirSync(path.join(root, "exercises")).sort().filter((e) => fs.existsSync(path.join(root, "exercises", e, "solution")));
  const lines: string[] = [];
  for (const e of exercises) {
    if (only.length > 0 && !only.some((o) => e === o || e.startsWith(o + "-"))) continue;
    const base = baseChapter(e, root);
    const removed = trimToOverlay(path.join(root, "exercises", e, "solution"), path.join(root, "chapters", base));
    if (removed.length > 0) lines.push(`exercises/${e}/solution：删掉 ${removed.length} 个和 chapters/${base} 一样的文件`);
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const lines = trimAll(ROOT, process.argv.slice(2));
  console.log(lines.length > 0 ? lines.join("\n") : "每个练习答案都已经只有它改了的文件");
}
