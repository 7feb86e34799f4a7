// 场景：读 shared/fixtures/<章>/<场景>/，在临时工作目录里把某一章真的跑起来，
// 拿到 stderr+stdout 合流的转录，归一化后和 expected.txt 比对。
// 转录测试、npm run demo、npm run verify 用的都是这一份代码。
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { SourceMap, createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PROFILES, startScriptedModel, type Profile, type RecordedRequest, type Turn } from "./scripted-model.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES = path.join(ROOT, "shared", "fixtures");
export const CHAPTERS = path.join(ROOT, "chapters");
const TSX = import.meta.resolve("tsx");
const LIFTOFF = path.join(ROOT, "shared", "liftoff.cjs");

// 这个 Node 自己会擦除类型（≥ 22.18，或 23.6 起）：.ts 直接就能跑，什么工具都不用
const [major, minor] = process.versions.node.split(".").map(Number);
export const STRIPS_TYPES = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);

export interface ScenarioSpec {
  description?: string;
  args?: string[]; // 命令行参数；没有就是 REPL
  stdin?: string; // 喂给标准输入的文字
  env?: Record<string, string | null>; // 覆盖环境变量；null 表示删掉
  model?: "scripted" | "refused"; // refused：指向一个没人监听的端口
  profiles?: Profile[] | "all"; // 用哪几家服务商的形状各跑一遍，转录必须一样
  setup?: string; // 开跑之前在工作目录里执行的 bash 命令（建符号链接、git init……）
  mcp?: object; // 写成工作目录里的 mcp.json；字符串里的 $NODE、$TSX、$ROOT、$WORK 换成这台机器上的实际值，$URL_<名字> 换成 servers 里那个服务器的地址
  // 开跑之前起好的服务器（远程 MCP 服务，或者 relay.ts 接过去的 stdio 服务器）：名字 → 命令行（同样换 $NODE、$TSX、$ROOT）。
  // 它在 stderr 上报出的第一个 http://127.0.0.1:端口…（或 tcp://…）就是它的地址；几次运行都跑完了才杀掉它，它报地址以后在 stderr 上说的话接在转录末尾
  servers?: Record<string, string[]>;
  tty?: boolean; // 在伪终端里跑（util-linux 的 script）：stdin 是终端，可以被问 y/N
  runs?: { args?: string[]; stdin?: string; cwd?: string }[]; // 在同一个工作目录里接连运行几次（代替 args、stdin）；cwd：这一次在它的哪个子目录里跑
  interact?: Step[]; // 输出里出现某段文字之后要做的事：敲一行字，或者按 Ctrl-C
  demo?: boolean; // npm run demo 播放的那个场景
  timeoutMs?: number; // 场景的时限，默认 180 秒，只防卡死：两核机器上 test:all 里最慢的一次运行 27 秒（bench/limits.ts 量），留 5 倍以上
  retired?: { chapter: string; why: string }; // 从这一章起（含）不再适用：这一章有意去掉了这个行为，README 里要说
  // 第 23 章起 harness 要一个能用的 bubblewrap：没有就跳过（CI 上不跳，失败）。写 false 的场景不用它（把沙箱关了，或者故意让 harness 找不到 bwrap）
  bwrap?: false;
  // harness 退出之后，在工作目录里（沙箱之外，像用户自己那样）执行的 bash 命令；命令和它的输出接在转录末尾。
  // 比如 git status：看命令留下的东西会不会在用户下一次敲 git 时跑起来
  afterwards?: string;
  turns: Turn[];
}

// 每一步都等一个“已经发生”的事实再动手，不靠睡一会儿：慢机器上睡多久都可能不够
export interface Step {
  after: string; // 等转录里出现这段文字（从上一步之后算起）
  afterRequest?: number; // 并且脚本模型已经收到了第 N 次请求（它正在“想”，请求确实在途）
  afterFile?: string; // 并且工作目录里已经有了这个文件、而且不空（工具确实跑起来了）
  send?: string; // 再敲这一行（终端里就是打字加回车）
  signal?: "SIGINT" | "SIGTERM" | "SIGHUP"; // 或者发一个信号：终端里的 SIGINT 是真的按 Ctrl-C，其余（和管道模式）是发给 harness 进程的信号
}

export interface Scenario {
  chapter: string; // 场景出自哪一章（目录名，如 06-tool-registry）
  name: string;
  dir: string;
  spec: ScenarioSpec;
}

// 一个场景用在某一章上：出自本章，或者继承自前面的章。转录默认沿用出处的 expected.txt；
// 后面某一章有意改了这个场景的行为，就在那一章放一个同名目录（expected*.txt 加一行理由 why.txt，没有 scenario.json），从那一章起用它
export interface Applied {
  s: Scenario;
  chapter: string; // 拿来跑的那一章
  own: boolean; // 场景出自这一章
  expectedDir: string;
  why?: string; // 用的是改写：那一章为什么有意改变了这个场景的输出
  profiles: Profile[];
}

export interface RunResult {
  transcript: string; // 已归一化，含退出码行
  exitCode: number | null;
  requests: number;
  leftovers: string[]; // harness 退出后还活着、工作目录还在临时目录里的进程（只在 Linux 上查得到）
  bodies: any[]; // 脚本模型收到的每个请求体（练习的检查器要看工具结果）
  records: RecordedRequest[]; // 同上，连同状态码与被拒绝的原因
  unusedTurns: number[]; // 脚本里没用到的轮
  timedOut: boolean; // 撞上了场景的时限
  quiet?: boolean; // harness 自己一个字也没打印（服务器说的话、[退出码] 这些运行器添上的行不算）
}

