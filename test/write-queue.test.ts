// 第 20 章起同一个文件的写要排队：路径检查必须和写放在同一个排队的任务里，轮到了才查。
// 要是调用一进来就查、查完再去排队，查和写之间就隔着排队的时间——同一轮里并发的 bash 正好能在这段时间里
// 把 docs/ 换成指向工作目录外的链接。场景造不出稳定的先后（要让 bash 恰好落在排队的那一段里），这里按构造来：
// 两个写同一个文件的调用同步地发出去，紧接着（还没有任何一个轮到）同步地把 docs/ 换成链接。
// 调用时就检查的写法会顺着链接写到外面去；轮到时才检查的写法看见路径变了，不写。
// 第 20 章以后各章和练习答案里的每一份 tools/edit.ts 都这样查一遍。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT } from "../shared/scenario.ts";

type Tool = { execute(args: string): Promise<string> };
const copies = [
  ...fs.readdirSync(CHAPTERS).filter((c) => Number(c.slice(0, 2)) >= 20).map((c) => path.join(CHAPTERS, c)),
  ...solutionTrees("tools/edit.ts"), // 改过它的练习答案（叠好的整份）
]
  .map((dir) => path.join(dir, "tools", "edit.ts"))
  .filter((file) => fs.existsSync(file));

const home = process.cwd();
after(() => process.chdir(home));

describe("排队的写：路径轮到时才检查", () => {
  for (const file of copies) {
    it(`${path.relative(ROOT, file)}：排队期间 docs/ 换成外面的链接，两个写都不写出去`, async () => {
      const { writeFileTool, editFileTool } = (await import(pathToFileURL(file).href)) as { writeFileTool: Tool; editFileTool: Tool };
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-queue-")));
      const work = path.join(tmp, "work");
      const outside = path.join(tmp, "outside");
      fs.mkdirSync(path.join(work, "docs"), { recursive: true });
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(work, "docs", "a.md"), "旧\n");
      fs.writeFileSync(path.join(outside, "a.md"), "旧\n");
      process.chdir(work);
      try {
        const pending = [
          writeFileTool.execute(JSON.stringify({ path: "docs/a.md", content: "甲\n" })),
          editFileTool.execute(JSON.stringify({ path: "docs/a.md", old_string: "旧", new_string: "乙" })),
        ];
        // 两个调用都还在排队（排队的任务最早也要到下一个微任务才开始）：这时把目录调包
        fs.renameSync(path.join(work, "docs"), path.join(work, "docs-old"));
        fs.symlinkSync(outside, path.join(work, "docs"));
        const results = await Promise.all(pending);
        assert.equal(fs.readFileSync(path.join(outside, "a.md"), "utf8"), "旧\n", `工作目录外的文件被改了；工具的结果：${results.join(" / ")}`);
        assert.deepEqual(fs.readdirSync(outside), ["a.md"], "工作目录外多出了文件");
        for (const r of results) assert.match(r, /^错误: .*docs\/a\.md/, "没写的调用要告诉模型为什么");
      } finally {
        process.chdir(home);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});
