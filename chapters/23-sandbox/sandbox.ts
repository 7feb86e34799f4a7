// sandbox.ts：执行边界。bash 的每条命令、每个 stdio MCP 服务器都在操作系统的沙箱里跑：
// 只有工作目录可写，秘密看不见，看不到 harness 的进程，没有网络。规则管模型能要什么，沙箱管命令能做什么。
// 第 23 章新增。Linux 用 bubblewrap（bwrap），macOS 用 sandbox-exec 加一份生成的配置；都没有就警告，照第 22 章办。
// 工作目录里受保护的路径（permissions.ts 的 PROTECTED）只读，还不存在的也建不出来：每条命令开始时现看、现挂。
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "./model.ts";
import { PROTECTED } from "./permissions.ts";
import { safeLine } from "./terminal.ts";
import { readTextFile } from "./text-file.ts";

export interface SandboxSettings {
  enabled: boolean;
  required: boolean; // 沙箱起不来就不启动
  denyRead: string[]; // 看不见的路径：默认的秘密，加上用户自己添的
}

// 一台开发机上最值钱的东西：钥匙、令牌、云账号。命令和 MCP 服务器一律看不见（用户可以在 denyRead 里再加）
export const SECRETS = ["~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.kube", "~/.docker", "~/.config/gh", "~/.netrc", "~/.npmrc", "~/.pypirc", "~/.harness"];

const USER = "~/.harness/settings.json";

// 沙箱只听用户自己的 ~/.harness/settings.json。仓库里的 .harness/settings.json 跟着 clone 来，
// 它要是能写 "enabled": false，沙箱就形同虚设——那里的 sandbox 一律不算，说一声
export function readSettings(cwd: string, home: string, warn: (line: string) => void): SandboxSettings {
  const settings: SandboxSettings = { enabled: true, required: false, denyRead: [...SECRETS] };
  if (readJson(path.join(cwd, ".harness", "settings.json"))?.sandbox !== undefined) {
    warn(`警告: .harness/settings.json 里的 sandbox 设置不生效：仓库不能放宽沙箱，沙箱只听 ${USER}`);
  }
  const sandbox = readJson(path.join(home, ".harness", "settings.json"))?.sandbox; // 读不了、不是 JSON：第 09 章已经说过了
  if (sandbox === undefined || sandbox === null) return settings;
  if (typeof sandbox !== "object" || Array.isArray(sandbox)) {
    warn(`警告: ${USER} 的 sandbox 要是一个对象，按默认设置（开着）`);
    return settings;
  }
  for (const key of ["enabled", "required"] as const) {
    if (sandbox[key] === undefined) continue;
    if (typeof sandbox[key] === "boolean") settings[key] = sandbox[key];
    else warn(`警告: ${USER} 的 sandbox.${key} 要是 true 或 false，按默认（${settings[key]}）`);
  }
  for (const entry of Array.isArray(sandbox.denyRead) ? sandbox.denyRead : sandbox.denyRead === undefined ? [] : [sandbox.denyRead]) {
    // 只收绝对路径和 ~/ 开头的：相对路径相对谁，说不清
    if (typeof entry === "string" && (entry.startsWith("/") || entry.startsWith("~/"))) settings.denyRead.push(entry);
    else warn(`警告: ${USER} 的 sandbox.denyRead 里的 ${safeLine(JSON.stringify(entry) ?? String(entry))} 要是绝对路径或 ~/ 开头的路径，忽略`);
  }
  return settings;
}

function readJson(file: string): any {
  try {
    return JSON.parse(readTextFile(file)); // 仓库里的那份可以指向 /dev/zero、是个 FIFO：只读普通文件
  } catch {
    return undefined;
  }
}

// ---- 这台机器上有什么沙箱：有就说用哪个，没有就说为什么、怎么装 ----

export type Availability = { kind: "bwrap" | "seatbelt"; program: string } | { reason: string };

