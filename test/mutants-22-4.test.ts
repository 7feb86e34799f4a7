// 练习 22-4 的变异体：在参考答案的 mcp.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 说明的上限查不出来：发布的服务器的说明都不长，检查器只能看它没把 system prompt 撑爆。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { runRequirements } from "../exercises/checker.ts";
import { requirements } from "../exercises/22-4-real-server/check.ts";
import { ROOT } from "../shared/scenario.ts";

interface Mutant {
  name: string;
  from: string; // 参考答案 mcp.ts 里恰好出现一次的一段
  to: string;
  fails: string; // 该不通过的要求（名字的开头）
  because: RegExp;
}

const MUTANTS: Mutant[] = [
  {
    name: "声明了 roots，却不答 roots/list（提示 1）",
    from: ': message.method === "roots/list"',
    to: ': message.method === "roots/list-不答"',
    fails: "声明 roots 能力",
    because: /file:\/\//,
  },
  {
    name: "答得了 roots/list，却不在 capabilities 里声明（提示 1）：filesystem 服务器不会来问",
    from: "capabilities: offersRoots ? { roots: {} } : {},",
    to: "capabilities: {},",
    fails: "不给目录的 filesystem 服务器",
    because: /roots\/list/,
  },
  {
    name: "list_changed 只记了数，不重新列工具（提示 4）",
    from: "if (this.onToolsChanged) this.following = this.following.then(this.onToolsChanged);",
    to: "void this.onToolsChanged;",
    fails: "跟着 notifications/tools/list_changed",
    because: /mcp__shifty__vault/,
  },
  {
    name: "重新列了，只登记新的、不撤下旧的（提示 7）",
    from: "apply(names(before), own);",
    to: "apply([], own.filter((t) => !names(before).includes(t.definition().name)));",
    fails: "跟着 notifications/tools/list_changed",
    because: /没有 mcp__shifty__unlock/,
  },
  {
    name: "说明读到了，没交给 system prompt（提示 8）",
    from: "instructions: mcpInstructions(instructions),",
    to: 'instructions: "",',
    fails: "服务器的 instructions 写进 system prompt",
    because: /Server instructions are working/,
  },
];

const exercise = path.join(ROOT, "exercises", "22-4-real-server");
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-mutants-22-4-")));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function mutate(m: Mutant, index: number): string {
  const dir = path.join(tmp, `mutant-${index}`);
  fs.cpSync(path.join(exercise, "solution"), dir, { recursive: true });
  const file = path.join(dir, "mcp.ts");
  const text = fs.readFileSync(file, "utf8");
  const found = text.split(m.from).length - 1;
  assert.equal(found, 1, `参考答案的 mcp.ts 里应当恰好有一处 ${m.from}，实际 ${found} 处：答案改过了，这个变异体要跟着改`);
  fs.writeFileSync(file, text.replace(m.from, m.to));
  return dir;
}

describe("练习 22-4 的变异体：检查器一个也不放过", { concurrency: 3 }, () => {
  MUTANTS.forEach((m, index) => {
    it(`${m.name} → “${m.fails}…”不通过`, async () => {
      const requirement = requirements.find((r) => r.name.startsWith(m.fails));
      assert.ok(requirement, `check.ts 里没有以“${m.fails}”开头的要求`);
      const [outcome] = await runRequirements(exercise, [requirement], mutate(m, index));
      assert.ok(outcome!.problem, `检查器放过了这个变异体：“${requirement.name}”通过了\n${outcome!.transcript}`);
      assert.match(outcome!.problem, m.because, `“${requirement.name}”不通过，但说明里没有 ${m.because}：\n${outcome!.problem}`);
    });
  });
});
