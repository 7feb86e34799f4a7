// 检查器的分流器（练习 06-2）：场景用 NODE_OPTIONS=--import=./.tap.mjs 在 harness 启动前加载它。
// 场景的转录里 stdout 和 stderr 本是合在一起的，分不出哪行去了哪里；所以它不让 harness 在这个进程里跑，
// 而是原样再起一次同一个 harness（同样的 node 参数、命令行、标准输入），stderr 照旧直通转录，stdout 用管道整段收下——
// 收的是文件描述符 1 上的每一个字节，不管是 console.log、process.stdout.write 还是 fs.writeSync(1)。
// harness 结束以后，在转录末尾写一行 [stdout ↓]，接着是 stdout 的原样内容，再一行 [stdout ↑]（没有以换行结尾就说出来），
// 最后带着 harness 的退出码退出。
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

if (!process.env.LH_TAP_INSIDE) {
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ["inherit", "pipe", "inherit"],
    env: { ...process.env, LH_TAP_INSIDE: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = run.stdout ?? Buffer.alloc(0);
  fs.writeSync(2, "[stdout ↓]\n");
  fs.writeSync(2, out);
  fs.writeSync(2, out.length === 0 || out.at(-1) === 0x0a ? "[stdout ↑]\n" : "\n[stdout ↑ 最后一行没有换行]\n");
  process.exit(run.status ?? 128 + (os.constants.signals[run.signal] ?? 0));
}
