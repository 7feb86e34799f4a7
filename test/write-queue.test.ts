// 第 20 章起同一个文件的写要排队：路径检查必须和写放在同一个排队的任务里，轮到了才查。
// 要是调用一进来就查、查完再去排队，查和写之间就隔着排队的时间——同一轮里并发的 bash 正好能在这段时间里
// 把 docs/ 换成指向工作目录外的链接。场景造不出稳定的先后（要让 bash 恰好落在排队的那一段里），这里按构造来：
// 两个写同一个文件的调用同步地发出去，紧接着（还没有任何一个轮到）同步地把 docs/ 换成链接。
// 调用时就检查的写法会顺着链接写到外面去；轮到时才检查的写法看见路径变了，不写。
// 第 20 章以后各章和练习答案里的每一份 tools/edit.ts 都这样查一遍。
//
// 同一章的 fs-lock.ts（issue 28）：检查路径的工具（read_file、write_file、edit_file）从不和 bash 同时跑，写和写不重叠，
// bash 和 bash、读和读照样一起跑。先后靠构造：假工具的 execute 一被调用就记下“开始了”，做完要等测试放行；
// 真工具那一段里，bash 要等测试建出 go 才结束，写在它之后才轮到；最后是 issue 里的那场比赛（write_file 和 ln -s 同一轮）跑 50 次。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, copiesForTier } from "../shared/scenario.ts";

type Tool = { definition(): unknown; execute(args: string, signal?: AbortSignal): Promise<string> };
const dirs = copiesForTier([
  ...fs.readdirSync(CHAPTERS).filter((c) => Number(c.slice(0, 2)) >= 20).map((c) => path.join(CHAPTERS, c)),
  // 改过它的练习答案（叠好的整份），只算第 20 章起的：更早的章（08-1）还没有写的队列和 fs-lock.ts
  ...solutionTrees("tools/edit.ts").filter((dir) => Number(path.basename(dir).slice(0, 2)) >= 20),
].filter((dir) => fs.existsSync(path.join(dir, "tools", "edit.ts"))));
const copies = dirs.map((dir) => path.join(dir, "tools", "edit.ts"));

const home = process.cwd();
after(() => process.chdir(home));

