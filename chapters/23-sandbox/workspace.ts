// workspace.ts：把模型给的路径关在工作目录里。
// 第 08 章新增：先解开符号链接再比较，`..`、别处的绝对路径、兄弟目录、指向外面的链接都拦得住。
import fs from "node:fs";
import path from "node:path";

// 返回 p 在工作目录里的绝对路径；跑到工作目录外面就抛出一句中文说明
export function resolveInside(root: string, p: string): string {
  const realRoot = fs.realpathSync(root);
  const target = realPathOf(path.resolve(root, p));
  // 不能用 startsWith(root) 比较：/home/me/work2 也以 /home/me/work 开头。path.relative 才说得清谁在谁里面
  const rel = path.relative(realRoot, target);
  if (rel === ".." || rel.startsWith(".." + path.sep) || path.isAbsolute(rel)) {
    throw new Error(`${p} 在工作目录之外（实际指向 ${target}），不能写`);
  }
  return target;
}

// 文件存在就取它的真实路径（顺着符号链接走到底）；还不存在，就取最近一层存在的父目录的真实路径，
// 再接上还没建出来的那一截——链接可能藏在路径中间的任何一层
function realPathOf(abs: string): string {
  let existing = abs;
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    if (isLink(existing)) throw new Error(`${abs} 是一个指向不存在目标的符号链接，不能写`);
    rest.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
