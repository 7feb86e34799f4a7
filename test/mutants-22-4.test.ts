// 练习 22-4 的变异体：在参考答案的 mcp*.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// README、HINTS 里有、这里没有变异体的几句，和原因：
// - “列的时候它又变了，就再列一次，设个上限”（提示 6）：参考答案有两道——listFresh() 列完看计数，followChanges() 又补上列完到接好之间漏掉的那次，
//   改一处不露馅；上限要一个说个不停的服务器，这里没有。
// - “名字规则、查重、wrap 都和启动时一样”：启动时和重新列走的是同一个 adopt()，改一处两边一起坏，由首轮的检查抓。
// - “工作目录不会变，不用 listChanged”：服务器看不出我们声明了什么多余的东西。
// - “按服务名排好”“--resume 沿用存下的 system prompt”：场景里只有一个服务器给了说明，每个场景只跑一次，看不出来。
// - 说明“标明出自哪个服务器、出自服务器作者而不是用户”，工具变了和说明进了 prompt 各打“一行账”：这些是措辞，检查器不比措辞。
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
  {
    name: "URI 用字符串拼（\"file://\" + cwd），空格、#、? 没转义（提示 2）",
    from: "client.roots = offersRoots ? [{ uri: root.href, name: path.basename(cwd) }] : [];",
    to: 'client.roots = offersRoots ? [{ uri: "file://" + cwd, name: path.basename(cwd) }] : [];',
    fails: "声明 roots 能力",
    because: /q1%20notes%23draft%3F/,
  },
  {
    name: "不分青红皂白地把工作目录交给每个服务器，命令行给了目录的也给（提示 3：roots 是授权）",
    from: "const offersRoots = !config.args.some(",
    to: "const offersRoots = true || !config.args.some(",
    fails: "roots 是授权",
    because: /work\/docs/,
  },
  {
    name: "调用的结果不等重新列完就交回（提示 5：shifty 过 1 秒才答新的清单）",
    file: "mcp-tools.ts",
    from: "await this.client.settled();",
    to: "",
    fails: "跟着 notifications/tools/list_changed",
    because: /mcp__shifty__vault/,
  },
  {
    name: "重新列时不先从查重的名字集合里拿掉它原来的名字（提示 7）：echo 被当成重名跳过",
    from: "for (const name of names(before)) used.delete(name);",
    to: "",
    fails: "跟着 notifications/tools/list_changed",
    because: /echo/,
  },
  {
    name: "说明不设上限（README 第 3 条）",
    from: "const kept = body.length > MAX_INSTRUCTIONS ?",
    to: "const kept = body.length < 0 ?",
    fails: "说明有上限",
    because: /10 万字/,
  },
];

mutantSuite("22-4-real-server", requirements, MUTANTS, 3);
