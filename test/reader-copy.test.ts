// 照 README 敲出来的副本由 verify 按行为评判，措辞只是一条注（issue 30 的“做完了”）：只跑第 18 章自己的场景，三份副本——
// 用 README 里的原话敲的，第一次就全过、没有注；改了一句描述的，照样全过，注里点名那句描述；行为错了的，照旧失败，
// 报的是和逐字比时一样的第一处不同。
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, type TestContext } from "node:test";
import { CHAPTERS, ROOT } from "../shared/scenario.ts";
import { firstRequestDifference, wordingNotes } from "../shared/wording.ts";

const TSX = import.meta.resolve("tsx");
const CHAPTER = path.join(CHAPTERS, "18-sub-agent");
const README = fs.readFileSync(path.join(CHAPTER, "README.md"), "utf8");
// README 里给出的 sub_agent 描述原话（“sub_agent：……”那一行）
const DESCRIPTION = README.match(/^sub_agent：(.+)$/m)?.[1];

function copyOf(t: TestContext, edit: (file: string, text: string) => string = (_f, text) => text): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-copy-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const copy = path.join(dir, "my18");
  fs.cpSync(CHAPTER, copy, { recursive: true });
  for (const file of ["main.ts", "tools/sub-agent.ts"]) {
    const at = path.join(copy, file);
    fs.writeFileSync(at, edit(file, fs.readFileSync(at, "utf8")));
  }
  return copy;
}

function verify(copy: string, ...flags: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", TSX, path.join(ROOT, "scripts", "verify.ts"), "18", copy, "--own", ...flags], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), LANG: "C.UTF-8" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

describe("照第 18 章的 README 敲的副本：verify --own 看行为，措辞是注", { timeout: 300_000 }, () => {
  it("README 里给出了 sub_agent 描述的原话，书上的代码用的就是它", () => {
    assert.ok(DESCRIPTION, "第 18 章 README 里找不到“sub_agent：……”那一行");
    assert.ok(fs.readFileSync(path.join(CHAPTER, "tools", "sub-agent.ts"), "utf8").includes(`description: "${DESCRIPTION}"`));
  });

  it("用 README 的原话敲的：第一次就全过，没有注", async (t) => {
    const { code, output } = await verify(copyOf(t));
    assert.equal(code, 0, output);
    assert.match(output, /第 18 章：\d+ 个通过，0 个失败/);
    assert.doesNotMatch(output, /注：/);
  });

  it("改了一句描述：照样全过，注里点名那句描述、差几个字；--exact 逐数比就不过", async (t) => {
    const copy = copyOf(t, (file, text) => (file === "tools/sub-agent.ts" ? text.replace(DESCRIPTION!, DESCRIPTION!.replace("返回它最后的汇报。", "最后把它的汇报交回来。")) : text));
    const loose = await verify(copy);
    assert.equal(loose.code, 0, loose.output);
    assert.match(loose.output, /注：token 数和书上不同，只比了形状/);
    assert.match(loose.output, /sub_agent 的描述比书上多 2 个字：书上 “…[^”]*返回它最后的汇报。”，你的 “…[^”]*最后把它的汇报交回来。”/);
    assert.match(loose.output, /第 18 章：(\d+) 个通过（其中 \1 个的 token 数和书上不同/);
    const exact = await verify(copy, "--exact");
    assert.equal(exact.code, 1, exact.output);
    assert.match(exact.output, /第 1 行第 \d+ 个字符不同：期望 “\d” U\+003\d，实际 “\d” U\+003\d/);
  });

  it("行为错了（子 agent 拿到的不是快照）：照旧失败，第一处不同和逐字比时一样", async (t) => {
    const copy = copyOf(t, (file, text) => (file === "main.ts" ? text.replace("registry: registry.snapshot()", "registry") : text));
    const { code, output } = await verify(copy);
    assert.equal(code, 1, output);
    assert.match(output, /✗ delegate \[deepseek\]\n.*\n    转录：第 3 行第 1 个字符不同：期望 “ ” U\+0020，实际 “错” U\+9519\n      期望:   │ \[round 1 输入 594 tokens，命中缓存 448\]/);
    assert.match(output, /脚本模型拒绝了第 2 次请求：第 2 轮检查失败：tools 应为 \["read_file","bash","write_file","edit_file"\]，实际是 \["read_file","bash","write_file","edit_file","sub_agent"\]/);
  });
});

// 注是怎么写出来的：两边的请求体放在一起比
describe("wordingNotes：副本的措辞和书上差在哪", () => {
  const tool = (name: string, description: string, task = "完整的任务说明") => ({
    type: "function",
    function: { name, description, parameters: { type: "object", properties: { task: { type: "string", description: task } } } },
  });
  const body = (system: string, ...tools: object[]) => ({ messages: [{ role: "system", content: system }, { role: "user", content: "你好" }], tools });
  const book = [body("你是助手。\n工作目录：/w", tool("sub_agent", "派一个子 agent。"))];

  it("一样：没有注", () => assert.deepEqual(wordingNotes(book, book), []));

  it("system prompt 说是第几行，描述说多了几个字，参数描述也算", () => {
    const copy = [body("你是助手。\n工作目录在：/w", tool("sub_agent", "派一个子 agent 去做。", "任务"))];
    assert.deepEqual(wordingNotes(book, copy), [
      "sub_agent 的描述比书上多 3 个字：书上 “派一个子 agent。”，你的 “派一个子 agent 去做。”",
      "sub_agent 的参数 task 的描述比书上少 5 个字：书上 “完整的任务说明”，你的 “任务”",
      "system prompt 的第 2 行比书上多 1 个字：书上 “工作目录：/w”，你的 “工作目录在：/w”",
    ]);
  });

  it("少了、多了一个工具；描述一样、声明的写法不同", () => {
    assert.deepEqual(wordingNotes(book, [body("你是助手。\n工作目录：/w", tool("todo", "记下来。"))]), [
      "书上的请求里有 sub_agent 的描述，你的没有",
      "书上的请求里有 sub_agent 的参数 task 的描述，你的没有",
      "你的请求里多了 todo 的描述：“记下来。”",
      "你的请求里多了 todo 的参数 task 的描述：“完整的任务说明”",
    ]);
    const reordered = { type: "function", function: { description: "派一个子 agent。", name: "sub_agent", parameters: tool("sub_agent", "").function.parameters } };
    assert.deepEqual(wordingNotes(book, [body("你是助手。\n工作目录：/w", reordered)]), ["sub_agent 的声明写法和书上不同（描述都一样：是字段的顺序，或者多了少了字段）"]);
  });

  it("措辞都一样：说第一处不同的请求内容", () => {
    const copy = [{ ...book[0], messages: [book[0].messages[0], { role: "user", content: "您好" }] }];
    assert.match(firstRequestDifference(book, copy)!, /^第 1 次请求的第 2 条消息（user）和书上一样长、措辞不同：书上 “你好.*”，你的 “您好.*”$/);
  });
});
