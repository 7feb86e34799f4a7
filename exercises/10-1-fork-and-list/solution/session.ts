// session.ts：会话存成 JSONL——一行一条消息——放在 ~/.harness/projects/<工作目录，编码成一个名字>/sessions/ 下。
// 第 10 章新增：只追加不重写；读回来时，写了一半的最后一行跳过并警告，其余照常恢复，缺了结果的调用补上说明。
// 练习 10-1：loadSession() 可以只读不写（分叉时原会话一个字节都不能动）；listSessions() 列出这个文件夹的会话。
// 会话跟着用户走，不放在工作目录里：仓库自带一个 .harness/sessions/*.jsonl，--resume 就会接着“它的”会话聊。
// 会话文件和它所在的目录都不跟符号链接走；id 先验明是我们起的样子，才拿去拼路径。
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AssistantMessage, Message } from "./model.ts";

export interface Session {
  id: string;
  file: string;
  saved: number; // history 里已经写进文件的条数
}

const ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

export function isSessionId(s: string): boolean {
  return ID.test(s);
}

// 目录名 = 看得懂的一截（真实路径里字母数字以外的连成一个 -，像 Claude Code 的 ~/.claude/projects/）+ 真实路径的短哈希。
// 只有前一半不够：工作/前端 和 工作/后端 都成了 -work-，--resume 会接上另一个文件夹的对话。哈希让一个文件夹只对应一个目录
export function sessionsDir(cwd: string, home = os.homedir()): string {
  const real = fs.realpathSync(cwd);
  const projects = path.join(home, ".harness", "projects");
  const hash = crypto.createHash("sha256").update(real).digest("hex").slice(0, 8);
  const dir = path.join(projects, `${real.replace(/[^A-Za-z0-9]+/g, "-").slice(0, 100)}-${hash}`);
  // 旧版的目录名（每个字符换成一个 -）还在、新的还没有：路径全是 ASCII 时搬过来接着用——那种名字只丢了标点，
  // 两个只差标点、又都在用的文件夹很少见。路径里有汉字等非 ASCII 字符时不搬：同样长的中文名在旧版里全撞在一起，
  // 分不清旧目录是哪个文件夹的，宁可从头开始，也不把别的文件夹的对话交给模型（旧文件原样留着，用户可以自己挪）
  const old = path.join(projects, real.replace(/[^A-Za-z0-9]/g, "-"));
  if (/^[\x00-\x7f]*$/.test(real) && !fs.existsSync(dir) && fs.existsSync(old)) {
    try {
      fs.renameSync(old, dir);
    } catch {
      // 另一个进程同时在搬：它搬完了，新目录就在了
    }
  }
  return path.join(dir, "sessions");
}
const WHERE = "~/.harness/projects/ 下这个工作目录的 sessions/";

// 新会话：id = 本地时间 + 4 位随机数，按名字排序就是按时间排序。
// 文件等到第一次保存才建：一句话都没聊成（比如第一个请求就 401）就不留空会话
export function createSession(cwd: string, now = new Date()): Session {
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  for (;;) {
    const id = `${stamp}-${crypto.randomBytes(2).toString("hex")}`;
    const file = path.join(sessionsDir(cwd), `${id}.jsonl`);
    if (!fs.existsSync(file)) return { id, file, saved: 0 };
  }
}

// 只认我们自己起的名字：目录里别的文件（仓库里带来的、名字里夹着 ESC 序列的）不是会话，它的名字也不该印到屏幕上。
// 按名字排序就是按开始的时间排序
function sessionIds(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)).filter(isSessionId).sort() : [];
}

// 读回一个会话：id 不给就取最新的。找不到时返回一句说明。
// readOnly：只读不写——分叉时用，半截的最后一行也不补换行（原会话要一个字节都不变）
export function loadSession(cwd: string, id?: string, readOnly = false): { session: Session; history: Message[] } | string {
  const dir = sessionsDir(cwd);
  const ids = sessionIds(dir);
  if (id !== undefined && !isSessionId(id)) return `${id} 不是会话 id（样子是 20260101-090000-a1b2）`; // 拼进路径之前先验明
  const chosen = id ?? ids.at(-1);
  if (!chosen) return `这个工作目录还没有可以接着聊的会话（会话在 ${WHERE}）`;
  if (!ids.includes(chosen)) return `找不到会话 ${chosen}（在 ${WHERE}）`;
  const file = path.join(dir, `${chosen}.jsonl`);
  const link = symlinkOnPath(file);
  if (link) return `${link} 是符号链接，不跟着它读写（它可能指向别处）`;
  // 目录、FIFO（读它会一直等下去）、设备都不是会话
  if (!fs.lstatSync(file).isFile()) return `会话文件 ${chosen}.jsonl 不是普通文件，不能当会话读`;
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n");
  const history: Message[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const message = parseLine(line);
    if (message) return void history.push(message);
    // 追加写的文件，断电或被 kill 时最多坏最后一行：跳过它，前面的都还在
    const where = i === lines.length - 1 ? "最后一行不完整（上次可能在写入时被中断）" : `第 ${i + 1} 行不完整或不是一条消息`;
    console.error(`警告: 会话 ${chosen} 的${where}，已跳过`);
  });
  // 半截的最后一行后面先补一个换行，新消息才会从新的一行开始——补字节，不重写
  if (!readOnly && text !== "" && !text.endsWith("\n")) fs.appendFileSync(file, "\n");
  // 恢复出来的条数就是“已保存”的条数：之后只追加新消息（包括下面补上的结果），不重写文件
  const saved = history.length;
  completeToolResults(history, chosen);
  return { session: { id: chosen, file, saved }, history };
}

