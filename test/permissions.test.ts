// 权限规则的纯函数（拆命令、读规则、判决、转义）：同一组用例跑在每一份 permissions.ts 上——
// 第 09 章起的每一章、每个练习的参考答案。后面哪一章改歪了，这里立刻看得出是哪一份。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, copiesForTier } from "../shared/scenario.ts";

const all = [
  ...chapterDirs().map((d) => path.join(CHAPTERS, d)).filter((dir) => fs.existsSync(path.join(dir, "permissions.ts"))),
  ...solutionTrees("permissions.ts"), // 改过它的练习答案
];
const copies = copiesForTier(all);

// 第 22 章起才有 mcp.json：章的目录和练习答案叠好的整份（.cache/solutions/NN-K-…）名字都以章号开头
const knowsMcp = (dir: string) => Number(path.basename(dir).slice(0, 2)) >= 22;

// 规则写进用户设置（~/.harness/settings.json，总是算数）；project 给了就写进工作目录的 .harness/settings.json
const policy = async (rules: Record<string, unknown>, mod: any, project?: Record<string, unknown>, options: { trusted?: boolean; answer?: boolean } = {}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perm-"));
  const home = path.join(dir, "home");
  const work = path.join(dir, "work");
  fs.mkdirSync(path.join(home, ".harness"), { recursive: true });
  fs.mkdirSync(path.join(work, ".harness"), { recursive: true });
  fs.writeFileSync(path.join(home, ".harness", "settings.json"), JSON.stringify({ permissions: rules }));
  if (project) fs.writeFileSync(path.join(work, ".harness", "settings.json"), JSON.stringify({ permissions: project }));
  const trustFile = path.join(home, ".harness", "trusted-folders.json");
  if (options.trusted) fs.writeFileSync(trustFile, JSON.stringify({ folders: [fs.realpathSync(work)] }));
  const warnings: string[] = [];
  const questions: string[] = [];
  const confirm = options.answer === undefined ? undefined : async (q: string) => (questions.push(q), options.answer);
  const error = console.error;
  console.error = (line: string) => warnings.push(line);
  try {
    const p = await mod.loadPolicy(work, confirm, home);
    const saved = fs.existsSync(trustFile) ? JSON.parse(fs.readFileSync(trustFile, "utf8")) : undefined;
    return { policy: p, warnings, questions, saved, work: fs.realpathSync(work) };
  } finally {
    console.error = error;
    fs.rmSync(dir, { recursive: true });
  }
};

it("第 09 章起每一章都有 permissions.ts", () => {
  assert.ok(all.length >= 14, all.map((c) => path.relative(ROOT, c)).join(", "));
});

