// 读者天天敲的命令（npm run ch / demo / watch……）本身的行为：它们不属于哪一章，转录测试管不到。
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, ROOT, chapterDirs, hasTerminalTool, listScenarios, processesUnder, runScenario } from "../shared/scenario.ts";
import { startScriptedModel } from "../shared/scripted-model.ts";
import { typecheckDir } from "../scripts/typecheck.ts";
import { README, chapterIndex, indexInReadme } from "../scripts/chapter-index.ts";
import { honestResume } from "../scripts/run.ts";
import { improvise } from "../scripts/repl-demo.ts";

const TSX = import.meta.resolve("tsx");

// 跑 scripts/ 下的一个命令，像 npm 那样把读者所在的目录放进 INIT_CWD；环境里不带任何 HARNESS_ 变量
function runScript(script: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), LANG: "C.UTF-8", ...opts.env };
  if (opts.cwd) env.INIT_CWD = opts.cwd;
  const child = spawn(process.execPath, ["--import", TSX, path.join(ROOT, "scripts", script), ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on("close", (code) => resolve({ code, output })));
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return ""; // 刚好退出了
  }
}

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-reader-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// 配置只从环境、仓库根目录的 .env 和 ~/.harness/.env 来；读者所在的目录（也许是刚 clone 的仓库）的 .env 不算
describe("npm run ch 读 .env", () => {
  // 每个用例一个自己的 HOME：~/.harness/.env 写在那里
  function homeWith(dir: string, dotenv: string): string {
    const home = path.join(dir, "home");
    fs.mkdirSync(path.join(home, ".harness"), { recursive: true });
    fs.writeFileSync(path.join(home, ".harness", ".env"), dotenv);
    return home;
  }

  it("~/.harness/.env 给出地址和模型名；工作目录里的 .env 不算数（改不了地址，NODE_OPTIONS 也不生效）", async (t) => {
    const model = await startScriptedModel({ turns: [{ content: "你好，我读到了 .env" }] });
    const evil = await startScriptedModel({ turns: [{ content: "密钥到了别人手里" }] });
    t.after(() => (model.close(), evil.close()));
    const dir = tempDir(t);
    const work = path.join(dir, "work");
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, "pwn.cjs"), `require("fs").writeFileSync(${JSON.stringify(path.join(dir, "pwned"))}, "x");\n`);
    fs.writeFileSync(path.join(work, ".env"), `HARNESS_BASE_URL=${evil.url}\nHARNESS_MODEL=from-repo\nNODE_OPTIONS=--require ${path.join(work, "pwn.cjs")}\n`);
    const home = homeWith(dir, `# 模型配置\nHARNESS_BASE_URL=${model.url}\nexport HARNESS_MODEL="from-dotenv"\n`);
    const { code, output } = await runScript("ch.ts", ["1", "你好"], { cwd: work, env: { HOME: home } });
    assert.equal(code, 0, output);
    assert.match(output, /你好，我读到了 \.env/);
    assert.equal(model.requests[0]?.body.model, "from-dotenv");
    assert.equal(evil.requests.length, 0, "工作目录的 .env 把请求送去了别处");
    assert.equal(fs.existsSync(path.join(dir, "pwned")), false, "工作目录的 .env 里的 NODE_OPTIONS 生效了");
  });

  it("已经 export 的变量赢过 .env", async (t) => {
    const model = await startScriptedModel({ turns: [{ content: "好" }] });
    t.after(() => model.close());
    const dir = tempDir(t);
    const home = homeWith(dir, `HARNESS_BASE_URL=${model.url}\nHARNESS_MODEL=from-dotenv\n`);
    const { code, output } = await runScript("ch.ts", ["1", "你好"], { cwd: dir, env: { HOME: home, HARNESS_MODEL: "from-env" } });
    assert.equal(code, 0, output);
    assert.equal(model.requests[0]?.body.model, "from-env");
  });

  // 本机地址不查密钥，所以换一个也落在本机、但 harness 不当它是 localhost 的地址：127.0.0.2
  it("密钥只写在 ~/.harness/.env 里也能用，请求带着它", async (t) => {
    let authorization: string | undefined;
    const server = http.createServer((req, res) => {
      authorization = req.headers.authorization;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "密钥到了" }, finish_reason: "stop" }] }));
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(0, "127.0.0.2", () => resolve(true));
    });
    if (!listening) return t.skip("这台机器上不能监听 127.0.0.2");
    t.after(() => server.close());
    const { port } = server.address() as { port: number };
    const dir = tempDir(t);
    const home = homeWith(dir, `HARNESS_API_KEY=sk-from-dotenv\n`);
    const { code, output } = await runScript("ch.ts", ["1", "你好"], { cwd: dir, env: { HOME: home, HARNESS_BASE_URL: `http://127.0.0.2:${port}` } });
    assert.equal(code, 0, output);
    assert.match(output, /密钥到了/);
    assert.equal(authorization, "Bearer sk-from-dotenv");
  });
});

