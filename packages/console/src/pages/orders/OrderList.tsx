/** Placeholder while the page is built on a helper branch; replaced before this lands. */
export function OrderList() {
  return <p>OrderList</p>;
}
