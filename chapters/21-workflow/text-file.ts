// text-file.ts：读一个别人放进工作目录的文本文件，比如 AGENTS.md。
// 第 04 章新增。仓库里的一个名字可以指向任何东西：指向 /dev/zero 的链接读不到头，FIFO、/dev/tty 一打开就等着有人来写——
// harness 就卡在启动上。所以只读普通文件，也只读到一个上限为止。
import fs from "node:fs";

// 1 MiB：比真实的说明文件大几十倍；再大的东西塞进 system prompt，只会让每一轮都又慢又贵
export const MAX_TEXT_FILE = 1024 * 1024;

// 读不了就抛出，原因放在 code 里：运行时给的是 ENOENT、EISDIR 这样的错误码，我们自己的原因是一句短话。
// 调用方只报 code——异常的原话出自运行时，随 Node 版本而变
export function readTextFile(file: string, max = MAX_TEXT_FILE): string {
  // O_NONBLOCK：打开 FIFO 时不等人来写。先打开、再看打开的是什么：先 stat 再 open 的话，中间那一刻文件可能被换掉
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() && !stat.isDirectory()) throw refusal("不是普通文件"); // 目录留给下面的读去报 EISDIR
    if (stat.size > max) throw refusal(`超过 ${max / 1024 / 1024} MiB`);
    const bytes = Buffer.alloc(stat.size); // 只读 fstat 时的大小：有人一边读一边往里追加，也读不到头
    const read = fs.readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, read).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

function refusal(why: string): NodeJS.ErrnoException {
  return Object.assign(new Error(why), { code: why });
}