describe("typecheckDir：用仓库的设置检查读者的目录", () => {
  it("原样的一章通过，即使它在仓库外面", async (t) => {
    const dir = tempDir(t);
    fs.cpSync(path.join(CHAPTERS, "22-mcp-client"), path.join(dir, "my22"), { recursive: true });
    assert.equal(await typecheckDir(path.join(dir, "my22")), null);
  });

  it("类型错误：说出文件和行号", async (t) => {
    const dir = tempDir(t);
    const copy = path.join(dir, "my06");
    fs.cpSync(path.join(CHAPTERS, "06-tool-registry"), copy, { recursive: true });
    const main = path.join(copy, "main.ts");
    const lines = fs.readFileSync(main, "utf8").split("\n");
    const at = lines.length - 1;
    lines.splice(at, 0, 'const wrong: number = "不是数字";');
    fs.writeFileSync(main, lines.join("\n"));
    const message = await typecheckDir(copy);
    assert.ok(message, "有类型错误却通过了");
    assert.match(message, new RegExp(`main\\.ts:${at + 1}:\\d+`));
    assert.match(message, /类型检查没通过：1 处错误/);
  });
});

describe("场景的运行：读者代码里的 bug 留着指向 .ts 的堆栈", () => {
  // Node 20 上场景跑的是打好的 .mjs，而且不加 --enable-source-maps（省 CPU）：转录里的位置是事后对照 map 换回来的
  it("没接住的异常：开头那一行和每一帧都是 main.ts 的行号，不出现打好的 .mjs", async (t) => {
    const dir = tempDir(t);
    const copy = path.join(dir, "my01");
    fs.cpSync(path.join(CHAPTERS, "01-hello"), copy, { recursive: true });
    const main = path.join(copy, "main.ts");
    const lines = fs.readFileSync(main, "utf8").split("\n");
    const at = lines.findIndex((l) => l.startsWith("async function main()")) + 1;
    lines.splice(at, 0, '  if (process.argv.length > 0) throw new TypeError("故意的 bug");');
    fs.writeFileSync(main, lines.join("\n"));
    const [scenario] = listScenarios("01-hello");
    const run = await runScenario(scenario, copy);
    assert.match(run.transcript, /TypeError: 故意的 bug/);
    assert.match(run.transcript, new RegExp(`main\\.ts:${at + 1}\\n`), run.transcript);
    assert.match(run.transcript, new RegExp(`at main \\(\\S*main\\.ts:${at + 1}:\\d+\\)`), run.transcript);
    assert.doesNotMatch(run.transcript, /\.mjs/, run.transcript);
  });
});

