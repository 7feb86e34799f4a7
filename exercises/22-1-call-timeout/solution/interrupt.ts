// interrupt.ts：Ctrl-C。第一次按，中断正在进行的这一问（请求或工具）；没有在进行的、或者已经中断过了，再按就退出。
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
