// retry.ts：请求失败时重试。只重试“过一会儿可能就好”的错——429、5xx、连不上、流断了、超时；
// 401、404、坏 JSON 这种“再试也一样”的错立刻放弃。
// 第 11 章新增：指数退避加随机抖动，尊重 Retry-After，每次请求有超时，最后给一句清楚的错误。
import { ModelError } from "./model.ts";

export interface RetryPolicy {
  retries: number; // 失败后最多再试几次
  baseMs: number; // 第一次重试前大约等多久，之后每次翻倍
  timeoutMs: number; // 单次请求（含整个流式回答）最长多久
}

const MAX_WAIT_MS = 60_000;

export async function withRetry<T>(policy: RetryPolicy, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt(AbortSignal.timeout(policy.timeoutMs));
    } catch (e) {
      const error = asModelError(e, policy);
      if (!error.retryable) throw error;
      if (policy.retries === 0) throw error;
      // 最后的错带着 overloaded 往上走：调用方据此决定要不要换备用模型
      if (tries > policy.retries) throw new ModelError(`重试 ${policy.retries} 次后仍然失败：${error.message}`, { overloaded: error.overloaded });
      // 服务端说了等多久就等多久（最多一分钟）；没说就指数退避：一群客户端同时被拒，不能再同时涌回来，所以加抖动
      const planned = Math.min(MAX_WAIT_MS, error.retryAfterMs ?? policy.baseMs * 2 ** (tries - 1));
      const why = error.retryAfterMs === undefined ? "" : "（服务端用 Retry-After 要求的）";
      console.error(`警告: ${error.message}——约 ${(planned / 1000).toFixed(1)} 秒后重试${why}（第 ${tries}/${policy.retries} 次）`);
      const wait = error.retryAfterMs === undefined ? planned * (0.5 + Math.random() / 2) : planned;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

// 超时是 AbortSignal 抛出的 TimeoutError，不是 ModelError：在这里翻译成一句能重试的中文
function asModelError(e: unknown, policy: RetryPolicy): ModelError {
  if (e instanceof ModelError) return e;
  if ((e as Error)?.name === "TimeoutError") {
    return new ModelError(`模型服务 ${policy.timeoutMs / 1000} 秒内没有回答完（HARNESS_TIMEOUT_MS）`, { retryable: true });
  }
  throw e;
}
