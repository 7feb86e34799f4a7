// 第 03 章手写的 SSE 读取器：不管字节流在哪里断开，交出来的内容都必须一样。
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readSSE } from "../chapters/03-streaming/sse.ts";

const encoder = new TextEncoder();

// 把一串字节块做成一个 ReadableStream，就像 fetch 的 res.body
function streamOf(chunks: Uint8Array[], { close = true } = {}): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else if (close) controller.close();
      else return new Promise<void>(() => {}); // 服务器不再说话，也不挂断
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const payload of readSSE(stream)) out.push(payload);
  return out;
}

function splitAt(bytes: Uint8Array, ...cuts: number[]): Uint8Array[] {
  const points = [0, ...cuts, bytes.length];
  return points.slice(1).map((end, k) => bytes.slice(points[k], end));
}

// 几个事件：多字节 UTF-8（含 4 字节的 emoji）、\r\n 换行、注释、event: 行、id: 行、多行 data:、data: 后不带空格
const EVENTS = [
  ": keep-alive",
  "",
  'data: {"choices":[{"delta":{"content":"你好，世界 🌏"}}]}',
  "",
  "event: message",
  'data: {"choices":[{"delta":{"content":"é ü ß — 汉字"}}]}',
  "",
  ": keep-alive",
  "data: 第一行",
  "data: 第二行",
  "data:",
  "data: 第四行",
  "",
  "id: 7",
  "data:没有空格",
  "",
  "",
  "data:  两个空格只去掉一个",
  "",
  "data: [DONE]",
  "",
  "data: [DONE] 之后的都不该读到",
  "",
  "",
];
const EXPECTED = [
  '{"choices":[{"delta":{"content":"你好，世界 🌏"}}]}',
  '{"choices":[{"delta":{"content":"é ü ß — 汉字"}}]}',
  "第一行\n第二行\n\n第四行",
  "没有空格",
  " 两个空格只去掉一个",
];

describe("第 03 章 readSSE", () => {
  for (const [name, eol] of [
    ["\\r\\n", "\r\n"],
    ["\\n", "\n"],
  ] as const) {
    const bytes = encoder.encode(EVENTS.join(eol));

    it(`一整块读（${name} 换行）`, async () => {
      assert.deepEqual(await collect(streamOf([bytes]).stream), EXPECTED);
    });

    it(`在每一个字节位置切成两块（${name} 换行，${bytes.length + 1} 种切法）结果都一样`, async () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        assert.deepEqual(await collect(streamOf(splitAt(bytes, cut)).stream), EXPECTED, `在第 ${cut} 个字节处切开`);
      }
    });

    it(`一个字节一块（${name} 换行）`, async () => {
      const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
      assert.deepEqual(await collect(streamOf(chunks).stream), EXPECTED);
    });

    it(`切成三块，每一对切点都试（${name} 换行）`, async () => {
      // 只在前一部分（多字节字符和 \r\n 最密的地方）两两组合，免得太慢
      const limit = Math.min(bytes.length, 120);
      for (let a = 1; a < limit; a++) {
        for (let b = a; b < limit; b += 3) {
          assert.deepEqual(await collect(streamOf(splitAt(bytes, a, b)).stream), EXPECTED, `在 ${a}、${b} 处切开`);
        }
      }
    });
  }

  it("测试自己的前提：有的切点落在多字节字符中间，也有的落在 \\r 和 \\n 之间", () => {
    const bytes = encoder.encode(EVENTS.join("\r\n"));
    const insideChar = bytes.findIndex((b) => (b & 0xc0) === 0x80);
    assert.ok(insideChar > 0);
    assert.ok(bytes.some((b, i) => b === 0x0d && bytes[i + 1] === 0x0a));
    assert.ok(bytes.some((b) => b >= 0xf0), "有 4 字节的字符");
  });

  it("读到 [DONE] 就停：后面的不读，流被取消，哪怕服务器一直不挂断", async () => {
    const { stream, cancelled } = streamOf([encoder.encode("data: 一\n\ndata: [DONE]\n\n"), encoder.encode("data: 二\n\n")], { close: false });
    assert.deepEqual(await collect(stream), ["一"]);
    assert.ok(cancelled(), "读到 [DONE] 后应该取消底层的流");
  });

  it("[DONE] 之前可以一个事件也没有", async () => {
    assert.deepEqual(await collect(streamOf([encoder.encode(": ping\n\ndata: [DONE]\n\n")]).stream), []);
  });

  it("没有 [DONE] 就结束的流：先交出已有的，然后抛错", async () => {
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const payload of readSSE(streamOf([encoder.encode("data: 一\r\n\r\ndata: 二\r\n\r\n")]).stream)) seen.push(payload);
      },
      { message: "流在 [DONE] 之前就结束了" },
    );
    assert.deepEqual(seen, ["一", "二"]);
  });

  it("断在一个事件中间（没有结尾的空行、[DONE] 也没写完整）：抛错，半个事件不交出来", async () => {
    const bytes = encoder.encode("data: 完整的\n\ndata: 半个事件\ndata: [DO");
    for (let cut = 0; cut <= bytes.length; cut++) {
      const seen: string[] = [];
      await assert.rejects(async () => {
        for await (const payload of readSSE(streamOf(splitAt(bytes, cut)).stream)) seen.push(payload);
      }, /流在 \[DONE\] 之前就结束了/);
      assert.deepEqual(seen, ["完整的"]);
    }
  });

  it("[DONE] 没有跟上空行就断了：也算没读到 [DONE]", async () => {
    await assert.rejects(collect(streamOf([encoder.encode("data: 一\n\ndata: [DONE]")]).stream), /之前就结束了/);
  });

  it("空的流：抛错", async () => {
    await assert.rejects(collect(streamOf([]).stream), /之前就结束了/);
  });

  it("底层流出错（连接被掐断）：错误原样抛出", async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode("data: 一\n\n"));
        } else controller.error(new TypeError("terminated"));
      },
    });
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const payload of readSSE(stream)) seen.push(payload);
      },
      { name: "TypeError", message: "terminated" },
    );
    assert.deepEqual(seen, ["一"]);
  });
});

// 一行、一个事件都有上限：不发换行、一直发下去的服务器吃不光内存，读取器抛出一句中文、取消这个流
describe("readSSE：一行和一个事件都有上限", () => {
  it("一直不发换行：读到上限就停，流被取消", async () => {
    let sent = 0;
    let cancelled = false;
    const block = encoder.encode("data: " + "x".repeat(64 * 1024 - 6));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += block.length;
        controller.enqueue(block);
      },
      cancel() {
        cancelled = true;
      },
    });
    await assert.rejects(collect(stream), /超过了 1048576 个字符/);
    assert.ok(cancelled, "流没有被取消");
    assert.ok(sent < 4 * 1024 * 1024, `读了 ${sent} 字节才停`);
  });

  it("很多行 data: 却不发空行：事件超长一样停；上限以内的长行照常交出", async () => {
    const many = encoder.encode(("data: " + "y".repeat(1000) + "\n").repeat(2000));
    await assert.rejects(collect(streamOf([many], { close: false }).stream), /超过了/);
    const long = "z".repeat(900 * 1024);
    assert.deepEqual(await collect(streamOf([encoder.encode(`data: ${long}\n\ndata: [DONE]\n\n`)]).stream), [long]);
  });
});
