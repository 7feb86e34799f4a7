// outputs.ts：超出预算的工具结果，整份存进这个会话自己的目录（~/.harness/projects/<工作目录>/sessions/<会话 id>/），
// 模型拿到头尾和这份文件的路径，要看省略的部分就用 read_file 读它——不用问，也不再过预算。
// 练习 14-1 新增。存在用户目录里，不在工作目录里：仓库里多出一堆输出文件，git status 就脏了，模型也可能把它们当成项目的一部分。
import fs from "node:fs";
import path from "node:path";

const MAX_FILES = setting("HARNESS_SAVED_OUTPUTS", 20); // 一个会话最多留这么多份，多了删最早的

function setting(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const NAME = /^output-(\d+)\.txt$/;

export class SavedOutputs {
  private readonly dir: string;
  private readonly files: string[] = []; // 按存的先后，真实路径
  private next = 1;

  // dir：会话文件旁边、以会话 id 为名的目录。接着聊（--resume）时，上次存下的照样认、照样算在上限里
  constructor(dir: string) {
    this.dir = dir;
    const old = fs.existsSync(dir) && fs.lstatSync(dir).isDirectory() ? fs.readdirSync(dir) : [];
    const numbers = old.map((f) => Number(f.match(NAME)?.[1])).filter((n) => n > 0).sort((a, b) => a - b);
    for (const n of numbers) this.files.push(path.join(fs.realpathSync(dir), `output-${n}.txt`));
    this.next = (numbers.at(-1) ?? 0) + 1;
  }

  // 原样存下（控制字符、半截的转义序列都不动：这是“完整的输出”），交回路径；存不下交回 undefined，模型照样拿到头尾
  save(text: string): string | undefined {
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (!fs.lstatSync(this.dir).isDirectory()) return undefined; // 被换成了符号链接：不往别处写
      const file = path.join(fs.realpathSync(this.dir), `output-${this.next++}.txt`);
      const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        fs.writeSync(fd, text);
      } finally {
        fs.closeSync(fd);
      }
      this.files.push(file);
      while (this.files.length > MAX_FILES) fs.rmSync(this.files.shift()!, { force: true });
      return file;
    } catch {
      return undefined;
    }
  }

  // 模型要读的正是我们存下的某一份：解开链接以后和存下时的路径一字不差。
  // 只认这几个文件，不认这个目录、不认别的会话：别处的文件照旧按权限规则问
  has(p: unknown): boolean {
    if (typeof p !== "string" || p === "") return false;
    try {
      return this.files.includes(fs.realpathSync(p));
    } catch {
      return false;
    }
  }

  // 会话一次也没存成（第一个请求就失败了）：没有会话可以接着聊，它的输出也不留
  discard(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
