// 类型检查（tsc -p .）也是 npm test 的一个测试文件：和转录同时跑，不再先单独占着一个核跑完才开始别的。
// 名字排在前面：node --test 按文件名排序开跑，它和最长的转录一起起步。
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { typecheckSolutions } from "../scripts/typecheck.ts";
import { ROOT, chapterDirs } from "../shared/scenario.ts";

// 快的一层（npm test）只查书的最终状态：最后一章、共用的代码、脚本、测试、练习的检查器、时间服务器（测试引到的前面各章的文件也跟着查）；
// 前面每一章的快照都过类型检查由 test:all 证明（tsc -p . 查全部，多花一倍的 CPU）。npm run typecheck 也是全部
const quick = process.env.LH_TIER === "quick";
it(quick ? "tsc：最后一章、共用的代码、脚本、测试和练习的检查器过类型检查（每一章都查在 test:all 里）" : "tsc -p .：每一章、练习的检查器、时间服务器、脚本和测试都过类型检查", { timeout: 300_000 }, async () => {
  const project = quick ? quickProject() : ROOT;
  try {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project, "--pretty", "false"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.equal(code, 0, `类型检查没通过：\n${output}`);
  } finally {
    if (project !== ROOT) fs.rmSync(project, { force: true });
  }
});

// 仓库的 tsconfig.json，只把 include 里的各章换成最后一章
function quickProject(): string {
  const last = chapterDirs().at(-1)!;
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8"));
  const include = (config.include as string[]).map((p) => (p === "chapters/**/*.ts" ? `chapters/${last}/**/*.ts` : p));
  const file = path.join(ROOT, `tsconfig.quick-${process.pid}.json`); // 和 tsconfig.json 同一层：include 里的相对路径照旧
  fs.writeFileSync(file, JSON.stringify({ extends: "./tsconfig.json", include }));
  return file;
}

// 练习答案只放改了的文件，tsc -p . 排除了它们：叠在各自那一章上的整份另查一遍。只在 test:all 里（快的一层里，
// 检查器已经真跑过每份答案；整份再查一遍类型要十几秒 CPU，随练习的个数涨）；npm run typecheck 也查它们
it("练习答案（叠在各自那一章上的整份）过类型检查", { timeout: 300_000, skip: process.env.LH_TIER === "quick" && "npm run test:all 才查" }, async () => {
  assert.equal(await typecheckSolutions(), null);
});
