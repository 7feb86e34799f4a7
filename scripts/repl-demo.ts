// npm run demo -- 09 --repl：不要密钥，在脚本模型上把这一章的 REPL 真的开起来，你敲什么它都现编一个回答。
// 问 y/N、按 Ctrl-C 都是真的：harness 就是那一章（或者你自己目录里的实现），只有模型是脚本。
// 脚本模型只会几招（improvise）：照你的话调一个工具，或者慢吞吞地回答，好让你按 Ctrl-C。
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launcher } from "../shared/scenario.ts";
import { startScriptedModel, type Turn } from "../shared/scripted-model.ts";
import { dim, exitCodeOf, usageError, whileChildRuns } from "./run.ts";

// 这一章有的本事，开场时告诉读者可以试什么
function tryLines(nn: number): string[] {
  const lines = ["随便说一句：它把你的话复述一遍"];
  if (nn >= 5) lines.push("读 notes.txt：它调用 read_file");
  if (nn >= 7) lines.push(`跑 ls -l：它调用 bash${nn >= 9 ? "，先在终端上问你 y/N" : ""}`);
  if (nn >= 8) lines.push("写 hello.txt 你好：它调用 write_file");
  lines.push(`慢一点：它 60 秒后才回答${nn >= 12 ? "——按 Ctrl-C 打断它，REPL 接着等你；再按一次退出" : ""}`);
  lines.push("/help：REPL 自己的命令；/exit 或 Ctrl-D：退出");
  return lines;
}

// 每个请求现编一轮：最后一条是工具结果就说说结果；是你的话就照上面的几招办
export function improvise(body: any): Turn {
  const last = body.messages?.at(-1);
  const tools = new Set<string>((body.tools ?? []).map((t: any) => t.function?.name));
  if (last?.role === "tool") {
    // 文件内容末尾的换行不算一行：留着它，回答的末尾就多出一个空行
    const head = String(last.content).trimEnd().split("\n").slice(0, 6).join("\n");
    return { content: `（脚本模型）工具回来了，开头是：\n${head}` };
  }
  const text = typeof last?.content === "string" ? last.content.trim() : "";
  const call = (name: string, args: object): Turn => ({ tool_calls: [{ name, arguments: JSON.stringify(args) }] });
  let m: RegExpMatchArray | null;
  if ((m = text.match(/^读\s*(\S+)$/)) && tools.has("read_file")) return call("read_file", { path: m[1] });
  if ((m = text.match(/^跑\s*(.+)$/)) && tools.has("bash")) return call("bash", { command: m[1] });
  if ((m = text.match(/^写\s*(\S+)\s+(.+)$/)) && tools.has("write_file")) return call("write_file", { path: m[1], content: m[2] + "\n" });
  if (text.includes("慢")) return { delayMs: 60_000, content: "（脚本模型）让你久等了。" };
  return { content: `（脚本模型）你说的是：“${text}”。我是离线的脚本模型，只会照“读 文件”“跑 命令”“写 文件 内容”“慢一点”这几招办。` };
}

export async function playRepl(nn: number, impl: string): Promise<number> {
  if (nn < 2) usageError("第 01 章只回答命令行上的一个问题，没有 REPL：试试 npm run demo -- 1");
  if (!process.stdin.isTTY || !process.stdout.isTTY) usageError("--repl 要在终端里跑：你要自己敲字、答 y/N、按 Ctrl-C");
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-repl-")));
  const work = path.join(tmp, "work");
  const home = path.join(tmp, "home"); // 会话、信任记录都记在这个临时的家里，不碰你自己的 ~/.harness
  fs.mkdirSync(work);
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(work, "notes.txt"), "这是演示用的临时目录里的一个文件。\n第二行。\n");
  // 慢吞吞的那一招：请求确实到了脚本模型手里才说一声，这时按 Ctrl-C 打断的正是在途的请求
  const slowly = (body: any) => {
    const turn = improvise(body);
    if (turn.delayMs) process.stderr.write(dim(`[脚本模型] 收到了，${turn.delayMs / 1000} 秒后才回答${nn >= 12 ? "：按 Ctrl-C 打断它" : ""}\n`, process.stderr));
    return turn;
  };
  const model = await startScriptedModel({ turns: [], improvise: slowly });
  try {
    console.error(dim(`[演示] 第 ${String(nn).padStart(2, "0")} 章的 REPL，接在脚本模型上（离线，不要密钥）。工作目录是临时的：${work}`, process.stderr));
    console.error(dim(`[演示] 可以试：\n${tryLines(nn).map((l) => "  · " + l).join("\n")}`, process.stderr));
    const [command, ...args] = await launcher(impl);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: process.env.LANG ?? "C.UTF-8", TERM: process.env.TERM ?? "xterm", HARNESS_BASE_URL: model.url, HARNESS_API_KEY: "sk-scripted", HARNESS_MODEL: "scripted-model" };
    const child = spawn(command, args, { cwd: work, env, stdio: "inherit" });
    return await whileChildRuns(exitCodeOf(child));
  } finally {
    await model.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
