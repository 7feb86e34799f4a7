// 练习 22-4 的变异体：在参考答案的 mcp*.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 说明的上限查不出来：发布的服务器的说明都不长，检查器只能看它没把 system prompt 撑爆。
import { requirements } from "../exercises/22-4-real-server/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "声明了 roots，却不答 roots/list（提示 1）",
    file: "mcp-client.ts",
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
    file: "mcp-client.ts",
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

mutantSuite("22-4-real-server", requirements, MUTANTS, 3);