export function chapterDirs(): string[] {
  return fs.readdirSync(CHAPTERS).filter((d) => /^\d\d-/.test(d)).sort();
}

// 一章目录里的全部文件（相对路径，/ 分隔，含 README.md），不算 node_modules、运行留下的 .harness/ 和日志
const NOT_CHAPTER_FILES = new Set(["node_modules", ".harness", ".DS_Store"]);
export function chapterFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (NOT_CHAPTER_FILES.has(e.name) || e.name.endsWith(".log")) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk("");
  return out.sort();
}

// "6"、"06"、"06-tool-registry" 都认
export function findChapter(arg: string): string | undefined {
  const n = arg.match(/^(\d+)/)?.[1];
  if (!n) return undefined;
  return chapterDirs().find((d) => d.startsWith(n.padStart(2, "0") + "-"));
}

export function listScenarios(chapter: string): Scenario[] {
  const base = path.join(FIXTURES, chapter);
  if (!fs.existsSync(base)) return [];
  return fs
    .readdirSync(base)
    .filter((name) => fs.existsSync(path.join(base, name, "scenario.json")))
    .sort()
    .map((name) => {
      const dir = path.join(base, name);
      const spec = JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8")) as ScenarioSpec;
      return { chapter, name, dir, spec };
    });
}

// 适用于某一章的全部场景：前面每一章（含本章）的场景，去掉已经退役的。
// 继承来的场景只用第一家服务商的形状跑——每家的差别由出处那一章把关
export function scenariosFor(chapter: string, options: { ownOnly?: boolean } = {}): Applied[] {
  const n = Number(chapter.slice(0, 2));
  return chapterDirs()
    .filter((c) => (options.ownOnly ? c === chapter : c <= chapter))
    .flatMap((origin) => listScenarios(origin))
    .filter((s) => !s.spec.retired || n < Number(s.spec.retired.chapter))
    .map((s) => {
      const own = s.chapter === chapter;
      const profiles = own ? profilesOf(s) : profilesOf(s).slice(0, 1);
      const override = overrideDir(s, chapter);
      const why = override && readIfExists(path.join(override, "why.txt")).trim();
      return { s, chapter, own, expectedDir: override ?? s.dir, why, profiles };
    });
}

