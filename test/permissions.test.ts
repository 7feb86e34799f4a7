// 权限规则的纯函数（拆命令、读规则、判决、转义）：同一组用例跑在每一份 permissions.ts 上——
// 第 09 章起的每一章、每个练习的参考答案。后面哪一章改歪了，这里立刻看得出是哪一份。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { CHAPTERS, ROOT, chapterDirs } from "../shared/scenario.ts";

const copies = [
  ...chapterDirs().map((d) => path.join(CHAPTERS, d)),
  ...fs.readdirSync(path.join(ROOT, "exercises")).map((d) => path.join(ROOT, "exercises", d, "solution")),
].filter((dir) => fs.existsSync(path.join(dir, "permissions.ts")));

const knowsMcp = (dir: string) => !dir.startsWith(CHAPTERS + path.sep) || path.basename(dir) >= "22";

const policy = (rules: Record<string, unknown>, mod: any) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perm-"));
  fs.mkdirSync(path.join(dir, ".harness"));
  fs.writeFileSync(path.join(dir, ".harness", "settings.json"), JSON.stringify({ permissions: rules }));
  const warnings: string[] = [];
  const error = console.error;
  console.error = (line: string) => warnings.push(line);
  try {
    return { policy: mod.loadPolicy(dir), warnings };
  } finally {
    console.error = error;
    fs.rmSync(dir, { recursive: true });
  }
};

it("第 09 章起每一章和每个参考答案都有 permissions.ts", () => {
  assert.ok(copies.length >= 14 + 3, copies.map((c) => path.relative(ROOT, c)).join(", "));
});

