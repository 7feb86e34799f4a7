// bench/ 的基准脚本：每个都用 --quick 跑一遍，免得它们跟着第 22 章的改动悄悄坏掉。
// 这里从不断言耗时（测试机上的时间什么也说明不了），只看脚本跑通、完整性检查通过。
// 真正的测量是 npm run bench。
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { BENCH, ROOT, SCRIPTS } from "../bench/lib.ts";

function runQuick(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", path.join(BENCH, `${script}.ts`), "--quick"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("基准脚本（quick 模式跑一遍）", () => {
  it("npm run bench 的脚本表里有 bench/ 下的每一个基准", () => {
    const onDisk = fs
      .readdirSync(BENCH)
      .filter((f) => f.endsWith(".ts") && !["lib.ts", "run.ts", "limits.ts"].includes(f)) // limits.ts 读测试的输出，不是基准
      .map((f) => f.slice(0, -3))
      .sort();
    assert.deepEqual([...SCRIPTS].sort(), onDisk);
  });

  for (const script of SCRIPTS) {
    it(`bench/${script}.ts --quick 跑通，完整性检查全过`, { timeout: 180_000 }, async () => {
      const { code, output } = await runQuick(script);
      assert.equal(code, 0, output);
      assert.doesNotMatch(output, /完整性检查失败/, output);
      assert.match(output, /^== /m, "应该打印出测量的标题");
      if (script === "large") assert.match(output, /32 MiB 结果（第 22 章）逐字节一致 —— 1\/1 次一致 ✓/, output);
      if (script === "tokens") assert.match(output, /合计\s+16\s+\d+/, "实验二的 16 个 MCP 工具都数到了");
    });
  }
});
