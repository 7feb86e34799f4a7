// 第 22 章的时间服务器（timeserver/main.ts）：真起进程，在 stdio 上一行一行地收发，检查协议行为。
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { MAX_LINE } from "../timeserver/stdio.ts";
import { HttpTimeserver, SERVER, killHttpTimeservers } from "./timeserver-lib.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOW_SHANGHAI = "2026-08-07T14:03:09+08:00";

type Json = Record<string, any>;

// 一个跑着的服务器：往 stdin 写原始字节，从 stdout 按行取
class Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = []; // stdout 上出现过的每一行，最后检查它们全是 JSON
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  private queue: string[] = [];
  private waiters: ((line: string | undefined) => void)[] = [];
  private warm = false; // 已经在 stdout 上说过话（或者已经退出）：冷启动过去了
  private closed = false; // 进程退出了，stdout 也读完了

  constructor(env: Record<string, string>) {
    const base: Record<string, string> = { PATH: process.env.PATH ?? "" };
    this.child = spawn(SERVER[0]!, SERVER.slice(1), { cwd: ROOT, env: { ...base, ...env } });
    let buf = Buffer.alloc(0);
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.warm = true;
      this.stdout += chunk.toString("latin1"); // 只用来看有没有多余字节，按字节保留
      buf = Buffer.concat([buf, chunk]);
      let nl: number;
      while ((nl = buf.indexOf(0x0a)) !== -1) {
        const line = buf.subarray(0, nl).toString("utf8");
        buf = buf.subarray(nl + 1);
        this.lines.push(line);
        const waiter = this.waiters.shift();
        if (waiter) waiter(line);
        else this.queue.push(line);
      }
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    this.child.stdin.on("error", () => {}); // 测试失败时进程被杀，还没写完的大块会 EPIPE
    this.exited = new Promise((resolve) =>
      this.child.on("close", (code) => {
        this.warm = this.closed = true;
        for (const waiter of this.waiters.splice(0)) waiter(undefined); // 进程没了，再等也等不来下一行
        resolve(code);
      }),
    ); // close：stdout 也读完了
    servers.push(this);
  }

  // 还没说过话的进程可能还在冷启动，限时要把它算进去：等待的上限按这个放宽
  private limit(ms: number): number {
    return this.warm ? ms : Math.max(ms, COLD_START_MS);
  }

  // 退出码；10 秒（冷启动的进程另算）还没退出就失败（而不是让测试挂住）。只防卡死：热的进程忙时实测十几毫秒就退出
  async exitCode(): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const ms = this.limit(10_000);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${ms / 1000} 秒内没有退出；stderr: ${this.stderr}`)), ms);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  // 下一行输出；进程退出了就立刻失败，ms 毫秒（默认 10 秒；冷启动的进程另算）没来也失败（而不是让测试挂住）。
  // 只防卡死：热的进程答一行（32 MiB 那行除外），两核全忙、旁边还跑着一份同样的测试时实测最慢 0.17 秒
  async nextLine(ms = 10_000): Promise<string> {
    const ready = this.queue.shift();
    if (ready !== undefined) return ready;
    if (this.closed) throw new Error(`进程已经退出，没有下一行；stderr: ${this.stderr}`);
    const limit = this.limit(ms);
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${limit / 1000} 秒内没有输出；stderr: ${this.stderr}`)), limit);
      this.waiters.push((line) => {
        clearTimeout(timer);
        if (line === undefined) reject(new Error(`进程退出了，没有等到下一行；stderr: ${this.stderr}`));
        else resolve(line);
      });
    });
  }

  async next(ms?: number): Promise<Json> {
    return JSON.parse(await this.nextLine(ms));
  }

  // 发一个请求，取下一行，确认它就是这个请求的答复
  async request(method: string, params?: unknown, id: string | number = ++lastId): Promise<Json> {
    this.write(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }) + "\n");
    const reply = await this.next();
    assert.equal(reply.jsonrpc, "2.0");
    assert.equal(reply.id, id, `答复的 id 不对: ${JSON.stringify(reply)}`);
    return reply;
  }

  async call(name: string, args?: unknown): Promise<{ text: string; isError: boolean }> {
    const reply = await this.request("tools/call", args === undefined ? { name } : { name, arguments: args });
    assert.ok(reply.result, `应当是 result: ${JSON.stringify(reply)}`);
    assert.equal(reply.result.content.length, 1);
    assert.equal(reply.result.content[0].type, "text");
    return { text: reply.result.content[0].text, isError: reply.result.isError === true };
  }

  async days(start: unknown, end: unknown): Promise<string> {
    const r = await this.call("days_between", { start, end });
    assert.equal(r.isError, false, r.text);
    return r.text;
  }
}

let lastId = 100;
// 十几个 tsx 进程同时冷启动：两核机器很忙时（load 16–22）实测最慢的一个 15.7 秒才答第一行，单个要 1.4–1.6 秒。
// 这只是“卡住了”的判定线，正常的测试等不到它：留足 5 倍以上
const COLD_START_MS = 120_000;
const servers: Server[] = [];

