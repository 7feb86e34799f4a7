// 练习 20-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。limit 场景约 4 秒、bad-value 约 1 秒。
// 全进程共用一个名额池的那个会死锁：所有 Promise 都在等、没有别的事，事件循环空了，Node 自己退出（退出码 0），
// 不用等场景的时限；万一没退出，30 秒的时限兜底，同一条要求照样点名。
//
// 没有变异体的几句，和为什么：
// - 默认值是 8：bad-value 场景只看得出“不是 1、不是 0”（三个调用一起跑）；要看出是 8 不是 5，得一轮九个调用再等一批，不设。
// - HARNESS_MAX_PARALLEL 写成 2.5、abc：和 0 走同一个判断（Number.isInteger 且 >= 1），0 是最容易写错的边界，场景用它。
// - 警告里的值要显形（safeLine）：值来自用户自己的环境变量，不是外人能写的输入；措辞检查器不比。
import { requirements } from "../exercises/20-1-max-parallel/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "全进程共用一个名额池（issue：one global semaphore）：父 agent 的 sub_agent 占满名额，子 agent 的调用等不到，死锁",
    file: "agent.ts",
    from: /async function pooled<T>\(jobs: \(\(\) => Promise<T>\)\[\], limit: number\): Promise<T\[\]> \{[\s\S]*?\n\}\n/,
    to: `let busy = 0;
const waiters: (() => void)[] = [];
async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  return Promise.all(
    jobs.map(async (job) => {
      while (busy >= limit) await new Promise<void>((resolve) => waiters.push(resolve));
      busy++;
      try {
        return await job();
      } finally {
        busy--;
        waiters.shift()?.();
      }
    }),
  );
}
`,
    fails: "子 agent 的调用按它自己的限额算",
    because: /共用了一个名额池/,
  },
  {
    name: "结果按跑完的先后放回（issue：results in completion order）",
    file: "agent.ts",
    from: "results[i] = await jobs[i]();",
    to: "{ const r = await jobs[i](); results[results.filter(() => true).length] = r; }",
    fails: "结果按调用的顺序交回",
    because: /结果是按跑完的先后放回/, // 跑完的先后只保证和调用的顺序不同（2 在 1 前面），忙的机器上 3、4 谁先说不准
  },
  {
    name: "HARNESS_MAX_PARALLEL 读了没用上：还是写死的 8（提示 1）",
    file: "main.ts",
    from: "const maxParallel = maxParallelFrom(process.env);",
    to: "const maxParallel = maxParallelFrom({});",
    fails: "HARNESS_MAX_PARALLEL=2：一轮里同时在跑的调用从不超过 2 个",
    because: /一度有 5 个同时在跑/,
  },
  {
    name: "限额没交给子 agent：子 agent 照默认的 8 个跑（提示 3）",
    file: "main.ts",
    from: "ledger, maxParallel }));",
    to: "ledger }));",
    fails: "子 agent 的调用按它自己的限额算",
    because: /a 组一度有 3 个同时在跑/,
  },
  {
    name: "差一个：池子开了 limit - 1 个 worker（提示 2）",
    file: "agent.ts",
    from: "opts.maxParallel ?? MAX_PARALLEL,",
    to: "(opts.maxParallel ?? MAX_PARALLEL) - 1 || 1,",
    fails: "限额是几就真的同时跑几个",
    because: /限额差了一个/,
  },
  {
    name: "写坏了不吭声（提示 4）",
    file: "agent.ts",
    from: "  console.error(`警告: HARNESS_MAX_PARALLEL",
    to: "  String(`警告: HARNESS_MAX_PARALLEL",
    fails: "HARNESS_MAX_PARALLEL 写坏了",
    because: /一声不吭/,
  },
  {
    name: "写坏了就抛出去，harness 起不来（提示 4）",
    file: "agent.ts",
    from: "  console.error(`警告: HARNESS_MAX_PARALLEL",
    to: "  throw new Error(`警告: HARNESS_MAX_PARALLEL",
    fails: "HARNESS_MAX_PARALLEL 写坏了",
    because: /一次请求也没收到/,
  },
  {
    name: "0 也收下（边界：>= 0）：一个 worker 也没有，一个调用也不跑（提示 4）",
    file: "agent.ts",
    from: "Number.isInteger(n) && n >= 1",
    to: "Number.isInteger(n) && n >= 0",
    fails: "HARNESS_MAX_PARALLEL 写坏了",
    because: /一声不吭/,
  },
];

mutantSuite("20-1-max-parallel", requirements, MUTANTS, 3);
