// text-file.ts：读一个别人放进工作目录的文本文件，比如 AGENTS.md。
// 第 04 章新增。仓库里的一个名字可以指向任何东西：指向 /dev/zero 的链接读不到头，FIFO、/dev/tty 一打开就等着有人来写——
// harness 就卡在启动上。所以只读普通文件，也只读到一个上限为止。
import fs from "node:fs";
import path from "node:path";

// 1 MiB：比真实的说明文件大几十倍；再大的东西塞进 system prompt，只会让每一轮都又慢又贵
export const MAX_TEXT_FILE = 1024 * 1024;

// 读不了就抛出，原因放在 code 里：运行时给的是 ENOENT、EISDIR 这样的错误码，我们自己的原因是一句短话。
// 调用方只报 code——异常的原话出自运行时，随 Node 版本而变。
// within：解开符号链接以后，文件还得在这个目录里。仓库里的 AGENTS.md 可以是指向 ~/.ssh/id_ed25519 的链接，
// 照读不误，就把私钥送进了 system prompt
export function readTextFile(file: string, { max = MAX_TEXT_FILE, within }: { max?: number; within?: string } = {}): string {
  // O_NONBLOCK：打开 FIFO 时不等人来写。先打开、再看打开的是什么：先 stat 再 open 的话，中间那一刻文件可能被换掉
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() && !stat.isDirectory()) throw refusal("不是普通文件"); // 目录留给下面的读去报 EISDIR
    if (within !== undefined && !opensInside(file, stat, within)) throw refusal("指向工作目录之外");
    if (stat.size > max) throw refusal(`超过 ${max / 1024 / 1024} MiB`);
    const bytes = Buffer.alloc(stat.size); // 只读 fstat 时的大小：有人一边读一边往里追加，也读不到头
    const read = fs.readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, read).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

// 名字解开链接后落在 dir 里，并且就是打开的那一个文件（打开之后，名字可能已经被换成了别的）。
// 有几个硬链接的文件也算在外面：硬链接是同一个文件的另一个名字，realpath 解不开，另一个名字可能就在 ~/.ssh 里
function opensInside(file: string, opened: fs.Stats, dir: string): boolean {
  if (opened.isFile() && opened.nlink > 1) return false;
  const real = fs.realpathSync(file);
  const rel = path.relative(fs.realpathSync(dir), real);
  if (rel === ".." || rel.startsWith(".." + path.sep) || path.isAbsolute(rel)) return false;
  const named = fs.statSync(real);
  return named.dev === opened.dev && named.ino === opened.ino;
}

function refusal(why: string): NodeJS.ErrnoException {
  return Object.assign(new Error(why), { code: why });
}
