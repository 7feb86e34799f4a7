// 练习 23-1 的检查器起好的网站：127.0.0.1 上一个随机端口，在 stderr 上报出地址 http://127.0.0.1:端口。
// 谁连上来都回一句“来自允许的主机”加上请求的路径；带着请求体的（POST）再原样附上请求体——
// 检查器凭这句话知道命令到底连没连上它，也知道代理有没有把请求头后面的字节一起转过来
import http from "node:http";

const server = http.createServer((req, res) => {
  const body: Buffer[] = [];
  req.on("data", (chunk: Buffer) => body.push(chunk));
  req.on("end", () => {
    const text = Buffer.concat(body).toString("utf8");
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
    res.end(`来自允许的主机 ${req.url}${text ? ` ${text}` : ""}\n`);
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as import("node:net").AddressInfo;
  console.error(`http://127.0.0.1:${port}`);
});
