# 探针：bash probe.sh 组 序号 总数 限额。开始、结束各往 probes-<组>.log 追加一行（一次一行，O_APPEND，不会交错），
# 检查器数日志里的先后：任何时刻“开始了还没结束”的有几个。开始那行写在进程起来之后、结束那行写在退出之前，
# 所以数出来的只会比真实的少，不会多——正确的实现数不出超过限额的。
g=$1 k=$2 total=$3 limit=$4
log=probes-$g.log
echo "start $k" >> "$log"
count() { grep -c "^$1 " "$log"; }
# 1. 等到同一组同时在跑的有 limit 个（或者这一组全都开始了）：守限额的实现一次就派出 limit 个，这一步马上就过。
#    一个一个跑的实现永远凑不齐：最多等 3 秒（只防卡死），记一行 stuck，同组后面的不再等
ok=""
for _ in $(seq 60); do
  grep -q '^stuck' "$log" && break
  if [ $(($(count start) - $(count end))) -ge "$limit" ] || [ "$(count start)" -ge "$total" ]; then ok=1; break; fi
  sleep 0.05
done
[ -n "$ok" ] || echo "stuck $k" >> "$log"
# 2. 奇数号（不是最后一个）等下一号先结束：完成的先后一定和调用的先后不同，按完成顺序交回结果的实现当场露馅。
#    其余的多留半秒：不守限额的实现这时早已派出了更多探针，日志里数得出来
if [ -n "$ok" ] && [ $((k % 2)) = 1 ] && [ "$k" -lt "$total" ]; then
  for _ in $(seq 200); do grep -qx "end $((k + 1))" "$log" && break; sleep 0.05; done
else
  sleep 0.5
fi
echo "end $k" >> "$log"
echo "探针 $g$k"