function readIfExists(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

// 继承来的运行比的是行为，不是账目。后面的章按设计会改变的数字——跟着 tools 数组和 system prompt 变大的 token 数——
// 只比形状；后面的章给每份转录都添上的那类行（第 10 章的会话行、第 13 章的用量行）由那一章在 line-kinds.json 里声明一次，
// 比的时候放在一边。场景出自的那一章照旧逐字逐数地比
export function comparable(a: Applied): (text: string) => string {
  if (a.own) return (text) => text;
  const aside = lineKinds().filter((k) => k.chapter > a.s.chapter && k.chapter <= a.chapter).map((k) => k.pattern);
  return (text) =>
    text
      .split("\n")
      .filter((line) => !aside.some((re) => re.test(line)))
      .map(byShape)
      .join("\n");
}

// 跟着请求的措辞变的数字（token 数、命中缓存）只留形状。读者的副本措辞和书上差一个字，这些数字就不同（verify 里的注说清差在哪）
export function byShape(text: string): string {
  return text.replace(TOKEN_FIGURE, "#");
}

const TOKEN_FIGURE = /\d+(?= tokens)|(?<=命中缓存 )\d+/g;

export interface LineKind {
  chapter: string; // 哪一章开始给转录添上这类行
  pattern: RegExp;
  why: string;
}

let kinds: LineKind[] | undefined;
export function lineKinds(): LineKind[] {
  kinds ??= chapterDirs().flatMap((chapter) => {
    const file = path.join(FIXTURES, chapter, "line-kinds.json");
    if (!fs.existsSync(file)) return [];
    const declared = JSON.parse(fs.readFileSync(file, "utf8")) as { pattern: string; why: string }[];
    return declared.map((k) => ({ chapter, pattern: new RegExp(k.pattern), why: k.why }));
  });
  return kinds;
}

// 从 chapter 往回找，离它最近的那个改写了这个场景转录的章
function overrideDir(s: Scenario, chapter: string): string | undefined {
  for (const c of chapterDirs().filter((d) => d > s.chapter && d <= chapter).reverse()) {
    const dir = path.join(FIXTURES, c, s.name);
    if (fs.existsSync(dir)) return dir;
  }
  return undefined;
}

export function profilesOf(s: Scenario): Profile[] {
  const p = s.spec.profiles;
  return p === "all" ? PROFILES : p ?? ["deepseek"];
}

export function expectedPath(s: Scenario, profile?: Profile, dir = s.dir): string {
  return path.join(dir, profile ? `expected.${profile}.txt` : "expected.txt");
}

// 某家服务商的转录和别家不同时（比如 Ollama 不报缓存命中），用 expected.<服务商>.txt 单独记一份
export function expectedFor(s: Scenario, profile: Profile, dir = s.dir): string {
  const own = expectedPath(s, profile, dir);
  return fs.existsSync(own) ? own : expectedPath(s, undefined, dir);
}

export interface RunOptions {
  profile?: Profile;
  live?: boolean; // 直接输出到终端（npm run demo），不收集转录
  byHand?: boolean; // live 时读者自己在终端前照 interact 的步骤操作（回答 y/N）；不设就由运行器替他操作
  realClock?: boolean; // 去掉 mcp.json 里的 TIMESERVER_NOW，让时间服务器用真的时钟（npm start）
  lastStderr?: (text: string) => string; // live 时，最后一次运行的 stderr 先经过它再上屏（演示用它改写那句接不上的 --resume）
  tsx?: boolean; // 照读者 npm run ch 的样子经过 tsx 跑（每次启动都要先编译）；不设就是“编译一次、跑很多次”，见 launcher
  inherited?: boolean; // 场景出自更早的一章（脚本模型对 tools 的检查放宽成“按顺序都在”）
}

// 在 impl 目录（某一章，或读者自己的实现）里跑一个场景
export async function runScenario(s: Scenario, impl: string, opts: RunOptions = {}): Promise<RunResult> {
  const tmp = runDir();
  if (!opts.live) stopOnSignals(); // 演示里的 Ctrl-C 归读者和 harness（scripts/run.ts 自己转信号）
  live.dirs.add(tmp);
  const work = path.join(tmp, "work");
  const home = path.join(tmp, "home");
  fs.mkdirSync(home);
  const workspace = path.join(s.dir, "workspace");
  if (fs.existsSync(workspace)) fs.cpSync(workspace, work, { recursive: true });
  else fs.mkdirSync(work);
  const servers = await startServers(s.spec.servers ?? {}, tmp, opts).catch(async (e) => {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    throw e;
  });
  if (s.spec.mcp) {
    // 服务器和 harness 用同一个 Node、同样“编译一次”（见 writeMcpJson）
    await writeMcpJson(s.spec.mcp, path.join(work, "mcp.json"), { $NODE: process.execPath, $ROOT: ROOT, $WORK: work, ...servers.urls }, opts);
  }
  const homeFixture = path.join(s.dir, "home"); // 用户目录里的东西（比如 ~/.claude/skills/）
  if (fs.existsSync(homeFixture)) fs.cpSync(homeFixture, home, { recursive: true });
  const today = new Date().toISOString().slice(0, 10);
  const paths = { today: today.replaceAll("-", ""), tmp, work, home };
  const normalizeRequest = (text: string) =>
    normalizePaths(text, paths).replaceAll(today, "2026-01-01").replace(/\b(darwin|win32|freebsd)\b/g, "linux");

  const model = await startScriptedModel({ turns: s.spec.turns, profile: opts.profile }, { normalize: normalizeRequest, inherited: opts.inherited });
  const baseUrl = s.spec.model === "refused" ? `http://127.0.0.1:${await closedPort()}` : model.url;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HARNESS_RETRY_BASE_MS: "50", // 第 11 章起出错会重试：场景里从 0.05 秒起步，不必真等一秒（场景可以自己改）
    HOME: home,
    LANG: "C.UTF-8",
    TZ: "UTC", // 日期按 UTC 取，和上面的 today 一致
    HARNESS_BASE_URL: baseUrl,
    HARNESS_API_KEY: "sk-scripted",
    HARNESS_MODEL: "scripted-model",
  };
  // Node ≥ 22.1 把编译（连同类型擦除）的结果缓存起来：同一章跑几十个场景，只有第一次要真编译，CPU 省下三分之二
  if (STRIPS_TYPES) env.NODE_COMPILE_CACHE = path.join(ROOT, ".cache", "node-compile-cache");
  for (const [k, v] of Object.entries(s.spec.env ?? {})) {
    if (v === null) delete env[k];
    else env[k] = v;
  }

  const runner = opts.tsx ? [process.execPath, "--import", TSX, path.join(impl, "main.ts")] : await launcher(impl, opts.live === true);
  const out = path.join(tmp, "transcript.txt");
  const fd = fs.openSync(out, "w");
  try {
    if (s.spec.setup) await runSetup(s.spec.setup, work, env);
    // 多次运行（比如先聊、再 --resume）共用同一个工作目录和同一个脚本模型，转录接在一起
    const runs = s.spec.runs ?? [{ args: s.spec.args, stdin: s.spec.stdin }];
    let child: ChildProcess | undefined;
    const happened = { requests: () => model.requests.length, file: (name: string) => (fs.statSync(path.join(work, name), { throwIfNoEntry: false })?.size ?? 0) > 0 };
    // live 时要替读者操作，就把输出抄一份进转录文件，好知道什么时候该动手
    const tee = opts.live && !opts.byHand && (s.spec.tty || (s.spec.interact ?? []).length > 0) ? fd : undefined;
    const stopInteracting = opts.live && tee === undefined ? () => {} : interact(out, s.spec.interact ?? [], happened, (step) => {
      if (step.send !== undefined) child?.stdin?.write(step.send + (s.spec.tty ? "\r" : "\n"));
      if (step.signal === "SIGINT" && s.spec.tty) child?.stdin?.write("\x03");
      else if (step.signal) signalHarness(child, step.signal, s.spec.tty);
    });
    let exitCode: number | null = 0;
    let timedOut = false;
    let printed = 0;
    for (const run of runs) {
      if (s.spec.runs) {
        const cd = run.cwd === undefined ? "" : `cd ${shellWord(run.cwd)} && `;
        const header = `$ ${cd}npm run ch -- ${Number(s.chapter.slice(0, 2))} ${(run.args ?? []).map(shellWord).join(" ")}`.trimEnd() + "\n";
        if (opts.live) process.stderr.write(header);
        else fs.writeSync(fd, header);
      }
      const command = [...runner, ...(run.args ?? [])];
      const cwd = path.resolve(work, run.cwd ?? ".");
      fs.mkdirSync(cwd, { recursive: true });
      const before = opts.live ? 0 : fs.fstatSync(fd).size;
      exitCode = await new Promise<number | null>((resolve) => {
        child = opts.live
          ? spawnLive(command, cwd, env, s.spec.tty, tee, run === runs.at(-1) ? opts.lastStderr : undefined)
          : s.spec.tty
            ? spawnInTerminal(command, cwd, env, fd)
            : // stdout 和 stderr 指向同一个文件：两路输出按真实发生的先后交织，正是读者在终端里看到的样子
              spawn(command[0], command.slice(1), { cwd, env, stdio: ["pipe", fd, fd] });
        const running = child;
        live.harnesses.add(running);
        running.stdin?.on("error", () => {}); // 子进程可能不读标准输入就退出了
        running.on("error", (e) => fs.writeSync(fd, `[场景运行失败：${e.message}]\n`));
        if (!s.spec.tty) running.stdin?.end(run.stdin ?? "");
        // 演示时读者自己在终端前（可能正在想 y 还是 N），不设时限；测试里卡住的场景到时限就结束
        const limit = s.spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        const timer = opts.live
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              fs.writeSync(fd, `\n[场景超时：${limit / 1000} 秒还没结束，已终止]\n`);
              running.kill("SIGKILL");
            }, limit);
        running.on("close", (code, signal) => {
          live.harnesses.delete(running);
          clearTimeout(timer);
          resolve(signal ? 128 + (os.constants.signals[signal] ?? 0) : code);
        });
      });
      if (!opts.live) printed += fs.fstatSync(fd).size - before;
      if (exitCode !== 0) fs.writeSync(fd, `[退出码 ${exitCode}]\n`);
    }
    stopInteracting();
    if (s.spec.afterwards) {
      fs.writeSync(fd, `$ ${s.spec.afterwards}\n`);
      await runAfterwards(s.spec.afterwards, work, { ...env, GIT_CEILING_DIRECTORIES: tmp }, fd);
    }
    fs.writeSync(fd, await servers.stop());
    fs.closeSync(fd);
    let transcript = normalizeTranscript(remapStacks(fs.readFileSync(out, "utf8")), paths);
    // 终端的控制序列（光标移动、清行）和回车符不是内容
    if (s.spec.tty) transcript = transcript.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r+\n/g, "\n").replace(/\r/g, "");
    const bodies = model.requests.map((r) => r.body);
    const leftovers = await leftoverProcesses(tmp);
    return { transcript, exitCode, requests: bodies.length, bodies, records: model.requests, unusedTurns: model.unusedTurns(), timedOut, leftovers, quiet: printed === 0 };
  } finally {
    await servers.stop();
    await model.close();
    await fs.promises.rm(tmp, { recursive: true, force: true }); // 异步删：同时在跑的场景不必等它
    live.dirs.delete(tmp);
  }
}

