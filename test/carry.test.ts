// npm run carry 的核心：在一个临时的 git 仓库里搭几章和一个练习，证明三方合并沿着文件的血统往后走——
// 后面的章自己改过别处，两边都留下；改到同一处，报冲突、留下标记、链子停下；解决以后从那一章接着带。
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../shared/scenario.ts";
import { CarryError, carry, reportLines } from "../scripts/carry.ts";
import { trimAll } from "../scripts/overlay.ts";
import { rewriteTranscriptBlocks } from "../scripts/transcripts.ts";

const TSX = import.meta.resolve("tsx");

// 十行的“工具”：每一章改的是自己那一行，修 bug 改的是第 2 行
const lines = (over: Record<number, string> = {}) => Array.from({ length: 10 }, (_, i) => over[i] ?? `line ${i}`).join("\n") + "\n";

function git(root: string, ...args: string[]) {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: root, stdio: "pipe" });
}

// chapters/01-a（引入 x.ts）→ 02-b（原样）→ 03-c（为自己的课改第 8 行）→ 04-d（原样）→ 05-e（改第 2 行：和修 bug 撞上）→ 06-f（原样），
// 练习 e1 的答案（名字不带章号：算最后一章的后代；第 5 行是答案自己的）、练习 03-1-early 的答案（第 3 章的后代），每处都有自己的 README.md
function repo(t: { after(fn: () => void): void }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lh-carry-test-"));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const versions: Record<string, string> = {
    "01-a": lines(),
    "02-b": lines(),
    "03-c": lines({ 8: "chapter 3's lesson" }),
    "04-d": lines({ 8: "chapter 3's lesson" }),
    "05-e": lines({ 2: "chapter 5 rewrote line 2", 8: "chapter 3's lesson" }),
    "06-f": lines({ 2: "chapter 5 rewrote line 2", 8: "chapter 3's lesson" }),
  };
  for (const [chapter, text] of Object.entries(versions)) {
    put(`chapters/${chapter}/tools/x.ts`, text);
    put(`chapters/${chapter}/README.md`, `# ${chapter}\n`);
  }
  put("exercises/e1/solution/tools/x.ts", lines({ 2: "chapter 5 rewrote line 2", 5: "the exercise's own line", 8: "chapter 3's lesson" }));
  put("exercises/e1/solution/README.md", "# 答案\n");
  put("exercises/03-1-early/solution/tools/x.ts", lines({ 4: "early exercise", 8: "chapter 3's lesson" }));
  put("exercises/e1/README.md", "# 练习\n");
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "起点");
  return root;
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
// 每一处（章目录或答案目录）→ 结果
const outcomes = (r: ReturnType<typeof carry>) => {
  const file = r.source.split("/").slice(2).join("/");
  return Object.fromEntries(r.targets.map((t) => [t.target.slice(0, -file.length - 1), t.outcome]));
};

