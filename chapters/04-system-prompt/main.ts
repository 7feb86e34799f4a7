// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 04 章改动：历史的第一条是 system prompt，启动时拼好一次。
import { ConfigError, ModelError, chat, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { repl } from "./repl.ts";
import { replyPrinter } from "./terminal.ts";

async function main() {
  const config = loadConfig(process.env);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];

  // 一次问答：问题和回答都记进历史，下一次请求把整段历史再发一遍——模型自己什么也不记得
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    const out = replyPrinter(); // 回答进 stdout，思考进 stderr，都只显形、不执行
    try {
      // 历史里只记回答：思考给人看，不再发回去
      const answer = await chat(config, history, out);
      history.push({ role: "assistant", content: answer });
    } finally {
      out.end(); // 流断在半句话上时，让错误信息另起一行
    }
  }

  const prompt = process.argv.slice(2).join(" ").trim();
  if (prompt) return turn(prompt);
  await repl(async (line) => {
    const before = history.length;
    try {
      await turn(line);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      // REPL 里一次请求失败不退出：撤掉这一问留下的半截历史，接着聊
      history.length = before;
      console.error(`错误: ${e.message}`);
    }
  });
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (!(e instanceof ConfigError || e instanceof ModelError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