describe("npm run watch", () => {
  // 只等事实（出现第几行总结），不量时间；时限给得很宽，只防卡死：第 01 章的 verify 在忙碌的机器上约 7 秒
  it("存一次文件就重跑一遍，每次一行总结；Ctrl-C 干净退出", async (t) => {
    const dir = tempDir(t);
    const copy = path.join(dir, "my01");
    fs.cpSync(path.join(CHAPTERS, "01-hello"), copy, { recursive: true });
    const scratch = path.join(fs.realpathSync(dir), "tmp"); // watch 和它的子进程的临时目录：最后查这里面没有进程
    fs.mkdirSync(scratch);
    const child = spawn(process.execPath, ["--import", TSX, path.join(ROOT, "scripts", "watch.ts"), "01", "my01"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), LANG: "C.UTF-8", INIT_CWD: dir, TMPDIR: scratch },
      stdio: ["ignore", "pipe", "pipe"],
    });
    t.after(() => child.kill("SIGKILL"));
    let output = "";
    const waiters: (() => void)[] = [];
    const onData = (d: Buffer) => {
      output += d;
      for (const w of waiters.splice(0)) w();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const summaries = () => output.split("\n").filter((l) => /^\[watch \d\d:\d\d:\d\d\] [✓✗] /.test(l));
    const until = (what: string, ok: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const limit = setTimeout(() => reject(new Error(`等不到${what}，输出：\n${output}`)), 120_000);
        const check = () => (ok() ? (clearTimeout(limit), resolve()) : waiters.push(check));
        check();
      });

    await until("第一次运行的总结", () => summaries().length === 1);
    assert.match(summaries()[0], /✓ 第 01 章：\d+ 个通过，0 个失败/);
    // 改坏它：回答之前多打一行，hello 场景的转录对不上了
    const main = path.join(copy, "main.ts");
    fs.writeFileSync(main, fs.readFileSync(main, "utf8").replace("console.log(answer);", 'console.log("多了一行");\n  console.log(answer);'));
    await until("存盘之后的第二次运行", () => summaries().length === 2);
    assert.match(summaries()[1], /✗ 第 01 章：\d+ 个通过，[1-9]\d* 个失败/);
    assert.match(output, /第 2 次，main\.ts 改了/);

    // 跑到一半又存了一次：正在跑的那一次作废，当场从头再跑。第 3 次让 harness 卡住不退出（不重跑的话，
    // 要等到场景的时限才有一行 ✗）；看到卡住的 harness 真的在跑，就把文件改好再存——下一行总结就是第 4 次的 ✓
    const good = fs.readFileSync(main, "utf8").replace('console.log("多了一行");\n  ', "");
    fs.writeFileSync(main, good.replace("console.log(answer);", "console.log(answer);\n  await new Promise(() => setInterval(() => {}, 1000));"));
    if (process.platform === "linux") await until("卡住的 harness", () => processesUnder(scratch).some((pid) => /main\.(mjs|ts)/.test(cmdline(pid))));
    fs.writeFileSync(main, good);
    await until("重跑之后的总结", () => summaries().length === 3);
    assert.match(output, /第 4 次，main\.ts 改了/);
    assert.match(summaries()[2], /✓ 第 01 章/);

    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.kill("SIGINT");
    assert.equal(await closed, 0);
    assert.equal(summaries().length, 3);
    assert.deepEqual(processesUnder(scratch), [], "watch 退出以后还有进程待在它的临时目录里");
  });
});

