// fs-lock.ts：工作目录这一份文件系统，bash 和文件工具轮流用。
// 第 20 章新增：read_file、write_file、edit_file 先检查路径、再用它；检查和使用之间要是插进一条 bash（ln -s、mv），
// 检查过的就不是用到的那个。所以两类互斥：bash 和 bash 一起跑，读和读一起跑，写和写一个接一个。
import type { Tool } from "./registry.ts";

export type FsUse = "bash" | "read" | "write";

// 整个进程一份：同一轮的调用、并发的子 agent，用的是同一套工具，也就排同一条队
const running: Record<FsUse, number> = { bash: 0, read: 0, write: 0 };
const waiting: { use: FsUse; start: () => void }[] = [];

function fits(use: FsUse): boolean {
  if (use === "bash") return running.read + running.write === 0;
  return running.bash === 0 && (use === "read" || running.write === 0);
}

// 先来先得：队头能跑就放行，放到第一个还不能跑的为止。后来的不插队——一直有 bash 进来，等着的写也不会饿死
function admit(): void {
  while (waiting.length > 0 && fits(waiting[0].use)) {
    const next = waiting.shift()!;
    running[next.use]++;
    next.start();
  }
}

// 排队直到轮到这一类；返回 false 表示排队时用户按了 Ctrl-C，没有轮到、也不必释放
function acquire(use: FsUse, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const giveUp = () => {
      waiting.splice(waiting.indexOf(entry), 1);
      admit(); // 它挡着的后面几个也许现在就能跑
      resolve(false);
    };
    const entry = {
      use,
      start: () => {
        signal?.removeEventListener("abort", giveUp);
        resolve(true);
      },
    };
    signal?.addEventListener("abort", giveUp, { once: true });
    waiting.push(entry); // 同步地排进去：调用发出的那一刻就占好位置
    admit();
  });
}

function release(use: FsUse): void {
  running[use]--;
  admit();
}

// 给一个工具套上这把锁：从权限检查到工具做完，都在轮到它的那一段里（套在 guard 外面）
export function locked(use: FsUse, tool: Tool): Tool {
  return {
    definition: () => tool.definition(),
    async execute(args, signal) {
      if (!(await acquire(use, signal))) return "错误: 用户按了 Ctrl-C，这个调用没有执行";
      try {
        return await tool.execute(args, signal);
      } finally {
        release(use);
      }
    },
  };
}
