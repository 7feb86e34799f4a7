// 练习 11-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。三个场景，一个变异体约 3 秒（大半在等退避）。
// 看不见的：
// - 换过去的那次请求照常重试：场景里没有“备用模型先过载、再答上来”的请求；任务只要求再发一遍，检查器两样都接受。
// - HARNESS_FALLBACK_MODEL 设成空串等于没设：空串时 config.model 变成 ""，问的是一个不存在的模型，场景不试这种配置。
// - 警告里的模型名过 safeLine：名字来自用户自己的环境变量，不是别人的输入面。
import { requirements } from "../exercises/11-1-fallback-model/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "什么错都换（issue）：401 之后也换了备用模型",
    file: "agent.ts",
    from: "!(e instanceof ModelError) || !e.overloaded || !fallback",
    to: "!(e instanceof ModelError) || !fallback",
    fails: "401、429、500 不是过载",
    because: /401（密钥不对）之后换成了/,
  },
  {
    name: "重试之前就换（issue、提示 3）：过载的错不重试，直接交给 ask() 换模型",
    file: "retry.ts",
    from: "if (!error.retryable) throw error;",
    to: "if (!error.retryable || error.overloaded) throw error;",
    fails: "过载（529）先照常重试",
    because: /重试还没用完就换模型/,
  },
  {
    name: "把“能重试”当成“过载”（提示 1）：429 用完重试也换",
    file: "model.ts",
    from: "const overloaded = res.status === 503 || res.status === 529;",
    to: "const overloaded = retryable;",
    fails: "401、429、500 不是过载",
    because: /429（发得太快）重试用完之后换成了/,
  },
  {
    name: "5xx 都算过载（提示 1）：500 用完重试也换",
    file: "model.ts",
    from: "const overloaded = res.status === 503 || res.status === 529;",
    to: "const overloaded = res.status >= 500;",
    fails: "401、429、500 不是过载",
    because: /500（服务端出了 bug）重试用完之后换成了/,
  },
  {
    name: "只认 529（任务）：503 不换",
    file: "model.ts",
    from: "res.status === 503 || ",
    to: "",
    fails: "备用模型也过载（503）",
    because: /只认了 529/,
  },
  {
    name: "只认 503（任务）：529 不换",
    file: "model.ts",
    from: " || res.status === 529",
    to: "",
    fails: "过载（529）先照常重试",
    because: /从没问过 small-model/,
  },
  {
    name: "重试用完时新抛的错丢了过载标记（提示 2）",
    file: "retry.ts",
    from: ", { overloaded: error.overloaded })",
    to: ")",
    fails: "过载（529）先照常重试",
    because: /丢了“过载”这个标记/,
  },
  {
    name: "拷一份配置只给这次请求用（提示 4）：下一轮又问回主模型",
    file: "agent.ts",
    from: "if (!switchToFallback(opts.config, e)) throw e;",
    to: "if (!switchToFallback((opts = { ...opts, config: { ...opts.config } }).config, e)) throw e;",
    fails: "换了就一直用它",
    because: /又问回了 big-model/,
  },
  {
    name: "换模型没有上限（提示 4）：备用模型也过载时再“换”一次",
    file: "agent.ts",
    from: " || fallback === config.model) return false;",
    to: ") return false;",
    fails: "备用模型也过载（503）",
    because: /换模型要有个头/,
  },
  {
    name: "换了模型一声不吭（任务：一行警告）",
    file: "agent.ts",
    from: /  console\.error\(`警告: \$\{e\.message\}[^\n]*\n/,
    to: "",
    fails: "换模型时一行警告",
    because: /没有一行以“警告”开头/,
  },
];

mutantSuite("11-1-fallback-model", requirements, MUTANTS, 4);
