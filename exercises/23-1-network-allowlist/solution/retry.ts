// retry.ts：请求失败时重试。只重试“过一会儿可能就好”的错——429、5xx、连不上、流断了、超时；
// 401、404、坏 JSON 这种“再试也一样”的错立刻放弃。
// 第 12 章改动：每次尝试的 signal = 用户的中断 + 这次的超时；用户中断了就不再重试。
import { ModelError } from "./model.ts";

export interface RetryPolicy {
  retries: number; // 失败后最多再试几次
  baseMs: number; // 第一次重试前大约等多久，之后每次翻倍
  timeoutMs: number; // 单次请求（含整个流式回答）最长多久
}

const MAX_WAIT_MS = 60_000;

export async function withRetry<T>(policy: RetryPolicy, attempt: (signal: AbortSignal) => Promise<T>, interrupt?: AbortSignal): Promise<T> {
  for (let tries = 1; ; tries++) {
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    try {
      return await attempt(interrupt ? AbortSignal.any([interrupt, timeout]) : timeout);
    } catch (e) {
      if (interrupt?.aborted) throw interrupt.reason; // 用户不要了，就别再试
      const error = asModelError(e, policy);
      if (!error.retryable) throw error;
      if (policy.retries === 0) throw error;
      if (tries > policy.retries) throw new ModelError(`重试 ${policy.retries} 次后仍然失败：${error.message}`);
      // 服务端说了等多久就等多久（最多一分钟）；没说就指数退避：一群客户端同时被拒，不能再同时涌回来，所以加抖动
      const planned = Math.min(MAX_WAIT_MS, error.retryAfterMs ?? policy.baseMs * 2 ** (tries - 1));
      const why = error.retryAfterMs === undefined ? "" : "（服务端用 Retry-After 要求的）";
      console.error(`警告: ${error.message}——约 ${(planned / 1000).toFixed(1)} 秒后重试${why}（第 ${tries}/${policy.retries} 次）`);
      const wait = error.retryAfterMs === undefined ? planned * (0.5 + Math.random() / 2) : planned;
      await sleep(wait, interrupt);
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

// 等待也要能被 Ctrl-C 打断：不然用户按了中断，还得干等完这一轮退避
function sleep(ms: number, interrupt?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      interrupt?.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(interrupt!.reason);
    }
    interrupt?.addEventListener("abort", stop, { once: true });
  });
}
