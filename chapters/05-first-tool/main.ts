// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 05 章改动：带上 read_file 工具；模型要调用时执行它，把结果交回去，再要一次回答。
import { ConfigError, ModelError, chat, loadConfig, type AssistantMessage, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { repl } from "./repl.ts";
import { replyPrinter, safeLine } from "./terminal.ts";
import { readFile, readFileSpec } from "./tools/read-file.ts";

async function main() {
  const config = loadConfig(process.env);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];

  // 发一次请求：回答边收边打印（思考另走 stderr），返回完整的 assistant 消息
  async function ask(): Promise<AssistantMessage> {
    const out = replyPrinter(); // 模型的字只显形、不执行
    try {
      return await chat(config, history, [readFileSpec], out);
    } finally {
      out.end(); // 流断在半句话上时，让错误信息另起一行
    }
  }

  // 一次问答：模型要调用工具，就执行、把结果按 tool_call_id 交回去，再问一次
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    const reply = await ask();
    history.push(reply);
    if (!reply.tool_calls) return;
    for (const call of reply.tool_calls) {
      console.error(`[tool] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
      const result = call.function.name === "read_file" ? await readFile(call.function.arguments) : `错误: 没有这个工具：${call.function.name}`;
      history.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    // 这一章只走一趟工具调用：第二次回答就算还想调用工具也不执行了，
    // 只把文字记进历史——留下没有结果的 tool_calls，下一次请求会被服务商拒绝
    const final = await ask();
    history.push({ role: "assistant", content: final.content ?? "" });
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