// 所有服务器一开始就同时起（每个 tsx 进程要几百毫秒），各组测试各用各的
const BAD_NOW = ["明天", "2026-02-30T10:00:00", "2026-08-07", "2026-08-07T25:00:00+08:00"];
let s: Server; // 大部分协议测试共用这一个
let ny: Server;
let berlin: Server;
let live: Server;
let ancient: Server;
let big: Server; // 超长的行单独用一个进程：它慢了、卡了，不连累别的测试
const LIMIT = 256 * 1024; // 它的一行上限：按测试的尺度
let quiet: Server; // 什么也不问，只看它从启动到退出说没说话
let badNow: Server[];
before(() => {
  s = new Server({ TZ: "Asia/Shanghai", TIMESERVER_NOW: NOW_SHANGHAI });
  ny = new Server({ TZ: "America/New_York", TIMESERVER_NOW: NOW_SHANGHAI });
  berlin = new Server({ TZ: "Europe/Berlin", TIMESERVER_NOW: "2026-03-29T12:00:00" });
  live = new Server({ TZ: "UTC" });
  ancient = new Server({ TZ: "UTC", TIMESERVER_NOW: "0999-03-04T05:06:07Z" });
  big = new Server({ TZ: "UTC", TIMESERVER_MAX_LINE: String(LIMIT) });
  quiet = new Server({ TZ: "UTC" });
  badNow = BAD_NOW.map((value) => new Server({ TIMESERVER_NOW: value }));
});

// 一个进程也不留下
after(() => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
});

