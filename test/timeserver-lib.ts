// 测试里起一个 `timeserver --http --port 0`：系统挑端口，从 stderr 那一行读出地址。
// timeserver、SDK 对接、一致性套件几份测试共用；另有一个只防卡死的 hangGuard
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launcher } from "../shared/scenario.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// 起时间服务器的命令行：和场景一样“编译一次、跑很多次”（Node 20 上打成一个 .mjs，会擦除类型的 Node 直接跑 .ts）——
// 几十个服务器进程，每个都经过 tsx 现编译的话，光这个文件就要多花十来秒 CPU
export const SERVER = await launcher(path.join(ROOT, "timeserver"), false);

export const NOW_SHANGHAI = "2026-08-07T14:03:09+08:00";

export class HttpTimeserver {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  readonly url: Promise<string>;
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(SERVER[0]!, [...SERVER.slice(1), "--http", "--port", "0"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    running.add(this.child);
    this.exited = new Promise((resolve) => this.child.on("close", resolve));
    this.url = new Promise((resolve, reject) => {
      this.child.stderr.on("data", (chunk: Buffer) => {
        this.stderr += chunk.toString("utf8");
        const m = /在 (http:\/\/127\.0\.0\.1:\d+\/mcp) 上听\n/.exec(this.stderr);
        if (m) resolve(m[1]!);
      });
      this.exited.then(() => reject(new Error(`没有打印地址就退出了；stderr: ${this.stderr}`)));
    });
    this.url.catch(() => {}); // 没人等地址时，进程退出不算未处理的拒绝
  }
}

const running = new Set<ChildProcessWithoutNullStreams>();
// 测试文件的 after() 里调：一个进程也不留下
export function killHttpTimeservers(): void {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}

// 只防卡死：等到事情发生为止，120 秒还没发生才算卡住（正常几十毫秒，忙时冷启动也不到它的八分之一；SDK 的每个请求自己有 60 秒的时限）
export async function hangGuard<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}（等了 120 秒，卡住了）`)), 120_000)));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}
