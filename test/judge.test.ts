// 一个裁判（shared/scenario.ts 的 judge、compareTranscripts）本身的行为：npm test、verify、检查器都靠它下结论。
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareTranscripts, comparable, judge, listScenarios, scenariosFor, type Applied, type RunResult } from "../shared/scenario.ts";

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

  // 继承来的运行：第 05 章的场景跑在第 13 章上，会话行、用量行是后来的章给每份转录添上的，token 数跟着 tools 数组变
  it("继承来的运行只比行为：添上的会话行、用量行放在一边，token 数比形状，别的照样逐字比", () => {
    const a = scenariosFor("13-usage-and-cache").find((x) => x.s.chapter === "05-first-tool")!;
    assert.ok(a && !a.own);
    const view = comparable(a);
    const origin = "[tool] read_file\n答案\n";
    const later = "[round 1 输入 612 tokens，命中缓存 0]\n[tool] read_file\n答案\n[共 1 轮 · 最后一轮输入 612 tokens（命中缓存 0）· finish_reason=stop]\n[会话已保存：用 --resume $SESSION 接着聊]\n";
    assert.equal(view(origin), view(later));
    assert.notEqual(view(origin), view(later.replace("答案", "答错")), "内容不同照样不同");
    // 出自第 13 章的场景跑在第 14 章上：用量行留着，只有数字比形状；轮数不同照样不同
    const b: Applied = { ...scenariosFor("14-output-budget").find((x) => x.s.chapter === "13-usage-and-cache")! };
    const own = comparable(b);
    assert.equal(own("[round 1 输入 612 tokens，命中缓存 0]\n"), own("[round 1 输入 640 tokens，命中缓存 512]\n"));
    assert.notEqual(own("[共 1 轮 · 最后一轮输入 612 tokens（命中缓存 0）· finish_reason=stop]\n"), own("[共 2 轮 · 最后一轮输入 612 tokens（命中缓存 0）· finish_reason=stop]\n"));
    assert.notEqual(own("[round 1 输入 612 tokens，命中缓存 0]\n"), own(""), "出自第 13 章的场景，用量行不能少");
    // 场景出自的那一章：每个字符、每个数字都比
    const mine = scenariosFor("13-usage-and-cache").find((x) => x.own)!;
    assert.notEqual(comparable(mine)("输入 612 tokens"), comparable(mine)("输入 640 tokens"));
    assert.ok(listScenarios("13-usage-and-cache").length > 0);
  });
});