describe("排队的写：路径轮到时才检查", () => {
  for (const file of copies) {
    it(`${path.relative(ROOT, file)}：排队期间 docs/ 换成外面的链接，两个写都不写出去`, async () => {
      const { writeFileTool, editFileTool } = (await import(pathToFileURL(file).href)) as { writeFileTool: Tool; editFileTool: Tool };
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-queue-")));
      const work = path.join(tmp, "work");
      const outside = path.join(tmp, "outside");
      fs.mkdirSync(path.join(work, "docs"), { recursive: true });
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(work, "docs", "a.md"), "旧\n");
      fs.writeFileSync(path.join(outside, "a.md"), "旧\n");
      process.chdir(work);
      try {
        const pending = [
          writeFileTool.execute(JSON.stringify({ path: "docs/a.md", content: "甲\n" })),
          editFileTool.execute(JSON.stringify({ path: "docs/a.md", old_string: "旧", new_string: "乙" })),
        ];
        // 两个调用都还在排队（排队的任务最早也要到下一个微任务才开始）：这时把目录调包
        fs.renameSync(path.join(work, "docs"), path.join(work, "docs-old"));
        fs.symlinkSync(outside, path.join(work, "docs"));
        const results = await Promise.all(pending);
        assert.equal(fs.readFileSync(path.join(outside, "a.md"), "utf8"), "旧\n", `工作目录外的文件被改了；工具的结果：${results.join(" / ")}`);
        assert.deepEqual(fs.readdirSync(outside), ["a.md"], "工作目录外多出了文件");
        for (const r of results) assert.match(r, /^错误: .*docs\/a\.md/, "没写的调用要告诉模型为什么");
      } finally {
        process.chdir(home);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});

// 一个等测试放行的假工具：被调用就记进 started，等 finish(name) 才做完
function fakeTools() {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const tool = (name: string): Tool => ({
    definition: () => ({ name }),
    execute: () => {
      started.push(name);
      return new Promise((resolve) => gates.set(name, () => resolve(`${name} 做完了`)));
    },
  });
  const finish = (name: string) => gates.get(name)!();
  return { started, tool, finish };
}

// 让已经能跑的都跑起来：几轮宏任务足够让放行了的假工具被调用（没放行的，等多久都不会被调用）
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

// 等一个文件出现：等的是一件已经发生的事；卡死由这条测试的时限兜着
async function until(file: string) {
  while (!fs.existsSync(file)) await new Promise((r) => setTimeout(r, 5)); // clock-ok: 每次都重查条件的轮询
}

describe("文件系统锁（fs-lock.ts）：bash 和检查路径的工具互斥", () => {
  for (const dir of dirs) {
    const rel = path.relative(ROOT, dir);
    const lockOf = async () => (await import(pathToFileURL(path.join(dir, "fs-lock.ts")).href)) as { locked(use: string, tool: Tool): Tool };

    it(`${rel}：bash 和 bash、读和读一起跑；写等 bash，bash 等写，写等写；后来的 bash 排在等着的写后面`, async () => {
      const { locked } = await lockOf();
      const { started, tool, finish } = fakeTools();
      const run = (use: string, name: string) => locked(use, tool(name)).execute("{}");
      const done = [run("bash", "bash1"), run("bash", "bash2")];
      await settle();
      assert.deepEqual(started, ["bash1", "bash2"], "两条 bash 同时在跑");
      done.push(run("write", "write1"), run("bash", "bash3"), run("read", "read1"));
      await settle();
      assert.deepEqual(started, ["bash1", "bash2"], "bash 在跑时写不开始；排在等着的写后面的 bash 也不插队");
      finish("bash1");
      await settle();
      assert.deepEqual(started, ["bash1", "bash2"], "还有一条 bash 在跑");
      finish("bash2");
      await settle();
      assert.deepEqual(started, ["bash1", "bash2", "write1"], "bash 都做完了，写才开始；bash3 排在它后面");
      done.push(run("write", "write2"));
      finish("write1");
      await settle();
      assert.deepEqual(started, ["bash1", "bash2", "write1", "bash3"], "写做完了轮到 bash3；读排在它后面");
      finish("bash3");
      await settle();
      assert.deepEqual(started, ["bash1", "bash2", "write1", "bash3", "read1", "write2"], "读和写是同一类，可以同时");
      done.push(run("read", "read2"), run("write", "write3"));
      await settle();
      assert.deepEqual(started.slice(6), ["read2"], "读和读一起跑；写和写不重叠");
      for (const name of ["read1", "read2", "write2"]) finish(name);
      await settle();
      assert.deepEqual(started.slice(7), ["write3"]);
      finish("write3");
      assert.equal((await Promise.all(done)).length, 8);
    });

    it(`${rel}：排队时按了 Ctrl-C：不执行，说明原因，排在它后面的照常轮到`, async () => {
      const { locked } = await lockOf();
      const { started, tool, finish } = fakeTools();
      const ctrlC = new AbortController();
      const bash = locked("bash", tool("bash")).execute("{}");
      const write = locked("write", tool("write")).execute("{}", ctrlC.signal);
      const read = locked("read", tool("read")).execute("{}");
      ctrlC.abort();
      assert.match(await write, /^错误: 用户按了 Ctrl-C/);
      finish("bash");
      await bash;
      await settle();
      assert.deepEqual(started, ["bash", "read"]);
      finish("read");
      await read;
    });

    it(`${rel}：真的 bash 和 write_file：bash 跑着的时候写等着，bash 读到的是旧内容`, { timeout: 60_000 }, async () => {
      const { locked } = await lockOf();
      const { bashTool } = await import(pathToFileURL(path.join(dir, "tools", "bash.ts")).href);
      const { writeFileTool } = await import(pathToFileURL(path.join(dir, "tools", "edit.ts")).href);
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-lock-")));
      process.chdir(tmp);
      try {
        fs.writeFileSync("notes.txt", "旧\n");
        const order: string[] = [];
        // bash 要等 go 出现才结束；它跑着的时候，写已经发出去了
        const bash = locked("bash", bashTool).execute(JSON.stringify({ command: "touch started; until [ -e go ]; do sleep 0.01; done; cat notes.txt" })).then((r) => (order.push("bash"), r));
        await until(path.join(tmp, "started"));
        const write = locked("write", writeFileTool).execute(JSON.stringify({ path: "notes.txt", content: "新\n" })).then((r) => (order.push("write"), r));
        fs.writeFileSync("go", "");
        const [seen, wrote] = await Promise.all([bash, write]);
        assert.match(seen, /旧/, `bash 读到的应该是写之前的内容：${seen}`);
        assert.match(wrote, /^已写入 notes\.txt/);
        assert.deepEqual(order, ["bash", "write"]);
        assert.equal(fs.readFileSync("notes.txt", "utf8"), "新\n");
      } finally {
        process.chdir(home);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });

    // issue 里 3 次有 2 次写到了外面。第 20 章跑 50 次；后面各份的 fs-lock.ts、tools/ 是带过去的同一份代码，各跑 3 次
    // （每次起一个 bash，两核的机器上 50 次就要好几秒）；各章 main.ts 有没有套上锁，由第 20 章的场景 lock-race 在每一章上跑
    const times = rel === path.join("chapters", "20-concurrency") ? 50 : 3;
    it(`${rel}：同一轮里 write_file 和 bash 的 ln -s，跑 ${times} 次，一次也不写到工作目录外`, { timeout: 120_000 }, async () => {
      const { locked } = await lockOf();
      const { bashTool } = await import(pathToFileURL(path.join(dir, "tools", "bash.ts")).href);
      const { writeFileTool } = await import(pathToFileURL(path.join(dir, "tools", "edit.ts")).href);
      const bash = locked("bash", bashTool);
      const write = locked("write", writeFileTool);
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-race-")));
      const work = path.join(tmp, "work");
      const outside = path.join(tmp, "outside");
      fs.mkdirSync(outside);
      try {
        for (let i = 0; i < times; i++) {
          fs.rmSync(work, { recursive: true, force: true });
          fs.mkdirSync(path.join(work, "docs"), { recursive: true });
          process.chdir(work);
          const results = await Promise.all([
            bash.execute(JSON.stringify({ command: "rm -r docs && ln -s ../outside docs" })),
            write.execute(JSON.stringify({ path: "docs/a.md", content: `第 ${i} 次\n` })),
          ]);
          process.chdir(home);
          assert.deepEqual(fs.readdirSync(outside), [], `第 ${i} 次：写到了工作目录外；结果：${results.join(" / ")}`);
        }
      } finally {
        process.chdir(home);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});