for (const dir of copies) {
  describe(path.relative(ROOT, dir), async () => {
    const mod = await import(pathToFileURL(path.join(dir, "permissions.ts")).href);
    const bash = (rules: Record<string, unknown>, command: string) => mod.decide(policy(rules, mod).policy, "bash", { command }).decision;

    it("splitCommand：按 ; && || | & 换行拆开，引号里的不算；词去掉引号、空格规范成一个", () => {
      const cases: [string, string[]][] = [
        ["ls; touch x", ["ls", "touch x"]],
        ["git status && npm test || echo no", ["git status", "npm test", "echo no"]],
        ["ls | wc -l & sleep 1\npwd", ["ls", "wc -l", "sleep 1", "pwd"]],
        [`echo "a;b" 'c|d'`, ["echo 'a;b' 'c|d'"]],
        [`git  "push"   origin`, ["git push origin"]],
        ["\\git push", ["git push"]],
        ["ls \\; touch x", ["ls ';' touch x"]],
        ["ls # ; touch x", ["ls"]],
        ["ls # '\ntouch x #'", ["ls", "touch x"]],
        ["echo $'a\\' ; touch x'", ["echo 'a'\\'' ; touch x'"]],
        ["npm test 2>&1 >/dev/null", ["npm test '2>&1' '>/dev/null'"]],
      ];
      for (const [line, commands] of cases) assert.deepEqual(mod.splitCommand(line), { commands, unsafe: false }, line);
    });

    it("splitCommand：命令替换、反引号、进程替换、写文件的重定向是 unsafe；引号不配对返回 undefined", () => {
      for (const line of ["echo $(id)", 'echo "$(id)"', "echo `id`", "diff <(ls) b", "tee >(cat)", "echo hi > out.txt", "echo hi>>out", "ls &> out", "ls >& out"]) {
        assert.equal(mod.splitCommand(line)?.unsafe, true, line);
      }
      for (const line of ["echo '$(id)'", "echo \\$(id)", "ls 2>&1", "ls >&2", "ls &>/dev/null"]) assert.equal(mod.splitCommand(line)?.unsafe, false, line);
      assert.equal(mod.splitCommand("echo 'oops"), undefined);
      assert.equal(mod.splitCommand('echo "oops'), undefined);
    });

    it("parseRule：工具名、括号里的模式、Claude Code 的大写别名和 :* 前缀写法；坏规则返回 undefined", () => {
      assert.deepEqual(mod.parseRule("bash"), { text: "bash", tool: "bash" });
      assert.deepEqual(mod.parseRule("Bash(npm test:*)"), { text: "Bash(npm test:*)", tool: "bash", pattern: "npm test *" });
      assert.deepEqual(mod.parseRule('Bash(git  "status")'), { text: 'Bash(git  "status")', tool: "bash", pattern: "git status" });
      assert.equal(mod.parseRule("Read(src/*)").tool, "read_file");
      assert.equal(mod.parseRule("Write").tool, "write_file");
      assert.equal(mod.parseRule("Edit").tool, "edit_file");
      assert.equal(mod.parseRule("mcp__fs__read_*").tool, "mcp__fs__read_*");
      for (const bad of ["bash(git push*", "bash()", "(ls)", "", "bash(ls; rm x)", "bash(echo 'x)", 42, null]) assert.equal(mod.parseRule(bad), undefined, String(bad));
    });

    it("bash：每条简单命令都要被 allow；deny > ask > allow；末尾的 * 也匹配不带参数的命令", () => {
      assert.equal(bash({ allow: ["bash(ls*)"] }, "ls -la"), "allow");
      assert.equal(bash({ allow: ["bash(ls*)"] }, "ls; touch x"), "ask");
      assert.equal(bash({ allow: ["bash(ls*)", "bash(touch *)"] }, "ls; touch x"), "allow");
      assert.equal(bash({ allow: ["Bash(git status)"] }, "git status"), "allow");
      assert.equal(bash({ allow: ["Bash(git status)"] }, "git status --short"), "ask");
      assert.equal(bash({ allow: ["Bash(npm test:*)"] }, "npm test"), "allow");
      assert.equal(bash({ allow: ["Bash(npm test:*)"] }, "npm test -- --watch"), "allow");
      assert.equal(bash({ allow: ["Bash(npm test:*)"] }, "npm testx"), "ask");
      assert.equal(bash({ allow: ["bash(npm test *)"] }, "npm test"), "allow");
      assert.equal(bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, "git push origin"), "ask");
      assert.equal(bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, 'git "push"'), "ask");
      assert.equal(bash({ allow: ["bash(rm *)"], deny: ["bash(rm -rf *)"] }, "rm -rf build"), "deny");
      assert.equal(bash({ allow: ["bash"], deny: ["bash(git push*)"] }, "ls && git  push"), "deny");
      assert.equal(bash({ allow: ["bash(echo *)"] }, "echo $(touch x)"), "ask");
      assert.equal(bash({ allow: ["bash(echo *)"] }, "echo hi > f"), "ask");
      assert.equal(bash({ allow: ["bash"] }, "echo $(id) > f"), "allow");
      assert.equal(bash({ allow: ["bash"], ask: ["bash(echo *)"] }, "echo $(id)"), "ask");
      assert.equal(bash({ allow: ["bash(echo *)"] }, "echo 'unbalanced"), "ask");
      assert.equal(bash({}, "ls"), "ask");
    });

    it("看不懂的规则：一行警告点名它；坏的 deny/ask 让那个工具每次都问，坏的 allow 只是不生效", () => {
      const broken = policy({ allow: ["bash"], deny: ["bash(git push*"] }, mod);
      assert.equal(broken.warnings.length, 1);
      assert.match(broken.warnings[0], /^警告: .*"bash\(git push\*"/);
      assert.equal(mod.decide(broken.policy, "bash", { command: "git push" }).decision, "ask");
      assert.equal(mod.decide(broken.policy, "bash", { command: "ls" }).decision, "ask");
      const unknown = policy({ deny: [42] }, mod);
      assert.equal(unknown.warnings.length, 1);
      assert.equal(mod.decide(unknown.policy, "read_file", { path: "a.txt" }, "allow").decision, "ask");
      const badAllow = policy({ allow: ["bash(ls*"] }, mod);
      assert.equal(badAllow.warnings.length, 1);
      assert.equal(mod.decide(badAllow.policy, "bash", { command: "ls" }).decision, "ask");
    });

    it("别的工具：比的是解析后的 path，规范成相对工作目录的写法；没有 path 时带模式的 deny 照样算数", () => {
      const { policy: p } = policy({ deny: ["Read(secret*)"], ask: ["mcp__fs__move_file(docs/*)"] }, mod);
      const read = (args: string) => mod.decide(p, "read_file", JSON.parse(args), "allow").decision;
      assert.equal(read('{"path": "\\u0073ecret.txt"}'), "deny");
      assert.equal(read('{"path": "notes.txt", "path": "secret.txt"}'), "deny");
      assert.equal(read('{"path": "./a/../secret.txt"}'), "deny");
      assert.equal(read(`{"path": ${JSON.stringify(path.join(process.cwd(), "secret.txt"))}}`), "deny");
      assert.equal(read('{"path": "notes.txt"}'), "allow");
      assert.equal(mod.decide(p, "mcp__fs__move_file", { source: "docs/a", destination: "b" }).decision, "ask");
    });

    // mcp.json 是第 22 章才有的文件，写它要问也从那一章起（练习的参考答案都是第 22 章的副本）
    const config = [".harness/settings.json", "sub/../.harness/x", ".HARNESS/settings.json", ...(knowsMcp(dir) ? ["mcp.json", "./mcp.json"] : [])];
    it(`写 ${knowsMcp(dir) ? ".harness/ 和 mcp.json" : ".harness/"} 总要问，allow 也不行；deny 仍然优先；别的写照旧放行`, () => {
      const { policy: p } = policy({ allow: ["Write", "Edit"] }, mod);
      for (const file of config) {
        assert.equal(mod.decide(p, "write_file", { path: file, content: "" }, "allow").decision, "ask", file);
        assert.equal(mod.decide(p, "edit_file", { path: file }, "allow").decision, "ask", file);
      }
      assert.equal(mod.decide(p, "write_file", { path: "notes.txt" }, "allow").decision, "allow");
      assert.equal(mod.decide(p, "write_file", { path: "docs/mcp.json" }, "allow").decision, "allow");
      assert.equal(mod.decide(p, "read_file", { path: ".harness/settings.json" }, "allow").decision, "allow");
      const { policy: denied } = policy({ deny: ["Write(.harness/*)"] }, mod);
      assert.equal(mod.decide(denied, "write_file", { path: ".harness/settings.json" }, "allow").decision, "deny");
    });

    it("visible：C0（除了 tab）、DEL、C1、双向控制符显示成转义", () => {
      assert.equal(mod.visible("a\tb\r\x1b[2K\n\x7f\x85\u202e\u2066x"), "a\tb\\r\\x1b[2K\\n\\x7f\\x85\\u202e\\u2066x");
      assert.equal(mod.visible("普通的命令 ls -la"), "普通的命令 ls -la");
    });
  });
}
