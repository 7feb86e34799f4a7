// 停得干净：npm test、npm run test:all、verify、check 跑到一半被 Ctrl-C 或 SIGTERM 打断，它们起的每一个进程——
// 测试进程、harness、场景的服务器（自成进程组）、harness 起的 MCP 服务器——都跟着走，临时目录也删掉。
// 先后靠构造：等 /proc 里真的出现了要找的进程（服务器已经起来、harness 正在跑）才发信号；之后在 /proc 里一个也找不到。
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../shared/scenario.ts";

const linux = process.platform === "linux";

// 工作目录在 root 里、或者命令行里写着 root 的活进程：“pid pgrp 命令行”
function under(root: string): string[] {
  return fs.readdirSync("/proc").flatMap((pid) => {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return [];
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      const [state, , pgrp] = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      if (state === "Z") return [];
      return cwd === root || cwd.startsWith(root + "/") || cmd.includes(root) ? [`${pid} ${pgrp} ${cmd}`] : [];
    } catch {
      return [];
    }
  });
}

// 轮询，每次都重查条件；时限只防卡死（两核全忙时约一分钟等到）
async function until(what: string, check: () => boolean, output: () => string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50)); // clock-ok: 轮询
  }
  assert.fail(`300 秒里没等到${what}：\n${output()}`);
}

// running：等到哪个进程出现再发信号（拿“pid pgrp 命令行”和这次的进程组号来认）
async function interrupt(argv: string[], running: (proc: string, group: number) => boolean, send: (child: ChildProcess) => void, exitCode: number) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-stop-")));
  let output = "";
  // 自成进程组，像终端里的前台作业：SIGINT 发给整组就是按了 Ctrl-C
  const child = spawn(process.execPath, ["--import", "tsx", ...argv], { cwd: ROOT, env: { ...process.env, TMPDIR: root }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  try {
    await until("要找的进程", () => under(root).some((p) => running(p, child.pid!)), () => `${under(root).join("\n")}\n${output.slice(-2000)}`);
    send(child);
    const code = await closed;
    assert.equal(code, exitCode, `退出码：\n${output.slice(-2000)}`);
    // 刚被杀的进程可能还没咽气：最多等 10 秒
    // clock-ok: 轮询，每次都重查条件
    for (let i = 0; i < 200 && under(root).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(under(root), [], "打断以后还活着的进程");
    // tsx 自己的编译缓存（tsx-<uid>）本来就是留着下次用的，不算
    assert.deepEqual(fs.readdirSync(root).filter((name) => !/^tsx-\d+$/.test(name)), [], "打断以后留下的临时目录");
  } finally {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // 早就走了
    }
    for (const p of under(root)) process.kill(Number(p.split(" ")[0]), "SIGKILL");
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const skip = linux ? false : "要在 /proc 里查进程：只在 Linux 上跑";
// 练习 22-5 的检查场景开跑之前先起好 HTTP 服务器（自成进程组）：原来打断时它们会被留下
const server = (proc: string) => /hostile-http\.(ts|mjs)|era\.(ts|mjs) listen/.test(proc);
// harness 起的 MCP 服务器自成进程组：和被打断的命令不在一个组里
const ownGroup = (proc: string, group: number) => Number(proc.split(" ")[1]) !== group;

describe("打断测试和检查：不留进程", { concurrency: 2, skip }, () => {
  it("npm test 的入口收到 SIGTERM（比如 kill 了 npm）：测试进程、harness、场景的服务器都结束，退出码 143", () =>
    interrupt(["scripts/test.ts", "test/exercises.test.ts"], server, (child) => child.kill("SIGTERM"), 143));

  it("npm test 跑到一半按 Ctrl-C（SIGINT 给整个前台进程组）：一样，退出码 130", () =>
    interrupt(["scripts/test.ts", "test/exercises.test.ts"], server, (child) => process.kill(-child.pid!, "SIGINT"), 130));

  it("npm run check -- 22-5 跑到一半按 Ctrl-C：它起好的 hostile-http 服务器也结束", () =>
    interrupt(["scripts/check.ts", "22-5", "exercises/22-5-remote-http/solution"], server, (child) => process.kill(-child.pid!, "SIGINT"), 130));

  it("npm run verify -- 22 收到 SIGTERM：harness 和它起的 MCP 服务器都结束，退出码 143", () =>
    interrupt(["scripts/verify.ts", "22", "chapters/22-mcp-client", "--own"], ownGroup, (child) => child.kill("SIGTERM"), 143));
});