export async function detect(platform = process.platform, searchPath = process.env.PATH ?? ""): Promise<Availability> {
  if (platform === "darwin") {
    const program = which("sandbox-exec", searchPath);
    return program ? { kind: "seatbelt", program } : { reason: "找不到 sandbox-exec（macOS 自带的，应该在 /usr/bin 里）" };
  }
  if (platform !== "linux") return { reason: `这个系统（${platform}）没有这一章会用的沙箱：Linux 用 bubblewrap，macOS 用 sandbox-exec` };
  const program = which("bwrap", searchPath);
  if (!program) return { reason: "PATH 里找不到 bwrap；装上 bubblewrap 就有了：apt install bubblewrap（Fedora：dnf install bubblewrap）" };
  // 有 bwrap 不等于能用：内核或者 AppArmor 可能不许普通用户建命名空间。真起一个最小的沙箱试试
  const failure = await new Promise<string | undefined>((resolve) =>
    execFile(program, ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "true"], { timeout: 10_000 }, (error, _out, stderr) =>
      resolve(error ? (String(stderr).trim().split("\n")[0] || `退出码 ${error.code}`) : undefined),
    ),
  );
  if (failure === undefined) return { kind: "bwrap", program };
  return { reason: `bwrap 起不来（${safeLine(failure)}）；多半是系统不许普通用户建用户命名空间（Ubuntu 24.04 的 AppArmor 就是这样），见第 23 章 README 的常见坑` };
}

export function which(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // 不在这里
    }
  }
  return undefined;
}

// ---- 沙箱的样子：从同一份设置生成，Linux 是 bwrap 的参数，macOS 是 sandbox-exec 的配置文字 ----

export interface Walls {
  cwd: string; // 工作目录（真实路径）：唯一可写的地方
  home: string;
  denyRead: string[]; // 还带着 ~/ 的写法
  kind: (p: string) => "dir" | "file" | undefined; // 这个路径是什么；不存在是 undefined（测试里换成假的）
  program?: string; // harness 自己所在的项目（真实路径）：在 /tmp 下面时也要看得见，见 bwrapArgs
}

export function bwrapArgs(walls: Walls): string[] {
  const { cwd, kind } = walls;
  // 私有的 /tmp 盖住原来 /tmp 里的一切（别人的临时文件、ssh-agent 的套接字）；工作目录在它下面也照样挂得上
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // harness 自己的项目要是在 /tmp 下面（把仓库克隆在 /tmp 里），私有的 /tmp 会连它一起盖掉，书里的 MCP 服务器、tsx 就都找不到了。
  // 别处的项目本来就只读看得见，这里只是把它照原样（只读）再挂回来
  if (walls.program && isInside(walls.program, "/tmp")) args.push("--ro-bind", walls.program, walls.program);
  args.push("--bind", cwd, cwd);
  // 后挂的盖住先挂的：秘密、受保护的路径都排在工作目录之后，工作目录就是家目录时也照样盖得住
  for (const secret of secrets(walls)) {
    const what = kind(secret);
    if (what === "dir") args.push("--tmpfs", secret); // 一层空的 tmpfs 盖在上面：目录还在，里面什么都没有
    else if (what === "file") args.push("--ro-bind", "/dev/null", secret);
  }
  for (const p of walled(cwd, kind)) if (kind(p)) args.push("--ro-bind", p, p); // 不存在的，confine 已经放好了占位（见 hold）
  // --unshare-all：新的用户、PID、网络、IPC、UTS、cgroup 命名空间。看不见 harness 的进程（/proc/$PPID/environ 也就没了），没有网络。
  // --new-session：命令拿不到我们的终端，塞不进按键（TIOCSTI）；--die-with-parent：harness 一死，里面的一切跟着死
  args.push("--unshare-all", "--new-session", "--die-with-parent", "--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--");
  return args;
}

