// 变异体测试的共同做法（test/mutants*.test.ts 用它）：参考答案复制一份，mcp-client.ts（或者别的文件）里改那一处——正是 HINTS.md 提醒过的错；
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。改坏的答案骗得过的检查器，什么也没检查。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { runRequirements, type Requirement } from "../exercises/checker.ts";
import { fullTree } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";

export interface Mutant {
  name: string; // 犯了什么错
  file?: string; // 改哪个文件，默认 mcp.ts（接线）；客户端在 mcp-client.ts，配置在 mcp-config.ts
  from: string | RegExp; // 参考答案那个文件里恰好出现一次的一段
  to: string;
  fails: string; // 该不通过的要求（名字的开头）
  because: RegExp; // 它的说明里该有的话
  // 这条要求要用同一次检查里先跑的几条要求量到的东西（比如 22-3 的“省下一半”要“关着时”那一条量的首轮输入）：
  // 它们的名字（开头），照 check.ts 里的顺序先跑，结果不看
  after?: string[];
}

export function mutantSuite(exerciseName: string, requirements: Requirement[], mutants: Mutant[], concurrency: number) {
  const exercise = path.join(ROOT, "exercises", exerciseName);
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-mutants-")));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // 那一段找不到或者不止一处，说明答案变了，变异体要跟着改
  function mutate(m: Mutant, index: number): string {
    const dir = path.join(tmp, `mutant-${index}`);
    fs.cpSync(fullTree(path.join(exercise, "solution")), dir, { recursive: true }); // 答案叠在第 22 章上的整份
    const file = path.join(dir, m.file ?? "mcp.ts");
    const text = fs.readFileSync(file, "utf8");
    const pattern = typeof m.from === "string" ? new RegExp(m.from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : new RegExp(m.from.source, "g");
    const found = text.match(pattern)?.length ?? 0;
    assert.equal(found, 1, `参考答案的 ${m.file ?? "mcp.ts"} 里应当恰好有一处 ${m.from}，实际 ${found} 处：答案改过了，这个变异体要跟着改`);
    fs.writeFileSync(file, text.replace(pattern, () => m.to));
    return dir;
  }

  describe(`练习 ${exerciseName.split("-").slice(0, 2).join("-")} 的变异体：检查器一个也不放过`, { concurrency }, () => {
    mutants.forEach((m, index) => {
      it(`${m.name} → “${m.fails}…”不通过`, async () => {
        const requirement = requirements.find((r) => r.name.startsWith(m.fails));
        assert.ok(requirement, `check.ts 里没有以“${m.fails}”开头的要求`);
        const before = (m.after ?? []).map((name) => requirements.find((r) => r.name.startsWith(name))!);
        const outcome = (await runRequirements(exercise, [...before, requirement], mutate(m, index))).at(-1);
        assert.ok(outcome!.problem, `检查器放过了这个变异体：“${requirement.name}”通过了\n${outcome!.transcript}`);
        assert.match(outcome!.problem, m.because, `“${requirement.name}”不通过，但说明里没有 ${m.because}：\n${outcome!.problem}`);
      });
    });
  });
}