describe("carry：沿着血统三方合并", () => {
  it("合进自己改过别处的章，撞上同一处就报冲突、停下；练习排在第 22 章之后", (t) => {
    const root = repo(t);
    fs.writeFileSync(path.join(root, "chapters/01-a/tools/x.ts"), lines({ 2: "line 2 fixed" }));

    const dry = carry(root, "01-a", "tools/x.ts", { dryRun: true });
    assert.equal(read(root, "chapters/02-b/tools/x.ts"), lines(), "--dry-run 不该写任何文件");

    const r = carry(root, "01-a", "tools/x.ts");
    assert.deepEqual(outcomes(dry), outcomes(r), "--dry-run 说的和真跑的一样");
    assert.deepEqual(outcomes(r), {
      "chapters/02-b": "merged",
      "chapters/03-c": "merged",
      "chapters/04-d": "merged",
      "chapters/05-e": "conflict",
      "chapters/06-f": "blocked",
      "exercises/03-1-early/solution": "merged", // 它从第 3 章来，不等第 5 章
      "exercises/e1/solution": "blocked",
    });
    assert.equal(r.stoppedAt, "chapters/05-e");
    assert.equal(read(root, "chapters/02-b/tools/x.ts"), lines({ 2: "line 2 fixed" }));
    // 第 3 章的课和修好的 bug 都在
    assert.equal(read(root, "chapters/03-c/tools/x.ts"), lines({ 2: "line 2 fixed", 8: "chapter 3's lesson" }));
    assert.equal(read(root, "exercises/03-1-early/solution/tools/x.ts"), lines({ 2: "line 2 fixed", 4: "early exercise", 8: "chapter 3's lesson" }));
    const conflicted = read(root, "chapters/05-e/tools/x.ts");
    assert.match(conflicted, /^<<<<<<< chapters\/05-e\/tools\/x\.ts/m);
    assert.match(conflicted, /^\|\|\|\|\|\|\| chapters\/04-d\/tools\/x\.ts（改之前）$/m);
    assert.match(conflicted, /^>>>>>>> chapters\/04-d\/tools\/x\.ts（改之后）$/m);
    assert.equal(read(root, "chapters/06-f/tools/x.ts"), lines({ 2: "chapter 5 rewrote line 2", 8: "chapter 3's lesson" }), "链子停下以后，后面的不动");
    for (const readme of ["chapters/02-b/README.md", "exercises/e1/solution/README.md"]) assert.doesNotMatch(read(root, readme), /fixed/);
    const text = reportLines(r, false).join("\n");
    assert.match(text, /chapters\/05-e\/tools\/x\.ts +冲突：留下了冲突标记/);
    assert.match(text, /chapters\/06-f\/tools\/x\.ts +待续/);

    // 再跑一遍：已经有了的不动；冲突标记没解决，还停在那里
    const again = carry(root, "01-a", "tools/x.ts");
    assert.equal(outcomes(again)["chapters/02-b"], "already");
    assert.equal(outcomes(again)["chapters/05-e"], "unresolved");
    assert.equal(again.stoppedAt, "chapters/05-e");

    // 手工解决第 5 章的冲突，从第 5 章接着带：第 6 章和练习的答案（它自己的第 5 行留着）都拿到
    const resolved = lines({ 2: "chapter 5 rewrote line 2, fixed", 8: "chapter 3's lesson" });
    fs.writeFileSync(path.join(root, "chapters/05-e/tools/x.ts"), resolved);
    const rest = carry(root, "05-e", "tools/x.ts");
    assert.deepEqual(outcomes(rest), { "chapters/06-f": "merged", "exercises/e1/solution": "merged" });
    assert.equal(read(root, "chapters/06-f/tools/x.ts"), resolved);
    assert.equal(read(root, "exercises/e1/solution/tools/x.ts"), lines({ 2: "chapter 5 rewrote line 2, fixed", 5: "the exercise's own line", 8: "chapter 3's lesson" }));

    // 从第 1 章再跑：解决过的那份不被冲突标记盖掉
    const third = carry(root, "01-a", "tools/x.ts");
    assert.equal(outcomes(third)["chapters/05-e"], "conflict-kept");
    assert.equal(read(root, "chapters/05-e/tools/x.ts"), resolved);
  });

  it("后面某一章工作区里别的未提交改动，合并时留着，但不往更后面带", (t) => {
    const root = repo(t);
    fs.writeFileSync(path.join(root, "chapters/01-a/tools/x.ts"), lines({ 2: "line 2 fixed" }));
    fs.writeFileSync(path.join(root, "chapters/02-b/tools/x.ts"), lines({ 9: "someone's unrelated edit" }));
    const r = carry(root, "01-a", "tools/x.ts");
    assert.equal(outcomes(r)["chapters/02-b"], "merged");
    assert.equal(read(root, "chapters/02-b/tools/x.ts"), lines({ 2: "line 2 fixed", 9: "someone's unrelated edit" }));
    assert.equal(read(root, "chapters/03-c/tools/x.ts"), lines({ 2: "line 2 fixed", 8: "chapter 3's lesson" }));
  });

  it("本章新加的文件：复制到还没有它的章，已有同名另一份的不碰；答案是覆盖，不复制（跟着它那一章）；更早一章的答案不是它的后代", (t) => {
    const root = repo(t);
    fs.writeFileSync(path.join(root, "chapters/04-d/new.ts"), "export const n = 1;\n");
    fs.writeFileSync(path.join(root, "chapters/06-f/new.ts"), "export const other = 2;\n");
    const r = carry(root, "04-d", "new.ts");
    assert.equal(r.added, true);
    assert.deepEqual(outcomes(r), { "chapters/05-e": "copied", "chapters/06-f": "foreign", "exercises/e1/solution": "inherited" });
    assert.equal(fs.existsSync(path.join(root, "exercises/e1/solution/new.ts")), false);
    assert.equal(read(root, "chapters/06-f/new.ts"), "export const other = 2;\n");
    assert.equal(outcomes(carry(root, "04-d", "new.ts"))["chapters/05-e"], "already");
  });

  it("答案没有的文件：跟着它那一章，不带；带完和那一章一样的答案文件由 npm run overlay 删掉", (t) => {
    const root = repo(t);
    fs.writeFileSync(path.join(root, "chapters/06-f/only.ts"), "a\n");
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "加一个答案没改的文件");
    fs.writeFileSync(path.join(root, "chapters/06-f/only.ts"), "b\n");
    assert.equal(outcomes(carry(root, "06-f", "only.ts"))["exercises/e1/solution"], "inherited");
    assert.equal(fs.existsSync(path.join(root, "exercises/e1/solution/only.ts")), false);
    // 答案里那一份和第 6 章一样了：削成覆盖时删掉，README 留着
    fs.writeFileSync(path.join(root, "exercises/e1/solution/tools/x.ts"), read(root, "chapters/06-f/tools/x.ts"));
    assert.deepEqual(trimAll(root), ["exercises/e1/solution：删掉 1 个和 chapters/06-f 一样的文件"]);
    assert.deepEqual(fs.readdirSync(path.join(root, "exercises/e1/solution")), ["README.md"]);
    assert.deepEqual(trimAll(root), [], "再跑一遍什么也不删");
  });

  it("源文件没改、不存在：说清楚，不动任何文件", (t) => {
    const root = repo(t);
    assert.throws(() => carry(root, "01-a", "tools/x.ts"), (e: unknown) => e instanceof CarryError && /和 HEAD 里的一样/.test(e.message));
    assert.throws(() => carry(root, "01-a", "nope.ts"), (e: unknown) => e instanceof CarryError && /没有 chapters\/01-a\/nope\.ts/.test(e.message));
  });
});

