// 每一章 × 每一个场景 × 每一种服务商形状：真的跑一遍，转录必须和 expected.txt 一字不差。
// UPDATE=1 npm test 会重写 expected.txt——评审时像看代码一样看它的 diff。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, chapterDirs, compareTranscripts, expectedFor, expectedPath, hasTerminalTool, listScenarios, profilesOf, runScenario } from "../shared/scenario.ts";

const update = process.env.UPDATE === "1";
const only = process.env.CHAPTER; // CHAPTER=06 只跑这一章

// UPDATE 模式下，其余服务商的转录拿来和第一家刚生成的比，而不是和旧文件比
const firstRuns = new Map<string, Promise<string>>();
const terminal = hasTerminalTool();

describe("转录", { concurrency: 4 }, () => {
  for (const chapter of chapterDirs()) {
    if (only && !chapter.startsWith(only.padStart(2, "0"))) continue;
    const scenarios = listScenarios(chapter);
    it(`${chapter} 至少有一个场景`, () => assert.ok(scenarios.length > 0, `shared/fixtures/${chapter}/ 下没有场景`));
    for (const s of scenarios) {
      profilesOf(s).forEach((profile, i) => {
        const skip = s.spec.tty && !terminal ? "这个场景要在伪终端里跑，需要 util-linux 的 script 命令" : false;
        it(`${chapter} / ${s.name} [${profile}]`, { skip }, async () => {
          const running = runScenario(s, path.join(CHAPTERS, chapter), { profile });
          if (update && i === 0) firstRuns.set(s.dir, running.then((r) => r.transcript));
          const result = await running;
          if (update) {
            // 第一家写 expected.txt；别家和它一样就不单独记，不一样就写 expected.<服务商>.txt
            const first = await firstRuns.get(s.dir)!;
            if (i === 0) fs.writeFileSync(expectedPath(s), result.transcript);
            else if (result.transcript === first) fs.rmSync(expectedPath(s, profile), { force: true });
            else fs.writeFileSync(expectedPath(s, profile), result.transcript);
            return;
          }
          const file = expectedFor(s, profile);
          assert.ok(fs.existsSync(file), `${path.relative(process.cwd(), file)} 不存在：先跑 UPDATE=1 npm test 生成它`);
          const expected = fs.readFileSync(file, "utf8");
          const problem = compareTranscripts(`${chapter} / ${s.name} [${profile}]`, expected, result.transcript);
          if (problem) assert.fail(problem);
          assert.deepEqual(result.leftovers, [], "harness 退出后不该留下任何进程");
          if (s.spec.model !== "refused" && s.spec.turns.length === 0) {
            assert.equal(result.requests, 0, "这个场景不该发出任何请求");
          }
        });
      });
    }
  }
});
