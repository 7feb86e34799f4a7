// 纯模块的单元测试：resolveInside、fitBudget、parseFrontmatter、workflow 的依赖检查、LineSplitter、会话的读写。
// 每个模块从它出现的那一章起，同一组用例跑在每一章、每个练习参考答案的那一份上——后面哪一章改歪了，一眼看得出是哪一份。
// 签名在后面的章节变过的（会话），每章都答应的行为每份都测，后来加的行为只从加它的那一章测起。
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, copiesForTier } from "../shared/scenario.ts";

const ALL = [
  ...chapterDirs().map((d) => path.join(CHAPTERS, d)),
];

// 持有这个文件的每一份：从第 first 章起每章一份，少了说明哪里丢了文件；再加上改过它的练习答案（叠在第 22 章上的整份）
function copiesOf(file: string, first: number): string[] {
  const dirs = [...ALL.filter((dir) => fs.existsSync(path.join(dir, file))), ...solutionTrees(file)];
  const chapters = dirs.filter((d) => d.startsWith(CHAPTERS)).map(chapterOf);
  assert.equal(Math.min(...chapters), first, `${file} 应该从第 ${first} 章开始出现`);
  const last = Number(chapterDirs().at(-1)!.slice(0, 2));
  assert.equal(chapters.length, last - first + 1, `第 ${first}–${last} 章都应该有 ${file}`);
  return copiesForTier(dirs);
}

// 章号：chapters/NN-slug → NN
function chapterOf(dir: string): number {
  return Number(path.relative(ROOT, dir).split(path.sep)[1].slice(0, 2));
}

