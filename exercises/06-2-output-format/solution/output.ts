// output.ts：给程序读的输出。--output-format stream-json 把一问的经过写成一行一个 JSON 对象，json 只写最后的结果；
// 形状照 Claude Code 的 claude -p --output-format stream-json。stdout 只留给这些 JSON 行，给人看的字都去 stderr。
// 练习 06-2 新增。
import type { AgentListener } from "./agent.ts";
import { ConfigError, type AssistantMessage } from "./model.ts";

export type OutputFormat = "text" | "json" | "stream-json";
const FORMATS: OutputFormat[] = ["text", "json", "stream-json"];

// 从命令行里取出 --output-format（“--output-format X”或“--output-format=X”），剩下的词拼成问题
export function parseArgs(argv: string[]): { format: OutputFormat; prompt: string } {
  let format = "text";
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--output-format") format = argv[++i] ?? "";
    else if (arg.startsWith("--output-format=")) format = arg.slice("--output-format=".length);
    else words.push(arg);
  }
  if (!FORMATS.includes(format as OutputFormat)) throw new ConfigError(`--output-format 只能是 ${FORMATS.join("、")}，现在是 ${JSON.stringify(format)}`);
  return { format: format as OutputFormat, prompt: words.join(" ").trim() };
}

// 一个对象一行。JSON.stringify 已经把换行、控制字符、落单的代理项都转义了；U+2028、U+2029 它不转义，
// 可不少按行读的程序（Python 的 splitlines、一些 JavaScript 的行读取器）把它们也当换行，一行就被劈成两半
export function jsonLine(value: object): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) + "\n";
}

// 一问的经过：agent 循环每发一次请求、收到一条回答、得到一个工具结果，都告诉它
export class ProgramOutput implements AgentListener {
  rounds = 0; // 发出去的请求数，就是 result 里的 num_turns
  private readonly format: "json" | "stream-json";
  private readonly write: (text: string) => void;

  constructor(format: "json" | "stream-json", write: (text: string) => void = (text) => void process.stdout.write(text)) {
    this.format = format;
    this.write = write;
  }

  private event(value: object) {
    if (this.format === "stream-json") this.write(jsonLine(value));
  }

  init(cwd: string, model: string, tools: string[]) {
    this.event({ type: "system", subtype: "init", cwd, model, tools });
  }

  request() {
    this.rounds++;
  }

  reply(message: AssistantMessage) {
    const content: object[] = [];
    if (message.content) content.push({ type: "text", text: message.content });
    for (const call of message.tool_calls ?? []) {
      content.push({ type: "tool_use", id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
    }
    this.event({ type: "assistant", message: { role: "assistant", content } });
  }

  toolResult(id: string, result: string) {
    const isError = result.startsWith("错误");
    this.event({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result, is_error: isError }] } });
  }

  // 最后一行：json 格式只有它。成功带 result，失败带 errors；两种都说跑了几轮
  success(answer: string) {
    this.write(jsonLine({ type: "result", subtype: "success", is_error: false, num_turns: this.rounds, result: answer }));
  }

  failure(subtype: "error_max_turns" | "error_during_execution", message: string) {
    this.write(jsonLine({ type: "result", subtype, is_error: true, num_turns: this.rounds, errors: [message] }));
  }
}

// 模型给的参数原样是一段文字；解析得了就交出对象，解析不了就交出原文（工具结果会说它坏在哪）
function parseInput(args: string): unknown {
  try {
    return JSON.parse(args || "{}");
  } catch {
    return args;
  }
}
