// tools/walk.ts：glob 和 grep 共用的两件事——把 path 参数落到工作目录里（按真实路径），和有界地走一遍目录树。
// 练习 07-2 新增。
import fs from "node:fs/promises";
import path from "node:path";

const SKIP_DIRS = new Set([".git", "node_modules"]); // 不进：版本库的内部、装好的依赖——又大又不是这个项目写的
const MAX_ENTRIES = 50_000; // 一次最多看这么多个目录项：一个巨大的目录树不该让一次调用走上几分钟

export interface Place {
  root: string; // 工作目录的真实路径
  base: string; // 从这里找起（真实路径，在 root 里面）
  isFile: boolean; // path 指的是一个文件
}

// path 参数 → 真实路径，必须落在工作目录里。先解开符号链接再比：指向外面的链接、“..”都出不去
export async function place(arg: unknown): Promise<Place | string> {
  if (arg !== undefined && typeof arg !== "string") return "错误: path 要是字符串";
  const root = await fs.realpath(process.cwd());
  let base: string;
  try {
    base = await fs.realpath(path.resolve(root, arg || "."));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `错误: 路径不存在：${arg}` : `错误: 打不开 ${arg}：${code ?? "未知错误"}`;
  }
  if (base !== root && !base.startsWith(root + path.sep)) return `错误: ${arg} 不在工作目录里（解开符号链接以后），只在工作目录里找`;
  const stat = await fs.stat(base);
  if (!stat.isDirectory() && !stat.isFile()) return `错误: ${arg} 不是目录，也不是普通文件`;
  return { root, base, isFile: stat.isFile() };
}

// 走一遍目录树，交回普通文件（相对 root 的路径，排好序）。符号链接一律不跟（和 ripgrep 默认一样）：
// 指向外面的链接出不去，指向自己的链接（ln -s . loop）也绕不成圈；FIFO、套接字、设备不是普通文件，碰都不碰——
// 打开一个没人写的 FIFO 会一直等下去
export async function listFiles(p: Place): Promise<{ files: string[]; truncated: boolean }> {
  if (p.isFile) return { files: [path.relative(p.root, p.base)], truncated: false };
  const files: string[] = [];
  const dirs = [p.base];
  let seen = 0;
  while (dirs.length > 0) {
    const dir = dirs.pop()!;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // 读不了的目录（没有权限）跳过
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return { files: files.sort(), truncated: true };
      const full = path.join(dir, e.name);
      // Dirent 的类型来自 lstat：符号链接就是符号链接，不会被当成它指向的东西
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) dirs.push(full);
      else if (e.isFile()) files.push(path.relative(p.root, full));
    }
  }
  return { files: files.sort(), truncated: false };
}

export const TRUNCATED_WALK = `注意: 目录项超过 ${MAX_ENTRIES} 个，只看了前面这些；用 path 指一个更小的目录`;

// 文件名模式 → 正则：* 不跨目录，** 跨任意层（含零层），? 一个字符，{a,b} 任选其一；别的字符照字面。
// 整个相对路径从头到尾都要对上（^…$）：*.ts 不该对上 view.tsx
export function globToRegExp(glob: string): RegExp | undefined {
  let re = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        re += "(?:[^/]*/)*"; // **/ ：零层或几层目录
      } else re += ".*";
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "{") {
      depth++;
      re += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      re += ")";
    } else if (c === "," && depth > 0) re += "|";
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return depth === 0 ? new RegExp(`^${re}$`) : undefined;
}
