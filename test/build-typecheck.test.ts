// 类型检查（tsc -p .）也是 npm test 的一个测试文件：和转录同时跑，不再先单独占着一个核跑完才开始别的。
// 名字排在前面：node --test 按文件名排序开跑，它和最长的转录一起起步。
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { it } from "node:test";
import { typecheckSolutions } from "../scripts/typecheck.ts";
import { ROOT } from "../shared/scenario.ts";

it("tsc -p .：每一章、练习的检查器、时间服务器、脚本和测试都过类型检查", { timeout: 300_000 }, async () => {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", ROOT, "--pretty", "false"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, `类型检查没通过：\n${output}`);
});

// 练习答案只放改了的文件，tsc -p . 排除了它们：叠在各自那一章上的整份另查一遍。只在 test:all 里（快的一层里，
// 检查器已经真跑过每份答案；整份再查一遍类型要十几秒 CPU，随练习的个数涨）；npm run typecheck 也查它们
it("练习答案（叠在各自那一章上的整份）过类型检查", { timeout: 300_000, skip: process.env.LH_TIER === "quick" && "npm run test:all 才查" }, async () => {
  assert.equal(await typecheckSolutions(), null);
});
