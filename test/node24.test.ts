// 每一章都只用可擦除的 TypeScript，所以在 Node ≥ 22.18 上不需要 tsx，`node main.ts` 就能跑。
// 这里拿一个真的 Node 24（scripts/fetch-node24.sh 取到 .cache/node24/）把每章的演示场景跑一遍，由同一个裁判判定。
// （每章继承来的场景也用它跑，见 test/transcripts.test.ts；第 01 章没有继承来的，靠这里。）
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, ROOT, chapterDirs, expectedPath, hasTerminalTool, judge, listScenarios, runScenario } from "../shared/scenario.ts";

const node24 = path.join(ROOT, ".cache", "node24", "bin", "node");
const skip = fs.existsSync(node24) ? false : "没有 .cache/node24/bin/node：先跑 scripts/fetch-node24.sh（.ci/run 会跑）";

describe("Node 24 直接跑（类型擦除，不经过 tsx）", { concurrency: 3 }, () => {
  for (const chapter of chapterDirs()) {
    const demo = listScenarios(chapter).find((s) => s.spec.demo) ?? listScenarios(chapter)[0];
    if (!demo) continue;
    const needsTerminal = demo.spec.tty && !hasTerminalTool();
    it(`${chapter} / ${demo.name}`, { skip: skip || (needsTerminal ? "要 util-linux 的 script" : false) }, async () => {
      const result = await runScenario(demo, path.join(CHAPTERS, chapter), { node: node24 });
      const problems = judge(`${chapter} / ${demo.name} [node 24]`, fs.readFileSync(expectedPath(demo), "utf8"), result);
      if (problems.length > 0) assert.fail(problems.join("\n\n"));
    });
  }
});
