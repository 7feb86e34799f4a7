export function login() {
  // TODO: 修好登录
  return false;
}
// todo 小写的也算
