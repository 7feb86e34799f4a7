// cost.ts：钱。价钱是每百万 tokens 多少美元，分三样：没命中缓存的输入、命中缓存的输入、输出，从环境变量读；
// 每一轮的用量按价钱折成钱，累计起来；HARNESS_MAX_COST 是这次运行最多花多少，到了就不再发请求。
// 练习 13-1 新增。
import { ConfigError } from "./model.ts";
import { safeLine } from "./terminal.ts";
import type { Usage } from "./usage.ts";

export interface Prices {
  input: number;
  cached: number;
  output: number;
}

// 花到了预算：不算模型服务的错，历史也完整（最后一条是工具结果），提高预算就能接着跑
export class BudgetError extends Error {}

export class Meter {
  spent = 0; // 美元，这次运行一共
  readonly prices: Prices;
  readonly budget: number | undefined; // 没设就是不限
  constructor(prices: Prices, budget?: number) {
    this.prices = prices;
    this.budget = budget;
  }

  add(usage: Usage | undefined) {
    if (usage) this.spent += cost(usage, this.prices);
  }

  // 到了就算：花到正好等于预算，也不再发
  reached(): boolean {
    return this.budget !== undefined && this.spent >= this.budget;
  }

  // 预算到了就不让发这一次请求
  check() {
    if (this.reached()) throw new BudgetError(`已经花了 ${dollars(this.spent)}，到了预算 ${dollars(this.budget!)}（HARNESS_MAX_COST），不再发请求`);
  }
}

export const dollars = (n: number) => `$${n.toFixed(4)}`;

// 用量是服务端填的：不是数、是负数，就当 0——一个 NaN 进了总数，总数就永远是 NaN，预算再也到不了；
// 一个负数会把花掉的钱“退”回来。命中缓存的不会比输入还多
function cost(usage: Usage, prices: Prices): number {
  const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
  const input = count(usage.input);
  const cached = Math.min(count(usage.cached), input);
  return ((input - cached) * prices.input + cached * prices.cached + count(usage.output) * prices.output) / 1e6;
}

// 一个钱数：不小于 0 的十进制数。写坏了返回 undefined（"16美元" 不能被 parseFloat 读成 16）
function money(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  return value !== undefined && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : undefined;
}

// 价钱：HARNESS_PRICE_INPUT、HARNESS_PRICE_OUTPUT 都设了才算钱；HARNESS_PRICE_CACHED 没设就按输入的价钱（宁可算多）。
// 写坏了一行警告，这次不算钱；一个都没设就不算，也不说
export function loadPrices(env: NodeJS.ProcessEnv): Prices | undefined {
  const names = ["HARNESS_PRICE_INPUT", "HARNESS_PRICE_CACHED", "HARNESS_PRICE_OUTPUT"];
  if (names.every((name) => env[name] === undefined)) return undefined;
  for (const name of names) {
    if (env[name] !== undefined && money(env, name) === undefined) {
      console.error(`警告: ${name} 要是不小于 0 的数（每百万 tokens 多少美元），现在是 ${safeLine(env[name]!)}：这次不算钱`);
      return undefined;
    }
  }
  const input = money(env, "HARNESS_PRICE_INPUT");
  const output = money(env, "HARNESS_PRICE_OUTPUT");
  if (input === undefined || output === undefined) {
    console.error("警告: 要同时设 HARNESS_PRICE_INPUT 和 HARNESS_PRICE_OUTPUT 才算得出钱：这次不算钱");
    return undefined;
  }
  return { input, cached: money(env, "HARNESS_PRICE_CACHED") ?? input, output };
}

// 计价器：没有价钱就没有（不算钱、不印钱）。设了预算却算不出钱，预算就管不住——宁可不跑
export function loadMeter(env: NodeJS.ProcessEnv): Meter | undefined {
  const prices = loadPrices(env);
  if (env.HARNESS_MAX_COST === undefined) return prices && new Meter(prices);
  const budget = money(env, "HARNESS_MAX_COST");
  if (budget === undefined) throw new ConfigError(`HARNESS_MAX_COST 要是不小于 0 的数（美元），现在是 ${safeLine(env.HARNESS_MAX_COST)}`);
  if (!prices) throw new ConfigError("设了 HARNESS_MAX_COST，却没有能用的价钱（HARNESS_PRICE_INPUT、HARNESS_PRICE_OUTPUT）：算不出花了多少，预算就管不住");
  return new Meter(prices, budget);
}
