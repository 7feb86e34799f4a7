// 场景起好的一个 TCP 监听端口（127.0.0.1，随机端口），看沙箱里的命令连不连得上它：
// 在 stderr 上报出地址 tcp://127.0.0.1:端口；有人连上来就说一句——那句话会出现在转录末尾，所以转录里没有它就是没人连上
import net from "node:net";

const server = net.createServer((socket) => {
  console.error("listener: 有人连上来了");
  socket.destroy();
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as net.AddressInfo;
  console.error(`tcp://127.0.0.1:${port}`);
});