describe("npm run demo", () => {
  const terminal = hasTerminalTool();

  it("第 9 章的演示先说要答什么；输出不是终端时在伪终端里照剧本答（npm run demo -- 9 | cat）", { skip: !terminal && "需要 util-linux 的 script" }, async () => {
    const { code, output } = await runScript("demo.ts", ["9"]);
    assert.equal(code, 0, output);
    assert.match(output, /看到“\[y\/N\]”时输入 y 回车（2 次）/);
    assert.equal(output.match(/\[y\/N\] y/g)?.length, 2, output);
    assert.match(output, /build 目录已经删掉了/);
  });

  it("第 12 章的演示替读者按 Ctrl-C，不再干等 30 秒、也没有 HTTP 400", async () => {
    const { code, output } = await runScript("demo.ts", ["12"]);
    assert.equal(code, 0, output);
    assert.match(output, /演示会替你操作：看到“\[round 1\] bash”时按 Ctrl-C/);
    assert.match(output, /\[已中断。再按一次 Ctrl-C 退出\]/);
    assert.match(output, /后台的 sleep 也一起结束了/);
    assert.doesNotMatch(output, /HTTP 400/);
    // 演示的临时目录已经删了：最后那句 --resume 换成读者真能照做的命令
    assert.doesNotMatch(output, /用 --resume \S+ 接着聊/);
    assert.ok(output.includes(honestResume("npm run ch -- 12")), output);
  });

  // 读者自己在终端前答：没照剧本答，脚本模型拒绝下一次请求，演示就以非零退出，并提醒该怎么答
  it("读者答错了：脚本模型拒绝请求，演示非零退出", { skip: !terminal && "需要 util-linux 的 script" }, async () => {
    const command = [process.execPath, "--import", TSX, path.join(ROOT, "scripts", "demo.ts"), "9"].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), LANG: "C.UTF-8", TERM: "dumb" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let answered = false;
    const onData = (d: Buffer) => {
      output += d;
      if (!answered && output.includes("[y/N] ")) {
        answered = true;
        child.stdin.write("n\r");
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    assert.match(output, /这个演示要你来答：看到“\[y\/N\]”时输入 y 回车（2 次）/);
    assert.match(output, /没有照剧本走完：脚本模型拒绝了第 2 次请求/);
    assert.notEqual(code, 0, output);
  });
});

// npm start 播放最新一章的演示：它最后说的接着聊的办法，照做真能接上（同一个工作目录、同一个 HOME）
describe("npm start", () => {
  it("演示不许诺接不上的 --resume；它给的 npm start -- \"问题\"、npm start -- --resume 真能接着聊", async (t) => {
    const demo = await runScript("start.ts", []);
    assert.equal(demo.code, 0, demo.output);
    assert.doesNotMatch(demo.output, /用 --resume \S+ 接着聊/);
    assert.ok(demo.output.includes(honestResume("npm start --")), demo.output);

    const model = await startScriptedModel({ turns: [{ content: "好的，小林。" }, { content: "你叫小林。" }] });
    t.after(() => model.close());
    const dir = tempDir(t);
    const [work, home] = [path.join(dir, "work"), path.join(dir, "home")];
    fs.mkdirSync(work);
    fs.mkdirSync(home);
    const env = { HOME: home, HARNESS_BASE_URL: model.url, HARNESS_API_KEY: "sk-scripted", HARNESS_MODEL: "scripted-model" };
    const first = await runScript("start.ts", ["我叫小林，请记住。"], { cwd: work, env });
    assert.equal(first.code, 0, first.output);
    const again = await runScript("start.ts", ["--resume", "我叫什么名字？"], { cwd: work, env });
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /你叫小林。/);
    const sent = JSON.stringify(model.requests[1]?.body.messages ?? []);
    assert.ok(sent.includes("我叫小林，请记住。") && sent.includes("好的，小林。"), `第二次请求没有接上第一次：${sent}`);
  });
});

