// 第 23 章 sandbox.ts 的纯函数：bwrap 的参数、macOS 的 Seatbelt 配置文字、设置怎么读。
// macOS 这条路 CI 跑不了，只能在这里看它生成的文字对不对；Linux 那条路另有真的 bwrap 场景（shared/fixtures/23-sandbox）。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { decide, parseRule } from "../chapters/23-sandbox/permissions.ts";
import { bwrapArgs, readSettings, seatbeltProfile, SECRETS, walled, type Walls } from "../chapters/23-sandbox/sandbox.ts";

// 第 23 章的判决，沙箱开着
function decideSandboxed(args: Record<string, unknown>, rules: { deny?: string[]; ask?: string[] } = {}, tool = "bash"): string {
  const parse = (list: string[] = []) => list.map((r) => parseRule(r)!);
  return decide({ allow: [], ask: parse(rules.ask), deny: parse(rules.deny) }, tool, args, true).decision;
}

// 假的文件系统：哪些路径是目录、哪些是文件
const fake = (dirs: string[], files: string[] = []): Walls["kind"] => (p) => (dirs.includes(p) ? "dir" : files.includes(p) ? "file" : undefined);
const walls = (over: Partial<Walls> = {}): Walls => ({
  cwd: "/home/me/work",
  home: "/home/me",
  denyRead: SECRETS,
  kind: fake(["/home/me/.ssh", "/home/me/.aws", "/home/me/work/.harness", "/home/me/work/.git", "/home/me/work/.git/hooks"], ["/home/me/.netrc", "/home/me/work/mcp.json"]),
  ...over,
});

// 一对一对地读：["--bind", a, a] 这样的挂载
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    const flag = args[i];
    if (["--ro-bind", "--bind"].includes(flag)) out.push(`${flag} ${args[++i]} ${args[++i]}`);
    else if (["--tmpfs", "--dev", "--proc", "--chdir"].includes(flag)) out.push(`${flag} ${args[++i]}`);
    else if (flag === "--setenv") out.push(`${flag} ${args[++i]} ${args[++i]}`);
    else out.push(flag);
  }
  return out;
}

