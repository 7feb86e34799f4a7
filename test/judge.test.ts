// 一个裁判（shared/scenario.ts 的 judge、compareTranscripts）本身的行为：npm test、verify、检查器都靠它下结论。
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareTranscripts, judge, type RunResult } from "../shared/scenario.ts";

const clean: RunResult = { transcript: "好\n", exitCode: 0, requests: 1, bodies: [], records: [{ body: {}, status: 200 }], unusedTurns: [], timedOut: false, leftovers: [] };

describe("一个裁判", () => {
  it("肉眼分不出的字符：说出第几行第几个字符、两边的码位，附一段 diff", () => {
    const problem = compareTranscripts("第 06 章 / x", "[round 1] 读文件（a.txt）\n完成\n", "[round 1] 读文件(a.txt)\n完成\n", false)!;
    assert.match(problem, /第 1 行第 14 个字符不同：期望 “（” U\+FF08，实际 “\(” U\+0028/);
    assert.match(problem, /^- \[round 1\] 读文件（a\.txt）$/m);
    assert.match(problem, /^\+ \[round 1\] 读文件\(a\.txt\)$/m);
    assert.doesNotMatch(problem, /实际的完整输出/);
  });

  it("转录一样、别的都干净：没有问题", () => assert.deepEqual(judge("x", "好\n", clean), []));

  it("转录一样也不够：卡住、被拒绝的请求、没用上的轮、留下的进程各算一条", () => {
    const bad: RunResult = { ...clean, timedOut: true, records: [{ body: {}, status: 400, rejected: "第 2 轮检查失败" }], unusedTurns: [3], leftovers: ["123 sleep 300"] };
    const problems = judge("x", "好\n", bad);
    assert.equal(problems.length, 4);
    assert.match(problems.join("\n"), /时限/);
    assert.match(problems.join("\n"), /拒绝了第 1 次请求：第 2 轮检查失败/);
    assert.match(problems.join("\n"), /第 3 轮没有用到/);
    assert.match(problems.join("\n"), /123 sleep 300/);
  });
});
