// session.ts：会话存成 JSONL——一行一条消息——放在工作目录的 .harness/sessions/ 下。
// 第 15 章改动：压缩会换掉历史里较早的消息，所以“存到第几条”不再可靠——改成记住存过哪些消息。
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AssistantMessage, Message } from "./model.ts";

export interface Session {
  id: string;
  file: string;
  saved: Set<Message>; // 已经写进文件的消息
}

const ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

export function isSessionId(s: string): boolean {
  return ID.test(s);
}

function sessionsDir(cwd: string): string {
  return path.join(cwd, ".harness", "sessions");
}

// 新会话：id = 本地时间 + 4 位随机数，按名字排序就是按时间排序。
// 文件等到第一次保存才建：一句话都没聊成（比如第一个请求就 401）就不留空会话
export function createSession(cwd: string, now = new Date()): Session {
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  for (;;) {
    const id = `${stamp}-${crypto.randomBytes(2).toString("hex")}`;
    const file = path.join(sessionsDir(cwd), `${id}.jsonl`);
    if (!fs.existsSync(file)) return { id, file, saved: new Set() };
  }
}

// 读回一个会话：id 不给就取最新的。找不到时返回一句说明
export function loadSession(cwd: string, id?: string): { session: Session; history: Message[] } | string {
  const dir = sessionsDir(cwd);
  const ids = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)).sort() : [];
  const chosen = id ?? ids.at(-1);
  if (!chosen) return "还没有可以接着聊的会话（.harness/sessions/ 是空的）";
  if (!ids.includes(chosen)) return `找不到会话 ${chosen}（在 .harness/sessions/ 下）`;
  const file = path.join(dir, `${chosen}.jsonl`);
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n");
  const history: Message[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      history.push(JSON.parse(line));
    } catch {
      // 追加写的文件，断电或被 kill 时最多坏最后一行：跳过它，前面的都还在
      const where = i === lines.length - 1 ? "最后一行不完整（上次可能在写入时被中断）" : `第 ${i + 1} 行不完整或不是合法 JSON`;
      console.error(`警告: 会话 ${chosen} 的${where}，已跳过`);
    }
  });
  // 半截的最后一行后面先补一个换行，新消息才会从新的一行开始——补字节，不重写
  if (text !== "" && !text.endsWith("\n")) fs.appendFileSync(file, "\n");
  // 恢复出来的都算“已保存”：之后只追加新消息（包括下面补上的结果），不重写文件
  const saved = new Set(history);
  completeToolResults(history, chosen);
  return { session: { id: chosen, file, saved }, history };
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

// 把 history 里还没写进去的消息追加到文件末尾。新会话的第一次保存用 "wx"：文件已经存在就报错，
// 绝不覆盖别人的会话
// 压缩之后，摘要那一条是新的，也会追加进去：文件里留着完整的原文（每轮都存，压缩前该存的已经存了），再接着摘要和之后的对话
export function saveSession(session: Session, history: Message[]): void {
  const fresh = history.filter((m) => !session.saved.has(m));
  if (fresh.length === 0) return;
  const lines = fresh.map((m) => JSON.stringify(m) + "\n");
  if (fs.existsSync(session.file)) fs.appendFileSync(session.file, lines.join(""));
  else {
    fs.mkdirSync(path.dirname(session.file), { recursive: true });
    fs.writeFileSync(session.file, lines.join(""), { flag: "wx" });
  }
  for (const m of fresh) session.saved.add(m);
}