describe("bwrapArgs", () => {
  it("只读的根、私有的 /tmp、可写的工作目录，秘密和受保护的路径排在工作目录之后", () => {
    assert.deepEqual(mounts(bwrapArgs(walls())), [
      "--ro-bind / /",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      "--bind /home/me/work /home/me/work",
      "--tmpfs /home/me/.ssh",
      "--tmpfs /home/me/.aws",
      "--ro-bind /dev/null /home/me/.netrc",
      "--ro-bind /home/me/work/.harness /home/me/work/.harness",
      "--ro-bind /home/me/work/.git/hooks /home/me/work/.git/hooks",
      "--ro-bind /home/me/work/mcp.json /home/me/work/mcp.json",
      "--unshare-all",
      "--new-session",
      "--die-with-parent",
      "--setenv TMPDIR /tmp",
      "--chdir /home/me/work",
    ]);
    assert.equal(bwrapArgs(walls()).at(-1), "--", "命令接在 -- 之后");
  });

  it("工作目录就是家目录：秘密照样盖住（挂在工作目录之后）", () => {
    const m = mounts(bwrapArgs(walls({ cwd: "/home/me" })));
    assert.ok(m.indexOf("--tmpfs /home/me/.ssh") > m.indexOf("--bind /home/me /home/me"));
  });

  it("工作目录在某个秘密里面：不盖它（用户就是要在那里干活），别的秘密照盖", () => {
    const m = mounts(bwrapArgs(walls({ cwd: "/home/me/.aws/project" })));
    assert.ok(!m.includes("--tmpfs /home/me/.aws"));
    assert.ok(m.includes("--tmpfs /home/me/.ssh"));
  });

  it("harness 自己的项目在 /tmp 下面：私有的 /tmp 之后只读挂回来（在工作目录之前）；在别处就不用另挂", () => {
    const m = mounts(bwrapArgs(walls({ program: "/tmp/learnharness" })));
    assert.ok(m.indexOf("--ro-bind /tmp/learnharness /tmp/learnharness") > m.indexOf("--tmpfs /tmp"));
    assert.ok(m.indexOf("--ro-bind /tmp/learnharness /tmp/learnharness") < m.indexOf("--bind /home/me/work /home/me/work"));
    assert.deepEqual(mounts(bwrapArgs(walls({ program: "/home/me/learnharness" }))), mounts(bwrapArgs(walls())));
    assert.deepEqual(mounts(bwrapArgs(walls({ program: "/tmpfoo/learnharness" }))), mounts(bwrapArgs(walls())), "/tmpfoo 不在 /tmp 下面");
  });

  it("受保护的路径（第 09 章那一张表）挂在第一段缺的地方：全新的文件夹里挂在 .git 上，git init 就建不出 .git/config；.git 是个文件（worktree）就挂它", () => {
    const fresh = walled("/home/me/work", fake([]));
    assert.deepEqual(fresh.map((p) => path.relative("/home/me/work", p)), [".harness", ".claude", ".git", "mcp.json", "AGENTS.md", "CLAUDE.md", ".env"]);
    const repo = walled("/home/me/work", fake(["/home/me/work/.git"]));
    assert.ok(repo.includes("/home/me/work/.git/hooks") && repo.includes("/home/me/work/.git/config") && !repo.includes("/home/me/work/.git"));
    const worktree = walled("/home/me/work", fake([], ["/home/me/work/.git"]));
    assert.ok(worktree.includes("/home/me/work/.git") && !worktree.some((p) => p.includes(".git/")));
  });

  it("已经有的 .env.local 也只读（.env* 是个模式，内核只认路径）", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-walled-"));
    fs.writeFileSync(path.join(dir, ".env.local"), "K=1\n");
    const found = walled(dir, () => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.ok(found.includes(path.join(dir, ".env.local")) && found.includes(path.join(dir, ".env")));
  });

  it("用户加的 denyRead：~/ 展开成家目录，绝对路径原样；不存在的不挂", () => {
    const m = mounts(bwrapArgs(walls({ denyRead: ["~/notes", "/srv/keys", "~/absent"], kind: fake(["/home/me/notes"], ["/srv/keys"]) })));
    assert.ok(m.includes("--tmpfs /home/me/notes"));
    assert.ok(m.includes("--ro-bind /dev/null /srv/keys"));
    assert.ok(!m.some((x) => x.includes("absent")));
  });
});

describe("seatbeltProfile", () => {
  it("先全部禁止；读放行、秘密不许读；只写工作目录和临时目录，受保护的路径不许写；没有网络", () => {
    const profile = seatbeltProfile(walls({ cwd: "/Users/me/work", home: "/Users/me", denyRead: ["~/.ssh", "~/.netrc"] }));
    const lines = profile.trim().split("\n");
    assert.equal(lines[0], "(version 1)");
    assert.equal(lines[1], "(deny default)");
    assert.ok(lines.includes("(allow file-read*)"));
    assert.ok(lines.includes("(allow signal (target same-sandbox))"), "信号只能发给沙箱里的进程");
    assert.ok(lines.includes('(deny file-read* (subpath "/Users/me/.ssh") (literal "/Users/me/.ssh") (subpath "/Users/me/.netrc") (literal "/Users/me/.netrc"))'));
    assert.ok(lines.includes('(allow file-write* (subpath "/Users/me/work") (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))'));
    // 按路径拒绝，不管在不在：和 bwrap 那边是同一张表；.git 本身也不许建
    const denied = lines.find((l) => l.startsWith("(deny file-write*"))!;
    for (const p of [".git", ".harness", ".claude", ".git/hooks", ".git/config", "mcp.json", "AGENTS.md", "CLAUDE.md", ".env"]) assert.ok(denied.includes(`"/Users/me/work/${p}")`), `${p} 不在 ${denied}`);
    assert.equal(lines.at(-1), "(deny network*)");
    // 后写的规则优先：禁止读秘密在放行读之后，禁止写受保护的路径在放行写之后
    assert.ok(lines.findIndex((l) => l.startsWith("(deny file-read*")) > lines.indexOf("(allow file-read*)"));
    assert.ok(lines.findIndex((l) => l.startsWith("(deny file-write*")) > lines.findIndex((l) => l.startsWith("(allow file-write*")));
  });

  it("路径里的引号和反斜杠转义，写不出配置之外的东西", () => {
    const profile = seatbeltProfile(walls({ cwd: '/Users/me/a"b\\c', home: "/Users/me", denyRead: [] }));
    assert.ok(profile.includes('(subpath "/Users/me/a\\"b\\\\c")'));
    assert.ok(!profile.includes('a"b'));
  });
});