describe("timeserver 协议", () => {
  // 不靠“等一会儿看有没有输出”：关掉 stdin，它读到 EOF 自己退出，退出前写过的每个字节都已经收到了
  it("启动时一声不吭：从启动到 stdin 关闭、自己退出，stdout 和 stderr 都是空的（第 22 章几个服务器同时启动，各自的启动日志先后不定）", async () => {
    quiet.child.stdin.end();
    assert.equal(await quiet.exitCode(), 0);
    assert.equal(quiet.stdout, "");
    assert.equal(quiet.stderr, "");
  });

  it("initialize：支持的版本原样答复，不支持的答它支持的最新版 2025-11-25（规范：SHOULD 答最新的）", async () => {
    for (const [asked, expected] of [
      ["2024-11-05", "2024-11-05"],
      ["2025-06-18", "2025-06-18"],
      ["2025-11-25", "2025-11-25"],
      // 2025-03-26 要求收下批处理（一行一个 JSON 数组），时间服务器不收，所以不答应这一版
      ["2025-03-26", "2025-11-25"],
      ["2099-01-01", "2025-11-25"],
      [42, "2025-11-25"],
    ] as const) {
      const reply = await s.request("initialize", {
        protocolVersion: asked,
        capabilities: {},
        clientInfo: { name: "test", version: "0" },
      });
      assert.deepEqual(reply.result, {
        protocolVersion: expected,
        capabilities: { tools: {} },
        serverInfo: { name: "timeserver", version: "0.1" },
      });
    }
    const bare = await s.request("initialize");
    assert.equal(bare.result.protocolVersion, "2025-11-25");
  });

  it("批处理（只有 2025-03-26 许可、而它不答应这一版）：一整行的数组答一个 -32600（id null），接着服务", async () => {
    s.write('[{"jsonrpc":"2.0","id":201,"method":"ping"},{"jsonrpc":"2.0","id":202,"method":"ping"}]\n');
    const reply = await s.next();
    assert.equal(reply.id, null);
    assert.equal(reply.error.code, -32600);
    assert.deepEqual((await s.request("ping")).result, {});
  });

  it("tools/list：两个工具，schema 和中文描述", async () => {
    const { tools } = (await s.request("tools/list", {})).result;
    assert.deepEqual(
      tools.map((t: Json) => t.name),
      ["current_time", "days_between"],
    );
    const [now, days] = tools;
    assert.deepEqual(now.inputSchema, { type: "object", properties: {} });
    assert.equal(days.inputSchema.type, "object");
    assert.deepEqual(days.inputSchema.required, ["start", "end"]);
    assert.deepEqual(Object.keys(days.inputSchema.properties), ["start", "end"]);
    for (const key of ["start", "end"]) {
      assert.equal(days.inputSchema.properties[key].type, "string");
      assert.match(days.inputSchema.properties[key].description, /YYYY-MM-DD/);
    }
    for (const t of tools) assert.match(t.description, /[\u4e00-\u9fff]/, "描述应当是中文");
    assert.match(days.description, /2026-01-02/, "描述里要有一个格式示例日期");
    // 没有 params 也行
    assert.equal((await s.request("tools/list")).result.tools.length, 2);
  });

  it("current_time：TIMESERVER_NOW 带时区偏移，按本地时区（TZ）显示", async () => {
    assert.deepEqual(await s.call("current_time"), { text: "2026-08-07 14:03:09 星期五", isError: false });
    assert.deepEqual(await s.call("current_time", {}), { text: "2026-08-07 14:03:09 星期五", isError: false });
  });

  it("days_between：正、负、零", async () => {
    assert.equal(await s.days("2026-08-07", "2027-01-01"), "147 天");
    assert.equal(await s.days("2027-01-01", "2026-08-07"), "-147 天");
    assert.equal(await s.days("2026-01-02", "2026-01-02"), "0 天");
    assert.equal(await s.days("1969-12-31", "1970-01-02"), "2 天");
    assert.equal(await s.days("0099-12-31", "0100-01-01"), "1 天"); // Date.UTC 会把 99 年当成 1999 年
  });

  it("days_between：闰年", async () => {
    assert.equal(await s.days("2024-02-28", "2024-03-01"), "2 天");
    assert.equal(await s.days("2025-02-28", "2025-03-01"), "1 天");
    assert.equal(await s.days("2024-02-29", "2024-03-01"), "1 天");
    assert.equal(await s.days("2024-01-01", "2025-01-01"), "366 天");
    assert.equal(await s.days("2000-02-29", "2000-03-01"), "1 天");
  });

  it("days_between：不存在的日期、格式不对、缺参数 → isError，说清是哪个参数、要什么格式", async () => {
    const bad: [unknown, unknown, "start" | "end"][] = [
      ["2026-02-30", "2026-03-01", "start"],
      ["2026-01-01", "2026-13-01", "end"],
      ["26-1-2", "2026-01-02", "start"],
      ["2026-01-02", "2026-1-2", "end"],
      ["2025-02-29", "2025-03-01", "start"],
      ["1900-02-29", "1900-03-01", "start"],
      ["2026-00-10", "2026-01-01", "start"],
      ["2026-01-01", "2026-01-00", "end"],
      ["2026-01-01", "2026-04-31", "end"],
      [" 2026-01-02", "2026-01-02", "start"],
      ["2026-01-02T00:00:00", "2026-01-02", "start"],
      [20260102, "2026-01-02", "start"],
      ["2026-01-02", null, "end"],
      [undefined, "2026-01-02", "start"],
      ["2026-01-02", undefined, "end"],
    ];
    for (const [start, end, culprit] of bad) {
      const r = await s.call("days_between", { start, end });
      assert.equal(r.isError, true, `${start} → ${end} 应当是 isError，得到 ${r.text}`);
      assert.ok(r.text.includes(culprit), `应当点名 ${culprit}: ${r.text}`);
      assert.ok(!r.text.includes(culprit === "start" ? "end" : "start"), `不该点名另一个参数: ${r.text}`);
      assert.match(r.text, /YYYY-MM-DD/);
    }
    const none = await s.call("days_between");
    assert.equal(none.isError, true);
    assert.match(none.text, /start/);
  });

  it("未知工具 → isError 结果，不是协议错误", async () => {
    const r = await s.call("no_such_tool", {});
    assert.equal(r.isError, true);
    assert.match(r.text, /no_such_tool/);
  });

  it("id 可以是 0 和字符串，原样带回", async () => {
    assert.deepEqual(await s.request("ping", undefined, 0), { jsonrpc: "2.0", id: 0, result: {} });
    assert.deepEqual(await s.request("ping", undefined, "abc"), { jsonrpc: "2.0", id: "abc", result: {} });
    assert.deepEqual(await s.request("ping", {}, "1"), { jsonrpc: "2.0", id: "1", result: {} });
    assert.deepEqual(await s.request("ping", undefined, -7), { jsonrpc: "2.0", id: -7, result: {} });
  });

  it("不是 JSON 的一行 → -32700（id null），然后照常服务", async () => {
    s.write("{not json\n");
    const reply = await s.next();
    assert.equal(reply.id, null);
    assert.equal(reply.error.code, -32700);
    assert.equal(typeof reply.error.message, "string");
    assert.equal((await s.request("ping")).result !== undefined, true);
  });

  it("不是请求对象的 JSON → -32600（id null）", async () => {
    for (const line of ["[1,2]", "42", '"ping"', "null", "true", '{"jsonrpc":"2.0","id":null,"method":"ping"}', '{"jsonrpc":"2.0","id":{},"method":"ping"}']) {
      s.write(line + "\n");
      const reply = await s.next();
      assert.equal(reply.id, null, line);
      assert.equal(reply.error.code, -32600, line);
    }
    // id 读得出来时带回它
    s.write('{"jsonrpc":"2.0","id":9}\n');
    assert.deepEqual((await s.next()).error.code, -32600);
    s.write('{"id":10,"method":"ping"}\n');
    const noVersion = await s.next();
    assert.equal(noVersion.id, 10);
    assert.equal(noVersion.error.code, -32600);
  });

  it("未知方法 → -32601", async () => {
    for (const method of ["resources/list", "no/such", "toString", "__proto__"]) {
      const reply = await s.request(method, {});
      assert.equal(reply.error.code, -32601, method);
      assert.equal(reply.result, undefined);
    }
  });

  it("参数形状不对 → -32602", async () => {
    for (const params of [{}, { arguments: {} }, { name: 42 }, { name: "days_between", arguments: "x" }, { name: "current_time", arguments: [] }, [1], "x"]) {
      const reply = await s.request("tools/call", params);
      assert.equal(reply.error?.code, -32602, JSON.stringify(params));
    }
  });

  it("通知一律不答复（先发通知再 ping，下一行就是 ping 的答复）", async () => {
    s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    s.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}\n');
    s.write('{"jsonrpc":"2.0","method":"no/such/notification"}\n');
    s.write('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"current_time"}}\n');
    s.write('{"jsonrpc":"2.0","id":5,"result":{}}\n'); // 客户端发来的响应：我们没发过请求，丢掉
    assert.deepEqual(await s.request("ping", undefined, "after-notifications"), {
      jsonrpc: "2.0",
      id: "after-notifications",
      result: {},
    });
  });

  it("一个请求分两次写、切在多字节字符中间，也能完整读出", async () => {
    const id = "拆开-你好🌏";
    const bytes = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "工具" } }) + "\n");
    const cut = bytes.indexOf(Buffer.from("你")) + 1; // “你”的第一个字节之后
    // 前半截跟在一个 ping 后面一次写进去：ping 答复了，说明服务器已经读到了这一块（连同半个“你”），
    // 这时后半截还没写——两半一定是分两次读到的，不靠睡一会儿
    s.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"before-cut","method":"ping"}\n'), bytes.subarray(0, cut)]));
    assert.deepEqual(await s.next(), { jsonrpc: "2.0", id: "before-cut", result: {} });
    s.write(bytes.subarray(cut));
    const reply = await s.next();
    assert.equal(reply.id, id);
    assert.equal(reply.result.isError, true);
    assert.match(reply.result.content[0].text, /工具/);
  });

  it("id 经不起 JSON 往返（1e400 解析出来是 Infinity，写回去成了 null）→ -32600，id null", async () => {
    for (const raw of ["1e400", "-1e400"]) {
      s.write(`{"jsonrpc":"2.0","id":${raw},"method":"ping"}\n`);
      const reply = await s.next();
      assert.equal(reply.id, null, raw);
      assert.equal(reply.error?.code, -32600, `${raw}: ${JSON.stringify(reply)}`);
    }
    // 1e2 就是 100：经得起往返，原样带回
    s.write('{"jsonrpc":"2.0","id":1e2,"method":"ping"}\n');
    assert.deepEqual(await s.next(), { jsonrpc: "2.0", id: 100, result: {} });
  });

  it("\\r\\n 行尾和空行都能容忍；几行一次写入也行", async () => {
    s.write('\n\r\n   \n{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n{"jsonrpc":"2.0","id":"same-chunk","method":"ping"}\n');
    assert.deepEqual(await s.next(), { jsonrpc: "2.0", id: "crlf", result: {} });
    assert.deepEqual(await s.next(), { jsonrpc: "2.0", id: "same-chunk", result: {} });
  });

  it("stdout 上只有 JSON-RPC 行", async () => {
    await s.request("ping");
    assert.ok(s.stdout.endsWith("\n"));
    assert.ok(s.lines.length > 50);
    for (const line of s.lines) {
      const msg = JSON.parse(line);
      assert.equal(msg.jsonrpc, "2.0", line);
      assert.ok(("result" in msg) !== ("error" in msg), line);
    }
  });
});

