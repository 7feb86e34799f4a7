// 维护者用：UPDATE=1 重写了 expected.txt 以后，把各章 README 里 <!-- transcript: 场景 --> 下面的代码块换成新的转录。
// 正文里引用的数字不会跟着变——跑完看一眼 git diff，手工改正文。
import fs from "node:fs";
import path from "node:path";
import { CHAPTERS, FIXTURES, chapterDirs } from "../shared/scenario.ts";

for (const chapter of chapterDirs()) {
  const file = path.join(CHAPTERS, chapter, "README.md");
  if (!fs.existsSync(file)) continue;
  const before = fs.readFileSync(file, "utf8");
  const after = before.replace(/(<!-- transcript: ([\w-]+) -->\s*\n```text\n)[\s\S]*?\n```/g, (all, head: string, name: string) => {
    const expected = path.join(FIXTURES, chapter, name, "expected.txt");
    return fs.existsSync(expected) ? head + fs.readFileSync(expected, "utf8") + "```" : all;
  });
  if (after !== before) {
    fs.writeFileSync(file, after);
    console.log(`更新了 ${path.relative(process.cwd(), file)}`);
  }
}