const load = async (dir: string, file: string) => import(pathToFileURL(path.join(dir, file)).href);
const label = (dir: string) => path.relative(ROOT, dir);

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "modules-")));
after(() => fs.rmSync(base, { recursive: true, force: true }));
let serial = 0;
const freshDir = (name: string) => {
  const dir = path.join(base, `${name}-${++serial}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

// 收下 fn 运行期间 console.error 打出的每一行
function captureErrors<T>(fn: () => T): { value: T; errors: string[] } {
  const errors: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.join(" "));
  try {
    return { value: fn(), errors };
  } finally {
    console.error = error;
  }
}

describe("resolveInside（workspace.ts，第 08 章起）", () => {
  // base/w/work 是工作目录；旁边有 work2（名字以 work 开头的兄弟）和 outside
  const w = freshDir("workspace");
  const work = path.join(w, "work");
  fs.mkdirSync(path.join(work, "sub"), { recursive: true });
  fs.mkdirSync(path.join(work, "..foo"));
  fs.writeFileSync(path.join(work, "sub", "a.txt"), "a");
  fs.mkdirSync(path.join(w, "work2"));
  fs.writeFileSync(path.join(w, "work2", "a.txt"), "b");
  fs.mkdirSync(path.join(w, "outside"));
  fs.writeFileSync(path.join(w, "outside", "secret.txt"), "s");
  fs.symlinkSync(path.join(w, "outside"), path.join(work, "linkdir")); // 路上的一层目录指向外面
  fs.symlinkSync(path.join(w, "outside", "secret.txt"), path.join(work, "link.txt")); // 文件本身指向外面
  fs.symlinkSync(path.join(w, "outside", "nothing.txt"), path.join(work, "dangling.txt")); // 指向外面一个还不存在的文件
  fs.symlinkSync(path.join(work, "sub"), path.join(work, "inner")); // 指向里面的链接
  fs.symlinkSync(work, path.join(w, "worklink")); // 工作目录本身经由链接给出

  for (const dir of copiesOf("workspace.ts", 8)) {
    it(label(dir), async () => {
      const { resolveInside } = await load(dir, "workspace.ts");
      const outside = (p: string, root = work) => assert.throws(() => resolveInside(root, p), (e: Error) => /工作目录之外|符号链接/.test(e.message), `${p} 应该被拦下`);
      // ..
      outside("..");
      outside("../outside/secret.txt");
      outside("sub/../../outside/new.txt");
      // 别处的绝对路径
      outside(path.join(w, "outside", "secret.txt"));
      outside("/etc/passwd");
      // 兄弟目录 work2：字符串上以 work 开头，但不在 work 里面
      outside(path.join(w, "work2", "a.txt"));
      outside("../work2/a.txt");
      outside(path.join(w, "work2"));
      // 符号链接指向外面：路上的目录、文件本身、还不存在的目标
      outside("linkdir/secret.txt");
      outside("linkdir/new.txt");
      outside("linkdir/deeper/new.txt");
      outside("link.txt");
      outside("dangling.txt");
      // 还不存在的文件：父目录存在、几层父目录都还没建
      assert.equal(resolveInside(work, "sub/new.txt"), path.join(work, "sub", "new.txt"));
      assert.equal(resolveInside(work, "sub/x/y/new.txt"), path.join(work, "sub", "x", "y", "new.txt"));
      // 正常的路径：相对、绕一圈的、绝对的、工作目录本身、以 .. 开头的名字、指向里面的链接、经由链接给出的工作目录
      assert.equal(resolveInside(work, "sub/a.txt"), path.join(work, "sub", "a.txt"));
      assert.equal(resolveInside(work, "./sub/../sub/a.txt"), path.join(work, "sub", "a.txt"));
      assert.equal(resolveInside(work, path.join(work, "sub", "a.txt")), path.join(work, "sub", "a.txt"));
      assert.equal(resolveInside(work, "."), work);
      assert.equal(resolveInside(work, "..foo/x.txt"), path.join(work, "..foo", "x.txt"));
      assert.equal(resolveInside(work, "inner/a.txt"), path.join(work, "sub", "a.txt"));
      assert.equal(resolveInside(path.join(w, "worklink"), "sub/a.txt"), path.join(work, "sub", "a.txt"));
      outside("../outside/secret.txt", path.join(w, "worklink"));
    });
  }
});

describe("fitBudget（budget.ts，第 14 章起）", () => {
  for (const dir of copiesOf("budget.ts", 14)) {
    it(label(dir), async () => {
      const { fitBudget } = await load(dir, "budget.ts");
      // 预算之内原样返回（正好等于预算也是）
      for (const [text, max] of [["", 5], ["abc", 10], ["abcde", 5], ["汉字汉字", 4]] as const) assert.equal(fitBudget(text, max), text);

      // 超了：留头留尾，中间一行标记；N 就是省掉的字符数，头 + 尾正好 max 个字符
      const letters = "abcdefghijklmnopqrstuvwxyz";
      assert.equal(fitBudget(letters, 10), "abcde\n...省略 16 字符...\nvwxyz");
      for (const [text, max] of [[letters, 7], [letters, 25], ["汉".repeat(100) + "尾", 20], ["x".repeat(1000), 999]] as const) {
        const out: string = fitBudget(text, max);
        const m = out.match(/^([\s\S]*)\n\.\.\.省略 (\d+) 字符\.\.\.\n([\s\S]*)$/);
        assert.ok(m, `${max}：${out}`);
        const [, head, n, tail] = m;
        const chars = Array.from(text);
        assert.ok(head.length > 0 && tail.length > 0, "头和尾都要留");
        assert.ok(text.startsWith(head) && text.endsWith(tail));
        assert.equal(Array.from(head).length + Array.from(tail).length, max);
        assert.equal(Number(n), chars.length - max, "N 按字符算，不是字节");
      }

      // 多字节：按码点数、按码点切，不会把 emoji 切成两半
      const emoji = "😀".repeat(8); // 16 个 UTF-16 单元，8 个字符
      assert.equal(fitBudget(emoji, 10), emoji);
      const cut: string = fitBudget("😀🎉".repeat(15), 10);
      assert.equal(cut, "😀🎉😀🎉😀\n...省略 20 字符...\n🎉😀🎉😀🎉");
      const odd: string = fitBudget("a😀".repeat(9), 7);
      assert.doesNotMatch(odd, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, "不能留下半个代理对");
      assert.match(odd, /\n\.\.\.省略 11 字符\.\.\.\n/);
    });
  }
});

// 大结果不拆成字符数组（issue 28）：原来 Array.from 整段，一千二百万个字符光数组就要几百 MB。
// 每一份都在一个堆上限 128 MB 的子进程里切一段 3200 万字节的文字：原来的写法在这里耗尽内存，现在的只多占几十 KB
it("fitBudget：大结果只在原文上数字符、找位置，128 MB 的堆里切得动 1200 万个字符（每一份）", () => {
  const copies = copiesOf("budget.ts", 14);
  const script = `
    const text = "汉😀a".repeat(4 << 20);
    for (const file of ${JSON.stringify(copies.map((d) => pathToFileURL(path.join(d, "budget.ts")).href))}) {
      const out = (await import(file)).fitBudget(text, 20000);
      if (!out.includes("\\n...省略 " + (3 * (4 << 20) - 20000) + " 字符...\\n")) throw new Error(file + " 切错了");
    }`;
  const child = spawnSync(process.execPath, ["--max-old-space-size=128", "--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr.slice(-2000));
});

// 模型服务的正文也有上限（issue 28）：不是流的回答、错误体，和 sse.ts 的一行一样不会被一个不停发字节的服务器吃光内存
describe("readText（model.ts，第 01 章起）：正文最多读 max 字节，超了就停、取消这个流", () => {
  const encoder = new TextEncoder();
  // 一个 Response：先交出 parts，之后（endless 时）一直交 64 KiB 的块；记下交出了多少字节、有没有被取消
  const responseOf = (parts: string[], endless = false) => {
    const seen = { sent: 0, cancelled: false };
    const queue = parts.map((p) => encoder.encode(p));
    const block = new Uint8Array(64 * 1024).fill(120);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift() ?? (endless ? block : undefined);
        if (!next) return controller.close();
        seen.sent += next.length;
        controller.enqueue(next);
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { res: new Response(body), seen };
  };
  for (const dir of copiesOf("model.ts", 1)) {
    it(label(dir), async () => {
      const mod = await load(dir, "model.ts");
      // 小的上限：汉字的三个字节分在两块里也解得对；超了只留前 max 字节，流被取消
      assert.deepEqual(await mod.readText(responseOf(["a", "汉字", "b"]).res, 100), { text: "a汉字b", cut: false });
      assert.deepEqual(await mod.readText(responseOf([]).res, 10), { text: "", cut: false });
      const bytes = encoder.encode("汉字");
      const halves = new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes.subarray(0, 2)), c.enqueue(bytes.subarray(2)), c.close()) }));
      assert.deepEqual(await mod.readText(halves, 6), { text: "汉字", cut: false });
      const long = responseOf(["0123456789", "abcdef"], true);
      assert.deepEqual(await mod.readText(long.res, 12), { text: "0123456789ab", cut: true });
      assert.ok(long.seen.cancelled, "超了以后流要被取消");
      // 默认的上限：错误体 64 KiB；第 01、02 章不是流的回答 16 MiB（第 03 章起回答是流式的，由 sse.ts 管）
      assert.equal(mod.MAX_ERROR_BODY, 64 * 1024);
      if (chapterOf(dir) < 3) assert.equal(mod.MAX_BODY, 16 * 1024 * 1024);
      else assert.equal(mod.MAX_BODY, undefined);
      const endless = responseOf([], true);
      const got = await mod.readText(endless.res, mod.MAX_ERROR_BODY);
      assert.equal(got.cut, true);
      assert.equal(got.text.length, 64 * 1024);
      assert.ok(endless.seen.cancelled);
      assert.ok(endless.seen.sent < 4 * 64 * 1024, `读了 ${endless.seen.sent} 字节才停`);
      // 模型服务的正文一律经过它：没有一处整段读进来
      assert.doesNotMatch(fs.readFileSync(path.join(dir, "model.ts"), "utf8"), /\.(text|json|arrayBuffer)\(\)/);
    });
  }
});

describe("parseFrontmatter（skills.ts，第 16 章起）", () => {
  for (const dir of copiesOf("skills.ts", 16)) {
    it(label(dir), async () => {
      const { parseFrontmatter, discoverSkills } = await load(dir, "skills.ts");
      // 写得好好的
      assert.deepEqual(parseFrontmatter("---\nname: review\ndescription: \"审查: 改动\"\nnote: 'it''s'\n---\n\n# 正文\n\n第二段\n"), {
        fields: { name: "review", description: "审查: 改动", note: "it's" },
        body: "# 正文\n\n第二段",
      });
      assert.deepEqual(parseFrontmatter("---\nname: a\ndescription: >\n  折叠成\n  一行\nsteps: |\n  第一行\n  第二行\n---\n正文").fields, {
        name: "a",
        description: "折叠成 一行",
        steps: "第一行\n第二行",
      });
      // 结束行之后再出现的 --- 属于正文；开头的 BOM 不碍事
      assert.deepEqual(parseFrontmatter("\uFEFF---\nname: a\n---\nx\n---\ny"), { fields: { name: "a" }, body: "x\n---\ny" });
      // 没有 name：读得出来，只是没有这个字段
      assert.deepEqual(parseFrontmatter("---\ndescription: 没名字\n---\n正文"), { fields: { description: "没名字" }, body: "正文" });
      // 结束行后面有空格、开头一行也有
      assert.deepEqual(parseFrontmatter("--- \nname: a\n---  \t\n正文"), { fields: { name: "a" }, body: "正文" });
      // CRLF：字段和正文里都不留 \r
      assert.deepEqual(parseFrontmatter("---\r\nname: a\r\ndescription: b\r\n---\r\n第一行\r\n第二行\r\n"), { fields: { name: "a", description: "b" }, body: "第一行\n第二行" });
      // 没有结束的 ---、根本没有 frontmatter：抛出一句说明
      assert.throws(() => parseFrontmatter("---\nname: a\n正文"), /---/);
      assert.throws(() => parseFrontmatter("---\n"), /---/);
      for (const text of ["# 标题\n正文", "", "\n---\nname: a\n---\n"]) assert.throws(() => parseFrontmatter(text), /---/, JSON.stringify(text));

      // 发现时：没有 name 的和坏掉的各警告一行并跳过，别的照常发现
      const cwd = freshDir("skills");
      const home = freshDir("home");
      const write = (name: string, text: string) => {
        fs.mkdirSync(path.join(cwd, ".claude", "skills", name), { recursive: true });
        fs.writeFileSync(path.join(cwd, ".claude", "skills", name, "SKILL.md"), text);
      };
      write("good", "---\nname: good\n---\n第一段\n说明\n\n第二段");
      write("noname", "---\ndescription: x\n---\n正文");
      write("unclosed", "---\nname: unclosed\n正文");
      const saved = process.env.HOME;
      process.env.HOME = home;
      try {
        const { value: skills, errors } = captureErrors(() => discoverSkills(cwd));
        assert.deepEqual(skills.map((s: { name: string; description: string }) => [s.name, s.description]), [["good", "第一段 说明"]]);
        assert.equal(errors.length, 2, errors.join("\n"));
        assert.match(errors[0], /^警告: .*noname.*name/);
        assert.match(errors[1], /^警告: .*unclosed.*---/);
      } finally {
        process.env.HOME = saved;
      }
    });
  }
});

describe("workflow 的依赖检查（tools/workflow.ts 的 parseSteps，第 21 章起）", () => {
  for (const dir of copiesOf("tools/workflow.ts", 21)) {
    it(label(dir), async () => {
      const { parseSteps } = await load(dir, "tools/workflow.ts");
      const step = (id: string, ...deps: string[]) => ({ id, task: `做 ${id}`, ...(deps.length ? { depends_on: deps } : {}) });
      // 好的图原样交回，没写 depends_on 的补成 []；菱形（两条路汇到一处）不是环
      assert.deepEqual(parseSteps([step("a"), step("b", "a"), step("c", "a"), step("d", "b", "c")]), [
        { id: "a", task: "做 a", depends_on: [] },
        { id: "b", task: "做 b", depends_on: ["a"] },
        { id: "c", task: "做 c", depends_on: ["a"] },
        { id: "d", task: "做 d", depends_on: ["b", "c"] },
      ]);
      assert.ok(Array.isArray(parseSteps([step("d", "b", "c"), step("c", "a"), step("b", "a"), step("a")])), "依赖写在后面也行");
      // 引用了不存在的步骤：点名是谁依赖了谁
      assert.equal(parseSteps([step("a"), step("b", "a", "ghost")]), "步骤 b 依赖的 ghost 不存在");
      // 成环：写出环上的步骤，首尾相同
      assert.equal(parseSteps([step("a", "a")]), "依赖成环：a → a");
      assert.equal(parseSteps([step("x"), step("b", "c"), step("c", "b")]), "依赖成环：b → c → b");
      assert.equal(parseSteps([step("a", "b"), step("b", "c"), step("c", "a"), step("d", "a")]), "依赖成环：a → b → c → a");
      assert.equal(parseSteps([step("top", "a"), step("a", "b"), step("b", "a")]), "依赖成环：a → b → a", "环不一定经过第一步");
      // 别的形状问题也是一句话，不抛异常
      for (const bad of [undefined, null, [], "steps", [step("a"), step("a")], [{ id: "a" }], [{ task: "x" }], [{ id: "a", task: "x", depends_on: "b" }], [{ id: "a", task: "x", depends_on: [1] }], [null]]) {
        assert.equal(typeof parseSteps(bad), "string", JSON.stringify(bad));
      }
    });
  }
});

describe("LineSplitter（jsonrpc.ts，第 22 章起）", () => {
  for (const dir of copiesOf("jsonrpc.ts", 22)) {
    it(label(dir), async () => {
      const { LineSplitter, MAX_LINE } = await load(dir, "jsonrpc.ts");
      // 把 chunks 依次喂进去，收下每一行；push 每次都应返回 true
      const feed = (chunks: (string | Buffer)[], splitter = new LineSplitter()) => {
        const lines: string[] = [];
        for (const c of chunks) assert.equal(splitter.push(Buffer.isBuffer(c) ? c : Buffer.from(c), (l: string) => lines.push(l)), true);
        return lines;
      };
      // 一行分几块到达；换行到之前什么都不交
      assert.deepEqual(feed(['{"a":', "1", "}"]), []);
      assert.deepEqual(feed(['{"a":', "1", "}\n"]), ['{"a":1}']);
      // 一个汉字的字节分在两块里（还有一个 4 字节的 emoji 分在三块里）
      const bytes = Buffer.from('{"t":"汉字😀"}\n');
      const at = bytes.indexOf(Buffer.from("汉")) + 1;
      const emoji = bytes.indexOf(Buffer.from("😀"));
      assert.deepEqual(feed([bytes.subarray(0, at), bytes.subarray(at, emoji + 1), bytes.subarray(emoji + 1, emoji + 3), bytes.subarray(emoji + 3)]), ['{"t":"汉字😀"}']);
      assert.deepEqual(feed([...bytes].map((b) => Buffer.from([b]))), ['{"t":"汉字😀"}'], "一个字节一块");
      // \r\n：行尾的 \r 去掉，\r 和 \n 分在两块也一样；行中间的 \r 不动
      assert.deepEqual(feed(["a\r\nb\r\n"]), ["a", "b"]);
      assert.deepEqual(feed(["a\r", "\nb\n"]), ["a", "b"]);
      assert.deepEqual(feed(["a\rb\n"]), ["a\rb"]);
      // 空行原样交出（空字符串），由调用方跳过
      assert.deepEqual(feed(["\n\na\n\r\n", "\n"]), ["", "", "a", "", ""]);
      // 一块里几行，最后半行留到下一块
      assert.deepEqual(feed(["a\nb\nc\nd", "e\n"]), ["a", "b", "c", "de"]);

      // 上限：正好 max 字节的一行收下，多一个字节就返回 false，不等换行
      const bounded = (max: number, chunks: string[]) => {
        const s = new LineSplitter(max);
        const lines: string[] = [];
        return { results: chunks.map((c) => s.push(Buffer.from(c), (l: string) => lines.push(l))), lines };
      };
      assert.deepEqual(bounded(10, ["0123456789\n"]), { results: [true], lines: ["0123456789"] });
      assert.deepEqual(bounded(10, ["01234567890\n"]), { results: [false], lines: [] });
      assert.deepEqual(bounded(10, ["012345", "6789"]), { results: [true, true], lines: [] });
      assert.deepEqual(bounded(10, ["012345", "67890"]).results, [true, false], "没有换行也要在超过的那一刻报出来");
      assert.deepEqual(bounded(10, ["ok\n01234567890"]), { results: [false], lines: ["ok"] }, "超长之前的行照常交出");
      // 默认上限 64 MiB：同一块 1 MiB 的缓冲区喂 64 次还行，再多一个字节就拒绝（不必真的攒下 65 MiB）
      assert.equal(MAX_LINE, 64 * 1024 * 1024);
      const s = new LineSplitter();
      const mib = Buffer.alloc(1024 * 1024, 0x61);
      const lines: string[] = [];
      for (let i = 0; i < 64; i++) assert.equal(s.push(mib, (l: string) => lines.push(l)), true, `第 ${i + 1} MiB`);
      assert.equal(s.push(Buffer.from("a\n"), (l: string) => lines.push(l)), false);
      assert.deepEqual(lines, []);
    });
  }
});

// 上限的默认值不靠真的收 64 MiB、真的等两秒来证明：场景把它们调小（HARNESS_MCP_MAX_LINE、HARNESS_MCP_CLOSE_GRACE_MS），
// 这里只看不传 limits 时，客户端手里的就是那两个常量，常量也还是书里说的值
describe("McpClient 的上限（mcp-client.ts，第 22 章起）", () => {
  for (const dir of copiesOf("mcp-client.ts", 22)) {
    it(`${label(dir)}：默认一行 64 MiB、收尾每一步等 2 秒；传了 limits 就用传的`, async () => {
      const { McpClient, CLOSE_GRACE_MS } = await load(dir, "mcp-client.ts");
      const { MAX_LINE } = await load(dir, "jsonrpc.ts");
      assert.equal(MAX_LINE, 64 * 1024 * 1024);
      assert.equal(CLOSE_GRACE_MS, 2000);
      const config = { command: process.execPath, args: ["-e", "process.stdin.resume()"], env: {} };
      const clients = [await McpClient.start("defaults", config, () => {}), await McpClient.start("small", config, () => {}, { maxLine: 1024, closeGraceMs: 5 })];
      try {
        assert.deepEqual(clients.map((c) => c.limits), [{ maxLine: MAX_LINE, closeGraceMs: CLOSE_GRACE_MS }, { maxLine: 1024, closeGraceMs: 5 }]);
      } finally {
        for (const c of clients) c.kill();
      }
    });
  }
});

describe("会话的读写（session.ts，第 10 章起；重置行从第 15 章起）", () => {
  type Message = Record<string, unknown>;
  const user = (content: string): Message => ({ role: "user", content });
  const call = (id: string): Message => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }] });
  const result = (id: string): Message => ({ role: "tool", tool_call_id: id, content: "文件内容" });
  const answer = (content: string): Message => ({ role: "assistant", content });
  const linesOf = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "");

  // 会话在 ~/.harness/projects/<工作目录>/sessions/ 下：这组用例有自己的 HOME
  const home = freshDir("home");
  const savedHome = process.env.HOME;
  before(() => void (process.env.HOME = home));
  after(() => void (process.env.HOME = savedHome));

  for (const dir of copiesOf("session.ts", 10)) {
    describe(label(dir), async () => {
      const mod = await load(dir, "session.ts");
      const { createSession, loadSession, saveSession } = mod;
      const sessionsOf = (cwd: string): string => mod.sessionsDir(cwd, home);
      // 一个新的工作目录，它的会话目录里放一个会话文件（内容原样写入），返回 cwd 和 id
      const withFile = (text: string) => {
        const cwd = freshDir("session");
        const id = "20250101-120000-abcd";
        fs.mkdirSync(sessionsOf(cwd), { recursive: true });
        fs.writeFileSync(path.join(sessionsOf(cwd), `${id}.jsonl`), text);
        return { cwd, id };
      };
      const loaded = (cwd: string, id?: string) => {
        const { value, errors } = captureErrors(() => loadSession(cwd, id));
        assert.equal(typeof value, "object", String(value));
        return { ...value, errors } as { session: { id: string; file: string }; history: Message[]; errors: string[] };
      };

      it("建立 → 保存 → 读回：一模一样；读回来的接着存只追加新的", () => {
        const cwd = freshDir("session");
        assert.match(loadSession(cwd), /还没有/);
        const session = createSession(cwd, new Date(2025, 0, 2, 3, 4, 5));
        assert.match(session.id, /^20250102-030405-[0-9a-f]{4}$/);
        assert.ok(mod.isSessionId(session.id));
        assert.equal(fs.existsSync(session.file), false, "第一次保存之前不建文件");
        const history = [user("读 a.txt"), call("c1"), result("c1"), answer("读完了：汉字😀\n第二行")];
        const saving = captureErrors(() => saveSession(session, history));
        assert.deepEqual(saving.errors, []);
        assert.equal(linesOf(session.file).length, 4);
        const first = loaded(cwd);
        assert.equal(first.session.id, session.id);
        assert.deepEqual(first.history, history);
        assert.deepEqual(first.errors, []);
        assert.deepEqual(loaded(cwd, session.id).history, history);
        assert.match(loadSession(cwd, "20990101-000000-0000"), /找不到会话/);
        // 接着聊：只追加两行
        const before = fs.readFileSync(session.file, "utf8");
        first.history.push(user("再来"), answer("好"));
        saveSession(first.session, first.history);
        const now = fs.readFileSync(session.file, "utf8");
        assert.ok(now.startsWith(before), "只追加，不重写");
        assert.equal(linesOf(session.file).length, 6);
        assert.deepEqual(loaded(cwd).history, [...history, user("再来"), answer("好")]);
        // 没有新消息时什么都不写
        saveSession(first.session, first.history);
        assert.equal(fs.readFileSync(session.file, "utf8"), now);
      });

      it("最后一行写了一半：跳过并警告一行，前面的都在；之后的新消息从新的一行开始", () => {
        const good = [user("你好"), answer("你好！")];
        const { cwd, id } = withFile(good.map((m) => JSON.stringify(m) + "\n").join("") + '{"role":"user","con');
        const got = loaded(cwd);
        assert.deepEqual(got.history, good);
        assert.equal(got.errors.length, 1, got.errors.join("\n"));
        assert.match(got.errors[0], new RegExp(`^警告: .*${id}.*最后一行`));
        got.history.push(user("接着"));
        captureErrors(() => saveSession(got.session, got.history));
        const again = loaded(cwd);
        assert.deepEqual(again.history, [...good, user("接着")]);
        assert.equal(again.errors.length, 1, "半截的那一行还在文件里，照样跳过");
      });

      it("不是消息的行（null、42、[]、字符串、没有 role 的对象、坏 JSON）：逐行跳过并警告", () => {
        const bad = ["null", "42", "[]", '"user"', '{"content":"没有 role"}', "{oops"];
        const text = [JSON.stringify(user("一")), ...bad, JSON.stringify(answer("二"))].join("\n") + "\n";
        const { cwd } = withFile(text);
        const got = loaded(cwd);
        assert.deepEqual(got.history, [user("一"), answer("二")]);
        assert.equal(got.errors.length, bad.length, got.errors.join("\n"));
        got.errors.forEach((e, i) => assert.match(e, new RegExp(`^警告: .*第 ${i + 2} 行`)));
      });

      it("最后一轮的调用缺了结果：补上一条说明并警告", () => {
        const { cwd } = withFile([user("读两个"), { ...call("c1"), tool_calls: [...(call("c1").tool_calls as object[]), ...(call("c2").tool_calls as object[])] }, result("c1")].map((m) => JSON.stringify(m) + "\n").join(""));
        const got = loaded(cwd);
        assert.equal(got.history.length, 4);
        assert.equal(got.history[3].role, "tool");
        assert.equal(got.history[3].tool_call_id, "c2");
        assert.match(String(got.history[3].content), /^错误: /);
        assert.equal(got.errors.length, 1);
        assert.match(got.errors[0], /^警告: /);
      });

      it("一个文件夹一个会话目录：名字相同的一截加真实路径的哈希；旧版的目录，路径全是 ASCII 时搬过来，有汉字时不碰", () => {
        const root = freshDir("folders");
        const make = (rel: string) => (fs.mkdirSync(path.join(root, rel), { recursive: true }), path.join(root, rel));
        const [front, back] = [make("工作/前端"), make("工作/后端")];
        assert.notEqual(sessionsOf(front), sessionsOf(back), "工作/前端 和 工作/后端 不能共用一个会话目录");
        assert.match(path.basename(path.dirname(sessionsOf(front))), /^[A-Za-z0-9-]+-[0-9a-f]{8}$/);
        // 旧版的目录名：真实路径里字母数字以外的每个字符换成一个 -
        const oldDir = (cwd: string) => path.join(home, ".harness", "projects", fs.realpathSync(cwd).replace(/[^A-Za-z0-9]/g, "-"));
        const ascii = make("plain-ascii");
        fs.mkdirSync(path.join(oldDir(ascii), "sessions"), { recursive: true });
        fs.writeFileSync(path.join(oldDir(ascii), "sessions", "20250101-120000-abcd.jsonl"), JSON.stringify(user("旧的")) + "\n");
        assert.deepEqual(loaded(ascii).history, [user("旧的")], "ASCII 路径的旧目录照旧接着用");
        assert.equal(fs.existsSync(oldDir(ascii)), false, "旧目录搬成了新名字");
        fs.mkdirSync(path.join(oldDir(front), "sessions"), { recursive: true });
        fs.writeFileSync(path.join(oldDir(front), "sessions", "20250101-120000-abcd.jsonl"), JSON.stringify(user("不知道是谁的")) + "\n");
        assert.equal(oldDir(front), oldDir(back), "旧版里这两个文件夹本来就撞在一起");
        assert.match(loadSession(back), /还没有/, "分不清是谁的，不拿来用");
        assert.ok(fs.existsSync(oldDir(front)), "旧文件原样留着");
      });

      it("会话在用户目录里：工作目录里仓库自带的 .harness/sessions/ 不算；不像 id 的 id 不拿去拼路径", () => {
        const cwd = freshDir("session");
        fs.mkdirSync(path.join(cwd, ".harness", "sessions"), { recursive: true });
        fs.writeFileSync(path.join(cwd, ".harness", "sessions", "20991231-000000-ffff.jsonl"), JSON.stringify(user("仓库写的")) + "\n");
        assert.match(loadSession(cwd), /还没有/);
        assert.match(loadSession(cwd, "20991231-000000-ffff"), /找不到会话/);
        assert.match(loadSession(cwd, "../../../etc/passwd"), /不是会话 id/);
        assert.ok(sessionsOf(cwd).startsWith(path.join(home, ".harness", "projects") + path.sep));
        const session = createSession(cwd);
        assert.ok(session.file.startsWith(sessionsOf(cwd) + path.sep), session.file);
      });

      it("会话文件、sessions/、这个工作目录的会话目录是符号链接：不读（返回一句话），不写（警告，不穿过链接）", () => {
        const outsideFile = (name: string) => {
          const out = freshDir("outside");
          const file = path.join(out, name);
          fs.writeFileSync(file, JSON.stringify(user("外面的")) + "\n");
          return { out, file };
        };
        // 会话文件本身是链接
        {
          const { cwd, id } = withFile("");
          const target = outsideFile("target.jsonl");
          const file = path.join(sessionsOf(cwd), `${id}.jsonl`);
          fs.rmSync(file);
          fs.symlinkSync(target.file, file);
          assert.match(loadSession(cwd), /符号链接/);
          const session = createSession(cwd);
          const { errors } = captureErrors(() => saveSession({ ...session, id, file }, [user("写进去")]));
          assert.equal(errors.length, 1);
          assert.match(errors[0], /^警告: .*符号链接/);
          assert.equal(fs.readFileSync(target.file, "utf8"), JSON.stringify(user("外面的")) + "\n");
        }
        // 目录是链接：sessions/，或者这个工作目录的会话目录；链接那头放着一个像模像样的会话
        for (const linked of ["sessions", "project"]) {
          const cwd = freshDir("session");
          const out = freshDir("outside");
          const sessions = linked === "project" ? path.join(out, "sessions") : out;
          fs.mkdirSync(sessions, { recursive: true });
          fs.writeFileSync(path.join(sessions, "20250101-120000-abcd.jsonl"), JSON.stringify(user("外面的")) + "\n");
          const link = linked === "project" ? path.dirname(sessionsOf(cwd)) : sessionsOf(cwd);
          fs.mkdirSync(path.dirname(link), { recursive: true });
          fs.symlinkSync(out, link);
          assert.match(loadSession(cwd), /符号链接/, linked);
          assert.match(loadSession(cwd, "20250101-120000-abcd"), /符号链接/, linked);
          const session = createSession(cwd);
          const { errors } = captureErrors(() => saveSession(session, [user("写进去")]));
          assert.equal(errors.length, 1, linked);
          assert.match(errors[0], /^警告: .*符号链接/, linked);
          assert.deepEqual(fs.readdirSync(sessions), ["20250101-120000-abcd.jsonl"], `${linked}：链接那头没有多出文件`);
        }
      });

      if (chapterOf(dir) >= 15) {
        it("第 15 章起：压缩换掉了较早的消息、撤回了出错的一问，都存成一行重置，读回来一模一样", () => {
          const cwd = freshDir("session");
          const session = createSession(cwd);
          const u1 = user("一"), a1 = answer("一的回答"), u2 = user("二"), a2 = answer("二的回答");
          let history = [u1, a1, u2, a2];
          saveSession(session, history);
          const grows = () => {
            const before = fs.readFileSync(session.file, "utf8");
            return () => assert.ok(fs.readFileSync(session.file, "utf8").startsWith(before), "原文一行不删，文件只增");
          };
          // 压缩：整段换成摘要
          let check = grows();
          history = [user("摘要：聊了一和二"), a2];
          saveSession(session, history);
          check();
          const reset = JSON.parse(linesOf(session.file).at(-1)!);
          assert.equal(reset.reset, 0);
          assert.deepEqual(reset.messages, history);
          assert.deepEqual(loaded(cwd).history, history);
          // 接着聊，只追加普通的行
          const u3 = user("三");
          history.push(u3, answer("三的回答"));
          saveSession(session, history);
          assert.equal(JSON.parse(linesOf(session.file).at(-1)!).role, "assistant");
          assert.deepEqual(loaded(cwd).history, history);
          // 撤回：截掉最后一问
          check = grows();
          history = history.slice(0, 2);
          saveSession(session, history);
          check();
          assert.deepEqual(JSON.parse(linesOf(session.file).at(-1)!), { reset: 2, messages: [] });
          assert.deepEqual(loaded(cwd).history, history);
          // 保留前面、换掉中间以后的（部分压缩）；再撤回到空
          history = [history[0], user("新的中段"), answer("新的回答")];
          saveSession(session, history);
          assert.equal(JSON.parse(linesOf(session.file).at(-1)!).reset, 1);
          assert.deepEqual(loaded(cwd).history, history);
          history = [];
          saveSession(session, history);
          assert.deepEqual(loaded(cwd).history, []);
          // 从读回来的会话接着存：压缩后再读回、再压缩，仍然一致
          const again = loaded(cwd);
          again.history.push(u1, a1, u2);
          saveSession(again.session, again.history);
          const compacted = [user("摘要"), u2];
          saveSession(again.session, compacted);
          const last = loaded(cwd);
          assert.deepEqual(last.history, compacted);
          assert.deepEqual(last.errors, []);
        });
      }
    });
  }
});