// 一次运行的临时目录，路径总是 RUN_DIR_LENGTH 个字符长。system prompt 里写着工作目录，harness 自己估的 token 数
// （压缩那一行、skill 清单）跟着路径的长度走；服务器的日志按长度折行。所以不管 TMPDIR 多长（macOS 的 /var/folders/…、
// watch 给子进程的 lh-watch-…），也不管中间隔着符号链接（/tmp → /private/tmp：先取真实路径再在里面建），转录都一样
export const RUN_DIR_LENGTH = 120;
export function runDir(root = tempRoot()): string {
  const prefix = "lh-";
  const pad = RUN_DIR_LENGTH - (root.length + 1 + prefix.length + 6); // mkdtemp 在后面补 6 个随机字符
  if (pad < 0) throw new Error(`临时目录的路径太长（${root}，${root.length} 个字符）：把 TMPDIR 设成一个短一点的目录再跑`);
  return fs.mkdtempSync(path.join(root, prefix + "_".repeat(pad)));
}

// 正在跑的 harness、场景的服务器和临时目录。测试、verify、check、watch 被 Ctrl-C、SIGTERM、SIGHUP 打断时，
// 先让 harness 像被用户打断一样收尾（第 12 章起它会结束自己的 MCP 服务器和 bash 进程组），再杀服务器的进程组，
// 最后把工作目录还在临时目录里的进程（逃出进程组的、harness 来不及收拾的）一个个杀掉，删掉临时目录，带着信号的退出码走
const live = { harnesses: new Set<ChildProcess>(), servers: new Set<ChildProcess>(), dirs: new Set<string>() };
let watching = false;
function stopOnSignals() {
  if (watching) return;
  watching = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stopEverything(signal));
  process.on("exit", () => {
    for (const child of live.harnesses) child.kill("SIGKILL");
    for (const child of live.servers) killGroup(child);
  });
}

// 别的命令要用、被打断时也要删掉的临时目录（verify 的类型检查）
export function scratchDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  stopOnSignals();
  live.dirs.add(dir);
  return dir;
}

export function dropScratchDir(dir: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  live.dirs.delete(dir);
}

let stopping = false;
async function stopEverything(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  const exited = [...live.harnesses].map((child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("close", () => resolve()))));
  for (const child of live.harnesses) child.kill("SIGTERM");
  for (const child of live.servers) killGroup(child);
  // clock-ok: 只是防卡死的时限，harness 收尾通常几十毫秒
  await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 5000).unref())]);
  for (const child of live.harnesses) child.kill("SIGKILL");
  for (const dir of live.dirs) {
    killProcessesUnder(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(128 + (os.constants.signals[signal] ?? 0));
}

// 场景的工作目录和家目录放在哪（npm test、watch 给子进程的临时目录也建在这里）。第 23 章的沙箱给命令一个私有的 /tmp，
// 盖住原来 /tmp 里的一切：放在 /tmp 下面，命令就看不见家目录、工作目录的邻居了（读者的机器上它们不在 /tmp 里）。
// 所以系统临时目录是 /tmp 时改用 /var/tmp
export function tempRoot(): string {
  const tmp = fs.realpathSync(os.tmpdir());
  return tmp === "/tmp" && fs.existsSync("/var/tmp") ? "/var/tmp" : tmp;
}

// 场景的 setup 也异步跑：同步的 execFileSync 会停住整个事件循环，同时在跑的几个场景都跟着等
function runSetup(script: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`场景的 setup 失败（退出码 ${code}）：${script}`))));
  });
}

