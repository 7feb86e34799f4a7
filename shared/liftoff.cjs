// 场景运行（Node 20，打好包的那一章）用 -r 预先加载的这一个文件，只为省 CPU，不改行为。
// fetch（undici）用编译成 WebAssembly 的 llhttp 解析 HTTP；Node 20 的 V8 每个进程都要在后台再用 TurboFan 把它优化编译一遍，
// 一次运行约 40 毫秒 CPU。命令行上加 --liftoff-only 能省掉它，可 V8 的标志一变，Node 自带的内置模块代码缓存就对不上号、整个作废，
// undici、http 这些内置模块每次都得从源码现编译。所以先按缓存把 undici 装进来（一个立刻被拒绝的 fetch），再在运行时打开这个标志：
// 之后编译的 wasm 只用基线编译器 Liftoff。
fetch().catch(() => {});
require("node:v8").setFlagsFromString("--liftoff-only");
