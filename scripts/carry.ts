// 维护者用：把对某一章某个文件的修改带到后面各章。
// 后面哪一章的这个文件和本章“改之前”（git HEAD 里的版本）逐字节相同，就直接换成改好的版本；
// 不同的（那一章自己也改过这个文件），列出来，手工把同样的修改做进去。
// 用法：node --import tsx scripts/carry.ts 03 model.ts
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CHAPTERS, ROOT, chapterDirs, findChapter } from "../shared/scenario.ts";

const [arg, file] = process.argv.slice(2);
const from = arg ? findChapter(arg) : undefined;
if (!from || !file) {
  console.error("用法: node --import tsx scripts/carry.ts <章号> <章内文件路径>");
  process.exit(2);
}
const rel = path.join("chapters", from, file);
const before = execFileSync("git", ["show", `HEAD:${rel}`], { cwd: ROOT }).toString("utf8");
const after = fs.readFileSync(path.join(ROOT, rel), "utf8");
if (before === after) {
  console.error(`${rel} 和 HEAD 里的一样：先改好它再带过去`);
  process.exit(2);
}
for (const later of chapterDirs().filter((d) => d > from)) {
  const target = path.join(CHAPTERS, later, file);
  if (!fs.existsSync(target)) continue;
  const current = fs.readFileSync(target, "utf8");
  if (current === before) {
    fs.writeFileSync(target, after);
    console.log(`已带到 ${later}/${file}`);
  } else if (current !== after) {
    console.log(`要手工改 ${later}/${file}：这一章自己也改过它`);
  }
}