// 场景的 afterwards：输出进转录（git 只在工作目录里找仓库，不往上找到临时目录外面去）
function runAfterwards(script: string, cwd: string, env: Record<string, string>, fd: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd, env, stdio: ["ignore", fd, fd] });
    child.on("error", () => {}); // bash 总在（setup 也靠它）；真起不来，close 报出退出码
    child.on("close", (code) => {
      if (code !== 0) fs.writeSync(fd, `[afterwards 退出码 ${code}]\n`);
      resolve();
    });
  });
}

export const DEFAULT_TIMEOUT_MS = 180_000;

// 同一个模块在各章、各练习答案里的几份（单元测试逐份地查）。npm run test:all 每一份都查；npm test（快的一层）只查
// 引入它的那一章和最后一章的那一份：中间的各份是 npm run carry 带过去的，逐份的证明留在全部的那一层
export function copiesForTier(dirs: string[]): string[] {
  if (process.env.LH_TIER !== "quick") return dirs;
  const chapters = dirs.filter((d) => d.startsWith(CHAPTERS + path.sep));
  return [...new Set([chapters[0], chapters.at(-1)])].filter((d) => d !== undefined);
}

// 编译一次、跑很多次：一个场景的运行只该花一次普通的 node 启动。自己会擦除类型的 Node 直接跑 main.ts（连同编译缓存）；
// Node 20 上用 tsx 自带的 esbuild 把整章（或读者的目录）打成一个文件，按内容记下，内容不变就不再打。
// 打出来的文件带着内联的 source map（不带源码 sourcesContent，小一大半）。读者直接看着的运行（live：npm start、演示）
// 加 --enable-source-maps，堆栈当场就是 .ts 的行号；场景的运行不加——那样每次启动都要解码、解析整个 map，
// 一次运行多花 7 毫秒 CPU，而一千多次运行里几乎没有一次打堆栈。它的转录事后再对照 map 把行号换回来（remapStacks）。
// -r shared/liftoff.cjs：fetch（undici）解析 HTTP 的 wasm 只用基线编译器 Liftoff（省下每个进程在后台用 TurboFan 再编一遍的
// 约 40 毫秒 CPU），又不像命令行上的 --liftoff-only 那样让 Node 内置模块的代码缓存作废（为什么，见那个文件）。行为不变。
// Node 24 上量过反而更慢，所以只在这里加
export function launcher(impl: string, live = true): Promise<string[]> {
  const entry = path.join(impl, "main.ts");
  if (STRIPS_TYPES) return Promise.resolve([process.execPath, entry]);
  const maps = live ? ["--enable-source-maps"] : [];
  return compiled(entry).then((out) => (out ? [process.execPath, "-r", LIFTOFF, ...maps, out] : [process.execPath, "--import", TSX, entry]));
}

// 转录里指向打好的 .mjs 的位置（堆栈的每一帧，和没接住的异常开头那一行“文件:行”）换回 .ts 的文件和行号，
// 和 --enable-source-maps 当场换的一样
const BUILT_POSITION = /(?:file:\/\/)?(\/[^\s():]*\/\.cache\/build\/[0-9a-f]+\/[^\s():]+\.mjs):(\d+)(?::(\d+))?/g;
export function remapStacks(text: string): string {
  const built = new Map<string, { map: SourceMap; lines: string[] } | undefined>();
  return text.replace(BUILT_POSITION, (whole, file: string, line: string, column: string | undefined) => {
    if (!built.has(file)) built.set(file, readBuilt(file));
    const b = built.get(file);
    if (!b) return whole;
    const at = Number(line) - 1;
    const col = column === undefined ? (b.lines[at]?.search(/\S/) ?? 0) : Number(column) - 1; // 没有列号：取那一行第一个字
    const entry = b.map.findEntry(at, Math.max(col, 0)) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!entry?.originalSource || entry.originalLine === undefined) return whole;
    const source = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(file), entry.originalSource);
    return `${source}:${entry.originalLine + 1}${column === undefined ? "" : `:${(entry.originalColumn ?? 0) + 1}`}`;
  });
}

function readBuilt(file: string): { map: SourceMap; lines: string[] } | undefined {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, "utf8");
  const data = text.match(/\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/)?.[1];
  if (!data) return undefined;
  return { map: new SourceMap(JSON.parse(Buffer.from(data, "base64").toString("utf8"))), lines: text.split("\n") };
}

// 把一个 .ts 入口连同它 import 的一切打成一个 .mjs，按所在目录里全部 .ts 的内容记下：内容不变就不再打。
// 打不成（读者的代码有语法错误）返回 undefined：交给 tsx 去跑，转录里就是它的报错
const builds = new Map<string, Promise<string | undefined>>();
function compiled(entry: string): Promise<string | undefined> {
  const dir = path.dirname(entry);
  const hash = createHash("sha256").update(JSON.stringify(BUILD_OPTIONS)).update(entry).update("\0"); // 打法变了，旧的也作废
  for (const file of tsFiles(dir)) hash.update(file).update("\0").update(fs.readFileSync(path.join(dir, file))).update("\0");
  const key = hash.digest("hex").slice(0, 16);
  if (!builds.has(key)) builds.set(key, bundle(entry, key));
  return builds.get(key)!;
}