describe("timeserver 时区与时钟", () => {
  it("带偏移的 TIMESERVER_NOW 是一个时刻，按服务器所在时区显示", async () => {
    assert.equal((await ny.call("current_time")).text, "2026-08-07 02:03:09 星期五");
  });

  it("年份总是四位：999 年写成 0999", async () => {
    assert.equal((await ancient.call("current_time")).text, "0999-03-04 05:06:07 星期一");
  });

  it("不带偏移的 TIMESERVER_NOW 按本地时间理解", async () => {
    assert.equal((await berlin.call("current_time")).text, "2026-03-29 12:00:00 星期日");
  });

  it("跨夏令时切换的区间：天数是精确整数（America/New_York）", async () => {
    assert.equal(await ny.days("2026-03-07", "2026-03-09"), "2 天"); // 3 月 8 日那天只有 23 小时
    assert.equal(await ny.days("2026-03-01", "2026-11-30"), "274 天");
    assert.equal(await ny.days("2026-10-31", "2026-11-02"), "2 天"); // 11 月 1 日那天有 25 小时
    assert.equal(await ny.days("2026-11-02", "2026-03-07"), "-240 天");
  });

  it("跨夏令时切换的区间：天数是精确整数（Europe/Berlin）", async () => {
    assert.equal(await berlin.days("2026-03-28", "2026-03-30"), "2 天");
    assert.equal(await berlin.days("2026-10-24", "2026-10-26"), "2 天");
    assert.equal(await berlin.days("2026-03-29", "2026-10-25"), "210 天");
    assert.equal(await berlin.days("2026-08-07", "2027-01-01"), "147 天");
  });

  it("没有 TIMESERVER_NOW 时用真实时钟", async () => {
    await live.request("ping"); // 先等它启动好，下面的前后两个时刻才夹得住它读钟的那一刻
    const before = Date.now();
    const { text } = await live.call("current_time");
    const after = Date.now();
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) (星期[日一二三四五六])$/.exec(text);
    assert.ok(m, text);
    const shown = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!); // TZ=UTC
    // clock-ok: 读钟的那一刻被请求前后两次读钟夹住，不和固定的时长比：机器越慢，夹住它的区间越宽
    assert.ok(shown > before - 1000 && shown <= after, `${text} 不在发请求（${new Date(before).toISOString()}）和收到答复之间`); // 显示到秒，往下取整
    assert.equal(m[7], ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"][new Date(shown).getUTCDay()]);
  });

  it("stdin 关闭 → 以 0 退出，最后一行没带换行也会被处理", async () => {
    live.write('{"jsonrpc":"2.0","id":"last","method":"ping"}');
    live.child.stdin.end();
    assert.equal(await live.exitCode(), 0);
    assert.deepEqual(await live.next(), { jsonrpc: "2.0", id: "last", result: {} });
    assert.equal(live.stdout.split("\n").filter(Boolean).length, 3); // ping、current_time、last
  });
});