for (const dir of copies) {
  describe(path.relative(ROOT, dir), async () => {
    const mod = await import(pathToFileURL(path.join(dir, "permissions.ts")).href);
    const shell = await import(pathToFileURL(path.join(dir, "shell.ts")).href); // 拆分器在它自己的文件里（第 09 章）
    const bash = async (rules: Record<string, unknown>, command: string) => mod.decide((await policy(rules, mod)).policy, "bash", { command }).decision;
    const split = (line: string) => {
      const got = shell.splitCommand(line);
      return got && { commands: got.commands, unsafe: got.unsafe };
    };

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
        ["npm test 2>&1 >/dev/null", ["npm test '2>&1' '>/dev/null'"]],
      ];
      for (const [line, commands] of cases) assert.deepEqual(split(line), { commands, unsafe: false }, line);
    });

    it("splitCommand：命令替换、反引号、进程替换、写文件的重定向是 unsafe；引号不配对返回 undefined", () => {
      for (const line of ["echo $(id)", 'echo "$(id)"', "echo `id`", "diff <(ls) b", "tee >(cat)", "echo hi > out.txt", "echo hi>>out", "ls &> out", "ls >& out",
        "cat <<EOF\n'\nEOF\nrm -rf / #'", "cat <<< x", "git $'\\x70ush'", 'git $"push"', "{rm,x}", "rm${IFS}x", "echo $HOME", "ls \\\nrm", "(rm x)", "/bin/r? x", "FOO=1 git status",
        "env FOO=1 git push", "env -S 'rm x'", "nice -n 5 rm x", "ls | xargs rm", "find . -exec rm {} \\;", "find . -delete", "bash -c 'ls'", "sh -ec ls", "eval ls", "git -c alias.x='!id' x", "git -C sub -c core.fsmonitor=id status",
        "sudo ls", "busybox ls", "su -c ls", "python3 -c 1", "perl -e 1", "node -p 1", "awk '{print}' f", "sed -n 1p f", "echo ls | sh", "bash -s", "python3 -"]) {
        assert.equal(split(line)?.unsafe, true, line);
      }
      for (const line of ["echo '$(id)'", "echo \\$HOME", "ls 2>&1", "ls >&2", "ls &>/dev/null", "ls *.txt", "git -C sub status", "env git status", "timeout 5 npm test",
        "python3 x.py", "node --version", "bash x.sh", "perl -w x.pl"]) assert.equal(split(line)?.unsafe, false, line);
      assert.equal(split("echo 'oops"), undefined);
      assert.equal(split('echo "oops'), undefined);
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

    it("bash：每条简单命令都要被 allow；deny > ask > allow；末尾的 * 也匹配不带参数的命令", async () => {
      assert.equal(await bash({ allow: ["bash(ls*)"] }, "ls -la"), "allow");
      assert.equal(await bash({ allow: ["bash(ls*)"] }, "ls; touch x"), "ask");
      assert.equal(await bash({ allow: ["bash(ls*)", "bash(touch *)"] }, "ls; touch x"), "allow");
      assert.equal(await bash({ allow: ["Bash(git status)"] }, "git status"), "allow");
      assert.equal(await bash({ allow: ["Bash(git status)"] }, "git status --short"), "ask");
      assert.equal(await bash({ allow: ["Bash(npm test:*)"] }, "npm test"), "allow");
      assert.equal(await bash({ allow: ["Bash(npm test:*)"] }, "npm test -- --watch"), "allow");
      assert.equal(await bash({ allow: ["Bash(npm test:*)"] }, "npm testx"), "ask");
      assert.equal(await bash({ allow: ["bash(npm test *)"] }, "npm test"), "allow");
      assert.equal(await bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, "git push origin"), "ask");
      assert.equal(await bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, 'git "push"'), "ask");
      assert.equal(await bash({ allow: ["bash(rm *)"], deny: ["bash(rm -rf *)"] }, "rm -rf build"), "deny");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(git push*)"] }, "ls && git  push"), "deny");
      assert.equal(await bash({ allow: ["bash(echo *)"] }, "echo $(touch x)"), "ask");
      assert.equal(await bash({ allow: ["bash(echo *)"] }, "echo hi > f"), "ask");
      assert.equal(await bash({ allow: ["bash"] }, "echo $(id) > f"), "allow");
      assert.equal(await bash({ allow: ["bash"], ask: ["bash(echo *)"] }, "echo $(id)"), "ask");
      assert.equal(await bash({ allow: ["bash(echo *)"] }, "echo 'unbalanced"), "ask");
      assert.equal(await bash({}, "ls"), "ask");
      // 包装命令按它包着的那条比：deny 躲不开，allow 也不会因为外面套了一层就放行
      assert.equal(await bash({ deny: ["bash(rm *)"] }, "env rm -rf x"), "deny");
      assert.equal(await bash({ deny: ["bash(rm *)"] }, "command rm x"), "deny");
      assert.equal(await bash({ deny: ["bash(rm *)"] }, "timeout 5 rm x"), "deny");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "bash -c 'ls; rm x'"), "deny");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "ls | xargs rm"), "deny");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "find . -exec rm {} \\;"), "deny");
      assert.equal(await bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, "exec git push"), "ask");
      assert.equal(await bash({ allow: ["bash(git *)"] }, "git $'\\x70ush'"), "ask");
      assert.equal(await bash({ allow: ["bash(git *)"] }, "git -c alias.x='!id' x"), "ask");
      assert.equal(await bash({ allow: ["bash(cat *)"] }, "cat <<EOF\n'\nEOF\nrm -rf / #'"), "ask");
      assert.equal(await bash({ allow: ["bash(echo *)", "bash(xargs *)"] }, "echo x | xargs rm"), "ask");
      assert.equal(await bash({ allow: ["bash(git status)"] }, "env git status"), "allow");
    });

    it("splitCommand：关键字和 ! 不是命令，后面的才是；FOO=1 去掉再比；路径写的命令名和 git 的全局选项另有一种读法给 deny、ask；sudo 里面那条从哪个词起都拿去比", () => {
      const cases: [string, string[], string[], boolean][] = [
        ["if :; then rm v; fi", [":", "rm v"], [], false],
        ["! rm v", ["rm v"], [], false],
        ["while true\ndo rm v\ndone", ["true", "rm v"], [], false],
        ["for f in v; do rm $f; done", ["for f in v", "rm '$f'"], [], true],
        ["X=1 rm v", ["rm v"], [], true],
        ["/bin/rm v", ["/bin/rm v"], ["rm v"], false],
        ["git -C . push", ["git -C . push"], ["git push"], false],
        ["git --no-pager -P push origin", ["git --no-pager -P push origin"], ["git push origin"], false],
        ["sudo -u root rm v", ["sudo -u root rm v", "root rm v", "rm v", "v"], [], true],
        ["su -c 'rm v'", ["su -c 'rm v'", "'rm v'", "rm v"], [], true],
        ["sudo env /bin/rm v", ["sudo env /bin/rm v", "/bin/rm v"], ["rm v"], true],
        ["python3 -c 'import os'", ["python3 -c 'import os'"], [], true],
      ];
      for (const [line, commands, readings, unsafe] of cases) assert.deepEqual(shell.splitCommand(line), { commands, readings, unsafe }, line);
    });

    // issue 28：这些写法原来都能绕过 deny，或者被带模式的 allow 放行。拆分器证明不了自己看懂了的，一律问
    const evasions = ["if :; then rm v; fi", "! rm v", "for f in v; do rm $f; done", "$'\\x72m' v", '$"rm" v', "{rm,v}", "rm${IFS}v", "/bin/rm v", "X=1 rm v", "(rm v)", "case x in x) rm v;; esac"];
    it("deny 和 ask 的规则照样成立，不管 rm 怎么写：看得懂的拒绝，看不懂的问；带模式的 allow 放不行看不懂的", async () => {
      const understood = new Set(["if :; then rm v; fi", "! rm v", "for f in v; do rm $f; done", "/bin/rm v", "X=1 rm v"]);
      for (const line of evasions) {
        assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, line), understood.has(line) ? "deny" : "ask", line);
        assert.equal(await bash({ allow: ["bash"], ask: ["bash(rm *)"] }, line), "ask", line);
        assert.equal(await bash({ deny: ["bash(rm *)"] }, line), understood.has(line) ? "deny" : "ask", line);
        assert.notEqual(await bash({ allow: ["bash(true*)", "bash(ls*)"] }, line), "allow", line);
      }
      // 反过来：看得懂的照常放行，包括关键字里的命令和 git 的全局选项
      assert.equal(await bash({ allow: ["bash(:)", "bash(ls *)"] }, "if :; then ls -l; fi"), "allow");
      assert.equal(await bash({ allow: ["bash(ls *)"] }, "! ls x"), "allow");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "if :; then ls v; fi"), "allow");
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "/bin/ls v"), "allow");
      assert.equal(await bash({ allow: ["bash(./run.sh *)"] }, "./run.sh x"), "allow");
      assert.equal(await bash({ allow: ["bash"] }, "rm${IFS}v"), "allow", "只写工具名、又没有别的规则管着：本来就放行一切");
    });

    // issue 28：替人跑命令的程序。原来 deny 只看见 sudo、busybox，看不见里面的 rm
    const viaRunner = ["sudo rm v", "sudo -u root rm v", "doas rm v", "busybox rm v", "stdbuf -o0 rm v", "setsid rm v", "ionice -c3 rm v", "taskset 1 rm v",
      "flock /tmp/l rm v", "chrt 1 rm v", "unshare rm v", "script -c 'rm v'", "watch rm v", "watch -n 1 'rm v'", "strace rm v", "su -c 'rm v'",
      "runuser -u me rm v", "systemd-run rm v", "parallel rm ::: v", "xargs -n 1 rm", "sudo env rm v", "sudo bash -c 'rm v'", "sudo /bin/rm v", "sudo sudo rm v"];
    it("替人跑命令的程序（sudo、busybox、flock、su -c…）：里面的 rm 照样被 deny、ask 拦下；带模式的 allow 放不行；里面不是 rm 的要问，不是拒绝", async () => {
      for (const line of viaRunner) {
        assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, line), "deny", line);
        assert.equal(await bash({ allow: ["bash"], ask: ["bash(rm *)"] }, line), "ask", line);
        assert.equal(await bash({ deny: ["bash(rm *)"] }, line), "deny", line);
        assert.equal(await bash({ allow: ["bash(ls*)", `bash(${line.split(" ")[0]} *)`] }, line), "ask", line);
      }
      assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, "sudo ls"), "ask");
      assert.equal(await bash({ allow: ["bash(sudo *)", "bash(ls*)"] }, "sudo ls"), "ask");
      assert.equal(await bash({ allow: ["bash"] }, "sudo ls"), "allow", "只写工具名、又没有别的规则管着：本来就放行一切");
    });

    // 命令行上（或者从管道读进来）的代码：规则看不见里面做什么
    const inline = [`python3 -c "import os; os.remove('v')"`, "python3.12 -Sc 1", "perl -e 'unlink q(v)'", "perl -pi -e s/a/b/ f", "ruby -e 1", "node -e 1",
      "node -pe 1", "node --eval=1", "php -r 1", `awk 'BEGIN{system("rm v")}'`, "gawk 1 f", "sed -n 1e f", "echo 'rm v' | sh", "cat x | bash", "bash -s", "cat x | python3 -"];
    it("解释器跑命令行上的代码（python3 -c、perl -e、node -e、awk、sed、管道进 sh）：有带模式的 deny 就问，带模式的 allow 放不行", async () => {
      for (const line of inline) {
        assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, line), "ask", line);
        const name = line.split(" | ").at(-1)!.split(" ")[0];
        assert.equal(await bash({ allow: ["bash(echo *)", "bash(cat *)", `bash(${name} *)`] }, line), "ask", line);
        assert.equal(await bash({ allow: ["bash"] }, line), "allow", line);
      }
      for (const line of ["python3 x.py", "node --version", "bash x.sh", "perl -w x.pl"]) assert.equal(await bash({ allow: [`bash(${line.split(" ")[0]} *)`] }, line), "allow", line);
    });

    it("规则里的 *：和“^…$、* 换成 .*”的正则判得一样（随机的模式和命令，两千对）", () => {
      const regex = (p: string, t: string) => new RegExp(`^${p.split("*").join(".*")}$`, "s").test(t); // 字母表只有 a、b、*、空格，不用转义
      let seed = 7;
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n; // 固定的种子：失败了能重现
      const word = (alphabet: string, max: number) => Array.from({ length: 1 + rand(max) }, () => alphabet[rand(alphabet.length)]).join("");
      for (let i = 0; i < 2000; i++) {
        const [p, t] = [`x ${word("ab*", 7)}`, `x ${word("ab", 9)}`];
        const deny = [mod.parseRule(`bash(${p})`)];
        const got = mod.decide({ allow: [], ask: [], deny }, "bash", { command: t }).decision;
        assert.equal(got === "deny", regex(p, t), `bash(${p}) 对 ${t}`);
      }
      // 末尾的 " *" 另外也匹配不带参数的那条命令
      assert.equal(mod.decide({ allow: [], ask: [], deny: [mod.parseRule("bash(x a *)")] }, "bash", { command: "x a" }).decision, "deny");
    });

    it("包装套包装几万层：不撑爆栈，读不到底的一律问", async () => {
      for (const line of ["env ".repeat(20000) + "rm v", "! ".repeat(50) + "rm v", "sudo -u root ".repeat(50) + "rm v", "eval ".repeat(50) + "rm v"]) {
        assert.equal(split(line)?.unsafe, true, line.slice(0, 20));
        assert.equal(await bash({ allow: ["bash"], deny: ["bash(rm *)"] }, line), "ask", line.slice(0, 20));
      }
    });

    it("git：全局选项换不了主语；会去跑别的程序的选项和子命令在 allow bash(git *) 下也要问", async () => {
      const pushes = ["git -C . push", "git --no-pager push", "git -P push origin", "git -C sub --no-pager push", "/usr/bin/git push", "env git -C . push"];
      for (const line of pushes) {
        assert.equal(await bash({ allow: ["bash(git *)"], ask: ["bash(git push*)"] }, line), "ask", line);
        assert.equal(await bash({ allow: ["bash(git *)"], deny: ["bash(git push*)"] }, line), "deny", line);
      }
      const runners = ["git fetch --upload-pack=id origin", "git fetch --upload id origin", "git push --receive-pack=id", "git push --exec=id", "git clone -u id x y", "git clone -qu id x y",
        "git ls-remote -u id x", "git archive --remote=x --exec=id HEAD", "git grep --open-files-in-pager=id x", "git grep -Oid x", "git diff --output=f", "git -c alias.x=!id x",
        "git --config-env=core.pager=X log", "git --exec-path=. status", "git --git-dir=../evil/.git status", "git rebase --exec id HEAD~1", "git rebase -x id HEAD~1", "git rebase -ix id HEAD~1",
        "git submodule foreach id", "git submodule --quiet foreach id", "git bisect run id", "git difftool -x id", "git difftool --extcmd=id", "git filter-branch --tree-filter id",
        "git config alias.x '!id'", "git config core.fsmonitor id", "git -C . -c core.pager=id log"];
      for (const line of runners) {
        assert.equal(split(line)?.unsafe, true, line);
        assert.equal(await bash({ allow: ["bash(git *)"] }, line), "ask", line);
        assert.equal(await bash({ allow: ["bash"], deny: ["bash(git push*)"] }, line), line.includes("push") ? "deny" : "ask", line);
      }
      for (const line of ["git status", "git -C sub status", "git --no-pager log --oneline", "git push -u origin main", "git fetch -u", "git rebase -i HEAD~3", "git diff --exit-code",
        "git log --ext-diff", "git config --get user.name", "git commit -m x", "git --version"]) {
        assert.equal(split(line)?.unsafe, false, line);
        assert.equal(await bash({ allow: ["bash(git *)"] }, line), "allow", line);
      }
    });

    it("看不懂的规则：一行警告点名它；坏的 deny/ask 让那个工具每次都问，坏的 allow 只是不生效", async () => {
      const broken = await policy({ allow: ["bash"], deny: ["bash(git push*"] }, mod);
      assert.equal(broken.warnings.length, 1);
      assert.match(broken.warnings[0], /^警告: .*"bash\(git push\*"/);
      assert.equal(mod.decide(broken.policy, "bash", { command: "git push" }).decision, "ask");
      assert.equal(mod.decide(broken.policy, "bash", { command: "ls" }).decision, "ask");
      const unknown = await policy({ deny: [42] }, mod);
      assert.equal(unknown.warnings.length, 1);
      assert.equal(mod.decide(unknown.policy, "read_file", { path: "a.txt" }).decision, "ask");
      const badAllow = await policy({ allow: ["bash(ls*"] }, mod);
      assert.equal(badAllow.warnings.length, 1);
      assert.equal(mod.decide(badAllow.policy, "bash", { command: "ls" }).decision, "ask");
    });

    it("别的工具：比的是解析后的 path，规范成相对工作目录的写法；没有 path 时带模式的 deny 照样算数", async () => {
      const { policy: p } = await policy({ deny: ["Read(secret*)"], ask: ["mcp__fs__move_file(docs/*)"] }, mod);
      const read = (args: string) => mod.decide(p, "read_file", JSON.parse(args)).decision;
      assert.equal(read('{"path": "\\u0073ecret.txt"}'), "deny");
      assert.equal(read('{"path": "notes.txt", "path": "secret.txt"}'), "deny");
      assert.equal(read('{"path": "./a/../secret.txt"}'), "deny");
      assert.equal(read(`{"path": ${JSON.stringify(path.join(process.cwd(), "secret.txt"))}}`), "deny");
      assert.equal(read('{"path": "notes.txt"}'), "allow");
      assert.equal(mod.decide(p, "mcp__fs__move_file", { source: "docs/a", destination: "b" }).decision, "ask");
    });

    // mcp.json 是第 22 章才有的文件，写它要问也从那一章起（练习的参考答案都是第 22 章的副本）
    const config = [".harness/settings.json", "sub/../.harness/x", ".HARNESS/settings.json", ".git/config", "sub/.git/hooks/pre-commit", ".env", ".env.local", ".claude/settings.json", "AGENTS.md", "docs/CLAUDE.md", ...(knowsMcp(dir) ? ["mcp.json", "./mcp.json"] : [])];
    it(`写 ${knowsMcp(dir) ? ".harness/、.git/、.env、AGENTS.md 这些和 mcp.json" : ".harness/、.git/、.env、AGENTS.md 这些"} 总要问，allow 也不行；deny 仍然优先；别的写照 allow 放行`, async () => {
      const { policy: p } = await policy({ allow: ["Write", "Edit"] }, mod);
      for (const file of config) {
        assert.equal(mod.decide(p, "write_file", { path: file, content: "" }).decision, "ask", file);
        assert.equal(mod.decide(p, "edit_file", { path: file }).decision, "ask", file);
      }
      assert.equal(mod.decide(p, "write_file", { path: "notes.txt" }).decision, "allow");
      assert.equal(mod.decide(p, "write_file", { path: "docs/mcp.json" }).decision, "allow");
      assert.equal(mod.decide(p, "read_file", { path: ".harness/settings.json" }).decision, "allow");
      const { policy: denied } = await policy({ deny: ["Write(.harness/*)"] }, mod);
      assert.equal(mod.decide(denied, "write_file", { path: ".harness/settings.json" }).decision, "deny");
    });

    it("默认和 Claude Code 一样：工作目录里的读放行，目录外的读要问；写要问，除非 allow（工具名或 Write(…)/Edit(…) 路径模式）", async () => {
      const { policy: none } = await policy({}, mod);
      assert.equal(mod.decide(none, "read_file", { path: "notes.txt" }).decision, "allow");
      assert.equal(mod.decide(none, "read_file", { path: "../../../etc/passwd" }).decision, "ask");
      assert.equal(mod.decide(none, "read_file", { path: path.join(os.homedir(), ".ssh", "id_ed25519") }).decision, "ask");
      assert.equal(mod.decide(none, "write_file", { path: "notes.txt" }).decision, "ask");
      assert.equal(mod.decide(none, "edit_file", { path: "notes.txt" }).decision, "ask");
      // 硬链接：名字在工作目录里，文件却可能是外面的那一个
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perm-link-"));
      const before = process.cwd();
      try {
        fs.writeFileSync(path.join(dir, "a.txt"), "x");
        fs.linkSync(path.join(dir, "a.txt"), path.join(dir, "b.txt"));
        fs.writeFileSync(path.join(dir, "c.txt"), "x");
        process.chdir(dir);
        assert.equal(mod.decide(none, "read_file", { path: "b.txt" }).decision, "ask");
        assert.equal(mod.decide(none, "read_file", { path: "c.txt" }).decision, "allow");
      } finally {
        process.chdir(before);
        fs.rmSync(dir, { recursive: true });
      }
      const { policy: docs } = await policy({ allow: ["Write(docs/*)", "edit_file"] }, mod);
      assert.equal(mod.decide(docs, "write_file", { path: "docs/a.md" }).decision, "allow");
      assert.equal(mod.decide(docs, "write_file", { path: "a.md" }).decision, "ask");
      assert.equal(mod.decide(docs, "edit_file", { path: "a.md" }).decision, "allow");
    });

    it("文件夹信任：没信任前项目的 allow 不算、deny/ask 算，一行说明；信任记在用户目录里；用户设置总是算数", async () => {
      const project = { allow: ["bash"], deny: ["bash(git push*)"] };
      const untrusted = await policy({ allow: ["bash(echo *)"] }, mod, project);
      assert.deepEqual(untrusted.policy.allow.map((r: any) => r.text), ["bash(echo *)"]);
      assert.deepEqual(untrusted.policy.deny.map((r: any) => r.text), ["bash(git push*)"]);
      assert.equal(untrusted.warnings.length, 1);
      assert.match(untrusted.warnings[0], /没有被信任/);
      assert.equal(untrusted.saved, undefined);
      const no = await policy({}, mod, project, { answer: false });
      assert.equal(no.questions.length, 1);
      assert.deepEqual(no.policy.allow, []);
      const yes = await policy({}, mod, project, { answer: true });
      assert.deepEqual(yes.policy.allow.map((r: any) => r.text), ["bash"]);
      assert.deepEqual(yes.saved, { folders: [yes.work] });
      const remembered = await policy({}, mod, project, { trusted: true, answer: false });
      assert.equal(remembered.questions.length, 0);
      assert.deepEqual(remembered.policy.allow.map((r: any) => r.text), ["bash"]);
      const quiet = await policy({}, mod, { deny: ["bash(rm *)"] }, { answer: true });
      assert.equal(quiet.questions.length + quiet.warnings.length, 0, "没有 allow 要放行时不必问");
    });

    it("visible：C0（除了 tab）、DEL、C1、双向控制符显形，和同一份代码里 terminal.ts 的 safeLine 一致", async () => {
      const { safeLine } = await import(pathToFileURL(path.join(dir, "terminal.ts")).href);
      const hostile = "a\tb\r\x1b[2K\n\x7f\x85\u202e\u2066x";
      assert.equal(mod.visible(hostile), safeLine(hostile));
      assert.doesNotMatch(mod.visible(hostile), /[\x00-\x08\x0a-\x1f\x7f-\x9f\u202e\u2066]/);
      assert.equal(mod.visible("普通的命令 ls -la"), "普通的命令 ls -la");
    });
  });
}