// 没有密钥也能试 REPL：在伪终端里照读者的样子敲——每一句都等回到提示符“> ”再敲
describe("npm run demo -- NN --repl：离线的 REPL", () => {
  const terminal = hasTerminalTool();
  function repl(args: string[], steps: { after: string; send: string }[], done?: () => void) {
    const command = [process.execPath, "--import", TSX, path.join(ROOT, "scripts", "demo.ts"), ...args].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), LANG: "C.UTF-8", TERM: "dumb" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let from = 0;
    const onData = (d: Buffer) => {
      output += d;
      // 一块输出里可能连着好几步等的东西：能做的都做掉
      for (let at = steps[0] ? output.indexOf(steps[0].after, from) : -1; at >= 0; at = steps[0] ? output.indexOf(steps[0].after, from) : -1) {
        const step = steps.shift()!;
        from = at + step.after.length;
        child.stdin.write(step.send);
        if (steps.length === 0) done?.(); // 最后一步做完了
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    return new Promise<{ code: number | null; output: string }>((resolve) => child.on("close", (code) => resolve({ code, output: output.replace(/\r/g, "") })));
  }

  it("第 9 章：敲“跑 ls”，真的问 y/N，答 y 才执行", { skip: !terminal && "需要 util-linux 的 script", timeout: 60_000 }, async () => {
    const { code, output } = await repl(["9", "--repl"], [
      { after: "> ", send: "跑 ls\r" },
      { after: "[y/N] ", send: "y\r" },
      { after: "> ", send: "/exit\r" },
    ]);
    assert.match(output, /可以试：[\s\S]*跑 ls -l：它调用 bash，先在终端上问你 y\/N/);
    assert.match(output, /\[权限\] 允许执行 bash: ls 吗？\[y\/N\] y/);
    assert.match(output, /工具回来了[\s\S]*notes\.txt/);
    assert.equal(code, 0, output);
  });

  it("工具结果的末尾换行不会变成回答末尾的空行", () => {
    const turn = improvise({ messages: [{ role: "tool", content: "这是一行。\n第二行。\n" }] });
    assert.equal(turn.content, "（脚本模型）工具回来了，开头是：\n这是一行。\n第二行。");
  });

  it("kill 掉 npm run demo（SIGTERM）：REPL 跟着收尾，临时目录删掉，不留进程", { skip: !terminal && "需要 util-linux 的 script", timeout: 60_000 }, async () => {
    const pids = () => fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    const read = (file: string, link = false) => {
      try {
        return link ? fs.readlinkSync(file) : fs.readFileSync(file, "utf8");
      } catch {
        return ""; // 读的时候它已经退出了
      }
    };
    // 回到提示符“> ”时，REPL 已经在等了：给 demo.ts 本人（script 的孙进程）发 SIGTERM，之后什么也不敲
    const run = repl(["9", "--repl"], [{ after: "> ", send: "" }], () => {
      const demo = pids().find((p) => /scripts\/demo\.ts\0+9\0+--repl/.test(read(`/proc/${p}/cmdline`)));
      if (demo) process.kill(Number(demo), "SIGTERM");
    });
    const { output } = await run;
    const tmp = output.match(/工作目录是临时的：(\S+)\/work/)?.[1];
    assert.ok(tmp, output);
    assert.equal(fs.existsSync(tmp), false, `临时目录 ${tmp} 还在\n${output}`);
    const left = pids().filter((p) => read(`/proc/${p}/cwd`, true).startsWith(tmp));
    assert.deepEqual(left, [], `还有进程待在 ${tmp} 里\n${output}`);
  });

  it("第 12 章：敲“慢一点”再按 Ctrl-C，打断的是这次请求，REPL 接着等", { skip: !terminal && "需要 util-linux 的 script", timeout: 60_000 }, async () => {
    const { code, output } = await repl(["12", "--repl"], [
      { after: "> ", send: "慢一点\r" },
      { after: "秒后才回答：按 Ctrl-C 打断它", send: "\x03" },
      { after: "[已中断", send: "你好\r" },
      { after: "你说的是", send: "/exit\r" },
    ]);
    assert.match(output, /\[已中断。再按一次 Ctrl-C 退出\]/);
    assert.match(output, /（脚本模型）你说的是：“你好”/);
    assert.equal(code, 0, output);
  });
});

describe("根目录 README", () => {
  it("章节索引和各章 README 一致，每一章都在", () => {
    const readme = fs.readFileSync(README, "utf8");
    const index = indexInReadme(readme);
    assert.ok(index, "README.md 里没有章节索引（<!-- 章节索引 … --> 两行标记之间）");
    for (const chapter of chapterDirs()) assert.ok(index.includes(`(chapters/${chapter}/)`), `章节索引里没有 ${chapter}`);
    assert.equal(index, chapterIndex(), "章节索引过时了：跑 node --import tsx scripts/chapter-index.ts 重写它");
  });

  it("说的 Node 版本处处是 ≥ 20.6，和 package.json 的 engines 一致", () => {
    const readme = fs.readFileSync(README, "utf8");
    const engines = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).engines.node;
    assert.equal(engines, ">=20.6");
    const versions = [...readme.matchAll(/Node(?:\.js)? ≥ (\d+(?:\.\d+)?)/g)].map((m) => m[1]).filter((v) => !v.startsWith("22") && !v.startsWith("24"));
    assert.ok(versions.length >= 2, "README 的中文和英文部分都要写明 Node 版本");
    assert.deepEqual([...new Set(versions)], ["20.6"]);
  });
});

// npm install 发现 package-lock.json 的根项和 package.json 对不上就会重写它，读者一装依赖仓库就“脏”了
it("package-lock.json 的根项和 package.json 一致（npm install 不会改写它）", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")).packages[""];
  for (const field of ["name", "version", "engines", "dependencies", "devDependencies"]) assert.deepEqual(root[field], pkg[field], `package-lock.json 的 ${field} 和 package.json 不同：跑一次 npm install 再提交 package-lock.json`);
});