describe("timeserver 长行", () => {
  // 上限按测试的尺度查：TIMESERVER_MAX_LINE 调到 256 KiB，一半长的行完整答复、超过的整行丢弃——只花几毫秒，
  // 判决不随这台机器每秒能解析多少 MiB 而变。默认值是不是 64 MiB 由下面单独一条查（不真的灌 64 MiB）。
  // 攒行要是每来一块就把整个缓冲区重拼一遍，时间随长度平方增长：那是快慢的事，归 bench/large.ts 量
  it("上限一半长的一行（分成许多块到达，中间夹着汉字）：答复它，后面的请求照常", async () => {
    await big.request("ping");
    const pad = "时".repeat(LIMIT / 2 / 3);
    const line = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: "big-half", method: "ping", params: { pad } }) + "\n");
    for (let at = 0; at < line.length; at += 4097) big.write(line.subarray(at, at + 4097)); // 4097：块的边界切在汉字中间
    big.write('{"jsonrpc":"2.0","id":"after-half","method":"ping"}\n');
    assert.deepEqual(await big.next(), { jsonrpc: "2.0", id: "big-half", result: {} });
    assert.deepEqual(await big.next(), { jsonrpc: "2.0", id: "after-half", result: {} });
  });

  it("超过上限的一行：不再攒，答一个 -32600（id null），丢掉这一行，接着服务", async () => {
    // 这一行本身是个合法的 ping：服务器要是攒下来解析了，会答 id "too-long"
    const head = Buffer.from('{"jsonrpc":"2.0","id":"too-long","method":"ping","params":{"pad":"');
    big.write(head);
    const block = Buffer.alloc(16 * 1024, 0x78); // 分块写：stdin 一块一块地到
    for (let i = 0; i <= LIMIT / block.length; i++) big.write(block);
    const refused = await big.next(); // 过了上限就答，不必等这一行结束（这一行要等收到答复才写完）
    assert.equal(refused.id, null, JSON.stringify(refused));
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error.message, /256 KiB/);
    big.write('"}}\n{"jsonrpc":"2.0","id":"after-too-long","method":"ping"}\n');
    assert.deepEqual(await big.next(), { jsonrpc: "2.0", id: "after-too-long", result: {} });
  });

  it("默认的上限是 64 MiB（不设 TIMESERVER_MAX_LINE 时 serveStdio 用的就是它）", () => {
    assert.equal(MAX_LINE, 64 * 1024 * 1024);
    assert.match(fs.readFileSync(path.join(ROOT, "timeserver", "stdio.ts"), "utf8"), /export function serveStdio\(maxLine = MAX_LINE\)/);
  });

  it("TIMESERVER_MAX_LINE 不是正整数 → stderr 说清楚并以 1 退出", async () => {
    const bad = new Server({ TIMESERVER_MAX_LINE: "很大" });
    assert.equal(await bad.exitCode(), 1);
    assert.match(bad.stderr, /TIMESERVER_MAX_LINE 要是正整数/);
  });
});

describe("timeserver 启动参数", () => {
  BAD_NOW.forEach((value, i) => {
    it(`TIMESERVER_NOW=${value} → stderr 说清楚并以 1 退出`, async () => {
      const bad = badNow[i]!;
      assert.equal(await bad.exitCode(), 1);
      assert.equal(bad.stdout, "");
      assert.match(bad.stderr, /TIMESERVER_NOW/);
      assert.ok(bad.stderr.includes(value));
    });
  });
});

// ---- Streamable HTTP（--http）----

// 一个 --http 的服务器进程，加上发 POST 和握手的便利
class HttpServer extends HttpTimeserver {
  async post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; json: Json | undefined }> {
    const res = await fetch(await this.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, text, json };
  }

  // 握手：返回会话 id
  async initialize(version = "2025-11-25"): Promise<string> {
    const init = await this.post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "0" } } });
    assert.equal(init.status, 200, init.text);
    assert.equal(init.json?.result.protocolVersion, version);
    const sid = init.headers.get("mcp-session-id");
    assert.ok(sid, "initialize 的答复要带 Mcp-Session-Id");
    const ack = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": sid, "MCP-Protocol-Version": version });
    assert.equal(ack.status, 202);
    assert.equal(ack.text, "");
    return sid;
  }
}
after(killHttpTimeservers);

// 一个原始的 TCP 连接：写一半的请求，看服务器什么时候断开（慢客户端）
async function rawUntilClosed(url: string, data: string): Promise<string> {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), "127.0.0.1");
  socket.write(data);
  let got = "";
  socket.on("data", (chunk: Buffer) => (got += chunk.toString("latin1")));
  // 服务器的时限是 5 秒（请求头）和 10 秒（整个请求）；50 秒还连着就算没断——Node 默认的时限是 60 秒和 300 秒，
  // 忘了设时限的服务器在这里失败
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise((resolve) => socket.on("close", resolve)),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`50 秒了还没断开；收到 ${got}`)), 50_000))),
  ]).finally(() => clearTimeout(timer));
  return got;
}