// denyRead 展开成绝对路径；工作目录本身就在某个秘密里面时不盖它（用户就是要在那里干活）
function secrets({ cwd, home, denyRead }: Walls): string[] {
  const expanded = denyRead.map((p) => (p.startsWith("~/") ? path.join(home, p.slice(2)) : p)).map((p) => realOr(p));
  return [...new Set(expanded)].filter((p) => !isInside(cwd, p));
}

// write_file 写之前要问的那张表（PROTECTED），在沙箱里只读——否则一条 echo 就绕过了那个问题。
// .git 只管 hooks/ 和 config：能让 git 替人跑程序的是这两处；整个 .git 只读的话，git commit 就用不了了。
// .env* 是个模式，内核只认路径：挡得住 .env 和已经有的 .env.local，挡不住新起一个名字的
function guarded(cwd: string): string[] {
  const names = fs.existsSync(cwd) ? fs.readdirSync(cwd) : [];
  return PROTECTED.flatMap((entry) => {
    if (entry === ".git/") return [".git/hooks", ".git/config"];
    if (entry.endsWith("*")) return [entry.slice(0, -1), ...names.filter((n) => n.toLowerCase().startsWith(entry.slice(0, -1).toLowerCase()))];
    return [entry.replace(/^\/|\/$/g, "")];
  });
}

// 挂成只读的那一处：路径都在，就是它自己；半路缺了一段（或者半路是个文件），就是那一段——
// .git 还不存在时挂在 .git 上，git init 就建不出一个命令能改的 .git/config
export function walled(cwd: string, kind: Walls["kind"]): string[] {
  const walls = guarded(cwd).map((rel) => {
    let p = cwd;
    for (const part of rel.split("/")) {
      p = path.join(p, part);
      if (kind(p) !== "dir") break;
    }
    return p;
  });
  return [...new Set(walls)];
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || !(rel === ".." || rel.startsWith(".." + path.sep) || path.isAbsolute(rel));
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p); // ~/.ssh 可能是一个链接：盖住它指向的地方
  } catch {
    return p;
  }
}

