// 第 03 章起的 terminal.ts：别人送来的字只显形、不执行；普通的字一个字节不动；流式收到的每一段各自处理，结果和整段一样。
// 每一章、每个答案里的 terminal.ts 都从第 03 章那份来：显形的规则处处相同（第 20 章只多了问题开着时的排队）。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { replyPrinter, safeLine, safeText } from "../chapters/03-streaming/terminal.ts";
import { readSSE } from "../chapters/03-streaming/sse.ts";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT } from "../shared/scenario.ts";

// 固定种子的伪随机数：每次跑都是同一串
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

const ORDINARY = "普通的中文和 English，emoji 😀👩‍💻，全角（）“”、日本語、한국어、制表\t换行\n还有反斜杠 \\x1b 和 C:\\path 这样的字。";

describe("terminal.ts 的显形", () => {
  it("普通的中英文、emoji、制表符、换行一个字节不变（safeText）", () => {
    assert.equal(safeText(ORDINARY), ORDINARY);
    assert.equal(safeLine(ORDINARY.replace("\n", " ")), ORDINARY.replace("\n", " "));
  });

  it("ESC 序列、C0、DEL、C1、双向覆盖和隔离、落单的代理项都显形，结果里不剩一个控制字符", () => {
    const hostile = "\x1b[2J\x1b]0;t\x07\x1b]52;c;eA==\x07\x1b]8;;http://x\x1b\\y\r\x00\x7f\x85\x9b\u202e\u2066\u2069\u200f\u061c\ud800z\udc00";
    const shown = safeText(hostile);
    assert.equal(shown, "␛[2J␛]0;t\\x07␛]52;c;eA==\\x07␛]8;;http://x␛\\y\\r\\x00\\x7f\\x85\\x9b\\u202e\\u2066\\u2069\\u200f\\u061c\\ud800z\\udc00");
    assert.doesNotMatch(shown, /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it("safeLine 连换行也显形：一行永远只占一行", () => {
    assert.equal(safeLine("a\nb\tc"), "a\\nb\tc");
    assert.equal(safeText("a\nb"), "a\nb");
  });

  it("切成任意几段各自显形，拼起来和整段显形一样（流式的 delta 不记状态）", () => {
    const rnd = random(18);
    const text = ORDINARY + "\x1b[2J\r\x1b[1A\u202e" + ORDINARY;
    const chars = [...text]; // 按码点切：服务商不会把一个字的两个代理项分在两段里
    for (let n = 0; n < 300; n++) {
      let out = "";
      for (let i = 0; i < chars.length; ) {
        const len = 1 + Math.floor(rnd() * 7);
        out += safeText(chars.slice(i, i + len).join(""));
        i += len;
      }
      assert.equal(out, safeText(text));
    }
  });

  it("字节流里的汉字被切开也不变成乱码；坏掉的 UTF-8 变成看得见的 U+FFFD，不会消失", async () => {
    const good = new TextEncoder().encode(`data: ${JSON.stringify({ t: "汉字😀" })}\n\n`);
    const bad = new Uint8Array([...new TextEncoder().encode("data: {\"t\": \"坏"), 0xff, 0xe6, 0xb1, ...new TextEncoder().encode("\"}\n\ndata: [DONE]\n\n")]);
    const chunks = [...good, ...bad].map((b) => new Uint8Array([b])); // 一个字节一块
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => (i < chunks.length ? c.enqueue(chunks[i++]!) : c.close()) });
    const out: string[] = [];
    for await (const payload of readSSE(stream)) out.push(safeText(payload));
    assert.equal(JSON.parse(out[0]!).t, "汉字😀");
    assert.match(out[1]!, /坏\uFFFD\uFFFD"/);
  });

  // 假的输出流：记下写了什么；isTTY 由测试定
  const sink = (isTTY: boolean) => {
    const s = { isTTY, got: "", write: (t: string) => ((s.got += t), true) };
    return s;
  };

  it("replyPrinter：回答进 stdout；思考进 stderr、每行标 [思考]，空行不印，想完了先换行再出回答", () => {
    const [out, err] = [sink(false), sink(false)];
    const p = replyPrinter(out as unknown as NodeJS.WriteStream, err as unknown as NodeJS.WriteStream);
    p.thinking("\n先算 17×20，");
    p.thinking("再加 17×3。\n\n");
    p.thinking("错误: 这行是模型写的\n[round 1] 假日志");
    p.text("391");
    p.end();
    assert.equal(err.got, "[思考] 先算 17×20，再加 17×3。\n[思考] 错误: 这行是模型写的\n[思考] [round 1] 假日志\n");
    assert.equal(out.got, "391\n");
  });

  it("replyPrinter：思考里的控制字符显形；只在终端上调暗，管道里一个转义序列也不加", () => {
    for (const isTTY of [false, true]) {
      const [out, err] = [sink(isTTY), sink(isTTY)];
      const p = replyPrinter(out as unknown as NodeJS.WriteStream, err as unknown as NodeJS.WriteStream);
      p.thinking("\x1b[2J清屏\u202e");
      p.note("警告: 想到一半");
      p.end();
      const shown = "[思考] ␛[2J清屏\\u202e";
      assert.equal(err.got, isTTY ? `\x1b[2m${shown}\x1b[22m\n警告: 想到一半\n` : `${shown}\n警告: 想到一半\n`);
      assert.equal(out.got, "");
    }
  });

  it("每一章、每个答案的 terminal.ts 里，显形的那部分和第 03 章一字不差", () => {
    const head = (file: string) => fs.readFileSync(file, "utf8").split("// ---- 问题开着的时候 ----")[0]!.split("\n").slice(2).join("\n").trimEnd();
    const source = head(path.join(CHAPTERS, "03-streaming", "terminal.ts"));
    const dirs = [
      ...fs.readdirSync(CHAPTERS).filter((d) => d >= "03").map((d) => path.join(CHAPTERS, d)),
      ...solutionTrees("terminal.ts"),
    ].filter((d) => fs.existsSync(path.join(d, "terminal.ts")));
    assert.ok(dirs.length >= 20);
    for (const d of dirs) assert.equal(head(path.join(d, "terminal.ts")), source, path.relative(ROOT, d));
  });
});
