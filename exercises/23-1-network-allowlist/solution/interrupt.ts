// interrupt.ts：Ctrl-C。第一次按，中断正在进行的这一问（请求或工具）；没有在进行的、或者已经中断过了，再按就退出。
// SIGTERM、SIGHUP：中断手上的事，然后退出。
// 第 12 章新增。
export class InterruptError extends Error {
  constructor() {
    super("用户按了 Ctrl-C");
  }
}

export class Interrupter {
  private current: AbortController | undefined;

  constructor() {
    process.on("SIGINT", () => this.onInterrupt());
    // kill 默认发 SIGTERM，关掉终端窗口是 SIGHUP。Node 对它们的默认处理是当场死掉、不触发 "exit" 事件，
    // 自成进程组的命令（信号到不了它们）就没人收拾了。所以像 Ctrl-C 一样先中断手上的事，再正常退出：
    // 剩下的进程由 "exit" 事件里的清理结束。退出码按惯例是 128 + 信号编号
    for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
      process.on(signal, () => {
        this.current?.abort(new InterruptError());
        process.stderr.write(`[收到 ${signal}，结束正在运行的命令，退出]\n`);
        process.exit(code);
      });
    }
  }

  // 开始一问：返回这一问的 signal，请求和工具都听它的
  begin(): AbortSignal {
    this.current = new AbortController();
    return this.current.signal;
  }

  end(): void {
    this.current = undefined;
  }

  private onInterrupt() {
    if (this.current && !this.current.signal.aborted) {
      process.stderr.write("\n[已中断。再按一次 Ctrl-C 退出]\n");
      this.current.abort(new InterruptError());
      return;
    }
    // 约定俗成：被 SIGINT 结束的程序退出码是 128 + 2
    process.stderr.write("\n");
    process.exit(130);
  }
}