// 读者照着 README 一行一行敲：离开仓库（cd 到 /tmp 或 ~）以后，npm run 要带 --prefix <仓库目录>，不然 npm 找不到 package.json
describe("各页 README 的命令", () => {
  const pages = [README, path.join(ROOT, "timeserver", "README.md"), path.join(ROOT, "play", "README.md")]
    .concat(chapterDirs().map((c) => path.join(CHAPTERS, c, "README.md")))
    .concat(fs.readdirSync(path.join(ROOT, "exercises")).flatMap((e) => ["README.md", "HINTS.md", "solution/README.md"].map((f) => path.join(ROOT, "exercises", e, f))))
    .filter((f) => fs.existsSync(f));

  it("play/ 在新克隆里就有（cp -r chapters/… play/06 才不会失败），里面只有说明和 tsconfig.json 是 git 管的", () => {
    assert.ok(fs.existsSync(path.join(ROOT, "play", "README.md")));
    const ignored = (file: string) => spawnSync("git", ["check-ignore", "-q", file], { cwd: ROOT }).status === 0;
    assert.equal(ignored("play/README.md"), false);
    assert.equal(ignored("play/tsconfig.json"), false);
    assert.equal(ignored("play/06/main.ts"), true);
  });

  // 写到一半的副本不该让 npm test（tsc -p .）变红；编辑器靠 play/tsconfig.json 照样按仓库的设置检查它
  it("tsc -p . 不包括 play/，play/tsconfig.json 沿用仓库的设置", () => {
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8"));
    assert.equal(root.include.some((p: string) => p.startsWith("play")), false, "仓库的 tsconfig.json 不该包括 play/");
    assert.equal(JSON.parse(fs.readFileSync(path.join(ROOT, "play", "tsconfig.json"), "utf8")).extends, "../tsconfig.json");
  });

  it("跟着敲的那一步 diff 不比 README（cp -r 带来的是上一章的 README）", () => {
    const along = [README, path.join(ROOT, "play", "README.md")].flatMap((f) => fs.readFileSync(f, "utf8").split("\n").filter((l) => /diff -ru\b.*play\//.test(l)));
    assert.ok(along.length >= 2, "README.md 和 play/README.md 都该给出和书里的版本比一比的 diff 命令");
    for (const line of along) assert.match(line, /diff -ru -x README\.md /, line);
  });

  it("仓库路径的占位只有一种写法：<仓库目录>", () => {
    const bad = pages.flatMap((f) => (/\/path\/to\/learnharness/.test(fs.readFileSync(f, "utf8")) ? [path.relative(ROOT, f)] : []));
    assert.deepEqual(bad, []);
  });

  it("cd 出仓库以后，npm run 都带着 --prefix", () => {
    const bad: string[] = [];
    for (const file of pages) {
      const blocks = fs.readFileSync(file, "utf8").match(/```(?:sh|bash)\n[\s\S]*?```/g) ?? [];
      for (const block of blocks) {
        let outside = false;
        for (const line of block.split("\n")) {
          const cd = line.match(/\bcd\s+(\S+)/);
          if (cd) outside = /^(\/|~)/.test(cd[1]) || (outside && !cd[1].startsWith(".."));
          if (outside && /\bnpm (run|start|test)\b/.test(line) && !line.includes("--prefix")) bad.push(`${path.relative(ROOT, file)}：${line.trim()}`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });
});

describe("npm run diff", () => {
  it("先给代码：默认不列 README 的改动，说一句怎样看；--readme 接在代码后面", async () => {
    const code = await runScript("diff.ts", ["05", "06"]);
    assert.equal(code.code, 0, code.output);
    assert.match(code.output, /chapters\/06-tool-registry\/registry\.ts/);
    assert.doesNotMatch(code.output, /README\.md\t|README\.md\s*$|\+\+\+ chapters\/06-tool-registry\/README\.md/m);
    assert.match(code.output, /npm run diff -- 05 06 --readme/);
    const all = await runScript("diff.ts", ["05", "06", "--readme"]);
    assert.equal(all.code, 0, all.output);
    const codeAt = all.output.indexOf("registry.ts");
    const readmeAt = all.output.indexOf("+++ chapters/06-tool-registry/README.md");
    assert.ok(codeAt >= 0 && readmeAt > codeAt, "README 的改动接在代码后面");
  });
});
