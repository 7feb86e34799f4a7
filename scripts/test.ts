// npm test 和 npm run test:all 的入口：挑出这一层的测试文件交给 node --test，并且保证停得干净。
// 两层（像 SQLite 的 veryquick 和 full）：
//   npm test（快的一层）：类型检查、单元测试、最后一章上的全部场景、每一章自己的演示场景、每个练习的检查器（答案过、起点不过）、章节规则；
//   npm run test:all：再加上每一章自己的全部场景、每一章上继承来的运行、变异体、和别人写的对端（SDK、一致性套件、发布的服务器）、网页的浏览器检查。
// 整次运行用一个自己的临时目录（TMPDIR）。被 Ctrl-C、SIGTERM、SIGHUP 打断时：先把信号转给测试进程组，等它们收尾，
// 再把工作目录还在这个临时目录里的进程（场景的服务器、harness 起的 MCP 服务器和 bash 命令）都杀掉，删掉目录，带着信号的退出码走。
// 用法：npm test [-- 测试文件…]，npm run test:all [-- 测试文件…]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, killProcessesUnder, processesUnder, tempRoot } from "../shared/scenario.ts";

const args = process.argv.slice(2);
const all = args.includes("--all");
const named = args.filter((a) => a !== "--all");

// 只在 test:all 里跑的：贵，或者证明的是和别人的代码、别的机器能力（浏览器）的配合，不是某一章的承诺
export const FULL_ONLY = [/^mutants/, /^carry\.test/, /^interop-/, /^conformance\.test/, /^site\.test/, /^bench\.test/, /^stop\.test/, /^paths\.test/, /^recipes\.test/, /^reader-copy\.test/, /^reader-commands\.test/];
const files = named.length > 0 ? named : fs
  .readdirSync(path.join(ROOT, "test"))
  .filter((f) => f.endsWith(".test.ts") && (all || !FULL_ONLY.some((re) => re.test(f))))
  .sort()
  .map((f) => path.join("test", f));

const scratch = fs.mkdtempSync(path.join(tempRoot(), "lh-test-")); // 不在 /tmp 下：第 23 章的沙箱有私有的 /tmp
// 自成一个进程组：终端的 Ctrl-C 只到这里，由这里按顺序收拾（测试进程先收尾，再扫尾）
const child = spawn(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 4}`, "--test-reporter=spec", ...files], {
  cwd: ROOT,
  stdio: "inherit",
  detached: true,
  env: { ...testEnv(), TMPDIR: scratch, LH_TIER: all ? "all" : "quick" },
});

// 自己就是在某个测试里被起来的（test/stop.test.ts）：去掉 node --test 给子进程的标记，不然里面的 node --test 什么也不跑
function testEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}
const exited = new Promise<number>((resolve) => child.on("close", (code, signal) => resolve(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1))));

function signalGroup(signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // 整组都已经没了
  }
}

// 这个进程组里还有没有活着的进程（Linux 上看 /proc；别的系统只看直接的子进程）
function groupAlive(): boolean {
  if (process.platform !== "linux") return child.exitCode === null && child.signalCode === null;
  return fs.readdirSync("/proc").some((pid) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ");
      return fields?.[2] === String(child.pid) && fields[0] !== "Z";
    } catch {
      return false;
    }
  });
}

async function finish(code: number): Promise<never> {
  // 扫尾：正常结束时这里应当什么也找不到（每个场景的裁判已经查过）；被打断时这里收拾逃出进程组的
  const left = killProcessesUnder(scratch);
  if (left.length > 0 && !stopping) console.error(`警告: 测试结束后还有 ${left.length} 个进程待在临时目录里，已结束它们`);
  fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}

let stopping = false;
async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  signalGroup(signal === "SIGINT" ? "SIGINT" : "SIGTERM");
  // 测试进程收到信号会让 harness 像被用户打断一样收尾；等整组走完（只是防卡死的时限：10 秒）
  // clock-ok: 轮询，每次都重查条件
  for (let i = 0; i < 200 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 50));
  signalGroup("SIGKILL");
  await exited;
  // 组里的进程刚死，它们起的（自成进程组的）还在：反复扫，直到临时目录里一个进程也不剩
  // clock-ok: 轮询，每次都重查条件
  for (let i = 0; i < 50 && processesUnder(scratch).length > 0; i++) {
    killProcessesUnder(scratch);
    await new Promise((r) => setTimeout(r, 20));
  }
  await finish(128 + (os.constants.signals[signal] ?? 0));
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal));

const code = await exited;
if (!stopping) await finish(code);