// macOS 的 Seatbelt 配置（SBPL）：先全部禁止，再放行要用的；后写的规则优先。macOS 没有挂载命名空间，
// 给不了私有的 /tmp，只能允许写系统的临时目录。这台 CI 跑不了它，只测这段文字
export function seatbeltProfile(walls: Walls, tmp = ["/private/tmp", "/private/var/folders"]): string {
  const { cwd } = walls;
  const q = (p: string) => `"${p.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
  const sub = (p: string) => `(subpath ${q(p)})`;
  const lit = (p: string) => `(literal ${q(p)})`;
  const hidden = secrets(walls).map((p) => `${sub(p)} ${lit(p)}`);
  // Seatbelt 按路径拒绝，不管它在不在：.git 本身也写上（建不出 .git；已有的 .git 里面照样能写）
  const readonly = [lit(path.join(cwd, ".git")), ...guarded(cwd).map((rel) => sub(path.join(cwd, rel)))];
  return [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))", // 只能给沙箱里的进程发信号：够不着 harness
    "(allow sysctl-read mach-lookup ipc-posix-shm)",
    "(allow file-read*)",
    `(deny file-read* ${hidden.join(" ")})`,
    `(allow file-write* ${[cwd, ...tmp].map(sub).join(" ")} (literal "/dev/null") (literal "/dev/tty"))`,
    `(deny file-write* ${readonly.join(" ")})`,
    "(deny network*)",
    "",
  ].join("\n");
}

// ---- 开着的沙箱：main.ts 启动时定下来，bash 和 MCP 客户端起进程时都经过 confine ----

let wrap: ((argv: string[]) => string[]) | undefined;
let workdir = ""; // 沙箱开着时的工作目录（真实路径）

// 起进程要的命令行，和进程退出后要调的 release（拿掉为它放的占位文件）
export interface Confined {
  argv: string[];
  release: () => void;
}

// 起一个进程之前：命令先在沙箱外找一找，找不到就和第 22 章一样报 ENOENT（而不是沙箱里一句看不懂的 execvp），
// 再套上沙箱。命令名原样交给 bwrap（它照 PATH 找）：bash 报错时自称 bash，不是 /usr/bin/bash。沙箱没开时原样交回
export function confine(command: string, args: string[]): Confined {
  if (!wrap) return { argv: [command, ...args], release: () => {} };
  const found = command.includes("/") ? fs.existsSync(command) : which(command, process.env.PATH ?? "") !== undefined;
  if (!found) throw Object.assign(new Error(`找不到命令 ${command}`), { code: "ENOENT" });
  const release = hold(walled(workdir, kind).filter((p) => !fs.lstatSync(p, { throwIfNoEntry: false }) || placeholders.has(p)));
  return { argv: wrap([command, ...args]), release };
}

// 还不存在的受保护路径：命令开始前放一个空文件（O_EXCL，确实是我们建的），沙箱把它只读挂上，命令就建不出同名的东西；
// 命令退出后拿掉。几条命令同时跑时共用一个，最后一个退出的拿掉；其间有人往里写了东西（比如用户批准的 write_file），就留着它
const placeholders = new Map<string, { users: number; ino: number }>();
process.on("exit", () => placeholders.forEach((_, p) => unplace(p)));

function hold(paths: string[]): () => void {
  const held = paths.filter((p) => {
    const mine = placeholders.get(p);
    if (mine) {
      mine.users++;
      return true;
    }
    try {
      const fd = fs.openSync(p, "wx");
      placeholders.set(p, { users: 1, ino: fs.fstatSync(fd).ino });
      fs.closeSync(fd);
      return true;
    } catch {
      return false; // 刚被别人建了（它在了，照样只读挂上），或者建不了（命令也一样建不了）
    }
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const p of held) if (--placeholders.get(p)!.users === 0) unplace(p);
  };
}

function unplace(p: string) {
  const { ino } = placeholders.get(p)!;
  placeholders.delete(p);
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  if (stat?.isFile() && stat.size === 0 && stat.ino === ino) fs.rmSync(p, { force: true });
}

// 返回沙箱开着没有；"required": true 而沙箱起不来时抛 ConfigError（main.ts 打一行 错误:，退出码 2）
export async function startSandbox(cwd: string, home = os.homedir(), log = (line: string) => console.error(line)): Promise<boolean> {
  const settings = readSettings(cwd, home, log);
  if (!settings.enabled) return false;
  const found = await detect();
  if ("reason" in found) {
    if (settings.required) throw new ConfigError(`沙箱不可用：${found.reason}。${USER} 写了 "required": true，不启动`);
    log(`警告: 沙箱不可用：${found.reason}。这一次 bash 照第 09 章的规则问你，MCP 服务器也不在沙箱里`);
    return false;
  }
  const walls: Walls = { cwd: fs.realpathSync(cwd), home: realOr(home), denyRead: settings.denyRead, kind, program: projectRoot() };
  workdir = walls.cwd;
  if (found.kind === "bwrap") {
    wrap = (argv) => [found.program, ...bwrapArgs(walls), ...argv]; // 受保护的路径在不在，每条命令现看
  } else {
    const profile = seatbeltProfile(walls);
    wrap = (argv) => [found.program, "-p", profile, ...argv];
  }
  log(`[沙箱：${found.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"}。bash 和 MCP 服务器只能写工作目录，看不见 ${walls.denyRead.length} 处秘密，没有网络]`);
  return true;
}

// harness 自己所在的项目：从这个文件往上找到有 package.json 的那一层；一路都没有，就是这个文件所在的目录
function projectRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return realOr(dir);
    if (path.dirname(dir) === dir) return realOr(here);
  }
}

function kind(p: string): "dir" | "file" | undefined {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  return stat?.isDirectory() ? "dir" : stat ? "file" : undefined;
}
