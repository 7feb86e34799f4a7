// tools/bash.ts：bash 工具——在工作目录里跑一条 shell 命令，交回退出码和两路输出。
// 第 23 章改动：命令经过 confine 起进程——沙箱开着时，bash 跑在 bwrap 里。
// 练习 23-2 改动：outside_sandbox 为 true 的命令不经过 confine，在沙箱外跑（要不要跑，permissions.ts 已经问过用户）。
import { spawn } from "node:child_process";
import type { ToolSpec } from "../model.ts";
import { confine } from "../sandbox.ts";
import type { Tool } from "../registry.ts";

const DEFAULT_TIMEOUT = 30; // 秒
const MAX_TIMEOUT = 600;
const GRACE_MS = 5000; // 整组结束后，最多再等输出关上这么久（机器很忙时，一条正常结束的命令的管道也可能过了一两秒才关上）
const MAX_BYTES = 1 << 20; // 每一路最多攒这么多字节，再多只计数：一条 `yes` 不该撑爆内存

const spec: ToolSpec = {
  name: "bash",
  description: `在工作目录里用 bash 执行一条命令，返回退出码、stdout 和 stderr。默认 ${DEFAULT_TIMEOUT} 秒超时；命令结束时，它放到后台的进程也会被结束。`,
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", description: "要执行的命令" },
      timeout: { type: "integer", description: `超时秒数，默认 ${DEFAULT_TIMEOUT}，最多 ${MAX_TIMEOUT}` },
      outside_sandbox: {
        type: "boolean",
        description: "true：这条命令不进沙箱（比如要写工作目录外面、要上网）。每次都要用户在终端上确认，没有终端就被拒绝；能在沙箱里做的别用它",
      },
    },
    required: ["command"],
  },
};

// 正在跑的命令（进程组号）。harness 退出时一并结束：它们在自己的进程组里，终端的 Ctrl-C 够不着
const running = new Set<number>();
process.on("exit", () => running.forEach(killGroup));

async function bash(args: string, signal?: AbortSignal): Promise<string> {
  const { command, timeout, outside_sandbox } = JSON.parse(args);
  if (typeof command !== "string" || command.trim() === "") return "错误: 缺少参数 command（字符串）";
  const seconds = Number.isInteger(timeout) && timeout > 0 ? Math.min(timeout, MAX_TIMEOUT) : DEFAULT_TIMEOUT;
  // 和 permissions.ts 用同一个判断：只有布尔的 true 才算。"true"、1 在那边没被当成沙箱外、没问过人，这里也不能当
  return run(command, seconds, signal, outside_sandbox === true);
}

function run(command: string, seconds: number, signal?: AbortSignal, outside = false): Promise<string> {
  return new Promise((resolve) => {
    // detached：bash 自己当一个进程组的头。超时的时候，一个发给整组的信号就能带走它生的所有子孙——
    // 只杀 bash 本身的话，`sleep 100 &` 这样的后台进程会变成孤儿继续跑
    const { argv: [program, ...argv], release } = outside ? { argv: ["bash", "-c", command], release: () => {} } : confine("bash", ["-c", command]);
    const child = spawn(program, argv, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
    child.once("exit", release); // 沙箱为这条命令放的占位文件，命令一退出就拿掉
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    if (child.pid !== undefined) running.add(child.pid);
    let timedOut = false;
    let escaped = false;
    let closed = false;
    let grace: NodeJS.Timeout | undefined;
    // 结束整个进程组。组里的进程一死，输出管道就该关上；过了 GRACE_MS 还开着，说明有进程用 setsid 之类
    // 离开了这个组，信号够不着它。不再等它：自己关掉管道，交回结果（它之后写的输出就丢了）
    const endGroup = () => {
      killGroup(child.pid);
      // 到点时先让事件循环再看一眼管道（setImmediate 排在这一轮的 I/O 之后）：机器忙、harness 晚了一拍时，
      // 早已关上的管道会先被读到，不会被当成有进程逃走
      grace ??= setTimeout(() => setImmediate(() => {
        if (closed) return;
        escaped = true;
        child.stdout.destroy();
        child.stderr.destroy();
      }), GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      endGroup();
    }, seconds * 1000);
    const interrupt = () => endGroup();
    signal?.addEventListener("abort", interrupt, { once: true });
    child.on("error", (e) => {
      release();
      clearTimeout(timer);
      resolve(`错误: 启动 bash 失败：${e.message}`);
    });
    // bash 退出了，可它的后台子孙还攥着输出管道，"close" 会一直等下去——先把整组清掉
    child.on("exit", endGroup);
    child.on("close", (code, killedBy) => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(grace);
      signal?.removeEventListener("abort", interrupt);
      if (child.pid !== undefined) running.delete(child.pid);
      const ended = escaped ? "的进程组已经结束" : "和它启动的所有进程都已结束";
      const head = timedOut
        ? `错误: 命令超时（${seconds} 秒），它${ended}`
        : signal?.aborted
          ? `错误: 用户按了 Ctrl-C，命令${ended}`
          : `退出码: ${code ?? `被信号 ${killedBy} 结束`}`;
      resolve([head, escaped && ESCAPED, section("stdout", stdout()), section("stderr", stderr())].filter(Boolean).join("\n"));
    });
  });
}

// 进程组挡不住 setsid：真要一个不漏，得用 cgroup 或者 PID 命名空间（容器就是这么做的）
const ESCAPED = "注意: 有进程脱离了进程组（比如用了 setsid），harness 结束不了它，它可能还在运行；它之后的输出没有收进来";

// 攒下一路输出；到最后才整体解码，免得一个汉字被切在两块之间
function collect(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  stream.on("data", (chunk: Buffer) => {
    if (kept < MAX_BYTES) {
      chunks.push(chunk);
      kept += chunk.length;
    } else dropped += chunk.length;
  });
  return () => {
    const text = Buffer.concat(chunks).toString("utf8");
    return dropped === 0 ? text : `${text}\n...（超过 1 MB，后面还有 ${dropped} 字节没有留下）`;
  };
}

function section(name: string, text: string): string {
  return text === "" ? "" : `[${name}]\n${text.replace(/\n$/, "")}`;
}

function killGroup(pid: number | undefined) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL"); // 负的 pid = 整个进程组
  } catch {
    // 组里已经没有进程了
  }
}

// 命令用得着 PATH、HOME 这些，但用不着我们的 API 密钥：模型一句 `env` 就能把它打印出来
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.HARNESS_API_KEY;
  delete env.DEEPSEEK_API_KEY;
  return env;
}

export const bashTool: Tool = {
  definition: () => spec,
  execute: bash,
};