describe("timeserver --http", () => {
  let h: HttpServer;
  let slow: HttpServer; // 慢客户端要等服务器的时限，单独一个进程
  before(() => {
    h = new HttpServer({ TZ: "Asia/Shanghai", TIMESERVER_NOW: NOW_SHANGHAI });
    slow = new HttpServer();
  });

  it("stderr 上打印绑定的地址（只在 127.0.0.1 上）；握手、通知 202、列工具、调两个工具", async () => {
    assert.match(await h.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // 只绑 127.0.0.1：同一台机器上的 127.0.0.2（Linux 上整个 127/8 都是回环）也连不上；绑在 0.0.0.0 上就连得上
    const other = net.connect(Number(new URL(await h.url).port), "127.0.0.2");
    const refused = await new Promise((resolve) => other.on("error", () => resolve(true)).on("connect", () => resolve(false)));
    other.destroy();
    assert.equal(refused, true, "别的地址也连得上：没有只绑 127.0.0.1");
    const sid = await h.initialize();
    assert.match(sid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, "会话 id 是随机 UUID");
    const headers = { "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25" };
    const list = await h.post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    assert.equal(list.status, 200);
    assert.match(list.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(list.json?.result.tools.map((t: Json) => t.name), ["current_time", "days_between"]);
    const now = await h.post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "current_time" } }, headers);
    assert.deepEqual(now.json, { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "2026-08-07 14:03:09 星期五" }] } });
    // 没带 MCP-Protocol-Version 就按会话协商的版本算
    const days = await h.post({ jsonrpc: "2.0", id: "d", method: "tools/call", params: { name: "days_between", arguments: { start: "2026-08-07", end: "2027-01-01" } } }, { "Mcp-Session-Id": sid });
    assert.equal(days.json?.result.content[0].text, "147 天");
    // 不认识的方法还是 JSON-RPC 错误，HTTP 上是 200
    const unknown = await h.post({ jsonrpc: "2.0", id: 4, method: "resources/list" }, headers);
    assert.equal(unknown.status, 200);
    assert.equal(unknown.json?.error.code, -32601);
    // 客户端发来的响应也是 202
    assert.equal((await h.post({ jsonrpc: "2.0", id: 9, result: {} }, headers)).status, 202);
    // 两次握手是两个不同的会话
    assert.notEqual(await h.initialize("2024-11-05"), sid);
  });

  it("会话：没带 id → 400，不认识的 id → 404；DELETE 结束会话，之后这个 id 是 404", async () => {
    const ping = { jsonrpc: "2.0", id: 5, method: "ping" };
    assert.equal((await h.post(ping)).status, 400);
    assert.equal((await h.post(ping, { "Mcp-Session-Id": "no-such-session" })).status, 404);
    const sid = await h.initialize();
    assert.equal((await h.post(ping, { "Mcp-Session-Id": sid })).status, 200);
    const url = await h.url;
    assert.equal((await fetch(url, { method: "DELETE" })).status, 400);
    assert.equal((await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": sid } })).status, 200);
    const after = await h.post(ping, { "Mcp-Session-Id": sid });
    assert.equal(after.status, 404);
    assert.equal(after.json?.id, null, "拒绝也带一个 JSON-RPC 错误体");
    assert.equal((await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": sid } })).status, 404);
  });

  it("MCP-Protocol-Version 头：不认识的、和会话协商的不一样的 → 400", async () => {
    const sid = await h.initialize("2025-06-18");
    const ping = { jsonrpc: "2.0", id: 6, method: "ping" };
    assert.equal((await h.post(ping, { "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18" })).status, 200);
    for (const bad of ["banana", "", "2025-11-25", "2025-03-26"]) {
      const r = await h.post(ping, { "Mcp-Session-Id": sid, "MCP-Protocol-Version": bad });
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
    }
    // 握手时带了这个头，也得是认识的版本
    const init = { jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
    assert.equal((await h.post(init, { "MCP-Protocol-Version": "banana" })).status, 400);
    assert.equal((await h.post(init, { "MCP-Protocol-Version": "2025-11-25" })).status, 200);
  });

  it("Origin 或 Host 不是本机 → 403（防 DNS 重绑定）；本机的照常", async () => {
    const init = { jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
    for (const origin of ["http://evil.example", "null", "http://127.0.0.1.evil.example", "file://", "http://localhost.evil:80"]) {
      assert.equal((await h.post(init, { Origin: origin })).status, 403, origin);
    }
    for (const origin of ["http://localhost:5173", "http://127.0.0.1", "https://[::1]:8443"]) {
      assert.equal((await h.post(init, { Origin: origin })).status, 200, origin);
    }
    // Host 是攻击者的域名（重绑定以后浏览器照样这么写）也拒绝；fetch 不让改 Host，用原始连接发
    const body = JSON.stringify(init);
    for (const [host, status] of [["evil.example:80", "403"], ["localhost", "200"]] as const) {
      const got = await rawUntilClosed(await h.url, `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      assert.ok(got.startsWith(`HTTP/1.1 ${status}`), `Host ${host}: ${got.slice(0, 80)}`);
    }
  });

  it("GET → 405（没有服务器→客户端的流），别的路径 → 404，请求体不是 JSON → 400/415", async () => {
    const url = await h.url;
    const get = await fetch(url, { headers: { Accept: "text/event-stream" } });
    assert.equal(get.status, 405);
    assert.match(get.headers.get("allow") ?? "", /POST/);
    assert.equal((await fetch(url.replace(/\/mcp$/, "/other"), { method: "POST" })).status, 404);
    const parse = await h.post("{not json");
    assert.equal(parse.status, 400);
    assert.equal(parse.json?.error.code, -32700);
    assert.equal((await h.post("[]")).status, 400, "没有批处理");
    assert.equal((await h.post("{}", { "Content-Type": "text/plain" })).status, 415);
    assert.equal((await h.post("{}", { Accept: "text/html" })).status, 406);
  });

  it("客户端只收 SSE：答复装在一个 message 事件里", async () => {
    const r = await h.post({ jsonrpc: "2.0", id: 8, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } }, { Accept: "text/event-stream" });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.ok(r.headers.get("mcp-session-id"));
    const m = /^event: message\ndata: (.*)\n\n$/.exec(r.text);
    assert.ok(m, r.text);
    assert.equal(JSON.parse(m[1]!).result.protocolVersion, "2025-11-25");
  });

  it("请求体超过 1 MiB → 413（不管声明了长度还是分块发），之后照常服务", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
    assert.equal((await h.post(big)).status, 413);
    const url = await h.url;
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: chunked, duplex: "half" } as RequestInit);
    assert.equal(r.status, 413);
    await h.initialize();
  });

  it("慢客户端占不住连接：请求头迟迟不完、请求体迟迟不完，服务器都会断开", async () => {
    const url = await slow.url;
    const [headers, body] = await Promise.all([
      rawUntilClosed(url, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
      rawUntilClosed(url, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"),
    ]);
    for (const got of [headers, body]) assert.ok(got === "" || got.startsWith("HTTP/1.1 408"), got);
    // 服务器本身没事
    const r = await slow.post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
    assert.equal(r.status, 200);
  });

  it("SIGTERM → 以 0 退出；坏参数 → stderr 说清楚、以 2 退出", async () => {
    await slow.url;
    const last = new HttpServer();
    await last.url;
    last.child.kill("SIGTERM");
    assert.equal(await last.exited, 0);
    for (const args of [["--port", "80"], ["--http", "--port", "x"], ["--http", "--port", "70000"], ["--nope"]]) {
      const bad = spawn(SERVER[0]!, [...SERVER.slice(1), ...args], { cwd: ROOT });
      let err = "";
      bad.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
      const code = await new Promise((resolve) => bad.on("close", resolve));
      assert.equal(code, 2, args.join(" "));
      assert.match(err, /用法/);
    }
  });
});

// ---- 两个时代：2026-07-28 ----

const MODERN = "2026-07-28";
const SUPPORTED = ["2026-07-28", "2025-11-25", "2025-06-18", "2024-11-05"];
const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": { name: "timeserver", version: "0.1" } };
// 2026-07-28 的请求自己带着版本和客户端能力
function meta(version: unknown = MODERN, extra: Json = {}): Json {
  return { _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {}, ...extra } };
}

describe("timeserver 两个时代（stdio）", () => {
  let m: Server;
  before(() => {
    m = new Server({ TZ: "Asia/Shanghai", TIMESERVER_NOW: NOW_SHANGHAI });
  });

  it("不握手：server/discover、tools/list、tools/call 直接答，结果带 resultType 和 _meta 里的 serverInfo", async () => {
    const discover = await m.request("server/discover", meta(MODERN, { "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" } }));
    assert.deepEqual(discover.result, {
      resultType: "complete",
      supportedVersions: SUPPORTED,
      capabilities: { tools: {} },
      ttlMs: 3_600_000,
      cacheScope: "public",
      _meta: SERVER_INFO_META,
    });
    const list = await m.request("tools/list", meta());
    assert.equal(list.result.resultType, "complete");
    assert.deepEqual(list.result.tools.map((t: Json) => t.name), ["current_time", "days_between"]);
    assert.equal(list.result.ttlMs, 3_600_000);
    assert.equal(list.result.cacheScope, "public");
    assert.deepEqual(list.result._meta, SERVER_INFO_META);
    // 顺序固定（提示词缓存）：再列一次，逐字节相同
    assert.equal(JSON.stringify((await m.request("tools/list", meta(), list.id)).result), JSON.stringify(list.result));
    const now = await m.request("tools/call", { name: "current_time", ...meta() });
    assert.deepEqual(now.result, { resultType: "complete", content: [{ type: "text", text: "2026-08-07 14:03:09 星期五" }], _meta: SERVER_INFO_META });
    const days = await m.request("tools/call", { name: "days_between", arguments: { start: "2026-08-07", end: "2027-01-01" }, ...meta() });
    assert.equal(days.result.content[0].text, "147 天");
    const bad = await m.request("tools/call", { name: "days_between", arguments: { start: "x" }, ...meta() });
    assert.equal(bad.result.isError, true);
    assert.equal(bad.result.resultType, "complete");
  });

  it("不支持的版本 → -32022，data 列出支持的版本、带回要的那个；信封不全 → -32602", async () => {
    for (const version of ["2099-01-01", "2025-11-25", ""]) {
      const r = await m.request("tools/list", meta(version));
      assert.equal(r.error?.code, -32022, JSON.stringify(r));
      assert.deepEqual(r.error.data, { supported: SUPPORTED, requested: version });
    }
    const noCaps = await m.request("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } });
    assert.equal(noCaps.error?.code, -32602);
    assert.match(noCaps.error.message, /clientCapabilities/);
    for (const params of [undefined, {}, { _meta: {} }, meta(42)]) {
      const r = await m.request("server/discover", params);
      assert.equal(r.error?.code, -32602, JSON.stringify(params));
    }
  });

  it("ping、initialize 只在 legacy 里有；同一个进程照样答 legacy 客户端的握手（结果不带 resultType）", async () => {
    for (const method of ["ping", "initialize", "logging/setLevel"]) {
      assert.equal((await m.request(method, meta())).error?.code, -32601, method);
    }
    const init = await m.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } });
    assert.deepEqual(init.result, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "timeserver", version: "0.1" } });
    assert.deepEqual((await m.request("ping")).result, {});
    assert.deepEqual((await m.request("tools/call", { name: "current_time" })).result, { content: [{ type: "text", text: "2026-08-07 14:03:09 星期五" }] });
    // 握过手以后 modern 请求也照样答（两个时代可以同时在一个进程里）
    assert.equal((await m.request("tools/list", meta())).result.resultType, "complete");
  });
});

describe("timeserver 两个时代（HTTP）", () => {
  let h: HttpServer;
  before(() => {
    h = new HttpServer({ TZ: "Asia/Shanghai", TIMESERVER_NOW: NOW_SHANGHAI });
  });
  // modern 的 POST：请求头里抄一份版本、方法和名字
  const headersFor = (method: string, name?: string): Record<string, string> => ({
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
    ...(name === undefined ? {} : { "Mcp-Name": name }),
  });

  it("没有会话：不握手直接 discover、调工具，答复不发 Mcp-Session-Id；Mcp-Name 可以是 base64 写法", async () => {
    const discover = await h.post({ jsonrpc: "2.0", id: 1, method: "server/discover", params: meta() }, headersFor("server/discover"));
    assert.equal(discover.status, 200, discover.text);
    assert.deepEqual(discover.json?.result.supportedVersions, SUPPORTED);
    assert.equal(discover.headers.get("mcp-session-id"), null);
    const now = await h.post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "current_time", ...meta() } }, headersFor("tools/call", "current_time"));
    assert.equal(now.json?.result.content[0].text, "2026-08-07 14:03:09 星期五");
    const encoded = `=?base64?${Buffer.from("days_between").toString("base64")}?=`;
    const days = await h.post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "days_between", arguments: { start: "2026-08-07", end: "2027-01-01" }, ...meta() } },
      { ...headersFor("tools/call", encoded), "Mcp-Session-Id": "whatever" }, // 带来的会话 id 不理
    );
    assert.equal(days.status, 200, days.text);
    assert.equal(days.json?.result.content[0].text, "147 天");
    assert.equal(days.headers.get("mcp-session-id"), null);
    // 工具自己的参数错了还是 200：那是请求的答复，不是传输的事
    const bad = await h.post({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "days_between", arguments: {}, ...meta() } }, headersFor("tools/call", "days_between"));
    assert.equal(bad.status, 200);
    assert.equal(bad.json?.result.isError, true);
  });

  it("请求头和请求体对不上（缺、版本不同、方法不同、名字不同）→ 400 -32020，带回请求的 id", async () => {
    const body = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "current_time", ...meta() } };
    for (const headers of [
      { "Mcp-Method": "tools/call", "Mcp-Name": "current_time" },
      headersFor("tools/call"),
      headersFor("tools/list", "current_time"),
      headersFor("tools/call", "days_between"),
      { ...headersFor("tools/call", "current_time"), "MCP-Protocol-Version": "2099-01-01" },
    ]) {
      const r = await h.post(body, headers);
      assert.equal(r.status, 400, JSON.stringify(headers));
      assert.equal(r.json?.error.code, -32020, r.text);
      assert.equal(r.json?.id, 5);
    }
  });

  it("版本不支持 → 400 -32022；没有这个方法（ping 也没了）→ 404 -32601；信封不全 → 400 -32602", async () => {
    const old = await h.post({ jsonrpc: "2.0", id: 6, method: "tools/list", params: meta("2099-01-01") }, { ...headersFor("tools/list"), "MCP-Protocol-Version": "2099-01-01" });
    assert.equal(old.status, 400);
    assert.deepEqual(old.json?.error.data, { supported: SUPPORTED, requested: "2099-01-01" });
    for (const method of ["ping", "initialize", "resources/list"]) {
      const r = await h.post({ jsonrpc: "2.0", id: 7, method, params: meta() }, headersFor(method));
      assert.equal(r.status, 404, method);
      assert.equal(r.json?.error.code, -32601);
    }
    // 头说是 2026-07-28，请求体却没有 _meta
    const bare = await h.post({ jsonrpc: "2.0", id: 8, method: "tools/list" }, headersFor("tools/list"));
    assert.equal(bare.status, 400);
    assert.equal(bare.json?.error.code, -32602);
  });

  it("同一个端点上 legacy 客户端照常握手、拿会话", async () => {
    const sid = await h.initialize();
    const r = await h.post({ jsonrpc: "2.0", id: 9, method: "ping" }, { "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25" });
    assert.deepEqual(r.json, { jsonrpc: "2.0", id: 9, result: {} });
  });
});