// --sessions 的一行：读不了的文件（符号链接、FIFO、目录）只有 id
export interface SessionInfo {
  id: string;
  prompts?: number; // 用户问了几问
  first?: string; // 第一问的原文（上屏之前要显形）
}

// 这个工作目录的会话，新的在前——第一个就是不带 id 的 --resume 会接上的那个
export function listSessions(cwd: string): SessionInfo[] {
  const dir = sessionsDir(cwd);
  return sessionIds(dir).reverse().map((id) => summarize(id, path.join(dir, `${id}.jsonl`)));
}

function summarize(id: string, file: string): SessionInfo {
  // 和 loadSession() 同样的规矩：不跟符号链接（它可能指向别处），只读普通文件（读 FIFO 会一直等下去）
  if (symlinkOnPath(file) || !fs.lstatSync(file).isFile()) return { id };
  const messages = fs.readFileSync(file, "utf8").split("\n").map(parseLine);
  const prompts = messages.filter((m) => m?.role === "user");
  return { id, prompts: prompts.length, first: prompts[0]?.content as string | undefined };
}

// 一行是一条消息：合法 JSON，而且是一条消息的样子（null、数字、数组、缺字段的都不算）
function parseLine(line: string): Message | undefined {
  try {
    const value = JSON.parse(line);
    return isMessage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// 一条消息的样子：role 认得，content 是文字（或 assistant 的 null），tool_calls 是一串带 id 和函数名、参数的调用。
// 会话文件可能是仓库里带来的，字段的类型一样都不能信
function isMessage(v: any): v is Message {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  if (v.role === "system" || v.role === "user") return typeof v.content === "string";
  if (v.role === "tool") return typeof v.content === "string" && typeof v.tool_call_id === "string";
  if (v.role !== "assistant" || (typeof v.content !== "string" && v.content !== null)) return false;
  const call = (c: any) => typeof c?.id === "string" && typeof c.function?.name === "string" && typeof c.function.arguments === "string";
  return v.tool_calls === undefined || (Array.isArray(v.tool_calls) && v.tool_calls.every(call));
}

// 这个工作目录的会话目录、sessions/ 和会话文件本身，哪一个是符号链接就说是哪一个
function symlinkOnPath(file: string): string | undefined {
  const sessions = path.dirname(file);
  const names: [string, string][] = [[path.dirname(sessions), "这个工作目录的会话目录"], [sessions, "sessions/"], [file, `会话文件 ${path.basename(file)}`]];
  for (const [p, name] of names) {
    if (fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) return name;
  }
  return undefined;
}

// 最后一轮写到一半断了：assistant 的 tool_calls 存下来了，结果却不全。给缺的补上一条“没有结果”的结果——
// 不然之后每次请求都带着悬空的 tool_call，服务商会一概拒绝
function completeToolResults(history: Message[], id: string): void {
  const last = history.findLastIndex((m) => m.role === "assistant");
  const calls = last < 0 ? [] : ((history[last] as AssistantMessage).tool_calls ?? []);
  const answered = new Set(history.slice(last + 1).map((m) => (m.role === "tool" ? m.tool_call_id : "")));
  const missing = calls.filter((c) => !answered.has(c.id));
  if (missing.length === 0) return;
  console.error(`警告: 会话 ${id} 的最后一轮有 ${missing.length} 个调用没有结果（上次可能在写入时被中断），补上一条说明`);
  for (const c of missing) history.push({ role: "tool", tool_call_id: c.id, content: "错误: 会话在这个调用的结果写进文件之前中断了，不知道结果" });
}

// 把 history 里还没写进去的消息追加到文件末尾
export function saveSession(session: Session, history: Message[]): void {
  if (history.length <= session.saved) return;
  const lines = history.slice(session.saved).map((m) => JSON.stringify(m) + "\n");
  if (append(session.file, lines.join(""))) session.saved = history.length;
}

// 追加写。新会话的第一次保存带 O_EXCL：文件已经存在就报错，绝不写进别人的会话；
// O_NOFOLLOW：会话文件被换成了符号链接（模型跑一句 ln -sf 就能做到）就不写，只警告
function append(file: string, text: string): boolean {
  const link = symlinkOnPath(file);
  if (link) {
    console.error(`警告: ${link} 是符号链接，不往里写会话（它可能指向别处），这次没有保存`);
    return false;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fresh = !fs.existsSync(file);
  const fd = fs.openSync(file, O_WRONLY | O_APPEND | O_NOFOLLOW | (fresh ? O_CREAT | O_EXCL : 0));
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}