const BUILD_OPTIONS = { bundle: true, platform: "node", format: "esm", target: "node20", charset: "utf8", packages: "external", sourcemap: "inline", sourcesContent: false, logLevel: "silent" } as const;
async function bundle(entry: string, key: string): Promise<string | undefined> {
  const outfile = path.join(ROOT, ".cache", "build", key, path.basename(entry).replace(/\.[cm]?ts$/, ".mjs"));
  if (fs.existsSync(outfile)) return outfile;
  const esbuild = createRequire(TSX)("esbuild") as typeof import("esbuild");
  const partial = `${outfile}.${process.pid}.tmp`;
  try {
    await esbuild.build({ entryPoints: [entry], outfile: partial, ...BUILD_OPTIONS });
  } catch {
    return undefined;
  }
  fs.renameSync(partial, outfile); // 几个测试进程同时打同一个：谁先打完都行，改名是原子的
  pruneBuilds(path.dirname(outfile));
  return outfile;
}

// 读者每存一次文件就多一份：一天没用过的旧的删掉，免得 .cache/build 越攒越大
function pruneBuilds(keep: string) {
  const base = path.dirname(keep);
  const old = Date.now() - 24 * 3600 * 1000;
  for (const name of fs.readdirSync(base)) {
    const dir = path.join(base, name);
    // clock-ok: 只是按文件的年龄清缓存，不是断言
    if (dir !== keep && (fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < old) fs.rmSync(dir, { recursive: true, force: true });
  }
}

// mcp.json 里用 TypeScript 写的服务器（$NODE --import $TSX 某个.ts）也编译一次、跑很多次：
// 自己会擦除类型的 Node 直接跑 .ts，--import 的 tsx 换成一个空模块；Node 20 上 .ts 换成打好的 .mjs（打不成就照旧经过 tsx）
const EMPTY_MODULE = "data:text/javascript,";
async function writeMcpJson(mcp: object, file: string, vars: Record<string, string>, opts: RunOptions) {
  const strings: string[] = [];
  JSON.stringify(mcp, (_key, value) => (typeof value === "string" && strings.push(value), value));
  const expand = (text: string, tsx: string) => text.replace(/\$(NODE|TSX|ROOT|WORK|URL_\w+)/g, (v) => (v === "$TSX" ? tsx : (vars[v] ?? v)));
  const built = new Map<string, string>();
  let tsx = opts.tsx ? TSX : EMPTY_MODULE;
  if (!opts.tsx && !STRIPS_TYPES) {
    for (const entry of new Set(strings.map((v) => expand(v, "")).filter((v) => v.endsWith(".ts") && v.startsWith(ROOT + "/") && fs.existsSync(v)))) {
      const out = await compiled(entry);
      if (out) built.set(entry, out);
      else tsx = TSX;
    }
  }
  const value = (key: string, v: unknown) => {
    if (opts.realClock && key === "TIMESERVER_NOW") return undefined; // npm start：时间服务器用真的时钟
    if (typeof v !== "string") return v;
    const text = expand(v, tsx);
    return built.get(text) ?? text;
  };
  fs.writeFileSync(file, JSON.stringify(mcp, value, 2));
}

// 场景要的服务器（HTTP 的，或者 relay.ts 接过去的）：全都起来、报出地址（$URL_<名字>）才开跑。stop 杀掉它们，交回它们报地址以后在 stderr 上说的话（可以调用多次）
async function startServers(specs: Record<string, string[]>, cwd: string, opts: RunOptions): Promise<{ urls: Record<string, string>; stop(): Promise<string> }> {
  const started: { name: string; child: ChildProcess; said: string[]; closed: Promise<void> }[] = [];
  const stop = async () => {
    for (const { child } of started) killGroup(child);
    await Promise.all(started.map((s) => s.closed));
    return [...started].sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((s) => s.said.splice(0)).join(""); // 一起起的，按名字排：转录不随谁先起来而变
  };
  const urls: Record<string, string> = {};
  const start = async (name: string, argv: string[]) => {
    const file = path.join(cwd, `server-${name}.json`); // 命令行的展开、编译和 mcp.json 是同一套（writeMcpJson）
    await writeMcpJson(argv, file, { $NODE: process.execPath, $ROOT: ROOT, $WORK: cwd }, opts);
    const [command, ...args] = JSON.parse(fs.readFileSync(file, "utf8")) as string[];
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", TZ: "UTC", ...(STRIPS_TYPES ? { NODE_COMPILE_CACHE: path.join(ROOT, ".cache", "node-compile-cache") } : {}) };
    // 要别的环境变量，命令行前面写 env X=…。自成一个进程组：杀的时候连它起的子进程一起（比如网页录线路时插在前面的窃听器和它后面的服务器）
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"], detached: true });
    const said: string[] = [];
    live.servers.add(child);
    const closed = new Promise<void>((resolve) => child.once("close", () => (live.servers.delete(child), resolve())));
    started.push({ name, child, said, closed });
    urls[`$URL_${name}`] = await new Promise<string>((resolve, reject) => {
      let text = "";
      let found = false;
      // clock-ok: 只是防卡死的时限，正常几百毫秒就报出地址
      const guard = setTimeout(() => reject(new Error(`场景的服务器 ${name} 30 秒还没有报出地址：${text}`)), 30_000);
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        if (found) return void said.push(chunk);
        text += chunk;
        const url = text.match(/(http|tcp):\/\/127\.0\.0\.1:\d+\S*(?=\s)/)?.[0];
        if (!url) return;
        [found, text] = [true, text.slice(text.indexOf("\n", text.indexOf(url)) + 1)];
        said.push(text);
        clearTimeout(guard);
        resolve(url);
      });
      closed.then(() => (clearTimeout(guard), reject(new Error(`场景的服务器 ${name} 没有报出地址就退出了：${text}`))));
    });
  };
  // 一起起，谁先报出地址都行；都有了结果再收场，免得有一个起不来时另一个还在半路、没人去杀
  const results = await Promise.allSettled(Object.entries(specs).map(([name, argv]) => start(name, argv)));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) {
    await stop();
    throw failure.reason;
  }
  return { urls, stop };
}

