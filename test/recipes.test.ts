// CONTRIBUTING.md 的配方是可执行的：每个配方 bash 代码块里的命令，在 git clone --local 出来的干净副本上（node_modules 链回来）
// 一条条照跑，只把配方的例子换成这里编的小修改、小场景、小输出行。配方里的命令改了名、换了参数、少了一步，这里就不通过。
// 只在 npm run test:all 里跑（每个配方要录场景、做类型检查，几分钟）。
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { ROOT } from "../shared/scenario.ts";

const CONTRIBUTING = fs.readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8");
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-recipes-")));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

// 配方 n 那一节（到下一个二级标题为止）里 bash 代码块的命令：去掉注释和空行；单引号没合上的接着下一行（一段 JSON 写成几行）
function commandsOf(n: number): string[] {
  const start = CONTRIBUTING.indexOf(`## 配方 ${n}`);
  assert.ok(start >= 0, `CONTRIBUTING.md 里没有「配方 ${n}」`);
  const end = CONTRIBUTING.indexOf("\n## ", start + 1);
  const section = CONTRIBUTING.slice(start, end < 0 ? undefined : end);
  const commands: string[] = [];
  let open = "";
  for (const raw of [...section.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n"))) {
    const line = open ? raw.trim() : raw.replace(/\s+#\s.*$/, "").trim();
    if (!open && (!line || line.startsWith("#"))) continue;
    open = open ? `${open} ${line}` : line;
    if ((open.match(/'/g)?.length ?? 0) % 2 === 0) {
      commands.push(open);
      open = "";
    }
  }
  return commands;
}

// 干净的副本：仓库 HEAD，node_modules 链回来（npm ci 要十几秒，装的东西一样）
function clone(name: string): string {
  const dir = path.join(scratch, name);
  execFileSync("git", ["clone", "-q", "--local", ROOT, dir], { stdio: "pipe" });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  fs.appendFileSync(path.join(dir, ".git", "info", "exclude"), "node_modules\n"); // .gitignore 的 node_modules/ 不管符号链接
  for (const [k, v] of [["user.name", "recipes"], ["user.email", "recipes@example.com"], ["commit.gpgsign", "false"]]) execFileSync("git", ["config", k, v], { cwd: dir });
  return dir;
}

// 跑一条配方里的命令；不是 0 就把输出的结尾附在失败说明里
function run(dir: string, command: string, expect = 0): string {
  const env: NodeJS.ProcessEnv = { ...process.env, CONCURRENCY: "2" };
  for (const k of ["UPDATE", "SCENARIO", "CHAPTER", "OWN", "LH_TIER", "NODE_TEST_CONTEXT"]) delete env[k];
  const r = spawnSync("bash", ["-c", command], { cwd: dir, env, encoding: "utf8", maxBuffer: 64 << 20 });
  const output = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, expect, `配方里的命令退出码 ${r.status}（期望 ${expect}）：${command}\n${output.split("\n").slice(-40).join("\n")}`);
  return output;
}

// 把配方的例子换成我们编的；用不上的命令（只有撞上冲突才跑的、全量的 npm test）写明为什么跳过
function adapt(commands: string[], swaps: [string, string][], skip: Record<string, string>): string[] {
  for (const c of Object.keys(skip)) assert.ok(commands.includes(c), `配方里已经没有「${c}」了：配方改了，这个测试要跟着改`);
  return commands.filter((c) => !(c in skip)).map((c) => swaps.reduce((text, [from, to]) => text.replaceAll(from, to), c));
}

const pick = (commands: string[], prefix: string) => {
  const found = commands.filter((c) => c.startsWith(prefix));
  assert.equal(found.length, 1, `配方里应当恰好有一条以「${prefix}」开头的命令，实际 ${found.length} 条：${commands.join(" | ")}`);
  return found[0];
};

// 编的场景：第 21 章上一问一答，没有工具；只在第 21、22 章上跑，录得快
const HELLO = JSON.stringify({ description: "配方测试编的场景：一问一答", args: ["你好"], turns: [{ content: "你好，配方。" }] });

describe("CONTRIBUTING.md 的配方在干净的副本上照做得通", { concurrency: 1 }, () => {
  it("配方 2：加一个场景（new-scenario 打印的录制命令就是配方里写的那条）", () => {
    const dir = clone("recipe-2");
    const commands = adapt(commandsOf(2), [["07-bash", "21-workflow"], ["-- 07 ", "-- 21 "], ["名字", "recipe-hello"], ["'<JSON>'", `'${HELLO}'`]], {});
    const created = run(dir, pick(commands, "node --import tsx scripts/new-scenario.ts"));
    const record = pick(commands, "UPDATE=1 SCENARIO=");
    assert.ok(created.includes(record), `new-scenario 打印的录制命令和配方写的不一样：\n${created}`);
    run(dir, record);
    assert.ok(fs.existsSync(path.join(dir, "shared/fixtures/21-workflow/recipe-hello/expected.txt")), "录完应当有 expected.txt");
    const status = run(dir, pick(commands, "git status --short shared/fixtures"));
    assert.equal(status.trim(), "?? shared/fixtures/21-workflow/recipe-hello/", "只多出本章的这一个目录");
    // 第 6 步：在本章 README 的「测试会检查什么」里点名
    const readme = path.join(dir, "chapters/21-workflow/README.md");
    fs.writeFileSync(readme, fs.readFileSync(readme, "utf8").replace("## 测试会检查什么\n\n", "## 测试会检查什么\n\n- `recipe-hello` — 一问一答。\n"));
    for (const c of commands.filter((c) => c.startsWith("npm run verify") || c.includes("chapter-rules"))) run(dir, c);
  });

  it("配方 2：章目录拼错、名字用过了，new-scenario 都不写", () => {
    const dir = clone("recipe-2-refuse");
    const template = pick(commandsOf(2), "node --import tsx scripts/new-scenario.ts");
    const typo = run(dir, template.replace("07-bash", "21-workfow").replace("名字", "x").replace("'<JSON>'", `'${HELLO}'`), 2);
    assert.match(typo, /是不是 21-workflow/);
    run(dir, template.replace("07-bash", "21-workflow").replace("名字", "invalid-graph").replace("'<JSON>'", `'${HELLO}'`), 2);
    assert.equal(run(dir, "git status --short").trim(), "");
  });

  it("配方 1：修一个带着走的文件（第 21 章的 tools/workflow.ts 加一行注释），carry 进第 22 章，答案没有它就跟着第 22 章", () => {
    const dir = clone("recipe-1");
    const file = path.join(dir, "chapters/21-workflow/tools/workflow.ts");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.splice(5, 0, "// 配方测试编的一处小修");
    fs.writeFileSync(file, lines.join("\n"));
    const commands = adapt(
      commandsOf(1).filter((c) => !c.startsWith("node --import tsx scripts/new-scenario.ts 07-bash timeout-as-string")), // 新场景归配方 2 的测试管
      [["07 tools/bash.ts", "21 tools/workflow.ts"], ["timeout-as-string", "invalid-graph"], [" test/exercises.test.ts", ""]],
      {
        "npm run carry -- 12 tools/bash.ts": "只有撞上冲突才要从那一章接着带",
        "npm test": "全量测试：这个测试本身就在 npm run test:all 里",
      },
    );
    for (const c of commands) {
      const out = run(dir, c);
      if (c.startsWith("npm run carry") && !c.includes("--dry-run")) {
        assert.match(out, /chapters\/22-mcp-client\/tools\/workflow\.ts +合并干净/);
        assert.match(out, /exercises\/22-1-call-timeout\/solution\/tools\/workflow\.ts +答案没改这个文件，跟着它那一章/);
      }
    }
    assert.ok(fs.readFileSync(path.join(dir, "chapters/22-mcp-client/tools/workflow.ts"), "utf8").includes("配方测试编的一处小修"));
    assert.equal(fs.existsSync(path.join(dir, "exercises/22-1-call-timeout/solution/tools/workflow.ts")), false, "答案是覆盖：carry 不往里复制它没改的文件");
  });

  it("配方 3：改一行输出（第 21 章的“工作流没有执行”），重录、README、readme-messages 都照配方走", () => {
    const dir = clone("recipe-3");
    const [from, to] = ["工作流没有执行", "工作流一步也没有执行"];
    const file = path.join(dir, "chapters/21-workflow/tools/workflow.ts");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(from, to));
    const commands = adapt(
      commandsOf(3),
      [["再按一次 Ctrl-C 退出", from], [/SCENARIO=[\w,-]+/.exec(commandsOf(3).find((c) => c.startsWith("UPDATE=1 SCENARIO="))!)![0], "SCENARIO=invalid-graph"]],
      {},
    );
    run(dir, "npm run carry -- 21 tools/workflow.ts"); // 第 1 步（正文里的命令）
    const found = run(dir, pick(commands, "grep -rlF"), 0).trim().split("\n");
    assert.ok(found.includes("shared/fixtures/21-workflow/invalid-graph/expected.txt"), found.join("\n"));
    run(dir, pick(commands, "UPDATE=1 SCENARIO="));
    run(dir, pick(commands, "npm run transcripts"));
    // 第 5 步：README 正文里的旧说法手改
    for (const readme of found.filter((f) => f.endsWith("README.md"))) {
      const p = path.join(dir, readme);
      fs.writeFileSync(p, fs.readFileSync(p, "utf8").replaceAll(from, to));
    }
    run(dir, pick(commands, "node --import tsx --test test/chapter-rules.test.ts test/readme-messages.test.ts"));
    assert.equal(run(dir, `grep -rlF --exclude=recipes.test.ts '${from}' shared test exercises docs chapters || true`).trim(), "", "旧的写法一处也不剩（这个测试自己除外）");
  });

  it("配方 4：加一个练习——复制整章、做完、npm run overlay 削成覆盖，diff 和 check 照样用", () => {
    const dir = clone("recipe-4");
    const commands = adapt(commandsOf(4), [["22-N-slug", "22-9-recipe"], ["22-N", "22-9"]], {});
    fs.mkdirSync(path.join(dir, "exercises/22-9-recipe"));
    run(dir, pick(commands, "cp -r chapters/22-mcp-client exercises/22-9-recipe/solution"));
    const main = path.join(dir, "exercises/22-9-recipe/solution/main.ts");
    fs.writeFileSync(main, fs.readFileSync(main, "utf8") + "// 练习 22-9 的答案：配方测试编的\n");
    fs.writeFileSync(path.join(dir, "exercises/22-9-recipe/solution/README.md"), "# 练习 22-9 · 参考答案：配方\n\n## 改了哪些文件\n\n- `main.ts`\n\n## 为什么这样改\n\n编的。\n");
    fs.copyFileSync(path.join(dir, "exercises/22-1-call-timeout/check.ts"), path.join(dir, "exercises/22-9-recipe/check.ts"));
    run(dir, pick(commands, "npm run overlay"));
    assert.deepEqual(fs.readdirSync(path.join(dir, "exercises/22-9-recipe/solution")).sort(), ["README.md", "main.ts"]);
    const diff = run(dir, pick(commands, "npm run diff -- 22 22-9"), 0);
    assert.match(diff, /\+\+\+ exercises\/22-9-recipe\/solution\/main\.ts/);
    assert.doesNotMatch(diff, /Only in/);
    run(dir, "npm run -s solution -- 22-9 full && test -f full/jsonrpc.ts && test -f full/main.ts");
  });
});
