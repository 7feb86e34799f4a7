// 练习 21-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。场景只有一个（retry，一次运行），一个变异体约 1 秒。
// 看不见的：
// - “每次尝试换一个新的子 agent”：runSubAgent 每次都从 system + 任务两条消息新建历史，答案不碰它，一处改动改不出“接着旧历史试”；
//   要求一里照样查了每次尝试的请求只有两条消息。
// - 永不封顶（`if (ok || attempt > retries)` 改成 `if (ok)`）：每次都失败的 flaky 会一直试下去，脚本模型拒绝多出来的请求、
//   harness 永远不结束，只能靠场景的时限（60 秒）认出来——太慢，不放进来；“按固定的 3 次封顶”那个变异体查的是同一件事。
import { requirements } from "../exercises/21-1-workflow-retry/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const FILE = "tools/workflow.ts";

const MUTANTS: Mutant[] = [
  {
    name: "不读 retries，失败了不再试（任务）",
    file: FILE,
    from: "attempt > retries",
    to: "attempt > 0",
    fails: "失败的一步换一个新的子 agent 重试",
    because: /只试了一次/,
  },
  {
    name: "比较用了 >=：retries 1 只跑 1 次（提示 2）",
    file: FILE,
    from: "attempt > retries",
    to: "attempt >= retries",
    fails: "每次都失败的一步一共跑 1 + retries 次",
    because: /少试了一次/,
  },
  {
    name: "不按这一步的 retries 封顶，一律试到上限 3（提示 2）",
    file: FILE,
    from: "attempt > retries",
    to: "attempt > MAX_RETRIES",
    fails: "每次都失败的一步一共跑 1 + retries 次",
    because: /封顶/,
  },
  {
    name: "没写 retries 时默认再试一次（任务）",
    file: FILE,
    from: "const retries = step.retries ?? 0;",
    to: "const retries = step.retries ?? 1;",
    fails: "每次都失败的一步一共跑 1 + retries 次",
    because: /默认/,
  },
  {
    name: "依赖它的步骤绕过 started 直接 runStep：同一步被跑了好几遍（提示 1）",
    file: FILE,
    from: "const results = await Promise.all(deps.map(start));",
    to: "const results = await Promise.all(deps.map(runStep));",
    fails: "依赖它的步骤等它最后一次尝试，只跑一次",
    because: /不止一次/,
  },
  {
    name: "下游拿到的是第一次尝试的结果：第一次失败就判了跳过（提示 1）",
    file: FILE,
    from: "if (ok || attempt > retries) return",
    to: "if (ok || attempt > retries || attempt === 1) return",
    fails: "依赖它的步骤等它最后一次尝试，只跑一次",
    because: /没有等 fetch 的最后一次尝试/,
  },
  {
    name: "报告不写第几次成功（任务）",
    file: FILE,
    from: 'if (o.attempts <= 1) return "";',
    to: 'return "";',
    fails: "失败的一步换一个新的子 agent 重试",
    because: /第 2 次/,
  },
  {
    name: "上限 3 本身被当成不合法：> 写成了 >=（提示 3）",
    file: FILE,
    from: "retries > MAX_RETRIES)",
    to: "retries >= MAX_RETRIES)",
    fails: "retries 不合法",
    because: /上限 3 本身合法/,
  },
  {
    name: "只查是不是数字，不查整数：1.5 被收下（提示 3）",
    file: FILE,
    from: "!Number.isInteger(retries)",
    to: 'typeof retries !== "number"',
    fails: "retries 不合法",
    because: /1\.5/,
  },
  {
    name: "先 Number() 再查：字符串 \"2\" 被收下（提示 3）",
    file: FILE,
    from: "!Number.isInteger(retries)",
    to: "!Number.isInteger(Number(retries))",
    fails: "retries 不合法",
    because: /"2"/,
  },
  {
    name: "不查负数：-1 被收下（提示 3）",
    file: FILE,
    from: "retries < 0 || ",
    to: "",
    fails: "retries 不合法",
    because: /-1/,
  },
];

mutantSuite("21-1-workflow-retry", requirements, MUTANTS, 4);
