// mcp-stderr.ts：服务器的 stderr 是它的日志，由我们转印：带上服务名、限长、限速。
// 第 22 章新增。另有 socket()：子进程的管道在运行时是 net.Socket，可以 ref/unref，类型声明里却没有。
import type { ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

// 一行最多印 STDERR_LINE 个字；一秒里最多 STDERR_RATE 行，多出来的说一声就丢掉。管道照样一直读空：
// 不读的话它写满管道就卡住，再也不回答我们；全印的话一个刷屏的服务器能把 harness 拖得动不了
const STDERR_LINE = 500;
const STDERR_RATE = 20;

export function pipeStderr(child: ChildProcess, show: (line: string) => void) {
  const decoder = new TextDecoder(); // 一个字被切在两块里也能拼回来
  let partial = ""; // 还没等到换行的半行（最多留 STDERR_LINE 个字，其余丢掉）
  let cut = false; // 这一行已经超长
  let windowStart = 0;
  let shown = 0;
  const emit = (line: string) => {
    const now = performance.now();
    if (now - windowStart >= 1000) [windowStart, shown] = [now, 0];
    if (++shown <= STDERR_RATE) show(line.replace(/\r$/, ""));
    else if (shown === STDERR_RATE + 1) show(`（这一秒里日志超过 ${STDERR_RATE} 行，后面的不再显示）`);
  };
  child.stderr!.on("data", (chunk: Buffer) => {
    const parts = decoder.decode(chunk, { stream: true }).split("\n");
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) {
        emit(partial + (cut ? "…（这一行太长，没有印完）" : ""));
        [partial, cut] = ["", false];
      }
      if (cut) continue;
      partial += parts[i];
      if (partial.length > STDERR_LINE) [partial, cut] = [partial.slice(0, STDERR_LINE), true];
    }
  });
  socket(child.stderr).unref(); // 只有日志在流的时候，harness 不必为它多等
  child.stderr!.on("end", () => {
    if (partial || cut) emit(partial + (cut ? "…（这一行太长，没有印完）" : ""));
  });
}

// 子进程的管道在运行时是 net.Socket，能 ref/unref（留不留住事件循环）；Node 的类型声明把它们写成普通的流，在这里转一次型
export function socket(stream: Readable | Writable | null): Socket {
  return stream as unknown as Socket;
}
