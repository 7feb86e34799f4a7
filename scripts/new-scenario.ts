// 维护者用的小工具：从一段 JSON 新建一个场景目录（scenario.json），再照它打印的命令录下 expected.txt。
// 用法：node --import tsx scripts/new-scenario.ts 06-tool-registry unknown-tool '{"args": [...], "turns": [...]}'
// 章目录写错了（没有这一章）、场景名在哪一章已经用过，都不写，说清楚为什么
import fs from "node:fs";
import path from "node:path";
import { FIXTURES, chapterDirs, findChapter } from "../shared/scenario.ts";

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

const [chapterArg, name, json] = process.argv.slice(2);
if (!chapterArg || !name || !json) refuse("用法: node --import tsx scripts/new-scenario.ts <章目录> <场景名> '<scenario.json 的内容>'");
const chapters = chapterDirs();
const chapter = chapters.includes(chapterArg) ? chapterArg : undefined;
if (!chapter) {
  const guess = findChapter(chapterArg) ?? closest(chapterArg, chapters);
  refuse(`没有 ${chapterArg} 这一章（要写 chapters/ 下的目录名）。是不是 ${guess}？`);
}
if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) refuse(`场景名 ${name} 只能用小写字母、数字和连字符，比如 unknown-tool`);
const used = chapters.find((c) => fs.existsSync(path.join(FIXTURES, c, name)));
if (used) refuse(`场景名 ${name} 已经用过了（shared/fixtures/${used}/${name}）：名字在所有章里必须唯一`);
let spec: unknown;
try {
  spec = JSON.parse(json);
} catch (e) {
  refuse(`scenario.json 的内容不是合法的 JSON：${e instanceof Error ? e.message : String(e)}`);
}
const dir = path.join(FIXTURES, chapter, name);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "scenario.json"), JSON.stringify(spec, null, 2) + "\n");
console.log(`已写入 ${path.relative(process.cwd(), dir)}/scenario.json`);
console.log(`录下来（在第 ${chapter.slice(0, 2)} 章和后面每一章上各跑一遍）：UPDATE=1 SCENARIO=${name} node --import tsx --test test/all-transcripts.test.ts`);

// 编辑距离最近的那一章：06-tool-registy → 06-tool-registry
function closest(word: string, candidates: string[]): string {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  return candidates.reduce((best, c) => (distance(word, c) < distance(word, best) ? c : best));
}