function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL"); // 组已经没了（它自己先退出了）
  }
}

function tsFiles(dir: string, rel = ""): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .filter((e) => e.name !== "node_modules" && !e.name.startsWith("."))
    .flatMap((e) => (e.isDirectory() ? tsFiles(dir, path.join(rel, e.name)) : /\.[cm]?ts$/.test(e.name) ? [path.join(rel, e.name)] : []))
    .sort();
}

// 伪终端里 harness 是 script 的孙进程：SIGTERM、SIGHUP 要发给它本人，而不是 script
function signalHarness(child: ChildProcess | undefined, signal: NodeJS.Signals, tty?: boolean) {
  if (!child?.pid) return;
  if (!tty) return void child.kill(signal);
  const harness = descendants(child.pid).find((pid) => /main\.(ts|mjs)\b/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")));
  if (harness) process.kill(harness, signal);
}

function descendants(pid: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]?.split(" ")[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

// harness 退出以后，还有没有进程的工作目录在这次运行的临时目录里（bash 留下的后台命令、没关掉的 MCP 服务器）。
// 给刚被杀的进程一点时间咽气；查到的最后都杀掉，免得拖累后面的测试
async function leftoverProcesses(tmp: string): Promise<string[]> {
  if (process.platform !== "linux") return [];
  const find = () => processesUnder(tmp).map(String);
  // 刚被杀的进程可能还没咽气：每 20 毫秒重查一次，最多等 10 秒（忙碌的机器上也够）；真留下的（sleep 300）10 秒后还在
  // clock-ok: 轮询，每次都重查条件；没有进程时一次也不等
  for (let i = 0; i < 500 && find().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return find().map((pid) => {
    let cmd = "";
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // 刚好自己退出了
    }
    return `${pid} ${cmd}`;
  });
}

// 工作目录在 dir 里（或就是 dir）的活进程（只在 Linux 上查得到：/proc）
export function processesUnder(dir: string): number[] {
  if (process.platform !== "linux") return [];
  return fs
    .readdirSync("/proc")
    .filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
        if (cwd !== dir && !cwd.startsWith(dir + "/")) return false; // 绝大多数进程到这里就排除了，不必再读 stat
        return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
      } catch {
        return false; // 进程已经没了，或者看不到它
      }
    })
    .map(Number);
}

export function killProcessesUnder(dir: string): number[] {
  const pids = processesUnder(dir);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // 刚好自己退出了
    }
  }
  return pids;
}

// 转录里显示命令行时，带空格或特殊字符的参数加上引号
function shellWord(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

// 演示：输出直接到读者的终端；给了 tee 就同时写进转录文件。要伪终端的场景没有 tee 时，读者自己的终端就是那个终端
function spawnLive(command: string[], cwd: string, env: Record<string, string>, tty: boolean | undefined, tee: number | undefined, filter?: (text: string) => string): ChildProcess {
  if (tee === undefined && filter && !tty) {
    // 只有 stderr 绕道本进程：stdout 照旧直通终端
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ["pipe", "inherit", "pipe"] });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => process.stderr.write(filter(d)));
    return child;
  }
  if (tee === undefined) return spawn(command[0], command.slice(1), { cwd, env, stdio: tty ? "inherit" : ["pipe", "inherit", "inherit"] });
  const child = tty ? spawnInTerminal(command, cwd, env, tee) : spawn(command[0], command.slice(1), { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => {
    process.stdout.write(d);
    if (!tty) fs.writeSync(tee, d);
  });
  if (filter && !tty) child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (d: Buffer | string) => {
    process.stderr.write(typeof d === "string" && filter ? filter(d) : d);
    if (!tty) fs.writeSync(tee, typeof d === "string" ? Buffer.from(d) : d);
  });
  return child;
}