describe("npm run carry 的命令行", () => {
  // 只走不会写文件的路：用法错误在读任何文件之前就退出
  const run = (...args: string[]) => spawnSync(process.execPath, ["--import", TSX, path.join(ROOT, "scripts", "carry.ts"), ...args], { cwd: ROOT, encoding: "utf8" });
  it("README.md 不带、没有这一章、缺文件：一行中文，退出码 2", () => {
    for (const [args, message] of [
      [["07", "README.md"], /README\.md 不带/],
      [["99", "main.ts"], /没有第 99 章/],
      [["07"], /还缺文件/],
      [["07", "../x.ts"], /相对路径/],
    ] as const) {
      const r = run(...args);
      assert.equal(r.status, 2, r.stderr + r.stdout);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/, "不打堆栈");
    }
  });
});

describe("README 的转录块", () => {
  it("换掉 <!-- transcript --> 下面那块，代码块里的标记和找不到的场景原样留着", () => {
    const readme = [
      "# 第 01 章 · x",
      "<!-- transcript: hello -->",
      "",
      "````text",
      "旧的",
      "```",
      "````",
      "```markdown",
      "<!-- transcript: hello -->",
      "```text",
      "示例",
      "```",
      "```",
      "<!-- transcript: missing -->",
      "```text",
      "留着",
      "```",
      "",
    ].join("\n");
    const got = rewriteTranscriptBlocks(readme, (name) => (name === "hello" ? "新的\n第二行\n" : undefined));
    const want = readme.replace("旧的\n```\n", "新的\n第二行\n");
    assert.equal(got, want);
    assert.equal(rewriteTranscriptBlocks(got, (name) => (name === "hello" ? "新的\n第二行\n" : undefined)), got, "再跑一遍不变");
  });
});
