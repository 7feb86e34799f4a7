// 维护者用：UPDATE=1 重写了 expected.txt 以后，把各章 README 里 <!-- transcript: 场景 --> 下面的代码块换成新的转录。
// 正文里引用的数字不会跟着变——跑完看一眼 git diff，手工改正文。
import fs from "node:fs";
import path from "node:path";
import { CHAPTERS, chapterDirs, scenariosFor } from "../shared/scenario.ts";

for (const chapter of chapterDirs()) {
  const file = path.join(CHAPTERS, chapter, "README.md");
  if (!fs.existsSync(file)) continue;
  const before = fs.readFileSync(file, "utf8");
  const after = before.replace(/(<!-- transcript: ([\w-]+) -->\s*\n```text\n)[\s\S]*?\n```/g, (all, head: string, name: string) => {
    // 本章的场景，或前面某章留下、在本章接着跑的：用它在本章生效的那份转录
    const applied = scenariosFor(chapter).find((a) => a.s.name === name);
    const expected = applied && path.join(applied.expectedDir, "expected.txt");
    return expected && fs.existsSync(expected) ? head + fs.readFileSync(expected, "utf8") + "```" : all;
  });
  if (after !== before) {
    fs.writeFileSync(file, after);
    console.log(`更新了 ${path.relative(process.cwd(), file)}`);
  }
}
