// proxy.ts：沙箱通向外面的唯一出口——一个只放行名单上主机的 HTTP(S) 代理，跑在 harness 进程里。
// 练习 23-1 新增。它听一个 Unix 套接字（挂进沙箱）；沙箱里的命令经 HTTP_PROXY 找到它。
// 两种请求：CONNECT host:port（HTTPS 走隧道，代理只看得到主机名）和 GET http://host/…（明文 HTTP）。只用标准库。
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { safeLine } from "./terminal.ts";

const MAX_HEAD = 64 * 1024; // 请求头最多这么长：一个不换行的客户端不该撑爆 harness 的内存

export interface Proxy {
  dir: string; // 套接字所在的目录：整个挂进沙箱
  socket: string;
}

// "example.com" 只放行它自己；"*.example.com" 放行它的子域名（不含 example.com 本身）。不区分大小写
export function allowedHost(host: string, allow: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allow.some((rule) => {
    const r = rule.toLowerCase();
    return r.startsWith("*.") ? h.endsWith(r.slice(1)) && h.length > r.length - 1 : h === r;
  });
}

// 启动代理；harness 退出时删掉套接字所在的目录。服务器 unref：没有命令在联网时，它不拖住 harness
export function startProxy(allow: string[], log: (line: string) => void): Promise<Proxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-proxy-"));
  const socket = path.join(dir, "proxy.sock");
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const server = net.createServer((client) => serve(client, allow, log));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => {
      server.unref();
      resolve({ dir, socket });
    });
  });
}

// 一个连接只服务一个请求：先攒够请求头，看清要去哪儿，再决定放不放行
function serve(client: net.Socket, allow: string[], log: (line: string) => void) {
  let head = Buffer.alloc(0);
  client.on("error", () => {});
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (head.length > MAX_HEAD) client.end(reply(431, "请求头太长"));
      return;
    }
    client.off("data", onData);
    const target = parseTarget(head.subarray(0, end).toString("latin1"));
    if (typeof target === "string") return void client.end(reply(400, target));
    // 放不放行看的是我们真要去连的那个主机，不是请求头里自称的 Host
    if (!allowedHost(target.host, allow)) {
      log(`[沙箱] 拒绝连接 ${safeLine(target.host)}：它不在 ~/.harness/settings.json 的 sandbox.network.allow 里`);
      return void client.end(reply(403, `沙箱不许连接 ${target.host}：它不在 ~/.harness/settings.json 的 sandbox.network.allow 里`));
    }
    const upstream = net.connect(target.port, target.host);
    upstream.on("error", (e: NodeJS.ErrnoException) => client.end(reply(502, `连不上 ${target.host}:${target.port}（${e.code ?? "出错"}）`)));
    upstream.once("connect", () => {
      upstream.removeAllListeners("error");
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
      if (target.tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else upstream.write(target.rewritten);
      const rest = head.subarray(end + 4);
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream).pipe(client);
    });
  };
  client.on("data", onData);
}

type Target = { host: string; port: number; tunnel: boolean; rewritten: Buffer };

// CONNECT host:port，或者 METHOD http://host[:port]/path：明文 HTTP 的请求行换回 /path 的写法再转给对方
function parseTarget(head: string): Target | string {
  const [line, ...headers] = head.split("\r\n");
  const m = line.match(/^([A-Z]+) (\S+) (HTTP\/1\.[01])$/);
  if (!m) return "看不懂的请求行";
  const [, method, uri, version] = m;
  if (method === "CONNECT") {
    const hp = uri.match(/^\[?([^\]]+?)\]?:(\d+)$/);
    return hp ? { host: hp[1], port: Number(hp[2]), tunnel: true, rewritten: Buffer.alloc(0) } : "CONNECT 要写成 主机:端口";
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "代理只收完整的 http:// 地址";
  }
  if (url.protocol !== "http:") return "明文代理只转 http://；https 请走 CONNECT";
  const rewritten = Buffer.from([`${method} ${url.pathname}${url.search} ${version}`, ...headers, "", ""].join("\r\n"), "latin1");
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80), tunnel: false, rewritten };
}

function reply(status: number, text: string): string {
  const body = Buffer.from(text + "\n");
  const reason: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large", 502: "Bad Gateway" };
  return `HTTP/1.1 ${status} ${reason[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${text}\n`;
}

// 沙箱里的那一头：听 127.0.0.1 的一个端口，每个连接转到挂进来的套接字，再带着 HTTP_PROXY 起真正的命令。
// 沙箱有自己的网络命名空间，只有回环；这段用 node -e 跑，不依赖任何文件（Node 20 也不用编译）
export const BRIDGE = `
const net = require("node:net"), { spawn } = require("node:child_process");
const [socket, command, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(socket);
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
  c.pipe(u).pipe(c);
});
server.listen(0, "127.0.0.1", () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url };
  const child = spawn(command, args, { stdio: "inherit", env });
  child.on("error", (e) => { console.error(command + ": " + e.code); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128));
});`;