describe("设置只听 ~/.harness/settings.json", () => {
  const dirs = () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "lh-sandbox-"));
    fs.mkdirSync(path.join(base, "home", ".harness"), { recursive: true });
    fs.mkdirSync(path.join(base, "work", ".harness"), { recursive: true });
    return { home: path.join(base, "home"), work: path.join(base, "work"), done: () => fs.rmSync(base, { recursive: true, force: true }) };
  };

  it("仓库的 sandbox 不算，说一声；用户的 denyRead 接在默认之后", () => {
    const { home, work, done } = dirs();
    fs.writeFileSync(path.join(work, ".harness", "settings.json"), '{"sandbox": {"enabled": false, "denyRead": []}}');
    fs.writeFileSync(path.join(home, ".harness", "settings.json"), '{"sandbox": {"denyRead": ["~/notes", "relative", 3]}}');
    const said: string[] = [];
    const settings = readSettings(work, home, (line) => said.push(line));
    done();
    assert.equal(settings.enabled, true);
    assert.deepEqual(settings.denyRead, [...SECRETS, "~/notes"]);
    assert.equal(said.length, 3);
    assert.match(said[0], /^警告: \.harness\/settings\.json 里的 sandbox 设置不生效/);
  });

  it("enabled、required 要是布尔值；写错了按默认，说一声", () => {
    const { home, work, done } = dirs();
    fs.writeFileSync(path.join(home, ".harness", "settings.json"), '{"sandbox": {"enabled": "no", "required": true}}');
    const said: string[] = [];
    const settings = readSettings(work, home, (line) => said.push(line));
    done();
    assert.deepEqual([settings.enabled, settings.required], [true, true]);
    assert.equal(said.length, 1);
  });
});

describe("沙箱开着时的规则", () => {
  it("没有 deny、ask 规则的 bash 放行；deny、ask 照样算数；写文件的工具不受影响", () => {
    assert.equal(decideSandboxed({ command: "$'\\x72m' x" }), "allow");
    assert.equal(decideSandboxed({ command: "rm x" }, { deny: ["bash(rm *)"] }), "deny");
    assert.equal(decideSandboxed({ command: "git push" }, { ask: ["bash(git push*)"] }), "ask");
    assert.equal(decideSandboxed({ path: "a.txt", content: "x" }, {}, "write_file"), "ask");
  });

  it("sudo、busybox 里面那条照样被 deny、ask 看见；看不清的命令（sudo ls、perl -e）有规则管着就问，没有就在沙箱里跑", () => {
    assert.equal(decideSandboxed({ command: "sudo rm x" }, { deny: ["bash(rm *)"] }), "deny");
    assert.equal(decideSandboxed({ command: "busybox sh -c 'git push'" }, { ask: ["bash(git push*)"] }), "ask");
    assert.equal(decideSandboxed({ command: "sudo ls" }, { deny: ["bash(rm *)"] }), "ask");
    assert.equal(decideSandboxed({ command: "perl -e 'unlink q(x)'" }, { deny: ["bash(rm *)"] }), "ask");
    assert.equal(decideSandboxed({ command: "perl -e 'unlink q(x)'" }), "allow");
    assert.equal(decideSandboxed({ command: "unlink x" }, { deny: ["bash(rm *)"] }), "allow", "规则只认拼写：这一条交给沙箱");
  });
});