// util-linux 的 script 给命令一个伪终端：对 harness 来说 stdin、stdout、stderr 都是真终端
function spawnInTerminal(command: string[], cwd: string, env: Record<string, string>, fd: number) {
  const quoted = command.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const child = spawn("script", ["-qfec", quoted, "/dev/null"], { cwd, env: { ...env, TERM: "dumb" }, stdio: ["pipe", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => fs.writeSync(fd, d));
  child.stderr?.on("data", (d: Buffer) => fs.writeSync(fd, d));
  return child;
}

// 第 23 章起 bash 和 MCP 服务器跑在 bubblewrap 里：这台机器上真能起一个沙箱吗（装了 bwrap，内核也许普通用户建命名空间）
export const SANDBOX_CHAPTER = "23";
export function hasSandbox(): boolean {
  try {
    execFileSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "true"], { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export function hasTerminalTool(): boolean {
  try {
    return execFileSync("script", ["--version"], { encoding: "utf8" }).includes("util-linux");
  } catch {
    return false;
  }
}

interface Happened {
  requests(): number; // 脚本模型到现在收到了几次请求
  file(name: string): boolean; // 工作目录里有没有这个文件
}

// 盯着转录文件：每当下一步等的事都发生了，就执行它。返回一个停止函数
function interact(file: string, steps: Step[], happened: Happened, act: (step: Step) => void): () => void {
  let next = 0;
  let from = 0;
  // clock-ok: 轮询，每次都重查“等的事发生了没有”，时间只决定多快发现
  const timer = setInterval(() => {
    if (next >= steps.length) return clearInterval(timer);
    const step = steps[next];
    const at = fs.readFileSync(file, "utf8").indexOf(step.after, from);
    if (at < 0) return;
    if (step.afterRequest !== undefined && happened.requests() < step.afterRequest) return;
    if (step.afterFile !== undefined && !happened.file(step.afterFile)) return;
    next++;
    from = at + step.after.length;
    act(step);
  }, 20);
  return () => clearInterval(timer);
}

interface RunPaths {
  today: string; // 今天，YYYYMMDD（会话 id 以它开头）
  tmp: string; // 这次运行的临时根目录，work 和 home 都在它下面
  work: string;
  home: string;
}

// 临时目录每次都不一样，换成 $WORK、$HOME、$TMP。只换完整的路径段：…/work2 不能变成 $WORK2
function normalizePaths(text: string, p: RunPaths): string {
  const whole = (dir: string) => new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "(?![\\w.-])", "g");
  return text.replace(whole(p.work), "$$WORK").replace(whole(p.home), "$$HOME").replace(whole(p.tmp), "$$TMP");
}

export function normalizeTranscript(text: string, paths: RunPaths): string {
  let t = normalizePaths(text.replace(/\r\n/g, "\n"), paths);
  t = t.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
  t = t.replace(new RegExp(`\\b${paths.today}-\\d{6}-[0-9a-f]{4}\\b`, "g"), "$$SESSION"); // 这次运行新建的会话 id（日期-时刻-随机数）
  if (t.length > 0 && !t.endsWith("\n")) t += "\n";
  return t;
}

// 找一个确定没人监听的端口。不能用 listen(0) 要来的端口再放开：那是临时端口段（Linux 上 32768 起），
// 忙的时候别的测试的脚本模型转眼就可能拿到同一个，连上去就不再是“拒绝连接”。所以在临时端口段下面挑一个，
// 先占一下确认没人用、再放开——listen(0) 不会分到它；几个场景同时用同一个也无妨，反正谁都不听
async function closedPort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

// 比对：返回 null 表示一致，否则是一段读者能看懂的说明：第几行第几列、两边各是什么字符（连同码位，
// 全角的“（”和半角的“(”肉眼分不出来），再加一段简短的 diff。full 时附上实际的完整输出
export function compareTranscripts(label: string, expected: string, got: string, full = true): string | null {
  if (expected === got) return null;
  const e = expected.split("\n");
  const g = got.split("\n");
  let i = 0;
  while (i < e.length && i < g.length && e[i] === g[i]) i++;
  const show = (line: string | undefined) => (line === undefined ? "（没有这一行）" : line === "" ? "（空行）" : line);
  const lines = [`${label}：第 ${i + 1} 行${firstDifference(e[i], g[i])}`, `  期望: ${show(e[i])}`, `  实际: ${show(g[i])}`, "", "—— diff（- 期望，+ 实际）——", ...shortDiff(e, g)];
  if (full) lines.push("", "—— 实际的完整输出 ——", got);
  return lines.join("\n");
}

function firstDifference(e: string | undefined, g: string | undefined): string {
  if (e === undefined || g === undefined) return "不同";
  const a = [...e];
  const b = [...g];
  let c = 0;
  while (c < a.length && c < b.length && a[c] === b[c]) c++;
  const char = (ch: string | undefined) => (ch === undefined ? "行尾" : `“${JSON.stringify(ch).slice(1, -1)}” U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  return `第 ${c + 1} 个字符不同：期望 ${char(a[c])}，实际 ${char(b[c])}`;
}

// 最长公共子序列求出的逐行 diff，只留改动和前后各两行，最多 40 行
function shortDiff(e: string[], g: string[]): string[] {
  if (e.length * g.length > 4_000_000) return ["（太长，不做 diff）"];
  const lcs = Array.from({ length: e.length + 1 }, () => new Uint32Array(g.length + 1));
  for (let i = e.length - 1; i >= 0; i--) for (let j = g.length - 1; j >= 0; j--) lcs[i][j] = e[i] === g[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < e.length || j < g.length) {
    if (i < e.length && j < g.length && e[i] === g[j]) ops.push("  " + e[i++]), j++;
    else if (j < g.length && (i === e.length || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push("+ " + g[j++]);
    else ops.push("- " + e[i++]);
  }
  const near = (k: number) => ops.slice(Math.max(0, k - 2), k + 3).some((op) => !op.startsWith("  "));
  const out: string[] = [];
  ops.forEach((op, k) => {
    if (near(k)) out.push(op);
    else if (out.at(-1) !== "  …") out.push("  …");
  });
  return out.length > 40 ? [...out.slice(0, 40), `  …（还有 ${out.length - 40} 行）`] : out;
}

// 一个裁判：测试、verify、Node 24 的运行、练习检查器都用它。除了转录，这些也算失败
export function runProblems(result: RunResult): string[] {
  const problems: string[] = [];
  if (result.timedOut) problems.push("撞上了场景的时限：harness 没有自己结束（卡住了，或者在等输入）");
  for (const [i, r] of result.records.entries()) if (r.rejected) problems.push(`脚本模型拒绝了第 ${i + 1} 次请求：${r.rejected}`);
  if (result.unusedTurns.length > 0) problems.push(`脚本里的第 ${result.unusedTurns.join("、")} 轮没有用到：harness 少发了请求`);
  if (result.leftovers.length > 0) problems.push(`harness 退出后还留着进程：\n${result.leftovers.map((p) => "  " + p).join("\n")}`);
  return problems;
}

// view：继承来的运行先把两边都换成 comparable 的样子再比（token 数只比形状，后来添上的那类行放在一边）
export function judge(label: string, expected: string, result: RunResult, full = true, view = (text: string) => text): string[] {
  const transcript = compareTranscripts(label, view(expected), view(result.transcript), full);
  return [...(transcript ? [transcript] : []), ...runProblems(result).map((p) => `${label}：${p}`)];
}
